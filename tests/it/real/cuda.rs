//! HIP on NVIDIA over the CUDA driver API. On machines without NVIDIA's
//! driver the real `libcuda.so.1` is absent (the UNAVAILABLE path is
//! asserted); the HIP mapping itself runs against a fake `libcuda` built
//! here, whose answers encode what was asked.
#![cfg(feature = "real")]

use crate::real_support;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::dylib::cuda::CudaHip;
use amdgpu_hal::backend::dylib::hip::c_chars_to_string;
use amdgpu_hal::backend::dylib::library::{CUDA, DynamicLibrary};
use amdgpu_sys::hip_error::*;
use real_support::{build_shared_object, file_entry};

/// A fake driver with `DEVICES` devices. Attributes answer `attrib * 1000 +
/// dev`, P2P attributes `attrib * 100 + src * 10 + dst`, so the test sees
/// which CUDA enum value the mapping chose.
fn fake_cuda(devices: u32) -> Option<CudaHip> {
    let source = format!(
        r#"
#include <string.h>
#include <stdio.h>
#define DEVICES {devices}
static int retained[8];
int cuInit(unsigned flags) {{ return flags == 0 ? 0 : 1; }}
int cuDriverGetVersion(int* v) {{ *v = 13000; return 0; }}
int cuDeviceGetCount(int* c) {{ *c = DEVICES; return 0; }}
int cuDeviceGet(int* d, int ordinal) {{ if (ordinal < 0 || ordinal >= DEVICES) return 101; *d = ordinal; return 0; }}
int cuDeviceGetName(char* name, int len, int dev) {{ snprintf(name, len, "Fake H200 %d", dev); return 0; }}
int cuDeviceGetUuid(char* uuid, int dev) {{ for (int i = 0; i < 16; ++i) uuid[i] = (char)(i * 17 + dev); return 0; }}
int cuDeviceGetAttribute(int* v, int attrib, int dev) {{ *v = attrib * 1000 + dev; return 0; }}
int cuDeviceTotalMem_v2(size_t* bytes, int dev) {{ *bytes = 150754820096ull + dev; return 0; }}
int cuDeviceGetPCIBusId(char* id, int len, int dev) {{ snprintf(id, len, "00000000:%02X:00.0", 0x18 + dev); return 0; }}
int cuDeviceCanAccessPeer(int* can, int dev, int peer) {{ *can = dev != peer; return 0; }}
int cuDeviceGetP2PAttribute(int* v, int attrib, int src, int dst) {{ *v = attrib * 100 + src * 10 + dst; return 0; }}
int cuDevicePrimaryCtxRetain(void** ctx, int dev) {{ retained[dev]++; *ctx = (void*)(long)(0x1000 + dev); return 0; }}
int cuDevicePrimaryCtxRelease_v2(int dev) {{ retained[dev]--; return 0; }}
int cuCtxSetCurrent(void* ctx) {{ return ctx ? 0 : 201; }}
int cuCtxEnablePeerAccess(void* ctx, unsigned flags) {{ return flags ? 1 : 704; }}
int cuGetErrorName(int e, const char** s) {{ if (e == 100) {{ *s = "CUDA_ERROR_NO_DEVICE"; return 0; }} return 1; }}
int cuGetErrorString(int e, const char** s) {{ if (e == 100) {{ *s = "no CUDA-capable device is detected"; return 0; }} return 1; }}
"#
    );
    let so = build_shared_object(&format!("cuda-{devices}"), "libcuda.so.1", &source)?;
    Some(CudaHip::load(&[file_entry(&so)]).expect("the fake driver has every required symbol"))
}

#[test]
fn the_real_driver_is_unavailable_without_nvidia() {
    let result = DynamicLibrary::open_with_env(&CUDA, &[], None);
    if std::path::Path::new("/proc/driver/nvidia").exists() {
        assert!(result.is_ok(), "NVIDIA machine: libcuda.so.1 loads");
    } else {
        let err = result.unwrap_err();
        assert_eq!(err.code(), StatusCode::Unavailable);
        assert!(
            err.mentions("CUDA driver library 'libcuda.so.1' not available"),
            "{err}"
        );
        assert!(
            err.mentions(
                "\n  Tried: libcuda.so.1\n    libcuda.so.1: cannot open shared object file"
            ),
            "{err}"
        );
        assert!(err.mentions("\n  Tried: libcuda.so\n"), "{err}");
        assert!(
            err.mentions("(candidates from the system loader's search)"),
            "{err}"
        );
    }
}

#[test]
fn devices_names_uuids_and_versions() {
    let Some(cuda) = fake_cuda(2) else {
        return;
    };
    assert_eq!(cuda.init(0), Ok(()));
    assert_eq!(
        cuda.init(1),
        Err(1),
        "CUDA_ERROR_INVALID_VALUE maps to hipErrorInvalidValue"
    );
    assert_eq!(cuda.driver_get_version(), Ok(13000));
    assert_eq!(cuda.runtime_get_version(), Ok(13000));
    assert_eq!(cuda.get_device_count(), Ok(2));
    assert_eq!(cuda.device_get(1), Ok(1));
    assert_eq!(cuda.device_get(2), Err(hipErrorInvalidDevice));
    assert_eq!(cuda.device_get_name(1, 128).as_deref(), Ok("Fake H200 1"));
    assert_eq!(
        cuda.device_get_name(1, 6).as_deref(),
        Ok("Fake "),
        "truncated to the buffer"
    );
    let uuid = cuda.device_get_uuid(1).unwrap();
    assert_eq!(uuid[0], 1);
    assert_eq!(uuid[15], (15 * 17 + 1) as u8);
    assert_eq!(cuda.device_total_mem(0), Ok(150754820096));
    assert_eq!(
        cuda.device_get_pci_bus_id(1).as_deref(),
        Ok("00000000:19:00.0")
    );
}

#[test]
fn zero_devices_is_hip_no_device() {
    let Some(cuda) = fake_cuda(0) else {
        return;
    };
    assert_eq!(cuda.get_device_count(), Err(hipErrorNoDevice));
    assert_eq!(
        cuda.get_error_name(hipErrorNoDevice),
        "CUDA_ERROR_NO_DEVICE"
    );
    assert_eq!(
        cuda.get_error_string(hipErrorNoDevice),
        "no CUDA-capable device is detected"
    );
    assert_eq!(
        cuda.get_error_name(12345),
        "",
        "an unknown code has no name"
    );
}

#[test]
fn attributes_use_the_cuda_values_hip_nvidia_maps_to() {
    let Some(cuda) = fake_cuda(2) else {
        return;
    };
    // hipDeviceAttributeComputeCapabilityMajor (23) → CU_..._COMPUTE_CAPABILITY_MAJOR (75).
    assert_eq!(cuda.device_get_attribute(23, 1), Ok(75_001));
    // hipDeviceAttributeWarpSize (87) → CU_DEVICE_ATTRIBUTE_WARP_SIZE (10).
    assert_eq!(cuda.device_get_attribute(87, 0), Ok(10_000));
    // hipDeviceAttributeMultiprocessorCount (63) → 16.
    assert_eq!(cuda.device_get_attribute(63, 0), Ok(16_000));
    // Not in HIP's NVIDIA switch: hipErrorInvalidValue without a call.
    assert_eq!(cuda.device_get_attribute(69, 0), Err(hipErrorInvalidValue));
}

#[test]
fn p2p_attributes_shift_to_one_based_and_peer_calls_use_primary_contexts() {
    let Some(cuda) = fake_cuda(2) else {
        return;
    };
    // hipDevP2PAttrPerformanceRank (0) → CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK (1).
    assert_eq!(cuda.device_get_p2p_attribute(0, 0, 1), Ok(101));
    assert_eq!(cuda.device_get_p2p_attribute(3, 1, 0), Ok(410));
    assert_eq!(
        cuda.device_get_p2p_attribute(4, 1, 0),
        Err(hipErrorInvalidValue)
    );
    assert_eq!(cuda.device_can_access_peer(0, 1), Ok(true));
    assert_eq!(cuda.device_can_access_peer(0, 0), Ok(false));
    assert_eq!(cuda.set_device(1), Ok(()));
    assert_eq!(
        cuda.device_enable_peer_access(0, 0),
        Err(704),
        "PeerAccessAlreadyEnabled keeps its number"
    );
    assert_eq!(cuda.set_device(5), Err(hipErrorInvalidDevice));
}

#[test]
fn properties_are_assembled_from_attributes() {
    let Some(cuda) = fake_cuda(2) else {
        return;
    };
    let props = cuda.get_device_properties(1).unwrap();
    assert_eq!(c_chars_to_string(&props.name), "Fake H200 1");
    assert_eq!(props.major, 75_001);
    assert_eq!(props.minor, 76_001);
    assert_eq!(props.multiProcessorCount, 16_001);
    assert_eq!(props.warpSize, 10_001);
    assert_eq!(props.maxThreadsDim, [2_001, 3_001, 4_001]);
    assert_eq!(props.pciBusID, 33_001);
    assert_eq!(props.totalGlobalMem, 150754820097);
    assert_eq!(
        c_chars_to_string(&props.gcnArchName),
        "",
        "no AMD arch name on NVIDIA"
    );
    assert_eq!(
        cuda.get_device_properties(7).err(),
        Some(hipErrorInvalidDevice)
    );
}
