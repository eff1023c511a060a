//! `devices` and `topology` with `--backend cuda` answered from NVML: a fake
//! `libnvidia-ml.so.1` built here whose answers encode the device and pair
//! asked (the expected values below are computed from that encoding, not by
//! the code under test), its error path, and the fallback to the CUDA
//! driver where NVML cannot answer for CUDA.
//!
//! The fake has 4 GPUs. GPU k: name `Fake NVML GPU`, UUID
//! `GPU-abcdef0k-100k-2000-3000-00000000040k`, memory `(100 + k) GiB` of
//! which 512 MiB reserved, compute capability `9.k`, PCI `0000:(0x18+k):00`.
//! Pairs: 0–1 NVLink (and one PCIe switch: PIX), 2–3 PCIe through several
//! bridges (PXB), 0–2 and 1–3 across host bridges (NODE), 0–3 and 1–2
//! across NUMA nodes (SYS) without P2P. P2P atomics only on NVLink.
//! `FAKE_NVML_INIT=<code>` makes `nvmlInit_v2` fail with that code,
//! `FAKE_NVML_P2P=<code>` makes the 2→3 P2P query fail with it.
#![cfg(feature = "real")]

use crate::real_support::{build_shared_object, file_entry};

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::Hip;
use amdgpu_hal::backend::dylib::nvml::NvmlLibrary;
use amdgpu_hal::backend::dylib::nvml_hip::NvmlHip;
use amdgpu_hal::topology::LinkClass;
use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

const GIB: u64 = 1 << 30;
const RESERVED: u64 = 512 << 20;

const FAKE_NVML: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { char busIdLegacy[16]; unsigned domain, bus, device, pciDeviceId, pciSubSystemId; char busId[32]; } pci_t;
typedef struct { unsigned version; unsigned long long total, reserved, free, used; } mem_t;
static int initialized;
static int env(const char* name) { const char* v = getenv(name); return v ? atoi(v) : 0; }
int nvmlInit_v2(void) { int e = env("FAKE_NVML_INIT"); if (e) return e; initialized++; return 0; }
int nvmlShutdown(void) { if (!initialized) return 1; initialized--; return 0; }
const char* nvmlErrorString(int e) {
  switch (e) { case 9: return "Driver Not Loaded"; case 15: return "GPU is lost"; default: return "Fake NVML error"; }
}
int nvmlDeviceGetCount_v2(unsigned* n) { if (!initialized) return 1; *n = 4; return 0; }
int nvmlDeviceGetHandleByIndex_v2(unsigned i, void** d) { if (i >= 4) return 2; *d = (void*)(long)(0x100 + i); return 0; }
static int dev(void* d) { return (int)((long)d - 0x100); }
int nvmlDeviceGetName(void* d, char* s, unsigned n) { snprintf(s, n, "Fake NVML GPU"); return 0; }
int nvmlDeviceGetUUID(void* d, char* s, unsigned n) {
  int k = dev(d);
  snprintf(s, n, "GPU-abcdef0%d-100%d-2000-3000-00000000040%d", k, k, k); return 0;
}
int nvmlDeviceGetPciInfo_v3(void* d, pci_t* p) {
  memset(p, 0, sizeof *p); p->domain = 0; p->bus = 0x18 + dev(d); p->device = 0;
  snprintf(p->busId, 32, "00000000:%02X:00.0", p->bus); return 0;
}
int nvmlDeviceGetMemoryInfo_v2(void* d, mem_t* m) {
  if (m->version != 0x02000028) return 25;
  m->total = (100ull + dev(d)) << 30; m->reserved = 512ull << 20; m->used = 0; m->free = m->total - m->reserved; return 0;
}
int nvmlDeviceGetCudaComputeCapability(void* d, int* major, int* minor) { *major = 9; *minor = dev(d); return 0; }
static int level(int a, int b) {
  int lo = a < b ? a : b, hi = a < b ? b : a;
  if (lo == 0 && hi == 1) return 10;
  if (lo == 2 && hi == 3) return 20;
  if ((lo == 0 && hi == 2) || (lo == 1 && hi == 3)) return 40;
  return 50;
}
int nvmlDeviceGetTopologyCommonAncestor(void* a, void* b, unsigned* l) { *l = level(dev(a), dev(b)); return 0; }
int nvmlDeviceGetP2PStatus(void* a, void* b, unsigned cap, unsigned* s) {
  int x = dev(a), y = dev(b), lvl = level(x, y), nvlink = lvl == 10;
  if (x == 2 && y == 3 && env("FAKE_NVML_P2P")) return env("FAKE_NVML_P2P");
  switch (cap) {
    case 0: case 1: *s = lvl == 50 ? 5 : 0; return 0;
    case 2: case 3: *s = nvlink ? 0 : 5; return 0;
    default: return 2;
  }
}
"#;

fn fake_nvml() -> Option<std::path::PathBuf> {
    build_shared_object("nvml-4", "libnvidia-ml.so.1", FAKE_NVML)
}

/// A fake `libcuda.so.1` (every symbol HIP on NVIDIA needs) whose one
/// device is named `Fake CUDA GPU`: what answers when NVML is not used.
fn fake_cuda() -> Option<std::path::PathBuf> {
    let source = r#"
#include <stdio.h>
int cuInit(unsigned f) { return 0; }
int cuDriverGetVersion(int* v) { *v = 13000; return 0; }
int cuDeviceGetCount(int* c) { *c = 1; return 0; }
int cuDeviceGet(int* d, int o) { if (o != 0) return 101; *d = 0; return 0; }
int cuDeviceGetName(char* s, int n, int d) { snprintf(s, n, "Fake CUDA GPU"); return 0; }
int cuDeviceGetUuid(char* u, int d) { for (int i = 0; i < 16; ++i) u[i] = (char)(0x11 * i); return 0; }
int cuDeviceGetUuid_v2(char* u, int d) { return cuDeviceGetUuid(u, d); }
int cuDeviceGetAttribute(int* v, int a, int d) { *v = a == 75 ? 9 : 0; return 0; }
int cuDeviceTotalMem_v2(unsigned long* b, int d) { *b = 1ul << 30; return 0; }
int cuDeviceGetPCIBusId(char* s, int n, int d) { snprintf(s, n, "00000000:40:00.0"); return 0; }
int cuDeviceCanAccessPeer(int* c, int d, int p) { *c = 0; return 0; }
int cuDeviceGetP2PAttribute(int* v, int a, int s, int d) { *v = 0; return 0; }
int cuDevicePrimaryCtxRetain(void** c, int d) { *c = (void*)1; return 0; }
int cuDevicePrimaryCtxRelease_v2(int d) { return 0; }
int cuCtxSetCurrent(void* c) { return 0; }
int cuCtxEnablePeerAccess(void* c, unsigned f) { return 0; }
int cuGetErrorName(int e, const char** s) { return 1; }
int cuGetErrorString(int e, const char** s) { return 1; }
"#;
    build_shared_object("cuda-for-nvml", "libcuda.so.1", source)
}

/// The binary with the fake NVML (and a CUDA driver that does not exist,
/// so a fallback would fail loudly).
fn hal(nvml: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("amdgpu-hal").unwrap();
    for var in ["CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "RUST_LOG"] {
        cmd.env_remove(var);
    }
    cmd.env("AMDGPU_HAL_NVML_PATH", file_entry(nvml))
        .env("AMDGPU_HAL_CUDA_PATH", "file:/nonexistent/libcuda.so.1")
        .env("AMDGPU_HAL_NCCL_PATH", "file:/nonexistent/libnccl.so.2");
    cmd
}

fn json(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("one JSON document")
}

/// GPU k's UUID bytes as the fake encodes them.
fn uuid_path(k: usize) -> String {
    format!("GPU-abcdef0{k}-100{k}-2000-3000-00000000040{k}")
}

/// The class the fake's pair encodes (module docs).
fn expected_class(i: usize, j: usize) -> &'static str {
    match (i.min(j), i.max(j)) {
        (0, 1) => "nvlink_if",
        (2, 3) => "pcie_same_root",
        (0, 2) | (1, 3) => "pcie_cross_root",
        _ => "host_staged",
    }
}

#[test]
fn nvml_snapshot_answers_hips_calls() {
    let Some(so) = fake_nvml() else {
        return;
    };
    let nvml = NvmlLibrary::load(&[file_entry(&so)]).expect("the fake has every symbol");
    let hip = NvmlHip::read_from(&nvml, true, false).expect("the fake answers");
    assert_eq!(hip.get_device_count(), Ok(4));
    for k in 0..4i32 {
        let device = hip.device_get(k).unwrap();
        let props = hip.get_device_properties(k).unwrap();
        assert_eq!(props.total_global_mem, (100 + k as u64) * GIB - RESERVED);
        assert_eq!((props.major, props.minor), (9, k));
        assert_eq!(props.pci_bus_id, 0x18 + k);
        assert_eq!(hip.device_get_name(device, 128).unwrap(), "Fake NVML GPU");
        assert_eq!(
            hip.device_get_name(device, 5).unwrap(),
            "Fake",
            "cut to the buffer"
        );
        let uuid = hip.device_get_uuid(device).unwrap().0;
        assert_eq!(&uuid[..4], &[0xab, 0xcd, 0xef, k as u8]);
        assert_eq!((uuid[14], uuid[15]), (0x04, k as u8));
    }
    assert_eq!(hip.peer_link_class(0, 1), Some(LinkClass::NvlinkIf));
    assert_eq!(hip.peer_link_class(3, 2), Some(LinkClass::PcieSameRoot));
    assert_eq!(hip.peer_link_class(1, 3), Some(LinkClass::PcieCrossRoot));
    assert_eq!(hip.device_can_access_peer(0, 3), Ok(false), "SYS: no P2P");
    assert_eq!(hip.device_can_access_peer(0, 2), Ok(true));
    assert!(hip.device_get(4).is_err());
    // Without links nothing about pairs is known (as `devices` reads it).
    let plain = NvmlHip::read_from(&nvml, false, false).unwrap();
    assert_eq!(plain.peer_link_class(0, 1), None);
}

#[test]
fn devices_come_from_nvml_with_cudas_keys() {
    let Some(so) = fake_nvml() else {
        return;
    };
    let doc = json(hal(&so).args(["devices", "--backend", "cuda", "--json"]));
    assert_eq!(doc["backend"], "cuda");
    assert_eq!(doc["machine"], "host");
    let agents = doc["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 4);
    for (k, agent) in agents.iter().enumerate() {
        assert_eq!(agent["index"], k);
        assert_eq!(agent["kind"], "gpu");
        assert_eq!(agent["name"], format!("sm_9{k}"));
        assert_eq!(agent["isas"][0], format!("nvptx64-nvidia-cuda--sm_9{k}"));
        assert_eq!(agent["product"], "Fake NVML GPU");
        assert_eq!(agent["uuid"], format!("GPU-abcdef0{k}100{k}2000"));
        assert_eq!(agent["path"], uuid_path(k));
        assert_eq!(agent["device_id"], k + 1);
        assert_eq!(agent["gpu_index"], k);
        assert_eq!(
            agent["pools"][0]["size"],
            (100 + k as u64) * GIB - RESERVED,
            "total − reserved, as cuDeviceTotalMem"
        );
    }
    hal(&so)
        .args(["devices", "--backend", "cuda"])
        .assert()
        .success()
        .stdout(
            predicate::str::starts_with("host (backend cuda): 4 agents, 4 GPU\n").and(
                predicate::str::contains(format!("= hip://{} (device id 4)", uuid_path(3))),
            ),
        );
}

#[test]
fn topology_classes_follow_nvidia_smi() {
    let Some(so) = fake_nvml() else {
        return;
    };
    let doc = json(hal(&so).args(["topology", "--backend", "cuda", "--json"]));
    assert_eq!(doc["device_count"], 4);
    assert_eq!(doc["backend"], "cuda");
    for i in 0..4 {
        assert_eq!(doc["devices"][i]["path"], uuid_path(i));
        for j in 0..4 {
            let edge = &doc["edges"][i][j];
            if i == j {
                assert_eq!(edge["link_class"], "same_die");
                continue;
            }
            let class = expected_class(i, j);
            assert_eq!(edge["link_class"], class, "{i}->{j}");
            let cost = match class {
                "nvlink_if" => 3,
                "pcie_same_root" => 5,
                "pcie_cross_root" => 7,
                _ => 9,
            };
            assert_eq!(edge["copy_cost"], cost, "{i}->{j}");
            let caps: Vec<&str> = edge["capabilities"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            assert_eq!(
                caps.contains(&"atomic_device"),
                class == "nvlink_if",
                "{i}->{j} {caps:?}"
            );
            assert_eq!(
                caps.contains(&"p2p_copy"),
                class != "host_staged",
                "{i}->{j} {caps:?}"
            );
        }
    }
    let text = hal(&so)
        .args(["topology", "--backend", "cuda"])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&text.get_output().stdout).into_owned();
    assert!(text.starts_with("Machine: host (backend cuda)\n"), "{text}");
    for code in ["XGMI", "PCIE", "SYS", "HOST"] {
        assert!(text.contains(code), "{code} in\n{text}");
    }
    hal(&so)
        .args(["topology", "--backend", "cuda", "--dot"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("d0 -- d1")
                .and(predicate::str::contains("XGMI 3"))
                .and(predicate::str::contains("SYS 7"))
                .and(predicate::str::contains("PCIE 5")),
        );
}

#[test]
fn nvml_failures_are_reported_with_nvmls_code_and_string() {
    let Some(so) = fake_nvml() else {
        return;
    };
    hal(&so)
        .env("FAKE_NVML_INIT", "9")
        .args(["devices", "--backend", "cuda"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "Error: UNAVAILABLE; NVML_ERROR_DRIVER_NOT_LOADED (9): Driver Not Loaded; nvmlInit_v2; \
             opening backend 'cuda' through NVML",
        ));
    hal(&so)
        .env("FAKE_NVML_P2P", "15")
        .args(["topology", "--backend", "cuda", "--json"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            predicate::str::starts_with(
                "Error: UNAVAILABLE; NVML_ERROR_GPU_IS_LOST (15): GPU is lost; \
                 nvmlDeviceGetP2PStatus; NVML devices 2 and 3",
            )
            .and(predicate::str::is_match("^[^\n]*\n$").unwrap()),
        );
    // `devices` reads no pair, so the broken pair does not fail it.
    hal(&so)
        .env("FAKE_NVML_P2P", "15")
        .args(["devices", "--backend", "cuda"])
        .assert()
        .success();
}

#[test]
fn without_nvml_or_with_cudas_own_order_the_cuda_driver_answers() {
    let (Some(nvml), Some(cuda)) = (fake_nvml(), fake_cuda()) else {
        return;
    };
    let cuda = file_entry(&cuda);
    let cases: [(&str, Option<(&str, &str)>); 2] = [
        ("file:/nonexistent/libnvidia-ml.so.1", None),
        (&file_entry(&nvml), Some(("CUDA_VISIBLE_DEVICES", "1"))),
    ];
    for (nvml_path, extra) in cases {
        for command in ["devices", "topology"] {
            let mut cmd = hal(&nvml);
            cmd.env("AMDGPU_HAL_NVML_PATH", nvml_path)
                .env("AMDGPU_HAL_CUDA_PATH", &cuda)
                .args([command, "--backend", "cuda", "-vv"]);
            if let Some((name, value)) = extra {
                cmd.env(name, value);
            }
            cmd.assert()
                .success()
                .stdout(
                    predicate::str::contains("Fake CUDA GPU").or(predicate::str::contains(
                        "GPU-00112233-4455-6677-8899-aabbccddeeff",
                    )),
                )
                .stderr(predicate::str::contains(
                    "NVML not used; backend 'cuda' falls back to the CUDA driver",
                ));
        }
    }
    // `info` never asks NVML: the CUDA driver answers with NVML present.
    hal(&nvml)
        .env("AMDGPU_HAL_CUDA_PATH", &cuda)
        .args(["info", "--backend", "cuda"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Fake CUDA GPU"));
    // And with neither library, the CUDA driver's UNAVAILABLE names it.
    hal(&nvml)
        .env(
            "AMDGPU_HAL_NVML_PATH",
            "file:/nonexistent/libnvidia-ml.so.1",
        )
        .args(["devices", "--backend", "cuda"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(
            "Error: UNAVAILABLE; CUDA driver library 'libcuda.so.1' not available",
        ));
}

#[test]
fn a_missing_nvml_is_unavailable_naming_the_library() {
    let err = NvmlLibrary::load(&["file:/nonexistent/libnvidia-ml.so.1".into()]).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(
        err.mentions("NVIDIA management library 'libnvidia-ml.so.1' not available"),
        "{err}"
    );
    assert!(
        err.mentions("Tried: /nonexistent/libnvidia-ml.so.1"),
        "{err}"
    );
}
