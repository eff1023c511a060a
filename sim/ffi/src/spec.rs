//! `AMDGPU_SIM_FAULTS`: faults armed on the node, `;`-separated entries of
//! the form `TARGET=CODE`:
//!
//! | target        | fails                                                 |
//! |---------------|-------------------------------------------------------|
//! | `hsa@N`       | the N-th HSA call (1-based), once                     |
//! | `hip@N`       | the N-th HIP call, once                               |
//! | `OP@N`        | the N-th call of the C function `OP`, once            |
//! | `OP@N+`       | the N-th call of `OP` and every later one (`hsa@N+`…) |
//! | `OP`          | every call of `OP`                                    |
//! | `kernel@N`    | the N-th kernel to start on the node, once (no code)  |
//! | `kernel@N+`   | the N-th kernel and every later one                   |
//! | `kernel`      | every kernel                                          |
//!
//! `OP` is an HSA function (`hsa_…`) or a HIP one (`hip…`, `__hip…`) the node counts
//! ([`KNOWN_OPS`]; any other name is refused, with the closest), which picks the
//! family; `CODE` is the status it fails with, decimal or `0x` hex
//! (`hsa_status_t` for HSA, `hipError_t` for HIP). Example:
//! `hsa_executable_freeze=0x1008;hipDeviceGet@2=101`.
//!
//! A kernel entry takes no code: the kernel ends before its first
//! instruction as a memory access fault ends one ([`KernelFault`]), so HIP
//! answers `hipErrorIllegalAddress` from then on and an HSA queue reports
//! `HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION` to its error callback.
//! Kernels count in the order they start (HIP launches and graph kernel
//! nodes when their stream reaches them, AQL and PM4 dispatches when their
//! queue does), skipped ones (`AMDGPU_SIM_KERNELS=skip`) not at all.

use amdgpu_sim::{Fault, HipCode, HsaCode, KernelFault, Sim};

/// Every call a fault can name: the HSA and HIP functions whose calls the
/// node counts (those it answers; the exports outside its model, in
/// `unsupported.rs`, fail on their own and are not counted), sorted. An
/// entry naming another function would never fire, so it is refused
/// (`tests::known_ops_are_the_ops_the_sources_count` keeps this list equal
/// to the op names in the sources).
pub const KNOWN_OPS: &[&str] = &[
    "__hipRegisterFatBinary",
    "__hipRegisterFunction",
    "__hipRegisterManagedVar",
    "__hipRegisterVar",
    "hipCtxGetCurrent",
    "hipCtxGetDevice",
    "hipCtxPopCurrent",
    "hipCtxPushCurrent",
    "hipCtxSetCurrent",
    "hipDeviceCanAccessPeer",
    "hipDeviceEnablePeerAccess",
    "hipDeviceGet",
    "hipDeviceGetAttribute",
    "hipDeviceGetCacheConfig",
    "hipDeviceGetName",
    "hipDeviceGetP2PAttribute",
    "hipDeviceGetSharedMemConfig",
    "hipDeviceGetUuid",
    "hipDevicePrimaryCtxRelease",
    "hipDevicePrimaryCtxRetain",
    "hipDeviceReset",
    "hipDeviceSetCacheConfig",
    "hipDeviceSetSharedMemConfig",
    "hipDeviceSynchronize",
    "hipDriverGetVersion",
    "hipDrvGraphAddMemcpyNode",
    "hipEventCreate",
    "hipEventCreateWithFlags",
    "hipEventDestroy",
    "hipEventElapsedTime",
    "hipEventQuery",
    "hipEventRecord",
    "hipEventSynchronize",
    "hipExtLaunchKernel",
    "hipFree",
    "hipFreeAsync",
    "hipFuncGetAttribute",
    "hipFuncGetAttributes",
    "hipFuncSetAttribute",
    "hipGetDevice",
    "hipGetDeviceCount",
    "hipGetDeviceProperties",
    "hipGetProcAddress",
    "hipGetSymbolAddress",
    "hipGetSymbolSize",
    "hipGraphAddEmptyNode",
    "hipGraphAddEventRecordNode",
    "hipGraphAddKernelNode",
    "hipGraphAddMemsetNode",
    "hipGraphCreate",
    "hipGraphDestroy",
    "hipGraphExecDestroy",
    "hipGraphInstantiate",
    "hipGraphLaunch",
    "hipHostFree",
    "hipHostGetDevicePointer",
    "hipHostMalloc",
    "hipHostRegister",
    "hipHostUnregister",
    "hipInit",
    "hipLaunchHostFunc",
    "hipLaunchKernel",
    "hipMalloc",
    "hipMallocAsync",
    "hipMallocFromPoolAsync",
    "hipMallocManaged",
    "hipMemGetInfo",
    "hipMemPoolCreate",
    "hipMemPoolDestroy",
    "hipMemPoolGetAttribute",
    "hipMemPoolSetAttribute",
    "hipMemPoolTrimTo",
    "hipMemPrefetchAsync",
    "hipMemcpy",
    "hipMemcpy2D",
    "hipMemcpy2DAsync",
    "hipMemcpyAsync",
    "hipMemcpyDtoD",
    "hipMemcpyDtoDAsync",
    "hipMemcpyDtoH",
    "hipMemcpyDtoHAsync",
    "hipMemcpyFromSymbol",
    "hipMemcpyFromSymbolAsync",
    "hipMemcpyHtoD",
    "hipMemcpyHtoDAsync",
    "hipMemcpyPeer",
    "hipMemcpyPeerAsync",
    "hipMemcpyToSymbol",
    "hipMemcpyToSymbolAsync",
    "hipMemset",
    "hipMemset2D",
    "hipMemset2DAsync",
    "hipMemsetAsync",
    "hipMemsetD16Async",
    "hipMemsetD32Async",
    "hipMemsetD8Async",
    "hipModuleGetFunction",
    "hipModuleGetGlobal",
    "hipModuleLaunchKernel",
    "hipModuleLoad",
    "hipModuleLoadData",
    "hipModuleLoadDataEx",
    "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor",
    "hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "hipModuleOccupancyMaxPotentialBlockSize",
    "hipModuleOccupancyMaxPotentialBlockSizeWithFlags",
    "hipModuleUnload",
    "hipOccupancyMaxActiveBlocksPerMultiprocessor",
    "hipOccupancyMaxPotentialBlockSize",
    "hipPointerGetAttribute",
    "hipPointerGetAttributes",
    "hipRuntimeGetVersion",
    "hipSetDevice",
    "hipStreamCreate",
    "hipStreamCreateWithFlags",
    "hipStreamDestroy",
    "hipStreamGetDevice",
    "hipStreamGetFlags",
    "hipStreamQuery",
    "hipStreamSynchronize",
    "hipStreamWaitEvent",
    "hsa_agent_get_info",
    "hsa_agent_iterate_isas",
    "hsa_agent_iterate_regions",
    "hsa_amd_agent_iterate_memory_pools",
    "hsa_amd_agent_memory_pool_get_info",
    "hsa_amd_agents_allow_access",
    "hsa_amd_memory_async_copy",
    "hsa_amd_memory_fill",
    "hsa_amd_memory_lock",
    "hsa_amd_memory_lock_to_pool",
    "hsa_amd_memory_pool_allocate",
    "hsa_amd_memory_pool_free",
    "hsa_amd_memory_pool_get_info",
    "hsa_amd_memory_unlock",
    "hsa_amd_pointer_info",
    "hsa_amd_profiling_set_profiler_enabled",
    "hsa_amd_queue_get_info",
    "hsa_amd_signal_create",
    "hsa_amd_signal_wait_all",
    "hsa_amd_signal_wait_any",
    "hsa_amd_vmem_address_free",
    "hsa_amd_vmem_address_reserve",
    "hsa_amd_vmem_address_reserve_align",
    "hsa_amd_vmem_export_shareable_handle",
    "hsa_amd_vmem_get_access",
    "hsa_amd_vmem_get_alloc_properties_from_handle",
    "hsa_amd_vmem_handle_create",
    "hsa_amd_vmem_handle_release",
    "hsa_amd_vmem_import_shareable_handle",
    "hsa_amd_vmem_map",
    "hsa_amd_vmem_retain_alloc_handle",
    "hsa_amd_vmem_set_access",
    "hsa_amd_vmem_unmap",
    "hsa_code_object_reader_create_from_memory",
    "hsa_code_object_reader_destroy",
    "hsa_executable_create_alt",
    "hsa_executable_destroy",
    "hsa_executable_freeze",
    "hsa_executable_get_symbol_by_name",
    "hsa_executable_load_agent_code_object",
    "hsa_executable_symbol_get_info",
    "hsa_init",
    "hsa_isa_get_info_alt",
    "hsa_iterate_agents",
    "hsa_memory_copy",
    "hsa_queue_create",
    "hsa_queue_destroy",
    "hsa_region_get_info",
    "hsa_shut_down",
    "hsa_signal_create",
    "hsa_signal_destroy",
    "hsa_signal_wait_acquire",
    "hsa_signal_wait_relaxed",
    "hsa_signal_wait_scacquire",
    "hsa_system_get_info",
    "hsa_ven_amd_loader_executable_iterate_loaded_code_objects",
    "hsa_ven_amd_loader_loaded_code_object_get_info",
    "hsa_ven_amd_loader_query_host_address",
];

/// Most entries one specification may hold.
pub const MAX_FAULT_ENTRIES: usize = 64;
/// Longest function name accepted in a target.
pub const MAX_OP_NAME: usize = 128;

/// One parsed entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Armed {
    /// An HSA fault.
    Hsa(Fault<HsaCode>),
    /// A HIP fault.
    Hip(Fault<HipCode>),
    /// A kernel made to fault.
    Kernel(KernelFault),
}

fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// The N of `@N` (1 or more) and whether a `+` follows.
fn nth(text: &str, n: &str) -> Result<(u64, bool), String> {
    let (n, persistent) = match n.strip_suffix('+') {
        Some(n) => (n, true),
        None => (n, false),
    };
    let n = number(n)
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("entry '{text}': the call number must be 1 or more"))?;
    Ok((n, persistent))
}

/// `kernel`, `kernel@N` or `kernel@N+`, which take no code.
fn kernel_entry(text: &str, target: &str) -> Option<Result<Armed, String>> {
    let nth = match target.split_once('@') {
        None if target == "kernel" => Ok((1, true)),
        Some(("kernel", n)) => nth(text, n),
        _ => return None,
    };
    Some(if text.contains('=') {
        Err(format!(
            "entry '{text}': a kernel fault takes no '=CODE' (it is a memory access fault)"
        ))
    } else {
        nth.map(|(nth, persistent)| Armed::Kernel(KernelFault { nth, persistent }))
    })
}

/// A HIP function's name: `hip…`, or the registration path's `__hip…`.
fn is_hip_name(op: &str) -> bool {
    op.starts_with("hip") || op.starts_with("__hip")
}

fn entry(text: &str) -> Result<Armed, String> {
    if let Some(kernel) = kernel_entry(text, text.split('=').next().unwrap_or_default().trim()) {
        return kernel;
    }
    let (target, code) = text
        .split_once('=')
        .ok_or_else(|| format!("entry '{text}' has no '=CODE'"))?;
    let code = number(code.trim()).ok_or_else(|| format!("entry '{text}': bad code"))?;
    let (op, nth) = match target.trim().split_once('@') {
        Some((op, n)) => (op, Some(nth(text, n)?)),
        None => (target.trim(), None),
    };
    if op.is_empty()
        || op.len() > MAX_OP_NAME
        || !op.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(format!("entry '{text}': bad function name"));
    }
    let family_wide = op == "hsa" || op == "hip";
    let is_hip = if op == "hip" || (is_hip_name(op) && !family_wide) {
        true
    } else if op == "hsa" || op.starts_with("hsa_") {
        false
    } else {
        return Err(format!(
            "entry '{text}': '{op}' is neither an hsa_ nor a hip function"
        ));
    };
    if !family_wide && KNOWN_OPS.binary_search(&op).is_err() {
        let family: Vec<&str> = KNOWN_OPS
            .iter()
            .copied()
            .filter(|known| is_hip_name(known) == is_hip)
            .collect();
        let suggestion = amdgpu_sim::suggest::closest(op, KNOWN_OPS.iter().copied())
            .map(|close| format!(" (did you mean '{close}'?)"))
            .unwrap_or_default();
        return Err(format!(
            "entry '{text}': '{op}' is not a call the node counts{suggestion}; known {} calls: {}",
            if is_hip { "HIP" } else { "HSA" },
            family.join(", ")
        ));
    }
    let trigger = match nth {
        None if family_wide => {
            return Err(format!("entry '{text}': a family-wide fault needs '@N'"));
        }
        None => Fault::every(op, ()),
        Some((n, persistent)) => {
            let f = if family_wide {
                Fault::nth_call(n, ())
            } else {
                Fault::nth_of(op, n, ())
            };
            if persistent { f.persistent() } else { f }
        }
    };
    let out_of_range = || format!("entry '{text}': code out of range");
    Ok(if is_hip {
        let code = i32::try_from(code).map_err(|_| out_of_range())?;
        Armed::Hip(Fault {
            trigger: trigger.trigger,
            code: HipCode(code),
            persistent: trigger.persistent,
        })
    } else {
        let code = u32::try_from(code).map_err(|_| out_of_range())?;
        Armed::Hsa(Fault {
            trigger: trigger.trigger,
            code: HsaCode(code),
            persistent: trigger.persistent,
        })
    })
}

/// Parses a specification (empty entries are skipped).
pub fn parse(spec: &str) -> Result<Vec<Armed>, String> {
    let entries: Vec<&str> = spec
        .split(';')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    if entries.len() > MAX_FAULT_ENTRIES {
        return Err(format!(
            "{} entries (at most {MAX_FAULT_ENTRIES})",
            entries.len()
        ));
    }
    entries.into_iter().map(entry).collect()
}

/// Parses `spec` and arms every fault on `sim`.
pub fn arm(sim: &Sim, spec: &str) -> Result<(), String> {
    for armed in parse(spec)? {
        match armed {
            Armed::Hsa(fault) => sim.inject_hsa(fault),
            Armed::Hip(fault) => sim.inject_hip(fault),
            Armed::Kernel(fault) => sim.inject_kernel_fault(fault),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use amdgpu_sim::Trigger;

    /// The op names the node counts, read from the sources: every string
    /// literal of the form `hsa_…` or `hipX…` (not `hipError…`, a code) in
    /// the simulator and this library. An independent reading of what
    /// `KNOWN_OPS` lists by hand.
    fn ops_in_sources() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut ops = Vec::new();
        let mut dirs = vec![root.join("src"), root.join("../src")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("source dir") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                // This file lists the ops (and misspells some on purpose).
                if path.extension().is_none_or(|e| e != "rs")
                    || path.ends_with("spec.rs")
                    || path.ends_with("suggest.rs")
                {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("source");
                for literal in text.split('"').skip(1).step_by(2) {
                    // The registration path's `__hip…` names count as HIP's.
                    let name = literal
                        .strip_prefix("__hip")
                        .map_or(literal, |_| &literal[2..]);
                    let op = name.starts_with("hsa_")
                        || (name.starts_with("hip")
                            && name[3..].starts_with(|c: char| c.is_ascii_uppercase())
                            && !name.starts_with("hipError"));
                    if op
                        && literal
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    {
                        ops.push(literal.to_owned());
                    }
                }
            }
        }
        ops.sort();
        ops.dedup();
        ops
    }

    #[test]
    fn known_ops_are_the_ops_the_sources_count() {
        assert!(
            KNOWN_OPS.windows(2).all(|w| w[0] < w[1]),
            "sorted, once each"
        );
        assert_eq!(KNOWN_OPS, ops_in_sources());
    }

    #[test]
    fn every_target_form() {
        let armed =
            parse("hsa_executable_freeze=0x1008; hipDeviceGet@2=101;hsa@3+=4097;hip@1=999;")
                .unwrap();
        assert_eq!(
            armed,
            [
                Armed::Hsa(Fault::every("hsa_executable_freeze", HsaCode(0x1008))),
                Armed::Hip(Fault::nth_of("hipDeviceGet", 2, HipCode(101))),
                Armed::Hsa(Fault::nth_call(3, HsaCode(0x1001)).persistent()),
                Armed::Hip(Fault::nth_call(1, HipCode(999))),
            ]
        );
        assert_eq!(parse("").unwrap(), []);
        let Armed::Hsa(f) = &parse("hsa_memory_copy@2+=1").unwrap()[0] else {
            panic!("family")
        };
        assert_eq!(
            f.trigger,
            Trigger::NthOf {
                op: "hsa_memory_copy".into(),
                n: 2
            }
        );
        assert!(f.persistent);
    }

    #[test]
    fn kernel_entries() {
        let kernel = |nth, persistent| Armed::Kernel(KernelFault { nth, persistent });
        assert_eq!(
            parse("kernel@3; kernel@2+;kernel;hip@1=999").unwrap(),
            [
                kernel(3, false),
                kernel(2, true),
                kernel(1, true),
                Armed::Hip(Fault::nth_call(1, HipCode(999))),
            ]
        );
        for (spec, words) in [
            ("kernel@1=700", "takes no '=CODE'"),
            ("kernel=700", "takes no '=CODE'"),
            ("kernel@0", "1 or more"),
            ("kernel@x", "1 or more"),
            ("kernels@1", "no '=CODE'"),
        ] {
            let e = parse(spec).unwrap_err();
            assert!(e.contains(words) && e.contains(spec), "{spec}: {e}");
        }
    }

    #[test]
    fn bad_entries_name_themselves() {
        for (spec, words) in [
            ("hsa_init", "no '=CODE'"),
            ("hsa_init=x", "bad code"),
            ("hsa_init@0=1", "1 or more"),
            ("cuInit=1", "neither an hsa_ nor a hip"),
            ("hsa=1", "needs '@N'"),
            ("hip@1=0x100000000", "out of range"),
            ("hsa init=1", "bad function name"),
            (
                "hipMaloc=2",
                "'hipMaloc' is not a call the node counts (did you mean 'hipMalloc'?)",
            ),
            (
                "hsa_nothing_like_it@2=1",
                "known HSA calls: hsa_agent_get_info",
            ),
        ] {
            let e = parse(spec).unwrap_err();
            assert!(
                e.contains(words) && e.contains(spec.split('=').next().unwrap()),
                "{spec}: {e}"
            );
        }
        let unknown = parse("hipMaloc=2").unwrap_err();
        assert!(
            unknown.contains("known HIP calls: __hipRegisterFatBinary, ")
                && unknown.contains(", hipCtxGetCurrent, "),
            "{unknown}"
        );
        // The registration path's `__hip…` calls are HIP's.
        assert_eq!(
            parse("__hipRegisterVar@2=2").unwrap(),
            [Armed::Hip(Fault::nth_of("__hipRegisterVar", 2, HipCode(2)))]
        );
        assert!(
            !unknown.contains("hsa_init"),
            "only the family's calls: {unknown}"
        );
        let many = vec!["hsa_init=1"; MAX_FAULT_ENTRIES + 1].join(";");
        assert!(parse(&many).unwrap_err().contains("at most"));
    }
}
