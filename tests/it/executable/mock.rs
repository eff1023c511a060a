//! Executable creation against a scripted `MockHsa`: every call is recorded
//! so the tests can pin down the order where it matters (the reader is
//! destroyed after freeze, the executable destroyed on failure, the tables
//! freed on destroy) and what is released on failure.

use std::sync::{Arc, Mutex};

use crate::mocks::{MockHsa, answer, answer_text};
use amdgpu_hal::StatusCode;
use amdgpu_hal::amdgpu::agents::AgentTopology;
use amdgpu_hal::amdgpu::executable::{ExecutableParams, create};
use amdgpu_hal::amdgpu::profile::ProfileRegistry;
use amdgpu_hal::amdgpu::queue_affinity::QUEUE_AFFINITY_ANY;
use amdgpu_hal::backend::{
    Agent, AgentInfo, CodeObjectReader, DevicePtr, Executable as HsaExecutable, ExecutableSymbol,
    ExecutableSymbolInfo, GlobalFlags, HsaStatus, Isa, IsaInfo, LoadedCodeObject,
    LoadedCodeObjectInfo, MemoryPool, MemoryPoolInfo, Profile, RoundingMode, Segment, SymbolKind,
};

const GFX942: &[u8] =
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");
const ISA_NAME: &str = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";

type Log = Arc<Mutex<Vec<String>>>;

fn push(log: &Log, entry: String) {
    log.lock().unwrap().push(entry);
}

/// Which scripted call fails, if any.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fail {
    None,
    LoadOnAgent(u64),
    Copy,
    Freeze,
}

/// A two-GPU gfx942 node (agents 1 and 2) whose every call is logged.
fn scripted(fail: Fail) -> (MockHsa, Log) {
    let log: Log = Arc::default();
    let mut m = MockHsa::new();
    let l = log.clone();
    m.expect_agent_iterate_isas().returning(move |a| {
        push(&l, format!("iterate_isas {}", a.0));
        Ok(vec![Isa(100 + a.0)])
    });
    m.expect_isa_get_info_alt()
        .returning(|_, attribute, out| match attribute {
            IsaInfo::NameLength => answer(out, ISA_NAME.len() as u32 + 1),
            IsaInfo::Name => answer_text(out, ISA_NAME),
            IsaInfo::WorkgroupMaxSize => answer(out, 1024u32),
            IsaInfo::WorkgroupMaxDim => answer(out, [1024u16; 3]),
            other => panic!("not scripted: {other:?}"),
        });
    let l = log.clone();
    m.expect_code_object_reader_create_from_memory()
        .returning(move |bytes| {
            push(&l, format!("reader_create {}", bytes.len()));
            Ok(CodeObjectReader(7))
        });
    m.expect_agent_get_info()
        .returning(|_, attribute, out| match attribute {
            AgentInfo::Profile => answer(out, Profile::Full.raw()),
            AgentInfo::DefaultFloatRoundingMode => answer(out, RoundingMode::Near.raw()),
            other => panic!("not scripted: {other:?}"),
        });
    let l = log.clone();
    m.expect_executable_create_alt().returning(move |p, r| {
        push(&l, format!("executable_create {p:?} {r:?}"));
        Ok(HsaExecutable(9))
    });
    let l = log.clone();
    m.expect_executable_load_agent_code_object()
        .returning(move |_, agent, reader| {
            push(&l, format!("load {} reader {}", agent.0, reader.0));
            if fail == Fail::LoadOnAgent(agent.0) {
                return Err(HsaStatus::ErrorInvalidCodeObject);
            }
            Ok(LoadedCodeObject(1000 + agent.0))
        });
    let l = log.clone();
    m.expect_executable_freeze().returning(move |_| {
        push(&l, "freeze".into());
        if fail == Fail::Freeze {
            return Err(HsaStatus::ErrorFrozenExecutable);
        }
        Ok(())
    });
    let l = log.clone();
    m.expect_code_object_reader_destroy().returning(move |r| {
        push(&l, format!("reader_destroy {}", r.0));
        Ok(())
    });
    let l = log.clone();
    m.expect_executable_destroy().returning(move |e| {
        push(&l, format!("executable_destroy {}", e.0));
        Ok(())
    });
    m.expect_executable_get_symbol_by_name()
        .returning(|_, name, agent| {
            let base = if name == "vector_add.kd" {
                1
            } else if name == "bump.kd" {
                2
            } else if name == "counter" {
                3
            } else {
                return Err(HsaStatus::ErrorInvalidSymbolName);
            };
            Ok(ExecutableSymbol(agent.map_or(0, |a| a.0) * 10 + base))
        });
    m.expect_executable_symbol_get_info()
        .returning(|s, attribute, out| match attribute {
            ExecutableSymbolInfo::Type => answer(
                out,
                if s.0 % 10 == 3 {
                    SymbolKind::Variable
                } else {
                    SymbolKind::Kernel
                }
                .raw(),
            ),
            ExecutableSymbolInfo::PrivateSegmentSize => answer(out, 0u32),
            ExecutableSymbolInfo::GroupSegmentSize => answer(out, 16u32),
            ExecutableSymbolInfo::KernargSegmentSize => {
                answer(out, if s.0 % 10 == 1 { 28u32 } else { 8 })
            }
            ExecutableSymbolInfo::KernargSegmentAlignment => answer(out, 8u32),
            ExecutableSymbolInfo::KernelObject => answer(out, 0xA000 + s.0),
            ExecutableSymbolInfo::VariableAddress => answer(out, 0xC000 + s.0),
            ExecutableSymbolInfo::VariableSize => answer(out, 4u32),
            other => panic!("not scripted: {other:?}"),
        });
    m.expect_agent_iterate_memory_pools()
        .returning(|a| Ok(vec![MemoryPool(a.0 * 10), MemoryPool(a.0 * 10 + 1)]));
    m.expect_memory_pool_get_info()
        .returning(|p, attribute, out| match attribute {
            MemoryPoolInfo::Segment => answer(out, Segment::Global.raw()),
            MemoryPoolInfo::RuntimeAllocAllowed => answer(out, true),
            MemoryPoolInfo::GlobalFlags => answer(
                out,
                if p.0 % 10 == 0 {
                    GlobalFlags::FINE_GRAINED
                } else {
                    GlobalFlags::COARSE_GRAINED
                }
                .bits(),
            ),
            other => panic!("not scripted: {other:?}"),
        });
    let l = log.clone();
    m.expect_memory_pool_allocate()
        .returning(move |pool, size, _| {
            push(&l, format!("allocate pool {} size {size}", pool.0));
            Ok(DevicePtr(0x10_0000 * pool.0))
        });
    let l = log.clone();
    m.expect_memory_copy_to_device().returning(move |dst, src| {
        push(&l, format!("copy 0x{:x} {}", dst.0, src.len()));
        if fail == Fail::Copy {
            return Err(HsaStatus::ErrorInvalidArgument);
        }
        Ok(())
    });
    let l = log.clone();
    m.expect_memory_pool_free().returning(move |p| {
        push(&l, format!("free 0x{:x}", p.0));
        Ok(())
    });
    m.expect_executable_iterate_loaded_code_objects()
        .returning(|_| Ok(vec![LoadedCodeObject(1001), LoadedCodeObject(1002)]));
    m.expect_loaded_code_object_get_info()
        .returning(|l, attribute, out| match attribute {
            LoadedCodeObjectInfo::Agent => answer(out, l.0 - 1000),
            LoadedCodeObjectInfo::LoadDelta => answer(out, (l.0 as i64) << 20),
            LoadedCodeObjectInfo::LoadSize => answer(out, 0x4000u64),
            other => panic!("not scripted: {other:?}"),
        });
    (m, log)
}

fn topology() -> AgentTopology {
    AgentTopology::new(vec![Agent(50)], vec![Agent(1), Agent(2)], vec![0, 0], 2).unwrap()
}

fn params(data: &[u8]) -> ExecutableParams<'_> {
    ExecutableParams {
        executable_format: "gfx942:sramecc+:xnack-",
        executable_data: data,
        queue_affinity: QUEUE_AFFINITY_ANY,
        constant_count: 0,
    }
}

fn entries(log: &Log) -> Vec<String> {
    log.lock().unwrap().clone()
}

fn position(log: &[String], prefix: &str) -> usize {
    log.iter()
        .position(|e| e.starts_with(prefix))
        .unwrap_or_else(|| panic!("`{prefix}` not called; log: {log:#?}"))
}

#[test]
fn reader_is_destroyed_after_freeze_and_tables_are_freed_on_destroy() {
    let (m, log) = scripted(Fail::None);
    let registry = ProfileRegistry::new();
    let exe = create(Arc::new(m), &topology(), &params(GFX942), &registry).unwrap();
    let calls = entries(&log);
    let order = [
        "reader_create",
        "executable_create Full Near",
        "load 1 reader 7",
        "load 2 reader 7",
        "freeze",
        "reader_destroy 7",
        "allocate pool 11 size 80",
        "copy 0xb00000 80",
        "allocate pool 21 size 80",
        "copy 0x1500000 80",
    ];
    let positions: Vec<usize> = order.iter().map(|p| position(&calls, p)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{calls:#?}");
    assert!(
        !calls
            .iter()
            .any(|c| c.starts_with("free 0x") || c.starts_with("executable_destroy"))
    );

    // Reflection and per-device results.
    assert_eq!(exe.export_count(), 2);
    assert_eq!(exe.loaded_devices(), [0, 1]);
    let info = exe.export_info(0).unwrap();
    assert_eq!(
        (info.name.as_str(), info.binding_count, info.constant_count),
        ("vector_add", 3, 1)
    );
    let d1 = exe.kernel_args_for_device(1, 1).unwrap();
    assert_eq!(d1.address, DevicePtr(0x1500000 + 40));
    assert_eq!(d1.kernel_args.kernel_object, 0xA000 + 22);
    assert_eq!(exe.kernel_args_for_host(1).unwrap().kernel_object, 0);
    let load = registry
        .lookup_code_object_load(exe.profile_id(), 1)
        .unwrap();
    assert_eq!(load.load.load_delta, 1002 << 20);

    let before = entries(&log).len();
    drop(exe);
    let after = entries(&log)[before..].to_vec();
    assert_eq!(
        after,
        ["free 0xb00000", "free 0x1500000", "executable_destroy 9"]
    );
}

#[test]
fn executable_is_destroyed_when_a_load_fails_and_the_reader_still_released() {
    let (m, log) = scripted(Fail::LoadOnAgent(2));
    let err = create(
        Arc::new(m),
        &topology(),
        &params(GFX942),
        &ProfileRegistry::new(),
    )
    .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.mentions("hsa_executable_load_agent_code_object"),
        "{err}"
    );
    assert!(err.mentions("GPU agent[1]"), "{err}");
    let calls = entries(&log);
    let reader = position(&calls, "reader_destroy 7");
    let destroy = position(&calls, "executable_destroy 9");
    assert!(
        position(&calls, "load 2") < reader && reader < destroy,
        "{calls:#?}"
    );
    assert!(
        !calls
            .iter()
            .any(|c| c == "freeze" || c.starts_with("allocate"))
    );
}

#[test]
fn freeze_failure_destroys_reader_then_executable() {
    let (m, log) = scripted(Fail::Freeze);
    let err = create(
        Arc::new(m),
        &topology(),
        &params(GFX942),
        &ProfileRegistry::new(),
    )
    .unwrap_err();
    assert!(err.mentions("hsa_executable_freeze"));
    let calls = entries(&log);
    assert!(position(&calls, "freeze") < position(&calls, "reader_destroy"));
    assert!(position(&calls, "reader_destroy") < position(&calls, "executable_destroy"));
}

#[test]
fn copy_failure_frees_its_table_and_the_earlier_tables() {
    let (m, log) = scripted(Fail::Copy);
    let err = create(
        Arc::new(m),
        &topology(),
        &params(GFX942),
        &ProfileRegistry::new(),
    )
    .unwrap_err();
    assert!(err.mentions("hsa_memory_copy"), "{err}");
    let calls = entries(&log);
    let copy = position(&calls, "copy 0xb00000");
    let free = position(&calls, "free 0xb00000");
    let destroy = position(&calls, "executable_destroy 9");
    assert!(copy < free && free < destroy, "{calls:#?}");
    assert_eq!(
        calls.iter().filter(|c| c.starts_with("allocate")).count(),
        1
    );
    assert_eq!(calls.iter().filter(|c| c.starts_with("free 0x")).count(), 1);
}

#[test]
fn affinity_selects_only_the_second_device() {
    let (m, log) = scripted(Fail::None);
    let mut p = params(GFX942);
    p.queue_affinity = 0b1100;
    let exe = create(Arc::new(m), &topology(), &p, &ProfileRegistry::new()).unwrap();
    assert_eq!(exe.loaded_devices(), [1]);
    let calls = entries(&log);
    assert!(!calls.iter().any(|c| c.starts_with("load 1")));
    let err = exe.kernel_args_for_device(0, 0).unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert!(err.mentions("device ordinal 0 is not in executable queue affinity 0xc"));
    assert_eq!(
        exe.kernel_args_for_device(0, 2).unwrap_err().code(),
        StatusCode::OutOfRange
    );
    assert_eq!(
        exe.dispatch_descriptor(2, 1).unwrap_err().code(),
        StatusCode::OutOfRange
    );
}

#[test]
fn globals_resolve_on_one_device_and_keep_the_executable_alive() {
    let (m, log) = scripted(Fail::None);
    let exe = create(
        Arc::new(m),
        &topology(),
        &params(GFX942),
        &ProfileRegistry::new(),
    )
    .unwrap();
    let global = exe.lookup_global_by_name("counter", 0b1000).unwrap();
    assert_eq!(global.physical_device_ordinal, 1);
    assert_eq!(global.address, DevicePtr(0xC000 + 23));
    assert_eq!((global.size, global.queue_affinity), (4, 0b1000));
    let any = exe.lookup_global_by_name("counter", 0).unwrap();
    assert_eq!((any.physical_device_ordinal, any.queue_affinity), (0, 0b11));
    let err = exe.lookup_global_by_name("counter", 0b0101).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unimplemented);
    let err = exe.lookup_global_by_name("bump.kd", 0).unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert!(err.mentions("executable global `bump.kd` not found"));
    assert_eq!(
        exe.lookup_global_by_name("", 0).unwrap_err().code(),
        StatusCode::InvalidArgument
    );
    let long = "x".repeat(4097);
    assert_eq!(
        exe.lookup_global_by_name(&long, 0).unwrap_err().code(),
        StatusCode::OutOfRange
    );

    drop(exe);
    assert!(
        !entries(&log)
            .iter()
            .any(|c| c.starts_with("executable_destroy"))
    );
    drop(any);
    drop(global);
    assert!(
        entries(&log)
            .iter()
            .any(|c| c.starts_with("executable_destroy"))
    );
}
