//! Property tests of the classes of hostile input issue 20 closed: kernels
//! sharing a name or symbol, `PT_LOAD` layouts, and control characters on
//! their way to a terminal. Each compares with an oracle written apart from
//! the code under test.

use crate::exec_support;

use std::io::Write;

use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::executable::plan::plan_raw_hsaco;
use amdgpu_hal::codeobj::loadable::check_loadable;
use amdgpu_hal::escape::{Escaped, TerminalWriter};
use amdgpu_hal::report::inspect::inspect;
use amdgpu_hal::wrapped::DeviceLimits;
use proptest::prelude::*;

const TARGET: &str = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";

/// A 64-byte gfx942 COV5 `ET_DYN` header with `phnum` program headers at 64.
fn header(phnum: u16) -> Vec<u8> {
    let mut h = vec![0u8; 64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = 2;
    h[5] = 1;
    h[6] = 1;
    h[7] = 64;
    h[8] = 3;
    h[16..18].copy_from_slice(&3u16.to_le_bytes());
    h[18..20].copy_from_slice(&224u16.to_le_bytes());
    h[20..24].copy_from_slice(&1u32.to_le_bytes());
    h[32..40].copy_from_slice(&64u64.to_le_bytes());
    h[48..52].copy_from_slice(&(0x04cu32 | 0xc00 | 0x200).to_le_bytes());
    h[52..54].copy_from_slice(&64u16.to_le_bytes());
    h[54..56].copy_from_slice(&56u16.to_le_bytes());
    h[56..58].copy_from_slice(&phnum.to_le_bytes());
    h
}

/// One generated `PT_LOAD`: where it lives in memory and how much of it
/// comes from the file (file bytes are always inside the file here).
#[derive(Clone, Debug)]
struct Load {
    vaddr: u64,
    memsz: u64,
    filesz: u64,
}

fn elf_with_loads(loads: &[Load]) -> Vec<u8> {
    let mut elf = header(loads.len() as u16);
    let data_at = 64 + 56 * loads.len() as u64;
    for load in loads {
        let mut phdr = vec![0u8; 56];
        phdr[..4].copy_from_slice(&1u32.to_le_bytes());
        phdr[8..16].copy_from_slice(&data_at.to_le_bytes());
        phdr[16..24].copy_from_slice(&load.vaddr.to_le_bytes());
        phdr[32..40].copy_from_slice(&load.filesz.to_le_bytes());
        phdr[40..48].copy_from_slice(&load.memsz.to_le_bytes());
        elf.extend_from_slice(&phdr);
    }
    // Enough file bytes for the largest p_filesz.
    let most = loads.iter().map(|l| l.filesz).max().unwrap_or(0);
    elf.resize((data_at + most) as usize, 0);
    elf
}

/// The oracle: every pair of segments, not just neighbours — sorted by
/// address in table order, disjoint (an empty one is disjoint from all),
/// each with no more file than memory.
fn loadable_by_pairs(loads: &[Load]) -> bool {
    if loads.is_empty() {
        return false;
    }
    loads.iter().all(|l| l.filesz <= l.memsz)
        && loads.iter().enumerate().all(|(i, a)| {
            loads.iter().skip(i + 1).all(|b| {
                let disjoint = a.memsz == 0
                    || b.memsz == 0
                    || a.vaddr + a.memsz <= b.vaddr
                    || b.vaddr + b.memsz <= a.vaddr;
                a.vaddr <= b.vaddr && disjoint
            })
        })
}

/// Segments on a small grid of addresses (so neighbours often touch,
/// overlap or come out of order), often empty, rarely with more file than
/// memory.
fn load() -> impl Strategy<Value = Load> {
    (0u64..8, prop_oneof![Just(0u64), 1u64..40])
        .prop_flat_map(|(slot, memsz)| {
            let filesz = prop_oneof![9 => 0..=memsz, 1 => Just(memsz + 1)];
            (Just(slot * 16), Just(memsz), filesz)
        })
        .prop_map(|(vaddr, memsz, filesz)| Load {
            vaddr,
            memsz,
            filesz,
        })
}

/// Which rule the oracle finds broken first, walking the segments in table
/// order: more file than memory, a start below the previous one, or an
/// overlap with any earlier segment (checked pair by pair).
fn first_violation(loads: &[Load]) -> Option<&'static str> {
    if loads.is_empty() {
        return Some("no PT_LOAD");
    }
    for (j, b) in loads.iter().enumerate() {
        if b.filesz > b.memsz {
            return Some("p_filesz");
        }
        if j > 0 && b.vaddr < loads[j - 1].vaddr {
            return Some("ascending");
        }
        let overlaps = |a: &Load| {
            a.memsz > 0 && b.memsz > 0 && a.vaddr < b.vaddr + b.memsz && b.vaddr < a.vaddr + a.memsz
        };
        if loads[..j].iter().any(overlaps) {
            return Some("overlap");
        }
    }
    None
}

/// Kernel names from a small alphabet, so repeats are common.
fn kernel_names() -> impl Strategy<Value = Vec<(String, String)>> {
    proptest::collection::vec((0u8..6, 0u8..6), 1..8).prop_map(|pairs| {
        pairs
            .into_iter()
            .map(|(n, s)| (format!("k{n}"), format!("s{s}.kd")))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn pt_load_layouts_are_accepted_exactly_when_ordered_and_disjoint(
        loads in proptest::collection::vec(load(), 0..6),
    ) {
        let elf = elf_with_loads(&loads);
        let result = check_loadable(&elf);
        prop_assert_eq!(result.is_ok(), loadable_by_pairs(&loads), "{:?}: {:?}", loads, result);
        match (result, first_violation(&loads)) {
            (Ok(()), None) => {}
            (Err(status), Some(rule)) => {
                prop_assert_eq!(status.code(), StatusCode::InvalidArgument);
                prop_assert!(status.mentions(rule), "{:?}: expected `{}`: {}", loads, rule, status);
            }
            (result, rule) => prop_assert!(false, "{:?}: {:?} vs {:?}", loads, result, rule),
        }
    }

    #[test]
    fn kernels_become_exports_only_when_names_and_symbols_are_unique(
        kernels in kernel_names(),
    ) {
        let pairs: Vec<(&str, &str)> =
            kernels.iter().map(|(n, s)| (n.as_str(), s.as_str())).collect();
        let data = exec_support::synthetic_hsaco_named(&pairs, Some(TARGET), Some([64, 1, 1]));
        let mut names: Vec<&str> = pairs.iter().map(|p| p.0).collect();
        let mut symbols: Vec<&str> = pairs.iter().map(|p| p.1).collect();
        names.sort_unstable();
        names.dedup();
        symbols.sort_unstable();
        symbols.dedup();
        let unique = names.len() == pairs.len() && symbols.len() == pairs.len();
        for (what, result) in [
            ("inspect", inspect(&data, &DeviceLimits::AMDGPU, &()).map(|r| r.exports.len())),
            ("plan", plan_raw_hsaco(&data, &DeviceLimits::AMDGPU).map(|p| p.reflection.export_count())),
        ] {
            match result {
                Ok(exports) => {
                    prop_assert!(unique, "{} accepted {:?}", what, pairs);
                    prop_assert_eq!(exports, pairs.len());
                }
                Err(status) => {
                    prop_assert!(!unique, "{} refused unique {:?}: {}", what, pairs, status);
                    prop_assert_eq!(status.code(), StatusCode::InvalidArgument);
                    prop_assert!(status.mentions("share the"), "{}", status);
                }
            }
        }
    }

    #[test]
    fn no_control_character_passes_the_terminal_writer(
        text in "\\PC*|[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}a-zé€]{0,40}",
        split in 0usize..64,
    ) {
        let bytes = text.as_bytes();
        let (a, b) = bytes.split_at(split.min(bytes.len()));
        let mut writer = TerminalWriter::new(Vec::new());
        writer.write_all(a).unwrap();
        writer.write_all(b).unwrap();
        let out = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        prop_assert!(!out.chars().any(|c| c.is_control() && c != '\n' && c != '\t'), "{:?}", out);
        // The oracle: escape each line on its own, keeping newlines and tabs.
        let expected: String = text
            .split_inclusive(['\n', '\t'])
            .map(|piece| {
                let (body, layout) = match piece.strip_suffix(['\n', '\t']) {
                    Some(body) => (body, &piece[body.len()..]),
                    None => (piece, ""),
                };
                format!("{}{layout}", Escaped(body))
            })
            .collect();
        prop_assert_eq!(out, expected);
    }
}
