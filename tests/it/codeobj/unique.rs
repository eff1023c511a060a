//! Kernel names and symbols that would make an export ambiguous
//! (`KernelNames`) and the index by symbol (`SymbolIndex`), each held
//! against a pairwise check written here.

use amdgpu_hal::StatusCode;
use amdgpu_hal::codeobj::metadata::{KernelMetadata, KernelNames, SymbolIndex};
use proptest::prelude::*;

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
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Inserted in turn, the record refuses exactly the kernel a pairwise
    /// check would, naming the same two kernels and key.
    #[test]
    fn kernel_names_refuse_the_first_repeat_a_pairwise_check_finds(
        picks in proptest::collection::vec((0..TRIAL_NAMES.len(), 0..TRIAL_SYMBOLS.len()), 0..10),
    ) {
        let kernels: Vec<(&'static str, &'static str)> =
            picks.iter().map(|&(n, s)| (TRIAL_NAMES[n], TRIAL_SYMBOLS[s])).collect();
        let mut names = KernelNames::default();
        for k in 0..kernels.len() {
            let result = names.insert(&named(kernels[k].0, kernels[k].1));
            match (result, pairwise_first_repeat(&kernels[..=k])) {
                (Ok(()), None) => {}
                (Err(error), Some(expected)) => {
                    prop_assert_eq!(error.code(), StatusCode::InvalidArgument);
                    prop_assert!(error.to_string().contains(&expected), "{} against {}", error, expected);
                    return Ok(());
                }
                (result, expected) => {
                    prop_assert!(false, "{:?} where a pairwise check gives {:?}", result, expected);
                }
            }
        }
    }

    /// A symbol one kernel has gives its index; one several have is
    /// `FAILED_PRECONDITION`; one none has is `NOT_FOUND`.
    #[test]
    fn symbol_index_answers_as_a_scan_does(
        picks in proptest::collection::vec(0..TRIAL_SYMBOLS.len(), 0..10),
    ) {
        let symbols: Vec<&str> = picks.iter().map(|&s| TRIAL_SYMBOLS[s]).collect();
        let mut index = SymbolIndex::default();
        for (i, symbol) in symbols.iter().enumerate() {
            index.insert(symbol, i);
        }
        for sought in TRIAL_SYMBOLS {
            let holders: Vec<usize> = (0..symbols.len()).filter(|&i| symbols[i] == sought).collect();
            match (index.get(sought), holders.as_slice()) {
                (Ok(found), [only]) => prop_assert_eq!(found, *only),
                (Err(error), []) => prop_assert_eq!(error.code(), StatusCode::NotFound),
                (Err(error), [_, _, ..]) => prop_assert_eq!(error.code(), StatusCode::FailedPrecondition),
                (result, holders) => prop_assert!(false, "{:?} for holders {:?}", result, holders),
            }
        }
    }
}

/// A kernel's export name: a non-empty `.name`, else `.symbol` without
/// `.kd` (IREE's `hsaco_metadata.c`).
#[test]
fn a_kernels_export_name_is_its_name_else_its_symbol() {
    use amdgpu_hal::codeobj::metadata::reflection_name;
    assert_eq!(reflection_name(Some("add"), "add_0.kd"), "add");
    assert_eq!(reflection_name(Some(""), "add_0.kd"), "add_0");
    assert_eq!(reflection_name(None, "add_0.kd"), "add_0");
    assert_eq!(reflection_name(None, "plain"), "plain");
}

/// Every `.value_kind` of LLVM's AMDGPUUsage code object V3+ argument
/// table, classified; IREE's projection skips exactly the hidden ones.
#[test]
fn value_kinds_classify_as_amdgpu_usage_lists_them() {
    use amdgpu_hal::codeobj::metadata::ValueKind as K;
    for (name, kind) in [
        ("by_value", K::ByValue),
        ("global_buffer", K::GlobalBuffer),
        ("dynamic_shared_pointer", K::DynamicSharedPointer),
        ("image", K::Image),
        ("sampler", K::Sampler),
        ("pipe", K::Pipe),
        ("queue", K::Queue),
        ("hidden_none", K::HiddenNone),
        ("hidden_global_offset_x", K::Hidden),
        ("hidden_multigrid_sync_arg", K::Hidden),
        ("vendor_thing", K::Unknown),
    ] {
        assert_eq!(K::classify(name), kind, "{name}");
        assert_eq!(kind.is_hidden(), name.starts_with("hidden_"), "{name}");
    }
}
