//! `hsa_system_get_info`, `hsa_agent_get_info` and `hsa_isa_get_info_alt`:
//! every attribute answered from the simulator's model (the validated
//! machine and `amdgpu_sim::hsa_info`) and written in the header's C type.
//! An attribute outside the model is `HSA_STATUS_ERROR_INVALID_ARGUMENT`,
//! ROCr's answer to one it does not know.

use std::ffi::c_void;
use std::fmt::Debug;

use amdgpu_sim::hsa_info::IsaInfo;
use amdgpu_sim::machine::AgentKind;
use amdgpu_sim::validate::Agent;
use amdgpu_sim::{HsaCode, Sim};

use crate::abi::*;
use crate::hsa::{Call, INVALID, put, put_bytes, put_chars};

/// `hsa_system_get_info`.
pub(crate) fn system_info(sim: &Sim, attribute: u32, value: *mut c_void) -> Call {
    use system_info as s;
    if value.is_null() {
        return Err(INVALID);
    }
    match attribute {
        s::VERSION_MAJOR => put(
            value,
            sim.system_info("HSA_SYSTEM_INFO_VERSION_MAJOR", |i| i.version_major)?,
        ),
        s::VERSION_MINOR => put(
            value,
            sim.system_info("HSA_SYSTEM_INFO_VERSION_MINOR", |i| i.version_minor)?,
        ),
        s::TIMESTAMP_FREQUENCY => put(
            value,
            sim.system_info("HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY", |i| {
                i.timestamp_frequency
            })?,
        ),
        s::SIGNAL_MAX_WAIT => put(
            value,
            sim.system_info("HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT", |i| i.signal_max_wait)?,
        ),
        s::ENDIANNESS => put(
            value,
            sim.system_info("HSA_SYSTEM_INFO_ENDIANNESS", |i| i.endianness)?,
        ),
        s::MACHINE_MODEL => put(
            value,
            sim.system_info("HSA_SYSTEM_INFO_MACHINE_MODEL", |i| i.machine_model)?,
        ),
        _ => Err(INVALID),
    }
}

/// One agent attribute of C type `T`.
fn agent_value<T: Copy + Debug>(
    sim: &Sim,
    agent: u64,
    name: &'static str,
    value: *mut c_void,
    read: impl FnOnce(&Agent) -> T,
) -> Call {
    put(value, sim.agent_info(agent, name, read)?)
}

/// `hsa_agent_get_info`.
pub(crate) fn agent_info(sim: &Sim, agent: u64, attribute: u32, value: *mut c_void) -> Call {
    use agent_info as a;
    if value.is_null() {
        return Err(INVALID);
    }
    let v = value;
    match attribute {
        a::NAME => put_chars::<64>(
            value,
            &sim.agent_info(agent, "HSA_AGENT_INFO_NAME", |a| a.name.clone())?,
        ),
        a::VENDOR_NAME => put_chars::<64>(
            value,
            &sim.agent_info(agent, "HSA_AGENT_INFO_VENDOR_NAME", |a| a.vendor.clone())?,
        ),
        a::AMD_PRODUCT_NAME => put_chars::<64>(
            value,
            &sim.agent_info(agent, "HSA_AMD_AGENT_INFO_PRODUCT_NAME", |a| {
                a.product.clone()
            })?,
        ),
        a::AMD_UUID => put_chars::<21>(
            value,
            &sim.agent_info(agent, "HSA_AMD_AGENT_INFO_UUID", |a| a.uuid.clone())?,
        ),
        a::DEVICE => agent_value(sim, agent, "HSA_AGENT_INFO_DEVICE", v, |a| match a.kind {
            AgentKind::Cpu => device_type::CPU,
            AgentKind::Gpu => device_type::GPU,
        }),
        a::NODE => agent_value(sim, agent, "HSA_AGENT_INFO_NODE", v, |a| a.node),
        // ROCr answers the KFD node id for both.
        a::AMD_DRIVER_NODE_ID => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_DRIVER_NODE_ID", v, |a| a.node)
        }
        a::QUEUES_MAX => agent_value(sim, agent, "HSA_AGENT_INFO_QUEUES_MAX", v, |a| a.queues_max),
        a::WAVEFRONT_SIZE => agent_value(sim, agent, "HSA_AGENT_INFO_WAVEFRONT_SIZE", v, |a| {
            a.wavefront_size
        }),
        a::AMD_COMPUTE_UNIT_COUNT => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT", v, |a| {
                a.compute_units
            })
        }
        a::AMD_CHIP_ID => agent_value(sim, agent, "HSA_AMD_AGENT_INFO_CHIP_ID", v, |a| a.chip_id),
        a::AMD_BDFID => agent_value(sim, agent, "HSA_AMD_AGENT_INFO_BDFID", v, |a| a.bdf_id),
        a::AMD_DOMAIN => agent_value(sim, agent, "HSA_AMD_AGENT_INFO_DOMAIN", v, |a| a.domain),
        a::AMD_DRIVER_UID => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_DRIVER_UID", v, |a| a.driver_uid)
        }
        a::AMD_NEAREST_CPU => put(
            value,
            hsa_agent_t {
                handle: sim.agent_nearest_cpu(agent)?,
            },
        ),
        a::PROFILE => agent_value(sim, agent, "HSA_AGENT_INFO_PROFILE", v, |a| a.profile),
        a::DEFAULT_FLOAT_ROUNDING_MODE => {
            agent_value(sim, agent, "HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE", v, |a| {
                a.rounding_mode
            })
        }
        a::ISA => put(
            value,
            hsa_isa_t {
                handle: sim.agent_isa(agent)?,
            },
        ),
        _ => agent_hsa_info(sim, agent, attribute, value),
    }
}

/// The attributes of `[agents.hsa]` and ROCr's per-kind constants.
fn agent_hsa_info(sim: &Sim, agent: u64, attribute: u32, v: *mut c_void) -> Call {
    use agent_info as a;
    match attribute {
        a::FEATURE => agent_value(sim, agent, "HSA_AGENT_INFO_FEATURE", v, |a| a.hsa.feature),
        a::QUEUE_MIN_SIZE => agent_value(sim, agent, "HSA_AGENT_INFO_QUEUE_MIN_SIZE", v, |a| {
            a.hsa.queue_min_size
        }),
        a::QUEUE_MAX_SIZE => agent_value(sim, agent, "HSA_AGENT_INFO_QUEUE_MAX_SIZE", v, |a| {
            a.hsa.queue_max_size
        }),
        a::QUEUE_TYPE => agent_value(sim, agent, "HSA_AGENT_INFO_QUEUE_TYPE", v, |a| {
            a.hsa.queue_type
        }),
        a::CACHE_SIZE => agent_value(sim, agent, "HSA_AGENT_INFO_CACHE_SIZE", v, |a| {
            a.hsa.cache_sizes
        }),
        a::AMD_CACHELINE_SIZE => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_CACHELINE_SIZE", v, |a| {
                a.hsa.cacheline_size
            })
        }
        a::AMD_MAX_CLOCK_FREQUENCY => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY", v, |a| {
                a.hsa.max_clock_mhz
            })
        }
        a::AMD_MAX_ADDRESS_WATCH_POINTS => agent_value(
            sim,
            agent,
            "HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS",
            v,
            |a| a.hsa.watch_points,
        ),
        a::AMD_NUM_SIMDS_PER_CU => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU", v, |a| {
                a.hsa.simds_per_cu
            })
        }
        a::AMD_NUM_SHADER_ENGINES => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES", v, |a| {
                a.hsa.shader_engines
            })
        }
        a::AMD_NUM_SHADER_ARRAYS_PER_SE => agent_value(
            sim,
            agent,
            "HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE",
            v,
            |a| a.hsa.shader_arrays_per_engine,
        ),
        a::AMD_MAX_WAVES_PER_CU => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU", v, |a| {
                a.hsa.max_waves_per_cu
            })
        }
        a::AMD_ASIC_REVISION => {
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_ASIC_REVISION", v, |a| {
                a.hsa.asic_revision
            })
        }
        a::AMD_SVM_DIRECT_HOST_ACCESS => agent_value(
            sim,
            agent,
            "HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS",
            v,
            |a| a.hsa.coherent_host_access,
        ),
        a::FAST_F16_OPERATION => {
            agent_value(sim, agent, "HSA_AGENT_INFO_FAST_F16_OPERATION", v, |a| {
                a.hsa.fast_f16
            })
        }
        a::WORKGROUP_MAX_SIZE => {
            agent_value(sim, agent, "HSA_AGENT_INFO_WORKGROUP_MAX_SIZE", v, |a| {
                a.hsa.workgroup_max_size
            })
        }
        a::WORKGROUP_MAX_DIM => {
            agent_value(sim, agent, "HSA_AGENT_INFO_WORKGROUP_MAX_DIM", v, |a| {
                a.hsa.workgroup_max_dim
            })
        }
        a::GRID_MAX_DIM => agent_value(sim, agent, "HSA_AGENT_INFO_GRID_MAX_DIM", v, |a| {
            dim3(a.hsa.grid_max_dim)
        }),
        a::GRID_MAX_SIZE => agent_value(sim, agent, "HSA_AGENT_INFO_GRID_MAX_SIZE", v, |a| {
            a.hsa.grid_max_size
        }),
        a::FBARRIER_MAX_SIZE => {
            agent_value(sim, agent, "HSA_AGENT_INFO_FBARRIER_MAX_SIZE", v, |a| {
                a.hsa.fbarrier_max_size
            })
        }
        _ => Err(INVALID),
    }
}

fn dim3([x, y, z]: [u32; 3]) -> hsa_dim3_t {
    hsa_dim3_t { x, y, z }
}

/// One ISA attribute derived from the ISA's name ([`IsaInfo::of`]).
fn isa_value<T: Copy + Debug>(
    sim: &Sim,
    isa: u64,
    name: &'static str,
    value: *mut c_void,
    read: impl FnOnce(&IsaInfo) -> T,
) -> Call {
    put(value, sim.isa_info(isa, name, |i| read(&IsaInfo::of(&i.name)))?)
}

/// `hsa_isa_get_info_alt`.
pub(crate) fn isa_info(sim: &Sim, isa: u64, attribute: u32, value: *mut c_void) -> Call {
    use isa_info as i;
    if value.is_null() {
        return Err(INVALID);
    }
    let v = value;
    match attribute {
        i::NAME_LENGTH => {
            let length = sim.isa_info(isa, "HSA_ISA_INFO_NAME_LENGTH", |i| i.name.len())?;
            // ROCr counts the NUL (the header says it does not).
            put(
                value,
                u32::try_from(length + 1).map_err(|_| HsaCode::ERROR)?,
            )
        }
        i::NAME => {
            let mut name = sim
                .isa_info(isa, "HSA_ISA_INFO_NAME", |i| i.name.clone())?
                .into_bytes();
            name.push(0);
            put_bytes(value, &name)
        }
        i::WORKGROUP_MAX_DIM => put(
            value,
            sim.isa_info(isa, "HSA_ISA_INFO_WORKGROUP_MAX_DIM", |i| {
                i.workgroup_max_dim
            })?,
        ),
        i::WORKGROUP_MAX_SIZE => put(
            value,
            sim.isa_info(isa, "HSA_ISA_INFO_WORKGROUP_MAX_SIZE", |i| {
                i.workgroup_max_size
            })?,
        ),
        i::MACHINE_MODELS => isa_value(sim, isa, "HSA_ISA_INFO_MACHINE_MODELS", v, |i| {
            i.machine_models
        }),
        i::PROFILES => isa_value(sim, isa, "HSA_ISA_INFO_PROFILES", v, |i| i.profiles),
        i::DEFAULT_FLOAT_ROUNDING_MODES => {
            isa_value(sim, isa, "HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES", v, |i| {
                i.default_float_rounding_modes
            })
        }
        i::BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES => isa_value(
            sim,
            isa,
            "HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES",
            v,
            |i| i.base_profile_default_float_rounding_modes,
        ),
        i::FAST_F16_OPERATION => isa_value(sim, isa, "HSA_ISA_INFO_FAST_F16_OPERATION", v, |i| {
            i.fast_f16
        }),
        i::GRID_MAX_DIM => isa_value(sim, isa, "HSA_ISA_INFO_GRID_MAX_DIM", v, |i| {
            dim3(i.grid_max_dim)
        }),
        i::GRID_MAX_SIZE => isa_value(sim, isa, "HSA_ISA_INFO_GRID_MAX_SIZE", v, |i| {
            i.grid_max_size
        }),
        i::FBARRIER_MAX_SIZE => isa_value(sim, isa, "HSA_ISA_INFO_FBARRIER_MAX_SIZE", v, |i| {
            i.fbarrier_max_size
        }),
        _ => Err(INVALID),
    }
}
