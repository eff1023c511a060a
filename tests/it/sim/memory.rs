//! Simulated memory through the backend trait: capacity per pool, copies
//! that really copy, bad frees, and a proptest that random
//! alloc/free/copy sequences keep the accounting exact.

use std::collections::BTreeMap;
use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::{
    Backend, CallResultExt, DevicePtr, GlobalFlags, Hsa, HsaExt, HsaStatus, MemoryPool, Segment,
};
use amdgpu_sim::Sim;
use proptest::prelude::*;

/// A two-agent machine with small pools so capacity is reachable.
const SMALL: &str = r#"
name = "small"
[[agents]]
id = "cpu"
kind = "cpu"
name = "Host"
uuid = "CPU-XX"
node = 0
  [[agents.pools]]
  segment = "global"
  flags = ["fine_grained", "kernarg_init"]
  size = 65536
  accessible_by_all = true
[[agents]]
id = "gpu"
kind = "gpu"
wavefront_size = 64
name = "gfx942"
uuid = "GPU-0123456789abcdef"
node = 1
isas = [{ name = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" }]
  [[agents.pools]]
  segment = "global"
  flags = ["coarse_grained"]
  size = 32768
  [[agents.pools]]
  segment = "group"
  size = 65536
"#;

fn small() -> (Arc<Sim>, Backend) {
    let machine =
        amdgpu_sim::Machine::parse("small.toml", SMALL, amdgpu_sim::Format::Toml).unwrap();
    let sim = Arc::new(Sim::new(machine));
    let backend = Backend::from_sim(Arc::clone(&sim), "small");
    backend.hsa().unwrap().init().unwrap();
    (sim, backend)
}

fn global_pools(hsa: &dyn Hsa) -> Vec<MemoryPool> {
    let mut out = Vec::new();
    for agent in hsa.iterate_agents().unwrap() {
        for pool in hsa.agent_iterate_memory_pools(agent).unwrap() {
            if hsa.memory_pool_segment(pool).unwrap() == Segment::Global {
                out.push(pool);
            }
        }
    }
    out
}

#[test]
fn calls_before_init_fail_not_initialized() {
    let sim = Arc::new(Sim::preset("w7900").unwrap().unwrap());
    let backend = Backend::from_sim(sim, "w7900");
    let status = backend
        .hsa()
        .unwrap()
        .iterate_agents()
        .call_status("hsa_iterate_agents")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::FailedPrecondition);
    assert!(status.mentions("HSA_STATUS_ERROR_NOT_INITIALIZED"));
    backend.hsa().unwrap().init().unwrap();
    backend.hsa().unwrap().shut_down().unwrap();
    assert_eq!(
        backend.hsa().unwrap().shut_down(),
        Err(HsaStatus::ErrorNotInitialized)
    );
}

#[test]
fn capacity_is_enforced_per_pool_in_granules() {
    let (sim, backend) = small();
    let hsa = backend.hsa().unwrap();
    let pools = global_pools(hsa);
    let gpu_pool = pools[1];
    assert_eq!(
        hsa.memory_pool_global_flags(gpu_pool).unwrap(),
        GlobalFlags::COARSE_GRAINED
    );
    assert_eq!(hsa.memory_pool_alloc_granule(gpu_pool).unwrap(), 4096);
    // 8 granules of 4 KiB; a 1-byte allocation takes a whole granule.
    let mut live = Vec::new();
    for _ in 0..8 {
        live.push(hsa.memory_pool_allocate(gpu_pool, 1, 0).unwrap());
    }
    let status = hsa
        .memory_pool_allocate(gpu_pool, 1, 0)
        .call_status("hsa_amd_memory_pool_allocate")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::ResourceExhausted);
    // The other pool is unaffected.
    let host = hsa.memory_pool_allocate(pools[0], 65536, 0).unwrap();
    assert_eq!(sim.live_objects().allocations, 9);
    hsa.memory_pool_free(live.pop().unwrap()).unwrap();
    live.push(hsa.memory_pool_allocate(gpu_pool, 4096, 0).unwrap());
    assert_eq!(
        hsa.memory_pool_allocate(gpu_pool, 0, 0),
        Err(HsaStatus::ErrorInvalidArgument)
    );
    assert_eq!(
        hsa.memory_pool_allocate(gpu_pool, 1 << 20, 0),
        Err(HsaStatus::ErrorInvalidAllocation)
    );
    // The group pool is not allocatable.
    let agents = hsa.iterate_agents().unwrap();
    let group = hsa.agent_iterate_memory_pools(agents[1]).unwrap()[1];
    assert!(!hsa.memory_pool_alloc_allowed(group).unwrap());
    assert_eq!(
        hsa.memory_pool_allocate(group, 64, 0),
        Err(HsaStatus::ErrorInvalidAllocation)
    );
    for ptr in live.into_iter().chain([host]) {
        hsa.memory_pool_free(ptr).unwrap();
    }
    assert!(sim.live_objects().is_empty());
}

#[test]
fn copies_round_trip_and_bad_frees_fail() {
    let (_sim, backend) = small();
    let hsa = backend.hsa().unwrap();
    let pools = global_pools(hsa);
    let a = hsa.memory_pool_allocate(pools[1], 10000, 0).unwrap();
    let b = hsa.memory_pool_allocate(pools[0], 10000, 0).unwrap();
    let data: Vec<u8> = (0..10000u32).map(|i| (i * 7 % 251) as u8).collect();
    hsa.memory_copy_to_device(a, &data).unwrap();
    hsa.memory_copy(b, a, 10000).unwrap();
    let mut back = vec![0u8; 10000];
    hsa.memory_copy_from_device(&mut back, b).unwrap();
    assert_eq!(back, data);
    // Unwritten memory reads as zero; copies may not run past an allocation.
    let c = hsa.memory_pool_allocate(pools[1], 16, 0).unwrap();
    let mut zeros = [1u8; 16];
    hsa.memory_copy_from_device(&mut zeros, c).unwrap();
    assert_eq!(zeros, [0; 16]);
    assert_eq!(
        hsa.memory_copy_to_device(c, &[0; 17]),
        Err(HsaStatus::ErrorInvalidArgument)
    );
    assert_eq!(
        hsa.memory_copy_to_device(DevicePtr(12345), &[1]),
        Err(HsaStatus::ErrorInvalidArgument)
    );
    // Freeing an unknown, interior or already-freed pointer fails.
    let status = hsa
        .memory_pool_free(DevicePtr(0xdead))
        .call_status("hsa_amd_memory_pool_free")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::InvalidArgument);
    assert!(status.mentions("[hsa_amd_memory_pool_free] HSA_STATUS_ERROR_INVALID_ALLOCATION"));
    assert_eq!(
        hsa.memory_pool_free(a.checked_add(8).unwrap()),
        Err(HsaStatus::ErrorInvalidAllocation)
    );
    hsa.memory_pool_free(a).unwrap();
    assert_eq!(
        hsa.memory_pool_free(a),
        Err(HsaStatus::ErrorInvalidAllocation)
    );
    // A freed pointer is not reused while the window has room.
    let d = hsa.memory_pool_allocate(pools[1], 10000, 0).unwrap();
    assert_ne!(d, a);
}

#[test]
fn access_and_link_info_follow_the_description() {
    let sim = Arc::new(Sim::preset("mi300x-8").unwrap().unwrap());
    let backend = Backend::from_sim(sim, "mi300x-8");
    let hsa = backend.hsa().unwrap();
    hsa.init().unwrap();
    let agents = hsa.iterate_agents().unwrap();
    let (cpu0, gpu0, gpu1, gpu4) = (agents[0], agents[2], agents[3], agents[6]);
    let gpu1_vram = hsa.agent_iterate_memory_pools(gpu1).unwrap()[0];
    use amdgpu_hal::backend::{LinkType, PoolAccess};
    assert_eq!(
        hsa.agent_memory_pool_access(gpu1, gpu1_vram).unwrap(),
        PoolAccess::AllowedByDefault
    );
    assert_eq!(
        hsa.agent_memory_pool_access(gpu0, gpu1_vram).unwrap(),
        PoolAccess::DisallowedByDefault
    );
    assert_eq!(
        hsa.agent_memory_pool_num_link_hops(gpu1, gpu1_vram)
            .unwrap(),
        0
    );
    assert!(
        hsa.agent_memory_pool_link_info(gpu1, gpu1_vram)
            .unwrap()
            .is_empty()
    );
    let link = hsa.agent_memory_pool_link_info(gpu0, gpu1_vram).unwrap();
    assert_eq!(link.len(), 1);
    assert_eq!(link[0].link_type(), LinkType::Xgmi);
    assert_eq!(link[0].numa_distance, 15);
    assert_eq!(link[0].max_bandwidth, 64000);
    let host_pool = hsa.agent_iterate_memory_pools(cpu0).unwrap()[0];
    assert_eq!(
        hsa.agent_memory_pool_access(gpu4, host_pool).unwrap(),
        PoolAccess::AllowedByDefault
    );
    let path = hsa.agent_memory_pool_link_info(gpu4, host_pool).unwrap();
    assert_eq!(path.len(), 2);
    assert!(path.iter().all(|hop| hop.link_type() == LinkType::Pcie));
    let ptr = hsa.memory_pool_allocate(gpu1_vram, 4096, 0).unwrap();
    hsa.agents_allow_access(&[gpu0], ptr).unwrap();
    assert_eq!(
        hsa.agents_allow_access(&[], ptr),
        Err(HsaStatus::ErrorInvalidArgument)
    );
    hsa.memory_pool_free(ptr).unwrap();
}

#[derive(Clone, Debug)]
enum Op {
    Alloc {
        pool: usize,
        size: u64,
    },
    Free {
        pick: usize,
    },
    FreeBogus {
        offset: u64,
    },
    Write {
        pick: usize,
        offset: u64,
        len: usize,
        seed: u8,
    },
    Copy {
        from: usize,
        to: usize,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..2usize, 1..20000u64).prop_map(|(pool, size)| Op::Alloc { pool, size }),
        any::<usize>().prop_map(|pick| Op::Free { pick }),
        (1..64u64).prop_map(|offset| Op::FreeBogus { offset }),
        (any::<usize>(), 0..8192u64, 0..300usize, any::<u8>()).prop_map(
            |(pick, offset, len, seed)| Op::Write {
                pick,
                offset,
                len,
                seed
            }
        ),
        (any::<usize>(), any::<usize>()).prop_map(|(from, to)| Op::Copy { from, to }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_alloc_free_copy_sequences_keep_the_accounting_exact(ops in proptest::collection::vec(op(), 1..60)) {
        let (sim, backend) = small();
        let hsa = backend.hsa().unwrap();
        let pools = global_pools(hsa);
        let capacity = [65536u64, 32768];
        // Model: live pointer -> (pool, size, contents).
        let mut live: BTreeMap<u64, (usize, u64, Vec<u8>)> = BTreeMap::new();
        let reserved = |live: &BTreeMap<u64, (usize, u64, Vec<u8>)>, pool: usize| -> u64 {
            live.values().filter(|v| v.0 == pool).map(|v| v.1.div_ceil(4096) * 4096).sum()
        };
        for op in ops {
            match op {
                Op::Alloc { pool, size } => {
                    let fits = reserved(&live, pool) + size.div_ceil(4096) * 4096 <= capacity[pool];
                    match hsa.memory_pool_allocate(pools[pool], size, 0) {
                        Ok(ptr) => {
                            prop_assert!(fits);
                            prop_assert!(!live.contains_key(&ptr.0));
                            live.insert(ptr.0, (pool, size, vec![0; size as usize]));
                        }
                        Err(status) => {
                            prop_assert!(!fits);
                            prop_assert_eq!(status, HsaStatus::ErrorOutOfResources);
                        }
                    }
                }
                Op::Free { pick } => {
                    if let Some(&ptr) = live.keys().nth(pick % live.len().max(1)) {
                        hsa.memory_pool_free(DevicePtr(ptr)).unwrap();
                        live.remove(&ptr);
                    }
                }
                Op::FreeBogus { offset } => {
                    let target = live.keys().next().map_or(offset, |&p| p + offset);
                    prop_assert_eq!(hsa.memory_pool_free(DevicePtr(target)), Err(HsaStatus::ErrorInvalidAllocation));
                }
                Op::Write { pick, offset, len, seed } => {
                    let Some(&base) = live.keys().nth(pick % live.len().max(1)) else { continue };
                    let data: Vec<u8> = (0..len).map(|i| seed.wrapping_add(i as u8)).collect();
                    let target = base + offset;
                    let result = hsa.memory_copy_to_device(DevicePtr(target), &data);
                    // The write lands in whichever allocation holds it (maybe a
                    // neighbour); zero-byte copies succeed anywhere, as in ROCr.
                    let holder = live
                        .range_mut(..=target)
                        .next_back()
                        .filter(|(start, entry)| target + len as u64 <= **start + entry.1);
                    match holder {
                        Some((&start, entry)) => {
                            prop_assert!(result.is_ok(), "{result:?}");
                            let at = (target - start) as usize;
                            entry.2[at..at + len].copy_from_slice(&data);
                        }
                        None => prop_assert!(len == 0 || result.is_err()),
                    }
                }
                Op::Copy { from, to } => {
                    let keys: Vec<u64> = live.keys().copied().collect();
                    if keys.is_empty() { continue; }
                    let (src, dst) = (keys[from % keys.len()], keys[to % keys.len()]);
                    let len = live[&src].1.min(live[&dst].1);
                    hsa.memory_copy(DevicePtr(dst), DevicePtr(src), len).unwrap();
                    let bytes = live[&src].2[..len as usize].to_vec();
                    live.get_mut(&dst).unwrap().2[..len as usize].copy_from_slice(&bytes);
                }
            }
            let counts = sim.live_objects();
            prop_assert_eq!(counts.allocations, live.len() as u64);
            prop_assert_eq!(counts.allocated_bytes, reserved(&live, 0) + reserved(&live, 1));
            for (pool, handle) in pools.iter().enumerate() {
                prop_assert_eq!(sim.pool_usage(handle.0).unwrap().reserved_bytes, reserved(&live, pool));
            }
        }
        for (&ptr, (_, size, contents)) in &live {
            let mut back = vec![0u8; *size as usize];
            hsa.memory_copy_from_device(&mut back, DevicePtr(ptr)).unwrap();
            prop_assert_eq!(&back, contents);
        }
        for &ptr in live.keys() {
            hsa.memory_pool_free(DevicePtr(ptr)).unwrap();
        }
        prop_assert!(sim.live_objects().is_empty());
    }
}
