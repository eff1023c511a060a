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
            agent_value(sim, agent, "HSA_AMD_AGENT_INFO_DRIVER_NODE_ID", v, |a| {
                a.node
            })
        }
        a::QUEUES_MAX => agent_value(sim, agent, "HSA_AGENT_INFO_QUEUES_MAX", v, |a| a.queues_max),
        a::WAVEFRONT_SIZE => agent_value(sim, agent, "HSA_AGENT_INFO_WAVEFRONT_SIZE", v, |a| {
            a.wavefront_size
        }),
        a::AMD_COMPUTE_UNIT_COUNT => agent_value(
            sim,
            agent,
            "HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT",
            v,
            |a| a.compute_units,
        ),
        a::AMD_CHIP_ID => agent_value(sim, agent, "HSA_AMD_AGENT_INFO_CHIP_ID", v, |a| a.chip_id),
        a::AMD_BDFID => agent_value(sim, agent, "HSA_AMD_AGENT_INFO_BDFID", v, |a| a.bdf_id),
        a::AMD_DOMAIN => agent_value(sim, agent, "HSA_AMD_AGENT_INFO_DOMAIN", v, |a| a.domain),
        a::AMD_DRIVER_UID => agent_value(sim, agent, "HSA_AMD_AGENT_INFO_DRIVER_UID", v, |a| {
            a.driver_uid
        }),
        a::AMD_NEAREST_CPU => put(
            value,
            hsa_agent_t {
                handle: sim.agent_nearest_cpu(agent)?,
            },
        ),
        a::PROFILE => agent_value(sim, agent, "HSA_AGENT_INFO_PROFILE", v, |a| a.profile),
        a::DEFAULT_FLOAT_ROUNDING_MODE => agent_value(
            sim,
            agent,
            "HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE",
            v,
            |a| a.rounding_mode,
        ),
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
        a::AMD_MAX_CLOCK_FREQUENCY => agent_value(
            sim,
            agent,
            "HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY",
            v,
            |a| a.hsa.max_clock_mhz,
        ),
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
        a::AMD_NUM_SHADER_ENGINES => agent_value(
            sim,
            agent,
            "HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES",
            v,
            |a| a.hsa.shader_engines,
        ),
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
    put(
        value,
        sim.isa_info(isa, name, |i| read(&IsaInfo::of(&i.name)))?,
    )
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
        i::DEFAULT_FLOAT_ROUNDING_MODES => isa_value(
            sim,
            isa,
            "HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES",
            v,
            |i| i.default_float_rounding_modes,
        ),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Canary bytes after the attribute: a write past the C type shows here.
    const SLACK: usize = 16;

    fn node() -> Sim {
        let sim = Sim::preset("mi300x-8")
            .expect("preset exists")
            .expect("preset is valid");
        sim.hsa_init().expect("hsa_init");
        sim
    }

    /// Runs `query` on a canary-filled buffer; returns the status and the
    /// first `size` bytes, checking that nothing past them changed.
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

    fn u32s(bytes: &[u8]) -> Vec<u32> {
        bytes
            .chunks(4)
            .map(|c| u32::from_ne_bytes(c.try_into().expect("4 bytes")))
            .collect()
    }

    // (attribute, its C type's size per hsa.h / hsa_ext_amd.h): every agent
    // attribute rocminfo 5.2.3 asks for.
    const AGENT_SIZES: &[(u32, usize)] = &[
        (agent_info::NAME, 64),
        (agent_info::AMD_UUID, 21),
        (agent_info::VENDOR_NAME, 64),
        (agent_info::AMD_PRODUCT_NAME, 64),
        (agent_info::FEATURE, 4),
        (agent_info::PROFILE, 4),
        (agent_info::DEFAULT_FLOAT_ROUNDING_MODE, 4),
        (agent_info::QUEUES_MAX, 4),
        (agent_info::QUEUE_MIN_SIZE, 4),
        (agent_info::QUEUE_MAX_SIZE, 4),
        (agent_info::QUEUE_TYPE, 4),
        (agent_info::NODE, 4),
        (agent_info::DEVICE, 4),
        (agent_info::ISA, 8),
        (agent_info::CACHE_SIZE, 16),
        (agent_info::AMD_CHIP_ID, 4),
        (agent_info::AMD_CACHELINE_SIZE, 4),
        (agent_info::AMD_MAX_CLOCK_FREQUENCY, 4),
        (agent_info::AMD_DRIVER_NODE_ID, 4),
        (agent_info::AMD_MAX_ADDRESS_WATCH_POINTS, 4),
        (agent_info::AMD_BDFID, 4),
        (agent_info::AMD_NUM_SIMDS_PER_CU, 4),
        (agent_info::AMD_NUM_SHADER_ENGINES, 4),
        (agent_info::AMD_NUM_SHADER_ARRAYS_PER_SE, 4),
        (agent_info::AMD_COMPUTE_UNIT_COUNT, 4),
        (agent_info::FAST_F16_OPERATION, 1),
        (agent_info::WAVEFRONT_SIZE, 4),
        (agent_info::WORKGROUP_MAX_SIZE, 4),
        (agent_info::WORKGROUP_MAX_DIM, 6),
        (agent_info::GRID_MAX_DIM, 12),
        (agent_info::GRID_MAX_SIZE, 4),
        (agent_info::FBARRIER_MAX_SIZE, 4),
        (agent_info::AMD_MAX_WAVES_PER_CU, 4),
        (agent_info::AMD_ASIC_REVISION, 4),
        (agent_info::AMD_SVM_DIRECT_HOST_ACCESS, 1),
    ];

    #[test]
    fn every_agent_attribute_fills_exactly_its_c_type() {
        let sim = node();
        for agent in [Sim::agent_handle(0), Sim::agent_handle(2)] {
            for &(attribute, size) in AGENT_SIZES {
                let (status, _) = written(size, |v| agent_info(&sim, agent, attribute, v));
                assert_eq!(status, Ok(()), "attribute {attribute:#x} of {agent:#x}");
            }
        }
    }

    #[test]
    fn gpu_agent_answers_match_the_published_mi300x() {
        // rocminfo of an MI300X, https://github.com/ROCm/ROCm/issues/4021.
        let sim = node();
        let gpu = Sim::agent_handle(2);
        let read = |attribute, size| {
            let (status, bytes) = written(size, |v| agent_info(&sim, gpu, attribute, v));
            assert_eq!(status, Ok(()));
            bytes
        };
        assert_eq!(
            u32s(&read(agent_info::CACHE_SIZE, 16)),
            [32 << 10, 4096 << 10, 262_144 << 10, 0]
        );
        assert_eq!(u32s(&read(agent_info::FEATURE, 4)), [1]);
        assert_eq!(u32s(&read(agent_info::QUEUE_MIN_SIZE, 4)), [64]);
        assert_eq!(u32s(&read(agent_info::QUEUE_MAX_SIZE, 4)), [131_072]);
        assert_eq!(u32s(&read(agent_info::AMD_NUM_SHADER_ENGINES, 4)), [32]);
        assert_eq!(u32s(&read(agent_info::AMD_MAX_WAVES_PER_CU, 4)), [32]);
        assert_eq!(u32s(&read(agent_info::AMD_DRIVER_NODE_ID, 4)), [2]);
        assert_eq!(u32s(&read(agent_info::GRID_MAX_DIM, 12)), [u32::MAX; 3]);
        assert_eq!(read(agent_info::WORKGROUP_MAX_DIM, 6), [0, 4, 0, 4, 0, 4]);
        assert_eq!(read(agent_info::FAST_F16_OPERATION, 1), [1]);
        let isa = read(agent_info::ISA, 8);
        let first = sim.agent_iterate_isas(gpu).expect("isas")[0];
        assert_eq!(isa, first.to_ne_bytes());
        // A CPU agent: no kernel dispatch, no queues, no ISA (handle 0).
        let cpu = Sim::agent_handle(0);
        let (_, feature) = written(4, |v| agent_info(&sim, cpu, agent_info::FEATURE, v));
        assert_eq!(u32s(&feature), [0]);
        let (_, isa) = written(8, |v| agent_info(&sim, cpu, agent_info::ISA, v));
        assert_eq!(isa, [0; 8]);
    }

    #[test]
    fn every_isa_attribute_fills_exactly_its_c_type() {
        let sim = node();
        let isa = sim.agent_iterate_isas(Sim::agent_handle(2)).expect("isas")[0];
        let read = |attribute, size| {
            let (status, bytes) = written(size, |v| isa_info(&sim, isa, attribute, v));
            assert_eq!(status, Ok(()), "ISA attribute {attribute}");
            bytes
        };
        let name = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
        assert_eq!(
            u32s(&read(isa_info::NAME_LENGTH, 4)),
            [name.len() as u32 + 1]
        );
        assert_eq!(
            read(isa_info::NAME, name.len() + 1),
            [name.as_bytes(), &[0]].concat()
        );
        assert_eq!(read(isa_info::MACHINE_MODELS, 2), [0, 1]);
        assert_eq!(read(isa_info::PROFILES, 2), [1, 0]);
        assert_eq!(read(isa_info::DEFAULT_FLOAT_ROUNDING_MODES, 3), [0, 0, 1]);
        assert_eq!(
            read(isa_info::BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES, 3),
            [0, 0, 1]
        );
        assert_eq!(read(isa_info::FAST_F16_OPERATION, 1), [1]);
        assert_eq!(read(isa_info::WORKGROUP_MAX_DIM, 6), [0, 4, 0, 4, 0, 4]);
        assert_eq!(u32s(&read(isa_info::WORKGROUP_MAX_SIZE, 4)), [1024]);
        assert_eq!(u32s(&read(isa_info::GRID_MAX_DIM, 12)), [u32::MAX; 3]);
        assert_eq!(read(isa_info::GRID_MAX_SIZE, 8), [0xFF; 8]);
        assert_eq!(u32s(&read(isa_info::FBARRIER_MAX_SIZE, 4)), [32]);
    }

    #[test]
    fn system_attributes_follow_rocr() {
        let sim = node();
        let read = |attribute, size| {
            let (status, bytes) = written(size, |v| system_info(&sim, attribute, v));
            assert_eq!(status, Ok(()));
            bytes
        };
        assert_eq!(read(system_info::VERSION_MAJOR, 2), 1u16.to_ne_bytes());
        assert_eq!(read(system_info::VERSION_MINOR, 2), 1u16.to_ne_bytes());
        assert_eq!(
            read(system_info::TIMESTAMP_FREQUENCY, 8),
            1_000_000_000u64.to_ne_bytes()
        );
        assert_eq!(read(system_info::SIGNAL_MAX_WAIT, 8), [0xFF; 8]);
        assert_eq!(u32s(&read(system_info::ENDIANNESS, 4)), [0]);
        assert_eq!(u32s(&read(system_info::MACHINE_MODEL, 4)), [1]);
    }

    #[test]
    fn unknown_attributes_and_null_outputs_are_invalid_arguments() {
        let sim = node();
        let gpu = Sim::agent_handle(2);
        let isa = sim.agent_iterate_isas(gpu).expect("isas")[0];
        // HSA_AGENT_INFO_EXTENSIONS (20), HSA_AMD_AGENT_INFO_HDP_FLUSH, a
        // value no header defines; HSA_ISA_INFO_CALL_CONVENTION_COUNT (2);
        // HSA_SYSTEM_INFO_EXTENSIONS (7).
        for attribute in [20, 0xA00E, 0xFFFF] {
            let (status, bytes) = written(64, |v| agent_info(&sim, gpu, attribute, v));
            assert_eq!(status, Err(HsaCode::INVALID_ARGUMENT), "{attribute:#x}");
            assert!(bytes.iter().all(|&b| b == 0xAA), "nothing written");
        }
        let (status, _) = written(8, |v| isa_info(&sim, isa, 2, v));
        assert_eq!(status, Err(HsaCode::INVALID_ARGUMENT));
        let (status, _) = written(128, |v| system_info(&sim, 7, v));
        assert_eq!(status, Err(HsaCode::INVALID_ARGUMENT));
        let null = std::ptr::null_mut();
        assert_eq!(
            agent_info(&sim, gpu, agent_info::FEATURE, null),
            Err(HsaCode::INVALID_ARGUMENT)
        );
        assert_eq!(
            system_info(&sim, system_info::ENDIANNESS, null),
            Err(HsaCode::INVALID_ARGUMENT)
        );
    }

    #[test]
    fn system_attributes_need_hsa_init() {
        let sim = Sim::preset("w7900").expect("preset").expect("valid");
        let (status, _) = written(8, |v| {
            system_info(&sim, system_info::TIMESTAMP_FREQUENCY, v)
        });
        assert_eq!(status, Err(HsaCode::NOT_INITIALIZED));
    }
}
