//! A large kernel array decoded on two threads (`visit_notes_split`) gives
//! what one thread gives (`visit_notes`): the same kernels in the same order
//! and, on a bad input, the same error — whether the second thread's guess
//! of where to start was joined, refused or never met.

use amdgpu_hal::codeobj::metadata::{
    KernelMetadata, KernelNames, KernelVisitor, MetadataHeader, SPLIT_MIN_KERNELS,
    SPLIT_SEARCH_BYTES, SplitKernelVisitor, SymbolIndex, visit_notes, visit_notes_split,
};
use amdgpu_hal::{Result, StatusCode};
use proptest::prelude::*;

use crate::support::{Pack, elf_with_metadata};

/// What the visitor kept of each kernel.
type Seen = (String, String, usize, Option<[u32; 3]>);

/// Keeps each kernel's symbol, export name, argument count and required
/// workgroup size; refuses a repeated name or symbol (as every path that
/// turns kernels into exports does); counts the parts it joined. A kernel
/// whose name starts with `placed` stands for a report that names its own
/// index: a part holding one is declined.
#[derive(Debug, Default)]
struct Recorder<'a> {
    kernels: Vec<Seen>,
    names: KernelNames<'a>,
    placed: bool,
    joins: usize,
    declined: usize,
}

impl<'a> KernelVisitor<'a> for Recorder<'a> {
    fn kernel(&mut self, kernel: KernelMetadata<'a>) -> Result<()> {
        self.names.insert(&kernel)?;
        self.placed |= kernel.reflection_name.starts_with("placed");
        self.kernels.push((
            kernel.symbol.to_owned(),
            kernel.reflection_name.to_owned(),
            kernel.args.len(),
            kernel.reqd_workgroup_size,
        ));
        Ok(())
    }
}

thread_local! {
    /// The room the last `fork` on this thread was asked for.
    static FORK_ROOM: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl<'a> SplitKernelVisitor<'a> for Recorder<'a> {
    fn fork(&self, kernels: usize) -> Self {
        FORK_ROOM.set(kernels);
        Recorder {
            names: self.names.fork(0),
            ..Recorder::default()
        }
    }

    fn join(&mut self, mut tail: Self, first: usize) -> Result<bool> {
        assert_eq!(first, self.kernels.len(), "joined after the head's kernels");
        if tail.placed {
            self.declined += 1;
            return Ok(false);
        }
        self.names.join(tail.names)?;
        self.kernels.append(&mut tail.kernels);
        self.joins += 1;
        Ok(true)
    }
}

/// One generated kernel.
#[derive(Clone, Debug)]
struct Kernel {
    name: String,
    symbol: String,
    args: u32,
    reqd: Option<[u32; 3]>,
    /// Bytes carried in an unknown key's string (a kernel map hidden in a
    /// string: a false start for the second thread).
    payload: Option<Vec<u8>>,
    /// Missing `.symbol`: a decoding error.
    broken: bool,
    /// Unknown keys added (from 8 pairs up the map is a map16, as LLVM's
    /// kernels of about 20 keys are).
    extra: u32,
    /// The last argument a 4-byte `global_buffer`: IREE's projection
    /// refuses it after taking the others.
    refused: bool,
}

fn kernel(i: usize) -> Kernel {
    Kernel {
        name: format!("k{i}"),
        symbol: format!("k{i}.kd"),
        args: (i % 4) as u32,
        reqd: i.is_multiple_of(3).then_some([64, 1, 1]),
        payload: None,
        broken: false,
        extra: 0,
        refused: false,
    }
}

fn encode_kernel(p: &mut Pack, k: &Kernel) {
    let pairs = 8 + u32::from(k.reqd.is_some()) + u32::from(k.payload.is_some()) + k.extra
        - u32::from(k.broken);
    p.map(pairs).field_str(".name", &k.name);
    for x in 0..k.extra {
        p.field_uint(&format!(".x_extra{x}"), x.into());
    }
    if !k.broken {
        p.field_str(".symbol", &k.symbol);
    }
    p.field_uint(".kernarg_segment_size", 8 * u64::from(k.args))
        .field_uint(".kernarg_segment_align", 8)
        .field_uint(".group_segment_fixed_size", 0)
        .field_uint(".private_segment_fixed_size", 0)
        .field_uint(".sgpr_count", 12);
    if let Some([x, y, z]) = k.reqd {
        p.str(".reqd_workgroup_size")
            .array(3)
            .uint(x.into())
            .uint(y.into())
            .uint(z.into());
    }
    if let Some(payload) = &k.payload {
        p.str(".x_payload");
        rmp::encode::write_bin(&mut p.0, payload).unwrap();
    }
    p.str(".args").array(k.args);
    for a in 0..k.args {
        p.map(5)
            .field_str(".name", &format!("a{a}"))
            .field_uint(".offset", 8 * u64::from(a))
            .field_uint(".size", if k.refused && a + 1 == k.args { 4 } else { 8 })
            .field_str(".value_kind", "global_buffer")
            .field_str(".address_space", "global");
    }
}

/// The root map: the kernels, then the target and version (LLVM's order).
fn blob(kernels: &[Kernel]) -> Vec<u8> {
    let mut p = Pack::default();
    p.map(3).str("amdhsa.kernels").array(kernels.len() as u32);
    for k in kernels {
        encode_kernel(&mut p, k);
    }
    p.field_str("amdhsa.target", "amdgcn-amd-amdhsa--gfx942");
    p.str("amdhsa.version").array(2).uint(1).uint(2);
    p.0
}

/// A kernel map on its own, to hide in a payload.
fn hidden_kernel() -> Vec<u8> {
    let mut p = Pack::default();
    encode_kernel(&mut p, &kernel(999_999));
    p.0
}

type Outcome = std::result::Result<Vec<Seen>, (StatusCode, String)>;

/// One thread's answer and the two threads' answer, with the split
/// visitor's join and decline counts.
fn both(metadata: &[u8]) -> (Outcome, Outcome, usize, usize) {
    let outcome = |result: Result<MetadataHeader<'_>>, recorder: Recorder<'_>| {
        result
            .map(|header| {
                assert_eq!(header.kernel_count, recorder.kernels.len());
                recorder.kernels
            })
            .map_err(|status| (status.code(), status.to_string()))
    };
    let mut serial = Recorder::default();
    let one = visit_notes(&[metadata], &mut serial);
    let one = outcome(one, serial);
    let mut split = Recorder::default();
    let two = visit_notes_split(&[metadata], &mut split, &());
    let (joins, declined) = (split.joins, split.declined);
    (one, outcome(two, split), joins, declined)
}

const N: usize = SPLIT_MIN_KERNELS * 2;

#[test]
fn a_valid_array_is_joined_and_matches_one_thread() {
    let kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    let (one, two, joins, declined) = both(&blob(&kernels));
    let one = one.expect("valid");
    assert_eq!(one.len(), N);
    assert_eq!(one.first().map(|k| k.0.as_str()), Some("k0.kd"));
    assert_eq!(
        one.last().map(|k| k.1.as_str()),
        Some(format!("k{}", N - 1).as_str())
    );
    assert_eq!(Ok(one), two);
    assert_eq!(
        (joins, declined),
        (1, 0),
        "the second thread's part was used"
    );
}

#[test]
fn an_array_of_exactly_the_threshold_is_split() {
    let kernels: Vec<Kernel> = (0..SPLIT_MIN_KERNELS).map(kernel).collect();
    let (one, two, joins, _) = both(&blob(&kernels));
    assert!(one.is_ok());
    assert_eq!(one, two);
    assert_eq!(joins, 1);
}

#[test]
fn the_search_passes_over_a_long_string_to_the_next_kernel() {
    // The middle falls inside 8 KiB of zeros (no map in them): the second
    // thread searches past them, within SPLIT_SEARCH_BYTES, to the kernel
    // after, and is joined.
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    kernels[N / 2].payload = Some(vec![0; 8 << 10]);
    let metadata = blob(&kernels);
    let payload = metadata
        .windows(8 << 10)
        .position(|w| w.iter().all(|&b| b == 0))
        .unwrap();
    let payload_end = payload + (8 << 10);
    let middle = metadata.len() / 2;
    assert!(
        (payload..payload_end).contains(&middle),
        "the middle is inside"
    );
    assert!(payload_end - middle < SPLIT_SEARCH_BYTES);
    let (one, two, joins, _) = both(&metadata);
    assert!(one.is_ok());
    assert_eq!(one, two);
    assert_eq!(joins, 1);
}

#[test]
fn the_search_skips_argument_maps_to_the_next_kernel_map() {
    // LLVM's shape: kernel maps of about 20 keys (map16 headers); around
    // the middle, kernels of 40 arguments each, so that the search starts
    // among argument maps, which look like kernel maps until decoded, and
    // tries several before it meets the next kernel.
    let mut kernels: Vec<Kernel> = (0..N)
        .map(|i| Kernel {
            extra: 12,
            ..kernel(i)
        })
        .collect();
    for k in &mut kernels[N / 2 - 8..N / 2 + 8] {
        k.args = 40;
    }
    let metadata = blob(&kernels);
    assert!(metadata.contains(&0xde), "map16 kernel maps");
    let (one, two, joins, _) = both(&metadata);
    assert_eq!(one.as_ref().map(Vec::len), Ok(N));
    assert_eq!(one, two);
    assert_eq!(joins, 1);
}

#[test]
fn no_kernel_within_the_search_leaves_one_thread_to_do_it_all() {
    // The middle falls inside more zeros than the search covers: the
    // second thread finds no kernel, says so, and the first goes on.
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    kernels[N / 2].payload = Some(vec![0; 4 * SPLIT_SEARCH_BYTES]);
    let (one, two, joins, declined) = both(&blob(&kernels));
    assert_eq!(one.as_ref().map(Vec::len), Ok(N));
    assert_eq!(one, two);
    assert_eq!((joins, declined), (0, 0));
}

#[test]
fn the_room_asked_for_is_what_the_bytes_could_hold_not_what_the_count_claims() {
    // An array claiming as many kernels as it has bytes (the reader's own
    // bound: one byte an element), 200 real ones and then padding.
    let mut body = Pack::default();
    for i in 0..200 {
        encode_kernel(&mut body, &kernel(i));
    }
    body.raw(&vec![0xc0; 64 << 10]);
    let claim = body.0.len() as u32 - 16;
    let mut p = Pack::default();
    p.map(1).str("amdhsa.kernels").array(claim).raw(&body.0);
    let metadata = p.0;
    let (one, two, ..) = both(&metadata);
    assert!(one.is_err());
    assert_eq!(one, two);
    let room = FORK_ROOM.get();
    // About what the bytes could hold: at most one kernel per 64 bytes,
    // and not much less than that (the cap, not some other small number).
    assert!(
        room >= metadata.len() / 128 && room <= metadata.len() / 64,
        "asked for {room} of {claim}"
    );
}

#[test]
fn an_array_under_the_threshold_is_decoded_by_one_thread() {
    let kernels: Vec<Kernel> = (0..SPLIT_MIN_KERNELS - 1).map(kernel).collect();
    let (one, two, joins, declined) = both(&blob(&kernels));
    assert!(one.is_ok());
    assert_eq!(one, two);
    assert_eq!((joins, declined), (0, 0));
}

#[test]
fn a_name_repeated_across_the_halves_fails_as_one_thread_fails() {
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    kernels[N - 3].name = "k5".into();
    kernels[N - 2].symbol = "k7.kd".into();
    let (one, two, ..) = both(&blob(&kernels));
    let (code, message) = one.clone().expect_err("a repeated name");
    assert_eq!(code, StatusCode::InvalidArgument);
    assert!(
        message.contains(&format!(
            "kernels 5 and {} share the export name `k5`",
            N - 3
        )),
        "{message}"
    );
    assert_eq!(one, two);
}

#[test]
fn the_first_repeat_wins_whichever_table_holds_it() {
    // Kernel N-4 repeats a symbol, kernel N-2 a name: N-4 comes first.
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    kernels[N - 4].symbol = "k1.kd".into();
    kernels[N - 2].name = "k0".into();
    let (one, two, ..) = both(&blob(&kernels));
    let (_, message) = one.clone().expect_err("a repeated symbol");
    assert!(
        message.contains(&format!("kernels 1 and {} share the symbol `k1.kd`", N - 4)),
        "{message}"
    );
    assert_eq!(one, two);
}

#[test]
fn an_error_in_the_second_half_is_one_threads_error() {
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    kernels[N - 10].broken = true;
    let (one, two, joins, _) = both(&blob(&kernels));
    let (code, message) = one.clone().expect_err("a kernel without a symbol");
    assert_eq!(code, StatusCode::InvalidArgument);
    assert!(message.contains("missing required fields"), "{message}");
    assert!(message.contains(&format!("kernel {}", N - 10)), "{message}");
    assert_eq!(one, two);
    assert_eq!(joins, 0);
}

#[test]
fn a_part_that_names_its_indices_is_declined_and_decoded_again() {
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    kernels[N - 1].name = "placed".into();
    let (one, two, joins, declined) = both(&blob(&kernels));
    assert!(one.is_ok());
    assert_eq!(one, two);
    assert_eq!((joins, declined), (0, 1));
}

#[test]
fn a_kernel_map_hidden_in_a_string_is_a_false_start_and_changes_nothing() {
    // The middle kernel carries as many bytes of kernel maps as all the
    // rest: the middle of the note falls among them, so the second thread
    // starts inside a byte string, where the first never meets it.
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    let rest = blob(&kernels).len();
    let hidden = hidden_kernel();
    kernels[N / 2].payload = Some(hidden.repeat(rest / hidden.len() + 1));
    let (one, two, joins, declined) = both(&blob(&kernels));
    let one = one.expect("valid");
    assert_eq!(one.len(), N, "the hidden maps are no kernels");
    assert_eq!(Ok(one), two);
    assert_eq!(
        (joins, declined),
        (0, 0),
        "the false start was never joined"
    );
}

#[test]
fn trailing_bytes_after_the_root_fail_as_one_thread_fails() {
    let kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    let mut metadata = blob(&kernels);
    metadata.push(0xc0);
    let (one, two, ..) = both(&metadata);
    assert!(one.clone().unwrap_err().1.contains("trailing"), "{one:?}");
    assert_eq!(one, two);
}

#[test]
fn a_kernel_map_as_the_next_root_key_fails_as_one_thread_fails() {
    // After the array, where a key belongs, a map that decodes as a kernel
    // with kernel 3's name and the last kernel's symbol: the second
    // thread's visitor records the name (new to its part), then refuses
    // the symbol (its own last kernel's). Joined, that stray name would
    // repeat kernel 3's; the answer must be one thread's instead, a key
    // that is not a string.
    let kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    let mut p = Pack::default();
    p.map(2).str("amdhsa.kernels").array(N as u32);
    for k in &kernels {
        encode_kernel(&mut p, k);
    }
    let bogus = Kernel {
        name: "k3".into(),
        symbol: format!("k{}.kd", N - 1),
        ..kernel(9)
    };
    encode_kernel(&mut p, &bogus);
    p.uint(0);
    let (one, two, joins, _) = both(&p.0);
    let (_, message) = one.clone().expect_err("a map where a key belongs");
    assert!(!message.contains("share"), "{message}");
    assert_eq!(one, two);
    assert_eq!(
        joins, 0,
        "a part whose visitor refused a kernel is not joined"
    );
}

/// A kernel with only its names set.
fn named(name: &'static str, symbol: &'static str) -> KernelMetadata<'static> {
    KernelMetadata {
        name: Some(name),
        symbol,
        reflection_name: name,
        language: None,
        kernarg_segment_size: 0,
        kernarg_segment_align: 8,
        group_segment_fixed_size: 0,
        private_segment_fixed_size: 0,
        wavefront_size: None,
        sgpr_count: None,
        vgpr_count: None,
        agpr_count: None,
        sgpr_spill_count: None,
        vgpr_spill_count: None,
        max_flat_workgroup_size: None,
        reqd_workgroup_size: None,
        workgroup_size_hint: None,
        uses_dynamic_stack: None,
        args: Vec::new(),
    }
}

#[test]
fn kernel_names_count_on_after_a_join() {
    // Kernels 0-2 here, 3-5 in the joined part (counted 0-2 there), then
    // kernel 6 repeats kernel 1's name: named by the indices one record
    // would give (a later note's kernels go on from the joined count).
    let mut head = KernelNames::default();
    for (name, symbol) in [("a", "a.kd"), ("b", "b.kd"), ("c", "c.kd")] {
        head.insert(&named(name, symbol)).unwrap();
    }
    let mut tail = head.fork(3);
    for (name, symbol) in [("d", "d.kd"), ("e", "e.kd"), ("f", "f.kd")] {
        tail.insert(&named(name, symbol)).unwrap();
    }
    head.join(tail).unwrap();
    let error = head.insert(&named("b", "g.kd")).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("kernels 1 and 6 share the export name `b`"),
        "{error}"
    );
    // The joined part's own names are there too, under their new indices.
    let error = head.insert(&named("h", "e.kd")).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("kernels 4 and 7 share the symbol `e.kd`"),
        "{error}"
    );
}

#[test]
fn a_second_join_checks_the_first_joined_part_too() {
    // Kernels 0-1 here, 2-3 joined, then 4-5 joined: kernel 5 repeats
    // kernel 3's symbol, which the first joined part still holds apart.
    let mut head = KernelNames::default();
    for (name, symbol) in [("a", "a.kd"), ("b", "b.kd")] {
        head.insert(&named(name, symbol)).unwrap();
    }
    let part = |names: [(&'static str, &'static str); 2], head: &KernelNames<'static>| {
        let mut part = head.fork(2);
        for (name, symbol) in names {
            part.insert(&named(name, symbol)).unwrap();
        }
        part
    };
    let first = part([("c", "c.kd"), ("d", "d.kd")], &head);
    head.join(first).unwrap();
    let second = part([("e", "e.kd"), ("f", "d.kd")], &head);
    let error = head.join(second).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("kernels 3 and 5 share the symbol `d.kd`"),
        "{error}"
    );
    // Without the repeat, both parts count on: kernel 6 repeats kernel 4.
    let mut head = KernelNames::default();
    head.insert(&named("a", "a.kd")).unwrap();
    head.insert(&named("b", "b.kd")).unwrap();
    let first = part([("c", "c.kd"), ("d", "d.kd")], &head);
    head.join(first).unwrap();
    let second = part([("e", "e.kd"), ("f", "f.kd")], &head);
    head.join(second).unwrap();
    let error = head.insert(&named("e", "g.kd")).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("kernels 4 and 6 share the export name `e`"),
        "{error}"
    );
}

/// The first repeat among `kernels` (name, symbol), as a pairwise check
/// finds it: the lowest kernel index, its name before its symbol.
fn pairwise_first_repeat(kernels: &[(&str, &str)]) -> Option<String> {
    (0..kernels.len()).find_map(|j| {
        let (name, symbol) = kernels[j];
        let earlier = |symbols: bool, what: &str, text: &str| {
            (0..j)
                .find(|&i| if symbols { kernels[i].1 } else { kernels[i].0 } == text)
                .map(|i| format!("kernels {i} and {j} share the {what} `{text}`;"))
        };
        earlier(false, "export name", name).or_else(|| earlier(true, "symbol", symbol))
    })
}

/// Names and symbols from a few that an implied symbol (`name.kd`), an
/// explicit `.kd` one and a symbol without `.kd` can all meet.
const TRIAL_NAMES: [&str; 4] = ["a", "b", "c", "a.kd"];
const TRIAL_SYMBOLS: [&str; 7] = ["a.kd", "b.kd", "c.kd", "a", "b", "a.kd.kd", "x"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Inserted in turn, or in parts forked and joined (twice, so that a
    /// joined part is merged before the next is checked), the record
    /// refuses exactly the kernel a pairwise check would, naming the same
    /// two kernels and key.
    #[test]
    fn kernel_names_refuse_the_first_repeat_a_pairwise_check_finds(
        picks in proptest::collection::vec((0..TRIAL_NAMES.len(), 0..TRIAL_SYMBOLS.len()), 0..10),
        cuts in any::<[prop::sample::Index; 3]>(),
    ) {
        let kernels: Vec<(&'static str, &'static str)> =
            picks.iter().map(|&(n, s)| (TRIAL_NAMES[n], TRIAL_SYMBOLS[s])).collect();
        let mut cuts = cuts.map(|cut| cut.index(kernels.len() + 1));
        cuts.sort();
        let [s, t, u] = cuts;
        // Ok(true) when the step failed as expected (the record stops there).
        let check = |result: Result<()>, expected: Option<String>| -> std::result::Result<bool, TestCaseError> {
            match (result, expected) {
                (Ok(()), None) => Ok(false),
                (Err(error), Some(expected)) => {
                    prop_assert_eq!(error.code(), StatusCode::InvalidArgument);
                    prop_assert!(error.to_string().contains(&expected), "{} against {}", error, expected);
                    Ok(true)
                }
                (result, expected) => {
                    prop_assert!(false, "{:?} where a pairwise check gives {:?}", result, expected);
                    unreachable!()
                }
            }
        };
        let mut head = KernelNames::default();
        for k in 0..s {
            if check(head.insert(&named(kernels[k].0, kernels[k].1)), pairwise_first_repeat(&kernels[..=k]))? {
                return Ok(());
            }
        }
        for (from, to) in [(s, t), (t, u)] {
            let mut part = head.fork(to - from);
            for k in from..to {
                // A part numbers its kernels from 0.
                let result = part.insert(&named(kernels[k].0, kernels[k].1));
                if check(result, pairwise_first_repeat(&kernels[from..=k]))? {
                    return Ok(());
                }
            }
            if check(head.join(part), pairwise_first_repeat(&kernels[..to]))? {
                return Ok(());
            }
        }
        for k in u..kernels.len() {
            if check(head.insert(&named(kernels[k].0, kernels[k].1)), pairwise_first_repeat(&kernels[..=k]))? {
                return Ok(());
            }
        }
    }
}

#[test]
fn symbol_indices_join_as_if_inserted_in_turn() {
    let mut head = SymbolIndex::default();
    head.insert("a", 0);
    head.insert("b", 1);
    let mut tail = head.fork(4);
    tail.insert("b", 0); // kernel 2: repeats the head's
    tail.insert("c", 1); // kernel 3
    tail.insert("c", 2); // kernel 4: repeats the tail's
    tail.insert("d", 3); // kernel 5
    head.join(tail, 2);
    assert_eq!(head.get("a").unwrap(), 0);
    assert_eq!(head.get("d").unwrap(), 5);
    for repeated in ["b", "c"] {
        let error = head.get(repeated).unwrap_err();
        assert_eq!(error.code(), StatusCode::FailedPrecondition, "{error}");
        assert!(
            error.to_string().contains("duplicate kernel symbol"),
            "{error}"
        );
    }
    assert_eq!(
        head.get("e").unwrap_err().code(),
        StatusCode::NotFound,
        "a name neither part has"
    );
}

/// The through-the-binary check: a raw HSACO of many kernels, one of which
/// repeats an earlier name from the second half.
#[test]
fn inspect_of_a_large_object_reports_the_repeat_by_its_indices() {
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    kernels[N - 5].name = "k2".into();
    let elf = elf_with_metadata(&blob(&kernels));
    let error = amdgpu_hal::wrapped::inspect(&elf, &amdgpu_hal::wrapped::DeviceLimits::AMDGPU)
        .expect_err("a repeated name");
    assert!(
        error.to_string().contains(&format!(
            "kernels 2 and {} share the export name `k2`",
            N - 5
        )),
        "{error}"
    );
    kernels[N - 5].name = format!("k{}", N - 5);
    let elf = elf_with_metadata(&blob(&kernels));
    let report = amdgpu_hal::wrapped::inspect(&elf, &amdgpu_hal::wrapped::DeviceLimits::AMDGPU)
        .expect("valid");
    let names: Vec<&str> = report.exports.iter().map(|e| e.name).collect();
    let expected: Vec<String> = (0..N).map(|i| format!("k{i}")).collect();
    assert_eq!(names, expected);
}

/// The JSON `inspect --json` writes from the two threads' runs, unjoined:
/// the exports in metadata order, the bytes of the gathered report's
/// document and of serde's pretty printer.
#[test]
fn inspect_json_of_a_large_object_is_written_from_its_two_runs() {
    use amdgpu_hal::wrapped::{DeviceLimits, inspect_runs};
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    // Names to escape, in both halves (written from the runs' name copies).
    kernels[3].name = "quo\"te".into();
    kernels[N - 2].name = "é\u{7f}\\".into();
    let elf = elf_with_metadata(&blob(&kernels));
    let inspected = inspect_runs(&elf, &DeviceLimits::AMDGPU, &()).expect("valid");
    assert_eq!((inspected.run_count(), inspected.export_count()), (2, N));
    let names: Vec<&str> = inspected.exports().map(|e| e.name).collect();
    let expected: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, expected);
    let mut from_runs = Vec::new();
    inspected.write_json_with(&mut from_runs, &()).unwrap();
    let report = inspected.into_report();
    let mut gathered = Vec::new();
    report.write_json(&mut gathered).unwrap();
    assert_eq!(from_runs, gathered);
    let json = String::from_utf8(from_runs).unwrap();
    assert!(
        json.contains(r#""name": "quo\"te","#),
        "escaped from the copy"
    );
    assert!(
        json.contains(r#""name": "é\u007f\\","#),
        "DEL escaped, as everywhere"
    );
    // serde leaves DEL as it is: the same document once it is escaped.
    let serde = serde_json::to_string_pretty(&report).unwrap();
    assert_eq!(json, serde.replace('\u{7f}', "\\u007f"));
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(parsed["exports"][N - 1]["parameters"][0]["name"], "a0");
    // A refused projection lists none of the parameters it took before
    // refusing, in either run; its neighbours keep theirs.
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    for i in [5, N - 5] {
        kernels[i].args = 3;
        kernels[i].refused = true;
    }
    let elf = elf_with_metadata(&blob(&kernels));
    let inspected = inspect_runs(&elf, &DeviceLimits::AMDGPU, &()).expect("valid");
    assert_eq!(inspected.run_count(), 2);
    let mut json = Vec::new();
    inspected.write_json_with(&mut json, &()).unwrap();
    let parsed: serde_json::Value = serde_json::from_slice(&json).unwrap();
    for i in [5, N - 5] {
        let export = &parsed["exports"][i];
        assert_eq!(export["parameters"], serde_json::json!([]), "kernel {i}");
        let reason = export["hal_error"].as_str().unwrap();
        assert!(
            reason.starts_with("INVALID_ARGUMENT")
                && reason.contains("global_buffer argument 2 has unsupported size 4"),
            "{reason}"
        );
        for neighbour in [i - 1, i + 1] {
            let listed = parsed["exports"][neighbour]["parameters"]
                .as_array()
                .unwrap();
            assert_eq!(listed.len(), neighbour % 4, "kernel {neighbour}");
        }
    }
    let report = inspected.into_report();
    assert!(report.exports[5].parameters.is_empty());
    assert_eq!(report.exports[6].parameters.len(), 2);
    // Under the threshold: one thread, one run.
    let few: Vec<Kernel> = (0..SPLIT_MIN_KERNELS - 1).map(kernel).collect();
    let elf = elf_with_metadata(&blob(&few));
    let inspected = inspect_runs(&elf, &DeviceLimits::AMDGPU, &()).expect("valid");
    assert_eq!(
        (inspected.run_count(), inspected.export_count()),
        (1, few.len())
    );
}

#[derive(Clone, Debug)]
enum Flaw {
    None,
    RepeatName { of: usize, at: usize },
    RepeatSymbol { of: usize, at: usize },
    Broken(usize),
    Placed(usize),
    Hidden { from: usize },
    Trailing,
}

fn flaw(count: usize) -> impl Strategy<Value = Flaw> {
    let index = 0..count;
    prop_oneof![
        Just(Flaw::None),
        (index.clone(), index.clone()).prop_map(|(a, b)| Flaw::RepeatName {
            of: a.min(b),
            at: a.max(b)
        }),
        (index.clone(), index.clone()).prop_map(|(a, b)| Flaw::RepeatSymbol {
            of: a.min(b),
            at: a.max(b)
        }),
        index.clone().prop_map(Flaw::Broken),
        index.clone().prop_map(Flaw::Placed),
        index.prop_map(|from| Flaw::Hidden { from }),
        Just(Flaw::Trailing),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever the flaws and wherever they fall, two threads answer as one.
    #[test]
    fn two_threads_answer_as_one(
        (count, flaws) in (SPLIT_MIN_KERNELS..SPLIT_MIN_KERNELS * 3)
            .prop_flat_map(|count| (Just(count), prop::collection::vec(flaw(count), 0..3)))
    ) {
        let mut kernels: Vec<Kernel> = (0..count).map(kernel).collect();
        let mut trailing = false;
        for flaw in &flaws {
            match *flaw {
                Flaw::None => {}
                Flaw::RepeatName { of, at } if of != at => kernels[at].name = format!("k{of}"),
                Flaw::RepeatSymbol { of, at } if of != at => {
                    kernels[at].symbol = format!("k{of}.kd")
                }
                Flaw::RepeatName { .. } | Flaw::RepeatSymbol { .. } => {}
                Flaw::Broken(at) => kernels[at].broken = true,
                Flaw::Placed(at) => kernels[at].name = format!("placed{at}"),
                Flaw::Hidden { from } => {
                    for k in &mut kernels[from..] {
                        k.payload = Some(hidden_kernel());
                    }
                }
                Flaw::Trailing => trailing = true,
            }
        }
        let mut metadata = blob(&kernels);
        if trailing {
            metadata.push(0xc0);
        }
        let (one, two, ..) = both(&metadata);
        prop_assert_eq!(one, two);
    }
}

#[test]
fn symbol_indices_know_whether_any_symbol_repeats() {
    let mut head = SymbolIndex::default();
    head.insert("a", 0);
    head.insert("b", 1);
    assert!(!head.has_repeats());
    let part = |symbols: &[&'static str]| {
        let mut tail = head.fork(symbols.len());
        for (i, symbol) in symbols.iter().enumerate() {
            tail.insert(symbol, i);
        }
        tail
    };
    let joined = |tail: SymbolIndex<'static>| {
        let mut whole = head.clone();
        whole.join(tail, 2);
        whole.has_repeats()
    };
    assert!(!joined(part(&["c", "d"])), "no symbol in both parts");
    assert!(joined(part(&["c", "b"])), "the tail repeats the head's");
    let repeating = part(&["c", "c"]);
    assert!(repeating.has_repeats());
    assert!(joined(repeating), "the tail repeats its own");
    head.insert("a", 2);
    assert!(head.has_repeats(), "a repeat inserted in turn");
}

/// An `AMD1` executable wrapping a large object: exports in metadata order
/// (as IREE's compiler and `pack` write them) and reversed resolve to their
/// kernels alike, and a symbol two kernels share, one in each thread's
/// part, is refused however the exports are ordered.
#[test]
fn amd1_exports_resolve_in_either_order_and_never_to_a_shared_symbol() {
    use amdgpu_hal::wrapped::builder::{BindingBits, ExecutableSpec, ExportSpec, build_amd1};
    use amdgpu_hal::wrapped::{DeviceLimits, inspect};
    let wrap = |kernels: &[Kernel], order: &mut dyn Iterator<Item = usize>| {
        let image = elf_with_metadata(&blob(kernels));
        let exports = order
            .map(|i| ExportSpec {
                symbol_name: format!("k{i}.kd"),
                workgroup_size: Some([64, 1, 1]),
                constant_count: 0,
                binding_flags: vec![BindingBits::empty(); kernels[i].args as usize],
                debug: None,
            })
            .collect();
        build_amd1(&ExecutableSpec {
            isa: Some("gfx942".into()),
            exports,
            images: vec![&image],
            source_files: vec![],
        })
        .unwrap()
    };
    let symbols = |data: &[u8]| -> Vec<String> {
        let report = inspect(data, &DeviceLimits::AMDGPU).unwrap();
        report.exports.iter().map(|e| e.symbol.to_owned()).collect()
    };
    let mut kernels: Vec<Kernel> = (0..N).map(kernel).collect();
    let in_order: Vec<String> = (0..N).map(|i| format!("k{i}.kd")).collect();
    assert_eq!(symbols(&wrap(&kernels, &mut (0..N))), in_order);
    let reversed: Vec<String> = in_order.iter().rev().cloned().collect();
    assert_eq!(symbols(&wrap(&kernels, &mut (0..N).rev())), reversed);
    // Kernel N-5 (in the second thread's part) takes kernel 2's symbol;
    // the exports still name k0..k(N-1) in order, kernel N-5's own
    // symbol now belonging to none.
    kernels[N - 5].symbol = "k2.kd".into();
    for order in [
        &mut (0..N) as &mut dyn Iterator<Item = usize>,
        &mut (0..N).rev(),
    ] {
        let data = wrap(&kernels, &mut order.filter(|&i| i != N - 5));
        let error = inspect(&data, &DeviceLimits::AMDGPU).expect_err("a shared symbol");
        assert_eq!(error.code(), StatusCode::FailedPrecondition, "{error}");
        assert!(
            error
                .to_string()
                .contains("duplicate kernel symbol `k2.kd`"),
            "{error}"
        );
    }
}
