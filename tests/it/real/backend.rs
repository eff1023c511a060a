//! The backend traits over the real libraries: what HAL code sees from
//! Debian's ROCm on a machine without a GPU, as vendor enums and Statuses.
#![cfg(feature = "real")]

use crate::real_support;
use crate::support;

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::dylib::cuda::CudaHip;
use amdgpu_hal::backend::dylib::hip::HipLibrary;
use amdgpu_hal::backend::dylib::hsa::HsaLibrary;
use amdgpu_hal::backend::dylib::library::{DynamicLibrary, HIP, HSA};
use amdgpu_hal::backend::{
    Agent, CallResultExt, DevicePtr, Hip, HipDevice, HipDeviceAttribute, HipError, HipP2pAttribute,
    Hsa, HsaExt, HsaStatus,
};

/// Debian's HSA runtime behind the trait, or `None` (one line printed).
fn hsa(what: &str) -> Option<Arc<dyn Hsa>> {
    support::requires::hsa_runtime(what).then(|| {
        let library = DynamicLibrary::open_with_env(&HSA, &[], None).unwrap();
        Arc::new(HsaLibrary::from_library(library).unwrap()) as Arc<dyn Hsa>
    })
}

/// Debian's HIP runtime behind the trait, or `None` (one line printed).
fn hip(what: &str) -> Option<Arc<dyn Hip>> {
    support::requires::hip_runtime(what).then(|| {
        let library = DynamicLibrary::open_with_env(&HIP, &[], None).unwrap();
        Arc::new(HipLibrary::from_library(library).unwrap()) as Arc<dyn Hip>
    })
}

#[test]
fn hsa_init_failure_is_a_clear_status() {
    let Some(hsa) = hsa("hsa_init's failure as a Status over ROCm 5.2") else {
        return;
    };
    assert_eq!(hsa.init(), Err(HsaStatus::ErrorOutOfResources));
    let status = hsa.init().call_status("hsa_init").unwrap_err();
    assert_eq!(status.code(), StatusCode::ResourceExhausted);
    assert!(
        status
            .message()
            .starts_with("[hsa_init] HSA_STATUS_ERROR_OUT_OF_RESOURCES"),
        "{status}"
    );
    assert_eq!(hsa.iterate_agents(), Err(HsaStatus::ErrorNotInitialized));
    let status = hsa
        .iterate_agents()
        .call_status("hsa_iterate_agents")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::FailedPrecondition);
    assert_eq!(
        hsa.agent_name(Agent(1)),
        Err(HsaStatus::ErrorNotInitialized)
    );
    assert_eq!(
        hsa.memory_pool_free(DevicePtr(0x1000)),
        Err(HsaStatus::ErrorInvalidArgument)
    );
    assert_eq!(hsa.shut_down(), Err(HsaStatus::ErrorNotInitialized));
}

#[test]
fn hip_init_failure_is_a_clear_status() {
    let Some(hip) = hip("hipInit's failure as a Status over HIP 5.2") else {
        return;
    };
    assert_eq!(hip.init(0), Err(HipError::InvalidDevice));
    let status = hip.init(0).call_status("hipInit").unwrap_err();
    assert_eq!(status.code(), StatusCode::FailedPrecondition);
    assert!(
        status.mentions("HIP driver error 'hipErrorInvalidDevice' (101)"),
        "{status}"
    );
    assert_eq!(hip.get_device_count(), Err(HipError::NoDevice));
    assert_eq!(hip.driver_get_version(), Ok(50221153));
    assert_eq!(hip.device_get(0), Err(HipError::InvalidDevice));
    assert_eq!(
        hip.device_get_uuid(HipDevice(0)),
        Err(HipError::InvalidDevice)
    );
    assert_eq!(hip.get_device_properties(0), Err(HipError::InvalidDevice));
    assert_eq!(
        hip.device_get_attribute(HipDeviceAttribute::WarpSize, 0),
        Err(HipError::InvalidDevice)
    );
    assert_eq!(hip.get_error_name(HipError::NoDevice), "hipErrorNoDevice");
}

#[test]
fn hip_on_cuda_through_the_trait() {
    let Some(so) = real_support::build_shared_object(
        "cuda-trait",
        "libcuda.so.1",
        r#"
#include <stdio.h>
#include <string.h>
int cuInit(unsigned f) { return 0; }
int cuDriverGetVersion(int* v) { *v = 13000; return 0; }
int cuDeviceGetCount(int* c) { *c = 1; return 0; }
int cuDeviceGet(int* d, int o) { if (o != 0) return 101; *d = 0; return 0; }
int cuDeviceGetName(char* n, int len, int d) { snprintf(n, len, "NVIDIA H200"); return 0; }
int cuDeviceGetUuid(unsigned char* u, int d) { for (int i = 0; i < 16; ++i) u[i] = 0xa0 + i; return 0; }
int cuDeviceGetAttribute(int* v, int a, int d) { *v = a == 75 ? 9 : a == 76 ? 0 : a == 16 ? 132 : a == 10 ? 32 : 1; return 0; }
int cuDeviceTotalMem_v2(size_t* b, int d) { *b = 150754820096ull; return 0; }
int cuDeviceGetPCIBusId(char* s, int len, int d) { snprintf(s, len, "00000000:18:00.0"); return 0; }
int cuDeviceCanAccessPeer(int* c, int a, int b) { *c = 0; return 0; }
int cuDeviceGetP2PAttribute(int* v, int a, int s, int d) { return 101; }
int cuDevicePrimaryCtxRetain(void** c, int d) { *c = (void*)16; return 0; }
int cuDevicePrimaryCtxRelease_v2(int d) { return 0; }
int cuCtxSetCurrent(void* c) { return 0; }
int cuCtxEnablePeerAccess(void* c, unsigned f) { return 217; }
int cuGetErrorName(int e, const char** s) { *s = "CUDA_ERROR_INVALID_DEVICE"; return 0; }
int cuGetErrorString(int e, const char** s) { *s = "invalid device ordinal"; return 0; }
"#,
    ) else {
        return;
    };
    let hip: Arc<dyn Hip> = Arc::new(CudaHip::load(&[real_support::file_entry(&so)]).unwrap());
    assert_eq!(hip.init(0), Ok(()));
    assert_eq!(hip.get_device_count(), Ok(1));
    let device = hip.device_get(0).unwrap();
    assert_eq!(hip.device_get_name(device, 128).unwrap(), "NVIDIA H200");
    assert_eq!(
        hip.device_get_uuid(device).unwrap().device_path(),
        "GPU-a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf"
    );
    let props = hip.get_device_properties(0).unwrap();
    assert_eq!(
        (props.name.as_str(), props.major, props.minor),
        ("NVIDIA H200", 9, 0)
    );
    assert_eq!((props.multi_processor_count, props.warp_size), (132, 32));
    assert_eq!(props.total_global_mem, 150754820096);
    assert_eq!(hip.device_get(1), Err(HipError::InvalidDevice));
    assert_eq!(
        hip.device_get_p2p_attribute(HipP2pAttribute::AccessSupported, 0, 0),
        Err(HipError::InvalidDevice)
    );
    assert_eq!(
        hip.device_enable_peer_access(0, 0),
        Err(HipError::PeerAccessUnsupported)
    );
    assert_eq!(
        hip.get_error_name(HipError::InvalidDevice),
        "CUDA_ERROR_INVALID_DEVICE"
    );
}
