//! HSA agents and what hangs off them (`hsa.h`, `hsa_ext_amd.h`): the
//! agents, their ISAs, memory pools and regions (the pools, in ROCr's
//! order), and each one's attributes.
//!
//! Each export validates its pointers, makes the simulator call that the
//! in-process backend (`amdgpu-hal`'s `backend::sim`) makes for the same
//! query, and writes the answer in the header's C type (every `*_get_info`
//! answer is `amdgpu_sim::get_info`'s, the same bytes the in-process backend
//! copies). Attributes outside the simulator's model are
//! `HSA_STATUS_ERROR_INVALID_ARGUMENT`, ROCr's answer to an attribute it
//! does not know.

use std::ffi::c_void;

use amdgpu_sim::{HsaCode, Sim};
use amdgpu_sys::hsa_info::{AgentInfo, AgentMemoryPoolInfo, IsaInfo, MemoryPoolInfo, RegionInfo};

use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hsa_call::{Callback, get_info, iterate, on_runtime};
use crate::core::runtime::runtime;

/// [`iterate`] over what `collect` asks the simulator for.
fn iterate_on_node<T: Copy>(
    collect: impl FnOnce(&Sim) -> Result<Vec<T>, HsaCode>,
    callback: Callback<T>,
    data: *mut c_void,
) -> hsa_status_t {
    if callback.is_none() {
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    let Some(rt) = runtime() else {
        return HSA_STATUS_ERROR_NOT_INITIALIZED;
    };
    // The callback runs with no simulator lock held, so it may call back in.
    match collect(&rt.sim) {
        Ok(items) => iterate(&items, callback, data),
        Err(code) => code.0,
    }
}

c_exports! {
    /// `hsa_iterate_agents`.
    fn hsa_iterate_agents(callback: Callback<hsa_agent_t>, data: *mut c_void) -> hsa_status_t {
        iterate_on_node(
            |sim| Ok(sim.iterate_agents()?.into_iter().map(|handle| hsa_agent_t { handle }).collect()),
            callback,
            data,
        )
    }

    /// `hsa_agent_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_agent_get_info(agent: hsa_agent_t, attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_runtime(|rt| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, AgentInfo::from_raw(attribute), |a| {
                    rt.sim.agent_get_info(agent.handle, a)
                })
            }
        })
    }

    /// `hsa_agent_iterate_isas`.
    fn hsa_agent_iterate_isas(
        agent: hsa_agent_t,
        callback: Callback<hsa_isa_t>,
        data: *mut c_void,
    ) -> hsa_status_t {
        iterate_on_node(
            |sim| {
                Ok(sim
                    .agent_iterate_isas(agent.handle)?
                    .into_iter()
                    .map(|handle| hsa_isa_t { handle })
                    .collect())
            },
            callback,
            data,
        )
    }

    /// `hsa_isa_get_info_alt`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type (for the
    /// name, `HSA_ISA_INFO_NAME_LENGTH` bytes).
    unsafe fn hsa_isa_get_info_alt(isa: hsa_isa_t, attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_runtime(|rt| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, IsaInfo::from_raw(attribute), |a| {
                    rt.sim.isa_get_info(isa.handle, a)
                })
            }
        })
    }

    /// `hsa_amd_agent_iterate_memory_pools`.
    fn hsa_amd_agent_iterate_memory_pools(
        agent: hsa_agent_t,
        callback: Callback<hsa_amd_memory_pool_t>,
        data: *mut c_void,
    ) -> hsa_status_t {
        iterate_on_node(
            |sim| {
                Ok(sim
                    .agent_iterate_memory_pools(agent.handle)?
                    .into_iter()
                    .map(|handle| hsa_amd_memory_pool_t { handle })
                    .collect())
            },
            callback,
            data,
        )
    }

    /// `hsa_amd_memory_pool_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_amd_memory_pool_get_info(
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, MemoryPoolInfo::from_raw(attribute), |a| {
                    rt.sim.memory_pool_get_info(pool.handle, a)
                })
            }
        })
    }

    /// `hsa_amd_agent_memory_pool_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type (for the
    /// link info, one `hsa_amd_memory_pool_link_info_t` per hop).
    unsafe fn hsa_amd_agent_memory_pool_get_info(
        agent: hsa_agent_t,
        pool: hsa_amd_memory_pool_t,
        attribute: u32,
        value: *mut c_void,
    ) -> hsa_status_t {
        on_runtime(|rt| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, AgentMemoryPoolInfo::from_raw(attribute), |a| {
                    rt.sim.agent_memory_pool_get_info(agent.handle, pool.handle, a)
                })
            }
        })
    }

    /// `hsa_agent_iterate_regions`: the agent's memory pools as ROCr lists
    /// its regions (the same handles; `Sim::agent_iterate_regions`).
    fn hsa_agent_iterate_regions(
        agent: hsa_agent_t,
        callback: Callback<hsa_region_t>,
        data: *mut c_void,
    ) -> hsa_status_t {
        iterate_on_node(
            |sim| {
                Ok(sim
                    .agent_iterate_regions(agent.handle)?
                    .into_iter()
                    .map(|handle| hsa_region_t { handle })
                    .collect())
            },
            callback,
            data,
        )
    }

    /// `hsa_region_get_info`.
    ///
    /// # Safety
    /// `value` is NULL or has room for the attribute's C type.
    unsafe fn hsa_region_get_info(region: hsa_region_t, attribute: u32, value: *mut c_void) -> hsa_status_t {
        on_runtime(|rt| {
            // SAFETY: the caller's contract (above).
            unsafe {
                get_info(value, RegionInfo::from_raw(attribute), |a| {
                    rt.sim.region_get_info(region.handle, a)
                })
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::hsa_call::Call;

    /// Canary bytes after the attribute: a write past the C type shows here.
    const SLACK: usize = 16;

    fn node() -> Sim {
        let sim = Sim::preset("mi300x-8")
            .expect("preset exists")
            .expect("preset is valid");
        sim.hsa_init().expect("hsa_init");
        sim
    }

    /// Runs `query` on a canary-filled buffer of `size + SLACK` bytes;
    /// returns the status and whether nothing past `size` changed.
    fn written(size: usize, query: impl FnOnce(*mut c_void) -> Call) -> (Call, Vec<u8>) {
        let mut buffer = vec![0xAAu8; size + SLACK];
        let status = query(buffer.as_mut_ptr().cast());
        assert!(
            buffer[size..].iter().all(|&b| b == 0xAA),
            "wrote past the {size}-byte C type"
        );
        buffer.truncate(size);
        (status, buffer)
    }

    #[test]
    fn every_agent_attribute_fills_exactly_its_c_type() {
        use amdgpu_sys::hsa_info::InfoSize;
        let sim = node();
        for agent in [Sim::agent_handle(0), Sim::agent_handle(2)] {
            for &attribute in AgentInfo::ALL {
                let InfoSize::Fixed(size) = attribute.size() else {
                    panic!("{attribute:?}");
                };
                // SAFETY: a buffer of the attribute's size plus slack.
                let (status, _) = written(size, |v| unsafe {
                    get_info(v, Some(attribute), |a| sim.agent_get_info(agent, a))
                });
                assert_eq!(status, Ok(()), "{attribute:?} of {agent:#x}");
            }
        }
    }

    #[test]
    fn unknown_attributes_and_null_outputs_are_invalid_arguments() {
        let sim = node();
        let gpu = Sim::agent_handle(2);
        let calls = sim.hsa_call_count();
        // HSA_AGENT_INFO_EXTENSIONS (20), HSA_AMD_AGENT_INFO_HDP_FLUSH, a
        // value no header defines: refused without asking the node.
        for attribute in [20, 0xA00E, 0xFFFF] {
            // SAFETY: a 64-byte buffer plus slack.
            let (status, bytes) = written(64, |v| unsafe {
                get_info(v, AgentInfo::from_raw(attribute), |a| {
                    sim.agent_get_info(gpu, a)
                })
            });
            assert_eq!(status, Err(HsaCode::INVALID_ARGUMENT), "{attribute:#x}");
            assert!(bytes.iter().all(|&b| b == 0xAA), "nothing written");
        }
        // HSA_ISA_INFO_CALL_CONVENTION_COUNT (2), HSA_SYSTEM_INFO_EXTENSIONS (7).
        assert_eq!(IsaInfo::from_raw(2), None);
        assert_eq!(amdgpu_sys::hsa_info::SystemInfo::from_raw(7), None);
        // SAFETY: NULL is refused before any write.
        let null = unsafe {
            get_info(std::ptr::null_mut(), Some(AgentInfo::Feature), |a| {
                sim.agent_get_info(gpu, a)
            })
        };
        assert_eq!(null, Err(HsaCode::INVALID_ARGUMENT));
        assert_eq!(sim.hsa_call_count(), calls, "no call reached the node");
    }
}
