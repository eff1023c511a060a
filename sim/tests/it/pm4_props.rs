//! The PM4 decoder never panics and stops at the first refusal: arbitrary
//! dwords, and streams of type-3 headers with the opcodes IREE emits and
//! random bodies and lengths, decode or are refused cleanly.

use amdgpu_sim::pm4::{Generation, Pm4Error, decode, indirect_buffer, packets};
use proptest::prelude::*;

/// The opcodes of IREE's PM4 (`util/pm4_emitter.h`) and a few others.
const OPCODES: &[u32] = &[
    0x10, 0x15, 0x16, 0x37, 0x3C, 0x3F, 0x40, 0x46, 0x49, 0x58, 0x76, 0x79, 0x93, 0x22, 0xFF,
];

fn generation() -> impl Strategy<Value = Generation> {
    prop_oneof![Just(Generation::Gfx9), Just(Generation::Gfx10Plus)]
}

/// A type-3 packet: Linux's `PACKET3(op, n)` header, `n + 1` random dwords.
fn packet() -> impl Strategy<Value = Vec<u32>> {
    (
        proptest::sample::select(OPCODES),
        0u32..10,
        proptest::collection::vec(any::<u32>(), 10),
        any::<bool>(),
    )
        .prop_map(|(op, n, body, compute)| {
            let mut p = vec![3 << 30 | op << 8 | n << 16 | u32::from(compute) << 1];
            p.extend(body.into_iter().take(n as usize + 1));
            p
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_dwords_never_panic(
        dwords in proptest::collection::vec(any::<u32>(), 0..64),
        generation in generation(),
    ) {
        let _ = decode(&dwords, generation);
        let jump: [u32; 4] = std::array::from_fn(|i| dwords.get(i).copied().unwrap_or(0));
        let _ = indirect_buffer(jump);
    }

    #[test]
    fn packet_streams_decode_or_stop_at_the_first_refusal(
        stream in proptest::collection::vec(packet(), 0..12),
        cut in 0usize..80,
        generation in generation(),
    ) {
        let mut dwords: Vec<u32> = stream.concat();
        dwords.truncate(cut.min(dwords.len()));
        let results: Vec<_> = packets(&dwords, generation).collect();
        // At most one packet per two dwords, and nothing after a refusal.
        prop_assert!(results.len() <= dwords.len().div_ceil(2));
        if let Some(at) = results.iter().position(Result::is_err) {
            prop_assert_eq!(at, results.len() - 1);
        }
        match decode(&dwords, generation) {
            Ok(commands) => prop_assert!(results.iter().all(Result::is_ok) && commands.len() <= dwords.len() / 2),
            Err(Pm4Error::Malformed(m) | Pm4Error::NotModelled(m)) => prop_assert!(m.contains("dword")),
        }
    }
}
