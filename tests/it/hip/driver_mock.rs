//! The HIP driver over scripted `MockHip` runtimes: every success and error
//! path of creation, enumeration, the device dump and device selection, with
//! the exact codes, message words and call order.

use std::sync::{Arc, Mutex};

use crate::mocks::{MockCcl, MockHip};
use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::{
    Ccl, CclError, Hip, HipDevice, HipDeviceAttribute, HipDeviceProps, HipError, HipP2pAttribute,
    HipUuid,
};
use amdgpu_hal::hip::rccl::rccl_not_available;
use amdgpu_hal::hip::search_paths::{hip_library_candidates, load_first};
use amdgpu_hal::hip::{DeviceId, HipDriver, HipOptions, LoadedHip};
use amdgpu_hal::status::Status;

type Log = Arc<Mutex<Vec<String>>>;

fn push(log: &Log, call: impl Into<String>) {
    log.lock().unwrap().push(call.into());
}

/// Device i's UUID: 00112233-4455-6677-8899-aabbccddeeXX with XX = ff - i.
fn uuid(i: i32) -> [u8; 16] {
    let mut b = [
        0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
        0xff,
    ];
    b[15] -= i as u8;
    b
}

fn props() -> HipDeviceProps {
    HipDeviceProps {
        name: "AMD Instinct MI300X".into(),
        gcn_arch_name: "gfx942:sramecc+:xnack-".into(),
        total_global_mem: 192 << 30,
        shared_mem_per_block: 64 << 10,
        regs_per_block: 65536,
        warp_size: 64,
        max_threads_per_block: 1024,
        max_threads_dim: [1024, 1024, 1024],
        clock_rate: 2_100_000,
        memory_clock_rate: 1_300_000,
        total_const_mem: 2 << 30,
        major: 9,
        minor: 4,
        multi_processor_count: 304,
        l2_cache_size: 4 << 20,
        managed_memory: 1,
        ..HipDeviceProps::default()
    }
}

/// A scripted node of `n` devices that logs every call. Expectations set by
/// `first` win over these defaults (mockall matches in the order set).
fn node(n: i32, log: &Log, first: impl FnOnce(&mut MockHip)) -> MockHip {
    let mut m = MockHip::new();
    first(&mut m);
    m.expect_get_error_name().returning(|e| e.name().to_owned());
    m.expect_get_error_string()
        .returning(|e| e.description().to_owned());
    let l = log.clone();
    m.expect_init().returning(move |flags| {
        push(&l, format!("hipInit({flags})"));
        Ok(())
    });
    let l = log.clone();
    m.expect_get_device_count().returning(move || {
        push(&l, "hipGetDeviceCount");
        Ok(n)
    });
    let l = log.clone();
    m.expect_device_get().returning(move |o| {
        push(&l, format!("hipDeviceGet({o})"));
        if (0..n).contains(&o) {
            Ok(HipDevice(o))
        } else {
            Err(HipError::InvalidDevice)
        }
    });
    let l = log.clone();
    m.expect_device_get_name().returning(move |d, len| {
        push(&l, format!("hipDeviceGetName({},{len})", d.0));
        Ok(format!("AMD Instinct MI300X #{}", d.0))
    });
    let l = log.clone();
    m.expect_device_get_uuid().returning(move |d| {
        push(&l, format!("hipDeviceGetUuid({})", d.0));
        Ok(HipUuid(uuid(d.0)))
    });
    m.expect_device_get_attribute().returning(|a, _| {
        Ok(match a {
            HipDeviceAttribute::Integrated => 0,
            HipDeviceAttribute::ManagedMemory => 1,
            HipDeviceAttribute::WarpSize => 64,
            _ => 7,
        })
    });
    let l = log.clone();
    m.expect_device_can_access_peer().returning(move |s, d| {
        push(&l, format!("hipDeviceCanAccessPeer({s},{d})"));
        Ok(true)
    });
    m.expect_device_get_p2p_attribute().returning(|a, _, _| {
        Ok(match a {
            HipP2pAttribute::PerformanceRank => 0,
            _ => 1,
        })
    });
    let l = log.clone();
    m.expect_set_device().returning(move |d| {
        push(&l, format!("hipSetDevice({d})"));
        Ok(())
    });
    let l = log.clone();
    m.expect_device_enable_peer_access().returning(move |d, f| {
        push(&l, format!("hipDeviceEnablePeerAccess({d},{f})"));
        Ok(())
    });
    m.expect_get_device_properties().returning(|_| Ok(props()));
    m
}

fn driver_with(hip: MockHip, options: HipOptions) -> HipDriver {
    HipDriver::create(
        options,
        |_| {
            Ok(LoadedHip {
                hip: Arc::new(hip),
                library_path: Some("/opt/rocm/lib/libamdhip64.so".into()),
            })
        },
        || Err(rccl_not_available()),
    )
    .unwrap()
}

fn driver(hip: MockHip) -> HipDriver {
    driver_with(hip, HipOptions::default())
}

fn calls(log: &Log) -> Vec<String> {
    std::mem::take(&mut *log.lock().unwrap())
}

// ---------------------------------------------------------------- creation

#[test]
fn creation_loads_hip_then_rccl_then_calls_hip_init() {
    let log = Log::default();
    let hip = node(1, &log, |_| {});
    let mut ccl = MockCcl::new();
    let l = log.clone();
    ccl.expect_get_version().returning(move || {
        push(&l, "ncclGetVersion");
        Ok(21803)
    });
    let options = HipOptions::from_pairs([("hip_dylib_path", "/opt/rocm/lib")], None).unwrap();
    let l = log.clone();
    let driver = HipDriver::create(
        options,
        |paths| {
            push(&l, format!("load {:?}", hip_library_candidates(paths)));
            Ok(LoadedHip {
                hip: Arc::new(hip),
                library_path: None,
            })
        },
        || Ok(&ccl as &dyn Ccl),
    )
    .unwrap();
    assert_eq!(
        calls(&log),
        [
            "load [\"/opt/rocm/lib/libamdhip64.so\", \"/opt/rocm/lib/libamdhip64.so.6\", \"/opt/rocm/lib/libamdhip64.so.5\"]",
            "ncclGetVersion",
            "hipInit(0)"
        ]
    );
    assert_eq!(
        driver.collectives().require().unwrap().to_string(),
        "2.18.3"
    );
}

/// IREE's `DynamicSymbolsTest.SearchPathsFail`: UNAVAILABLE listing every
/// tried path; nothing after the load runs.
#[test]
fn search_paths_fail_is_unavailable_listing_every_tried_path() {
    let options = HipOptions::from_pairs(
        [
            ("hip_dylib_path", "/path/that/does/not/exist"),
            ("hip_dylib_path", "file:nowhere/libamdhip64.so"),
            ("hip_dylib_path", "filename_that_does_not_exist.dll"),
        ],
        None,
    )
    .unwrap();
    let mut rccl_called = false;
    let err = HipDriver::create(
        options,
        |paths| {
            let candidates = hip_library_candidates(paths);
            load_first(&candidates, |path| {
                Err::<LoadedHip, _>(Status::not_found(format!(
                    "failed to load dynamic library (possibly not found on any search path): {path}: cannot open shared object file"
                )))
            })
            .map(|loaded| loaded.library)
        },
        || {
            rccl_called = true;
            Err(rccl_not_available())
        },
    )
    .unwrap_err();
    assert!(!rccl_called);
    assert_eq!(err.code(), StatusCode::Unavailable);
    let m = err.message();
    assert!(m.starts_with(
        "HIP runtime library 'libamdhip64.so' not available: please ensure installed and in dynamic library search path: "
    ));
    for tried in [
        "\n  Tried: /path/that/does/not/exist/libamdhip64.so\n    NOT_FOUND; failed to load dynamic library",
        "\n  Tried: nowhere/libamdhip64.so\n    NOT_FOUND;",
        "\n  Tried: filename_that_does_not_exist.dll/libamdhip64.so\n    NOT_FOUND;",
    ] {
        assert!(m.contains(tried), "{m}");
    }
    // Three entries, the two directories tried under each of the 3 names.
    assert_eq!(m.matches("Tried:").count(), 7);
}

#[test]
fn a_missing_required_symbol_fails_creation_with_its_code() {
    let err = HipDriver::create(
        HipOptions::default(),
        |_| Err(Status::not_found("hipDeviceGetUuid")),
        || Err(rccl_not_available()),
    )
    .unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
}

#[test]
fn rccl_failures_are_deferred_to_the_first_collective_request() {
    let cases: [(Result<i32, CclError>, &str); 4] = [
        (
            Ok(21799),
            "NCCL version is 2.17.99, but >=2.18 and <3 is required",
        ),
        (
            Ok(30000),
            "NCCL version is 3.0.0, but >=2.18 and <3 is required",
        ),
        (
            Ok(2804),
            "NCCL version is 2.8.4, but >=2.18 and <3 is required",
        ),
        (
            Err(CclError::SystemError),
            "ncclGetVersion() failed with error 2",
        ),
    ];
    for (version, message) in cases {
        let log = Log::default();
        let mut ccl = MockCcl::new();
        ccl.expect_get_version().return_const(version);
        let driver = HipDriver::create(
            HipOptions::default(),
            |_| {
                Ok(LoadedHip {
                    hip: Arc::new(node(1, &log, |_| {})),
                    library_path: None,
                })
            },
            || Ok(&ccl as &dyn Ccl),
        )
        .unwrap();
        assert!(!driver.collectives().is_available());
        let err = driver.collectives().require().unwrap_err();
        assert_eq!(err.code(), StatusCode::Unavailable);
        assert_eq!(err.message(), message);
        // The driver itself works.
        assert_eq!(driver.query_available_devices().unwrap().len(), 1);
    }
    let log = Log::default();
    let driver = driver(node(1, &log, |_| {}));
    let err = driver.collectives().require().unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(
        err.message()
            .starts_with("RCCL runtime library version 2.18 and greater not available")
    );
    // A broken RCCL (symbol missing after a good version) keeps its code.
    let broken = HipDriver::create(
        HipOptions::default(),
        |_| {
            Ok(LoadedHip {
                hip: Arc::new(node(1, &log, |_| {})),
                library_path: None,
            })
        },
        || Err(Status::not_found("ncclCommInitRank")),
    )
    .unwrap();
    assert_eq!(
        broken.collectives().require().unwrap_err().code(),
        StatusCode::NotFound
    );
}

#[test]
fn hip_init_failure_is_mapped_by_value_with_the_runtime_strings() {
    let log = Log::default();
    let hip = node(0, &log, |m| {
        m.expect_init().returning(|_| Err(HipError::NoDevice));
    });
    let err = HipDriver::create(
        HipOptions::default(),
        |_| {
            Ok(LoadedHip {
                hip: Arc::new(hip),
                library_path: None,
            })
        },
        || Err(rccl_not_available()),
    )
    .unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert_eq!(
        err.to_string(),
        "FAILED_PRECONDITION; HIP driver error 'hipErrorNoDevice' (100): no ROCm-capable device is detected; hipInit"
    );
    let hip = node(0, &log, |m| {
        m.expect_init().returning(|_| Err(HipError::Unknown));
    });
    let err = HipDriver::create(
        HipOptions::default(),
        |_| {
            Ok(LoadedHip {
                hip: Arc::new(hip),
                library_path: None,
            })
        },
        || Err(rccl_not_available()),
    )
    .unwrap_err();
    assert_eq!(err.code(), StatusCode::Unknown);
    assert_eq!(
        err.message(),
        "HIP driver error 'HIP_ERROR_UNKNOWN' (999): unknown error"
    );
}

// ------------------------------------------------------------- enumeration

#[test]
fn enumeration_gives_ids_paths_and_names_in_order() {
    let log = Log::default();
    let driver = driver(node(3, &log, |_| {}));
    calls(&log);
    let infos = driver.query_available_devices().unwrap();
    let ids: Vec<u64> = infos.iter().map(|i| i.device_id.0).collect();
    assert_eq!(ids, [1, 2, 3]);
    assert_eq!(infos[0].path, "GPU-00112233-4455-6677-8899-aabbccddeeff");
    assert_eq!(infos[2].path, "GPU-00112233-4455-6677-8899-aabbccddeefd");
    assert_eq!(infos[1].name, "AMD Instinct MI300X #1");
    assert_eq!(
        calls(&log)[..4],
        [
            "hipGetDeviceCount",
            "hipDeviceGet(0)",
            "hipDeviceGetName(0,128)",
            "hipDeviceGetUuid(0)"
        ]
    );
}

#[test]
fn enumeration_has_no_fixed_size_pool() {
    // 100 devices with 127-byte names: IREE's 128 bytes per device would
    // overrun; here every name and path is whole.
    let log = Log::default();
    let long = "N".repeat(400);
    let hip = node(100, &log, move |m| {
        m.expect_device_get_name()
            .returning(move |_, _| Ok(long.clone()));
    });
    let infos = driver(hip).query_available_devices().unwrap();
    assert_eq!(infos.len(), 100);
    assert!(
        infos
            .iter()
            .all(|i| i.name.len() == 127 && i.path.len() == 40)
    );
}

#[test]
fn the_first_failing_call_fails_the_whole_enumeration() {
    let log = Log::default();
    let hip = node(3, &log, |m| {
        m.expect_device_get_name()
            .withf(|d, _| d.0 == 1)
            .returning(|_, _| Err(HipError::InvalidValue));
    });
    let err = driver(hip).query_available_devices().unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert_eq!(err.annotations(), ["hipDeviceGetName"]);
    let hip = node(3, &log, |m| {
        m.expect_get_device_count()
            .returning(|| Err(HipError::NotInitialized));
    });
    let err = driver(hip).query_available_devices().unwrap_err();
    assert_eq!(err.code(), StatusCode::Internal);
    assert_eq!(err.annotations(), ["hipGetDeviceCount"]);
    let hip = node(3, &log, |m| {
        m.expect_get_device_count().returning(|| Ok(-2));
    });
    let err = driver(hip).query_available_devices().unwrap_err();
    assert_eq!(err.code(), StatusCode::Internal);
    assert!(err.message().contains("negative count"));
    let hip = node(3, &log, |m| {
        m.expect_device_get_uuid()
            .returning(|_| Err(HipError::InvalidDevice));
    });
    assert_eq!(
        driver(hip)
            .query_available_devices()
            .unwrap_err()
            .annotations(),
        ["hipDeviceGetUuid"]
    );
}

// --------------------------------------------------------------- selection

#[test]
fn empty_path_selects_the_default_index() {
    let log = Log::default();
    let options = HipOptions::from_pairs([("hip_default_index", "2")], None).unwrap();
    let third = driver_with(node(3, &log, |_| {}), options);
    assert_eq!(third.resolve_path("").unwrap(), [HipDevice(2)]);
    let options = HipOptions::from_pairs([("hip_default_index", "5")], None).unwrap();
    let err = driver_with(node(2, &log, |_| {}), options)
        .resolve_path("")
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert_eq!(
        err.message(),
        "default device 5 not found (of 2 enumerated)"
    );
    let err = driver(node(0, &log, |_| {})).resolve_path("").unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert_eq!(err.message(), "no compatible HIP devices were found");
    // ROCm answers hipErrorNoDevice on a node without GPUs: still IREE's message.
    let no_gpu = driver(node(0, &log, |m| {
        m.expect_get_device_count()
            .returning(|| Err(HipError::NoDevice));
    }));
    assert!(no_gpu.query_available_devices().unwrap().is_empty());
    let err = no_gpu.resolve_path("").unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert_eq!(err.message(), "no compatible HIP devices were found");
    assert_eq!(
        no_gpu.resolve_path("0").unwrap_err().message(),
        "device 0 not found (of 0 enumerated)"
    );
}

#[test]
fn uuid_paths_in_both_spellings_name_the_same_device() {
    let log = Log::default();
    let driver = driver(node(3, &log, |_| {}));
    let dashed = driver
        .resolve_path("GPU-00112233-4455-6677-8899-aabbccddeefe")
        .unwrap();
    let plain = driver
        .resolve_path("GPU-00112233445566778899AABBCCDDEEFE")
        .unwrap();
    assert_eq!(dashed, [HipDevice(1)]);
    assert_eq!(plain, dashed);
    // IREE's example UUID is device 0.
    assert_eq!(
        driver
            .resolve_path("GPU-00112233-4455-6677-8899-aabbccddeeff")
            .unwrap(),
        driver
            .resolve_path("GPU-00112233445566778899AABBCCDDEEFF")
            .unwrap()
    );
    calls(&log);
    // Unlike IREE's, the scan reads every device: a UUID two devices report
    // must not silently name the first.
    driver
        .resolve_path("GPU-00112233445566778899aabbccddeefe")
        .unwrap();
    assert_eq!(
        calls(&log),
        [
            "hipGetDeviceCount",
            "hipDeviceGet(0)",
            "hipDeviceGetUuid(0)",
            "hipDeviceGet(1)",
            "hipDeviceGetUuid(1)",
            "hipDeviceGet(2)",
            "hipDeviceGetUuid(2)"
        ]
    );
}

#[test]
fn a_uuid_two_devices_report_is_ambiguous() {
    let log = Log::default();
    // Devices 1 and 3 both report device 1's UUID.
    let driver = driver(node(4, &log, |m| {
        m.expect_device_get_uuid()
            .returning(|d| Ok(HipUuid(uuid(if d.0 == 3 { 1 } else { d.0 }))));
    }));
    let err = driver
        .resolve_path("GPU-00112233-4455-6677-8899-aabbccddeefe")
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert_eq!(
        err.message(),
        "HIP UUID GPU-00112233-4455-6677-8899-aabbccddeefe is reported by devices 1 and 3; a UUID path must name one device (select it by index)"
    );
    // The others still resolve, and so do both by index.
    assert_eq!(
        driver
            .resolve_path("GPU-00112233-4455-6677-8899-aabbccddeeff")
            .unwrap(),
        [HipDevice(0)]
    );
    assert_eq!(
        driver.resolve_path("1,3").unwrap(),
        [HipDevice(1), HipDevice(3)]
    );
}

#[test]
fn unknown_and_malformed_uuids() {
    let log = Log::default();
    let driver = driver(node(2, &log, |_| {}));
    let err = driver
        .resolve_path("GPU-FFFFFFFF-0000-0000-0000-00000000000A")
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert_eq!(
        err.message(),
        "HIP device with UUID GPU-ffffffff-0000-0000-0000-00000000000a not found"
    );
    calls(&log);
    let err = driver.resolve_path("GPU-0011--22").unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert_eq!(
        err.message(),
        "invalid GPU UUID: '0011--22' (expected HIP's 32 hex digits, dashes optional, or HSA's 16)"
    );
    assert!(calls(&log).is_empty(), "a malformed path makes no HIP call");
}

#[test]
fn index_paths() {
    let log = Log::default();
    let driver = driver(node(2, &log, |_| {}));
    assert_eq!(driver.resolve_path("1").unwrap(), [HipDevice(1)]);
    assert_eq!(driver.resolve_path("0x1").unwrap(), [HipDevice(1)]);
    let err = driver.resolve_path("3").unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert_eq!(err.message(), "device 3 not found (of 2 enumerated)");
    for bad in ["-1", "1abc", "01"] {
        let err = driver.resolve_path(bad).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument, "{bad}");
        assert!(
            err.message().starts_with("device path is not an index"),
            "{err}"
        );
    }
    let err = driver.resolve_path("hip:0").unwrap_err();
    assert_eq!(err.code(), StatusCode::Unimplemented);
    assert!(err.message().starts_with("unsupported device path"));
}

#[test]
fn comma_lists_form_one_logical_device_in_order() {
    let log = Log::default();
    let driver = driver(node(4, &log, |_| {}));
    assert_eq!(
        driver
            .resolve_path("3,GPU-00112233445566778899aabbccddeeff,1")
            .unwrap(),
        [HipDevice(3), HipDevice(0), HipDevice(1)]
    );
    let err = driver
        .resolve_path("0,GPU-00112233445566778899aabbccddeeff")
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.message().contains("listed twice (entries 1 and 2)"),
        "{err}"
    );
    let err = driver.resolve_path("0,,1").unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    let err = driver.resolve_path("0,7").unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert_eq!(err.message(), "device 7 not found (of 4 enumerated)");
    let many = vec!["0"; 65].join(",");
    let err = driver.resolve_path(&many).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(
        err.message()
            .starts_with("too many physical devices allocated for this logical device")
    );
}

#[test]
fn explicit_ids() {
    let log = Log::default();
    let driver = driver(node(2, &log, |_| {}));
    let err = driver
        .create_multi_device_by_ids(&[DeviceId(1), DeviceId::DEFAULT])
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert_eq!(
        err.message(),
        "invalid to create a device group with the default device id"
    );
    let ids: Vec<DeviceId> = (0..65).map(|_| DeviceId(1)).collect();
    let err = driver.create_multi_device_by_ids(&ids).unwrap_err();
    assert!(err.message().starts_with("too many physical devices"));
    let err = driver.create_device_by_id(DeviceId(3), &[]).unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
    assert_eq!(err.message(), "device id 3 not found (of 2 enumerated)");
    let device = driver.create_device_by_id(DeviceId(2), &[]).unwrap();
    assert_eq!(device.physical_devices()[0].device, HipDevice(1));
    let device = driver.create_device_by_id(DeviceId::DEFAULT, &[]).unwrap();
    assert_eq!(device.physical_devices()[0].device, HipDevice(0));
}

// -------------------------------------------------------------------- dump

#[test]
fn dump_prints_the_library_path_and_properties() {
    let log = Log::default();
    let driver = driver(node(2, &log, |_| {}));
    let dump = driver.dump_device_info(DeviceId(1)).unwrap();
    assert!(dump.starts_with(
        "\n- amdhip64_dylib_path: /opt/rocm/lib/libamdhip64.so\n- gpu-compute-capability: 9.4\n- gpu-arch-name: gfx942:sramecc+:xnack-\n"
    ));
    assert!(dump.contains("\n- memory-total-global-memory-size: 196608 MB\n"));
    assert!(dump.ends_with("\n- gpu-warp-size: 64\n"));
}

#[test]
fn dump_without_the_optional_properties_call_uses_attributes() {
    for missing in [HipError::NotSupported, HipError::SharedObjectSymbolNotFound] {
        let log = Log::default();
        let hip = node(1, &log, move |m| {
            m.expect_get_device_properties()
                .returning(move |_| Err(missing));
        });
        let dump = driver(hip).dump_device_info(DeviceId(1)).unwrap();
        assert!(
            dump.contains("\n- gpu-arch-name: unknown (hipGetDeviceProperties not available)\n")
        );
        assert!(dump.contains("\n- gpu-compute-capability: 7.7\n"));
        assert!(dump.contains("\n- gpu-warp-size: 64\n"));
    }
    let log = Log::default();
    let hip = node(1, &log, |m| {
        m.expect_get_device_properties()
            .returning(|_| Err(HipError::InvalidDevice));
    });
    let err = driver(hip).dump_device_info(DeviceId(1)).unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    assert_eq!(err.annotations(), ["hipGetDeviceProperties"]);
    let log = Log::default();
    let err = driver(node(1, &log, |_| {}))
        .dump_device_info(DeviceId(9))
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::NotFound);
}

// ---------------------------------------------------------- logical device

#[test]
fn a_logical_device_peers_its_members_and_records_links() {
    let log = Log::default();
    let (l1, l2) = (log.clone(), log.clone());
    let driver = driver(node(4, &log, move |m| {
        m.expect_device_can_access_peer()
            .withf(|s, d| (*s, *d) == (2, 0))
            .returning(move |_, _| {
                push(&l1, "hipDeviceCanAccessPeer(2,0) -> false");
                Ok(false)
            });
        m.expect_device_enable_peer_access()
            .withf(|d, _| *d == 2)
            .returning(move |_, _| {
                push(&l2, "hipDeviceEnablePeerAccess(2,0) -> already enabled");
                Err(HipError::PeerAccessAlreadyEnabled)
            });
    }));
    calls(&log);
    let device = driver.create_device_by_path("0,2", &[]).unwrap();
    let log = calls(&log);
    let peering: Vec<&str> = log
        .iter()
        .map(String::as_str)
        .filter(|c| {
            c.starts_with("hipSetDevice")
                || c.starts_with("hipDeviceCanAccessPeer")
                || c.starts_with("hipDeviceEnablePeerAccess")
        })
        .collect();
    assert_eq!(
        peering,
        [
            "hipSetDevice(0)",
            "hipDeviceCanAccessPeer(0,2)",
            "hipDeviceEnablePeerAccess(2,0) -> already enabled",
            "hipSetDevice(2)",
            "hipDeviceCanAccessPeer(2,0) -> false",
        ]
    );
    assert!(device.peer_link(0, 1).unwrap().is_peer());
    assert!(!device.peer_link(1, 0).unwrap().is_peer());
    assert_eq!(device.peer_link(0, 0), None);
    assert_eq!(
        device.physical_devices()[1].uuid.path(),
        "GPU-00112233-4455-6677-8899-aabbccddeefd"
    );
    assert!(device.physical_devices()[0].managed_memory);
}

#[test]
fn a_single_device_makes_no_peering_calls() {
    let log = Log::default();
    let driver = driver(node(4, &log, |_| {}));
    calls(&log);
    driver.create_device_by_path("1", &[]).unwrap();
    assert!(
        !calls(&log)
            .iter()
            .any(|c| c.contains("Peer") || c.contains("SetDevice"))
    );
}

#[test]
fn logical_device_creation_errors() {
    let log = Log::default();
    let driver = driver(node(2, &log, |m| {
        m.expect_device_enable_peer_access()
            .returning(|_, _| Err(HipError::PeerAccessUnsupported));
    }));
    let err = driver.create_device_by_path("0,1", &[]).unwrap_err();
    assert_eq!(err.code(), StatusCode::Internal);
    assert_eq!(err.annotations(), ["hipDeviceEnablePeerAccess"]);
    let err = driver
        .create_device_by_path("0,1", &[("hip_external_stream", "0x1000")])
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("hip_external_stream"));
    let log = Log::default();
    let ok = driver_with(node(2, &log, |_| {}), HipOptions::default());
    let device = ok
        .create_device_by_path("1", &[("hip_external_stream", "4096")])
        .unwrap();
    assert_eq!(device.params().external_stream, Some(4096));
    let err = ok
        .create_device_by_path("1", &[("hip_external_stream", "x")])
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::FailedPrecondition);
    let mut options = HipOptions::default();
    options.device.arena_block_size = 100;
    let small = driver_with(node(1, &log, |_| {}), options);
    let err = small.create_device_by_path("0", &[]).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert_eq!(err.message(), "arena block size too small (< 4096 bytes)");
}

#[test]
fn hip_trait_object_is_shared_not_copied() {
    let log = Log::default();
    let driver = driver(node(2, &log, |_| {}));
    let device = driver.create_device_by_path("0,1", &[]).unwrap();
    assert!(Arc::ptr_eq(driver.hip(), device.hip()));
    let _: &dyn Hip = driver.hip().as_ref();
}

// ---------------------------------------------------------- HAL device

mod hal {
    use super::*;
    use amdgpu_hal::device::{FrontierTracker, FrontierTrackerOptions, HalDevice};
    use amdgpu_hal::topology::{
        DeviceCapabilityFlags, Edge, InteropMode, LinkClass, TopologyCapabilities,
    };

    fn tracker() -> Arc<FrontierTracker> {
        Arc::new(FrontierTracker::new(FrontierTrackerOptions::default()))
    }

    #[test]
    fn capabilities_carry_uuid_handle_and_memory_kinds() {
        let log = Log::default();
        let driver = driver(node(3, &log, |_| {}));
        let device = driver.create_device_by_path("2", &[]).unwrap();
        assert_eq!(device.id(), "hip");
        let caps = device.query_capabilities().unwrap();
        assert_eq!(caps.physical_device_uuid, Some(uuid(2)));
        assert_eq!(caps.driver_device_handle.map(|h| h.get()), Some(3));
        assert!(
            caps.flags
                .contains(DeviceCapabilityFlags::SHARED_VIRTUAL_ADDRESS)
        );
        assert!(!caps.flags.contains(DeviceCapabilityFlags::UNIFIED_MEMORY));
        let multi = driver.create_device_by_path("0,1", &[]).unwrap();
        let caps = multi.query_capabilities().unwrap();
        assert_eq!(caps.physical_device_uuid, None);
        assert_eq!(caps.driver_device_handle, None);
    }

    #[test]
    fn peer_links_with_native_atomics_refine_to_infinity_fabric() {
        let log = Log::default();
        let driver = driver(node(2, &log, |_| {}));
        let group = driver.group_all_devices(tracker()).unwrap();
        assert_eq!(group.device_count(), 2);
        let t = group.topology();
        assert_eq!(t.edge(0, 0), Some(Edge::SELF));
        let e = t.edge(0, 1).unwrap();
        assert_eq!(e.link_class(), LinkClass::NvlinkIf);
        assert_eq!(e.buffer_read_mode_noncoherent(), InteropMode::Native);
        assert!(e.capabilities().contains(
            TopologyCapabilities::P2P_COPY
                | TopologyCapabilities::ATOMIC_DEVICE
                | TopologyCapabilities::PEER_ACCESS_REQUIRES_GRANT
                | TopologyCapabilities::SAME_RUNTIME_DOMAIN
        ));
        assert_eq!((e.copy_cost(), e.latency_class()), (3, 3));
        assert!(group.device_at(1).unwrap().topology_info().is_some());
    }

    #[test]
    fn links_without_peer_access_are_host_staged_copies() {
        let log = Log::default();
        let hip = node(3, &log, |m| {
            m.expect_device_can_access_peer()
                .withf(|s, d| (*s == 2) != (*d == 2))
                .returning(|_, _| Ok(false));
            m.expect_device_get_p2p_attribute()
                .withf(|a, _, _| *a == HipP2pAttribute::NativeAtomicSupported)
                .returning(|_, _, _| Ok(0));
            m.expect_device_get_p2p_attribute()
                .withf(|a, _, _| *a == HipP2pAttribute::PerformanceRank)
                .returning(|_, _, _| Ok(2));
        });
        let group = driver(hip).group_all_devices(tracker()).unwrap();
        let t = group.topology();
        let pcie = t.edge(0, 1).unwrap();
        assert_eq!(pcie.link_class(), LinkClass::PcieSameRoot);
        assert!(
            !pcie
                .capabilities()
                .contains(TopologyCapabilities::ATOMIC_DEVICE)
        );
        assert_eq!((pcie.copy_cost(), pcie.latency_class()), (7, 7));
        for (i, j) in [(0, 2), (2, 0), (1, 2)] {
            let e = t.edge(i, j).unwrap();
            assert_eq!(e.link_class(), LinkClass::HostStaged, "[{i},{j}]");
            assert_eq!(e.buffer_read_mode_noncoherent(), InteropMode::Copy);
            assert_eq!(e.buffer_write_mode_coherent(), InteropMode::Copy);
            assert!(!e.capabilities().contains(TopologyCapabilities::P2P_COPY));
        }
        assert_eq!(t.peer_bitmaps(2).can_p2p_with & 0b011, 0);
    }

    #[test]
    fn a_failing_p2p_query_fails_the_group_with_the_call_named() {
        let log = Log::default();
        let hip = node(2, &log, |m| {
            m.expect_device_get_p2p_attribute()
                .returning(|_, _, _| Err(HipError::InvalidDevice));
        });
        let err = driver(hip).group_all_devices(tracker()).unwrap_err();
        assert_eq!(err.code(), StatusCode::FailedPrecondition);
        assert!(err.mentions("hipDeviceGetP2PAttribute"), "{err}");
        assert!(err.mentions("refining edge [0,1]"), "{err}");
    }
}

#[test]
fn logical_device_create_validates_its_own_inputs() {
    use amdgpu_hal::hip::rccl::Collectives;
    use amdgpu_hal::hip::{DeviceParams, HipLogicalDevice};
    let log = Log::default();
    let hip: Arc<dyn Hip> = Arc::new(node(2, &log, |_| {}));
    let make = |devices: &[HipDevice]| {
        HipLogicalDevice::create(
            Arc::clone(&hip),
            devices,
            DeviceParams::default(),
            Collectives::Unavailable(rccl_not_available()),
        )
    };
    let err = make(&[]).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    let err = make(&[HipDevice(1), HipDevice(1)]).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.message().contains("listed twice (entries 1 and 2)"));
    let many: Vec<HipDevice> = (0..65).map(HipDevice).collect();
    assert!(
        make(&many)
            .unwrap_err()
            .message()
            .starts_with("too many physical devices")
    );
    assert_eq!(
        make(&[HipDevice(1), HipDevice(0)])
            .unwrap()
            .physical_devices()
            .len(),
        2
    );
}
