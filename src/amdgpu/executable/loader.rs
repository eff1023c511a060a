//! Creating an executable (IREE's `iree_hal_amdgpu_executable_create`):
//! select the devices, check the format against the template agent's ISAs,
//! plan the exports, preflight the code object's target against every
//! selected agent, load and freeze, resolve kernel args once, upload a
//! kernel-args table per device, build the dispatch descriptors and register
//! the profiling metadata.
//!
//! Every failure releases what was acquired: the code-object reader is
//! always destroyed; on failure the HSA executable is destroyed and every
//! uploaded table freed, and cleanup failures are joined into the error.

use std::sync::Arc;

use crate::amdgpu::agents::{AgentTopology, find_coarse_global_memory_pool};
use crate::amdgpu::dispatch::DispatchDescriptor;
use crate::amdgpu::isa::{self, FormatSupport, format_not_supported};
use crate::amdgpu::kernarg::{DISPATCH_SETUP_3D, KernelArgs};
use crate::amdgpu::profile::{self, CodeObjectLoad, FunctionDescription, ProfileRegistry};
use crate::amdgpu::queue_affinity::{PhysicalDeviceSet, QueueAffinity};
use crate::backend::{
    Agent, CallResultExt, Executable as HsaExecutable, Hsa, HsaExt, MEMORY_POOL_STANDARD_FLAG,
    Profile, RoundingMode, SharedBytes,
};
use crate::codeobj::elf::target_id_from_elf;
use crate::input::Progress;
use crate::status::{Result, ResultExt, Status};

use super::loaded::{DeviceTables, Executable};
use super::plan::{LoadPlan, check_symbol_name, plan_raw_hsaco, plan_wrapped};

/// The magic of a wrapped executable (the FlatBuffer file identifier).
pub const WRAPPED_MAGIC: &[u8; 4] = b"AMD1";

/// What to create (`iree_hal_executable_params_t`, the parts this HAL reads).
#[derive(Clone, Copy, Debug)]
pub struct ExecutableParams<'a> {
    /// The executable format (a target ID such as `gfx942:sramecc+:xnack-`).
    pub executable_format: &'a str,
    /// The executable bytes: a wrapped `AMD1` FlatBuffer or a raw HSACO.
    pub executable_data: &'a [u8],
    /// Queues (and so physical devices) to load on. 0 is invalid, as in IREE.
    pub queue_affinity: QueueAffinity,
    /// Executable constants; any is `UNIMPLEMENTED`, as in IREE.
    pub constant_count: usize,
}

/// True when `data` starts with the wrapped-executable magic.
pub fn is_wrapped(data: &[u8]) -> bool {
    data.get(..4) == Some(&WRAPPED_MAGIC[..])
}

/// Executable bytes a caller shares with the loader ([`create_shared`]).
#[derive(Clone, Copy)]
pub struct SharedExecutable<'a> {
    /// Bytes that hold `params.executable_data` (a file, mapped or read):
    /// the runtime's reader and the profile registry keep the code object
    /// as a range of them, not as a copy.
    pub bytes: &'a SharedBytes,
    /// Told when the loader is done reading them (the code object hashed
    /// and loaded), so that a mapped file's pages can go.
    pub progress: &'a dyn Progress,
}

/// Creates an executable on the devices `params.queue_affinity` selects.
/// The code object is copied once, and the copy shared by the runtime's
/// reader and the profile registry.
pub fn create(
    hsa: Arc<dyn Hsa>,
    topology: &AgentTopology,
    params: &ExecutableParams<'_>,
    profile_registry: &ProfileRegistry,
) -> Result<Arc<Executable>> {
    create_with(hsa, topology, params, profile_registry, None)
}

/// [`create`] over bytes the caller shares: when the code object lies
/// inside `shared.bytes`, nothing is copied (a code object elsewhere is
/// copied as by [`create`]).
pub fn create_shared(
    hsa: Arc<dyn Hsa>,
    topology: &AgentTopology,
    params: &ExecutableParams<'_>,
    profile_registry: &ProfileRegistry,
    shared: SharedExecutable<'_>,
) -> Result<Arc<Executable>> {
    create_with(hsa, topology, params, profile_registry, Some(shared))
}

fn create_with(
    hsa: Arc<dyn Hsa>,
    topology: &AgentTopology,
    params: &ExecutableParams<'_>,
    profile_registry: &ProfileRegistry,
    shared: Option<SharedExecutable<'_>>,
) -> Result<Arc<Executable>> {
    // `queue_affinity` is recorded once the devices are selected: the
    // normalized mask (what the executable and `load --json` report), not
    // the request (`ANY` is all 64 bits).
    let span = tracing::info_span!(
        "executable_create",
        format = params.executable_format,
        queue_affinity = tracing::field::Empty
    )
    .entered();
    let gpus = topology.gpu_agents();
    if gpus.is_empty() {
        return Err(Status::invalid_argument(
            "topology must have at least one GPU device",
        ));
    }
    let domain = topology.queue_affinity_domain()?;
    let physical = domain.select_physical_devices(params.queue_affinity)?;
    span.record(
        "queue_affinity",
        tracing::field::display(format_args!("0x{:x}", physical.queue_affinity)),
    );
    let template = *gpus
        .get(physical.first_physical_device_ordinal)
        .ok_or_else(|| Status::internal("selected device outside the topology"))?;

    let matched = match isa::format_supported(hsa.as_ref(), template, params.executable_format)? {
        FormatSupport::Supported(target) => target,
        FormatSupport::Unsupported(first) => {
            return Err(format_not_supported(
                params.executable_format,
                physical.first_physical_device_ordinal,
                first.as_ref(),
            ));
        }
    };
    let limits = isa::device_limits(hsa.as_ref(), matched.isa)?;

    let plan = if is_wrapped(params.executable_data) {
        plan_wrapped(params.executable_data, &limits)?
    } else {
        plan_raw_hsaco(params.executable_data, &limits)?
    };
    let LoadPlan {
        container,
        code_object,
        reflection,
        symbols,
        kernarg_alignments,
    } = plan;
    let code_object_hash = profile::hash_code_object(code_object);

    let mut executable = Executable {
        hsa: Arc::clone(&hsa),
        handle: None,
        container,
        profile_id: 0,
        code_object_hash,
        host_kernel_args: Vec::with_capacity(symbols.len()),
        reflection,
        symbols,
        code_object_kernarg_alignments: kernarg_alignments,
        queue_affinity: physical.queue_affinity,
        queue_affinity_domain: crate::amdgpu::queue_affinity::QueueAffinityDomain::new(
            physical.queue_affinity,
            gpus.len(),
            topology.gpu_agent_queue_count(),
        ),
        loaded_device_mask: physical.physical_device_mask,
        device_agents: gpus.to_vec(),
        devices: vec![None; gpus.len()],
    };
    // The code object held once, by the runtime's reader (the simulator
    // keeps it as the loaded image) and the profile registry (IREE's
    // registry copies the bytes; these never change): the caller's bytes
    // where it shares them, else one copy.
    let held = HeldCodeObject {
        bytes: shared
            .and_then(|shared| shared.bytes.share_part(code_object))
            .unwrap_or_else(|| SharedBytes::from(code_object)),
        progress: shared.map_or(&(), |shared| shared.progress),
    };
    match populate(
        &mut executable,
        topology,
        &physical,
        template,
        params,
        held,
        profile_registry,
    ) {
        Ok(()) => Ok(Arc::new(executable)),
        Err(status) => Err(with_cleanup(status, executable.release())),
    }
}

/// `error`, with a failed cleanup step joined into it.
fn with_cleanup(error: Status, cleanup: Result<()>) -> Status {
    match cleanup {
        Ok(()) => error,
        Err(secondary) => error.join(secondary),
    }
}

/// The code object as the runtime and the registry hold it, and who is
/// told when the loader is done reading it.
struct HeldCodeObject<'a> {
    bytes: SharedBytes,
    progress: &'a dyn Progress,
}

fn populate(
    executable: &mut Executable,
    topology: &AgentTopology,
    physical: &PhysicalDeviceSet,
    template: Agent,
    params: &ExecutableParams<'_>,
    code_object: HeldCodeObject<'_>,
    profile_registry: &ProfileRegistry,
) -> Result<()> {
    let hsa = Arc::clone(&executable.hsa);
    let hsa = hsa.as_ref();
    let handle = load_module(hsa, topology, physical, params, &code_object.bytes)?;
    executable.handle = Some(handle);
    // Hashed and loaded: what follows reads the runtime's answers.
    code_object.progress.finished();
    let code_object = code_object.bytes;

    executable.host_kernel_args = resolve_kernel_args(
        hsa,
        handle,
        template,
        &executable.symbols,
        executable.reflection.exports(),
    )?;

    for device in physical.ordinals() {
        let agent = *topology
            .gpu_agents()
            .get(device)
            .ok_or_else(|| Status::internal("selected device outside the topology"))?;
        upload_device_tables(executable, hsa, handle, device, agent)?;
    }

    register_profile(
        executable,
        hsa,
        handle,
        physical,
        topology,
        code_object,
        profile_registry,
    )
}

/// The HSA profile and rounding mode shared by every selected agent.
fn select_agent_profile(
    hsa: &dyn Hsa,
    topology: &AgentTopology,
    physical: &PhysicalDeviceSet,
) -> Result<(Profile, RoundingMode)> {
    let mut selected: Option<(Profile, RoundingMode)> = None;
    for device in physical.ordinals() {
        let Some(&agent) = topology.gpu_agents().get(device) else {
            continue;
        };
        let profile = hsa.agent_profile(agent).call_status("hsa_agent_get_info")?;
        let rounding = hsa
            .agent_default_float_rounding_mode(agent)
            .call_status("hsa_agent_get_info")?;
        match selected {
            None => selected = Some((profile, rounding)),
            Some((p, r)) if (p, r) != (profile, rounding) => {
                return Err(crate::status!(
                    Incompatible,
                    "selected GPU agents must have matching HSA executable profiles and default \
                     rounding modes; agent[{device}] has profile {} and rounding mode {} but the \
                     executable requires profile {} and rounding mode {}",
                    profile.raw(),
                    rounding.raw(),
                    p.raw(),
                    r.raw()
                ));
            }
            Some(_) => {}
        }
    }
    selected
        .ok_or_else(|| Status::failed_precondition("no GPU agents selected for executable load"))
}

/// Preflights the code object, then reader → executable → load on every
/// selected agent → freeze. The reader is always destroyed; the executable is
/// destroyed on failure.
fn load_module(
    hsa: &dyn Hsa,
    topology: &AgentTopology,
    physical: &PhysicalDeviceSet,
    params: &ExecutableParams<'_>,
    code_object: &SharedBytes,
) -> Result<HsaExecutable> {
    if params.constant_count != 0 {
        return Err(Status::unimplemented(
            "executable constants not yet implemented",
        ));
    }
    let target = target_id_from_elf(code_object)?;
    for device in physical.ordinals() {
        if let Some(&agent) = topology.gpu_agents().get(device) {
            isa::preflight_agent(hsa, agent, device, &target)?;
        }
    }

    let reader = hsa
        .code_object_reader_create_from_shared(code_object.clone())
        .call_status("hsa_code_object_reader_create_from_memory")?;
    let mut handle = None;
    let loaded = select_agent_profile(hsa, topology, physical).and_then(|(profile, rounding)| {
        let h = hsa
            .executable_create_alt(profile, rounding)
            .call_status("hsa_executable_create_alt")?;
        handle = Some(h);
        for device in physical.ordinals() {
            if let Some(&agent) = topology.gpu_agents().get(device) {
                hsa.executable_load_agent_code_object(h, agent, reader)
                    .call_status("hsa_executable_load_agent_code_object")
                    .annotate_with(|| format!("loading the code object on GPU agent[{device}]"))?;
            }
        }
        hsa.executable_freeze(h)
            .call_status("hsa_executable_freeze")
    });
    let destroyed = hsa
        .code_object_reader_destroy(reader)
        .call_status("hsa_code_object_reader_destroy");
    let status = Status::join_results(loaded, destroyed);
    match (status, handle) {
        (Ok(()), Some(h)) => Ok(h),
        (Ok(()), None) => Err(Status::internal("executable created without a handle")),
        (Err(error), Some(h)) => {
            let destroyed = hsa
                .executable_destroy(h)
                .call_status("hsa_executable_destroy");
            Err(with_cleanup(error, destroyed))
        }
        (Err(error), None) => Err(error),
    }
}

/// Kernel args of every export, resolved once on the template agent: segment
/// sizes and kernarg size/alignment from the symbol at full width, the
/// workgroup size narrowed explicitly (the limit check bounded it already).
fn resolve_kernel_args(
    hsa: &dyn Hsa,
    handle: HsaExecutable,
    template: Agent,
    symbols: &[String],
    exports: &[crate::amdgpu::executable::ExportInfo],
) -> Result<Vec<KernelArgs>> {
    const INFO: &str = "hsa_executable_symbol_get_info";
    let mut out = Vec::with_capacity(symbols.len());
    for (symbol_name, info) in symbols.iter().zip(exports) {
        check_symbol_name("kernel symbol", symbol_name)?;
        let context = || format!("resolving kernel args for `{symbol_name}`");
        let symbol = hsa
            .executable_get_symbol_by_name(handle, symbol_name, Some(template))
            .call_status("hsa_executable_get_symbol_by_name")
            .annotate_with(|| format!("looking up HSA symbol for export `{symbol_name}`"))?;
        let mut workgroup_size = [0u16; 3];
        for (dst, src) in workgroup_size.iter_mut().zip(info.workgroup_size) {
            *dst = u16::try_from(src)
                .map_err(|_| {
                    crate::status!(OutOfRange, "workgroup size dimension {src} exceeds 16 bits")
                })
                .annotate_with(context)?;
        }
        let args = KernelArgs {
            kernel_object: 0,
            setup: DISPATCH_SETUP_3D,
            workgroup_size,
            private_segment_size: hsa
                .symbol_private_segment_size(symbol)
                .call_status(INFO)
                .annotate_with(context)?,
            group_segment_size: hsa
                .symbol_group_segment_size(symbol)
                .call_status(INFO)
                .annotate_with(context)?,
            kernarg_size: hsa
                .symbol_kernarg_segment_size(symbol)
                .call_status(INFO)
                .annotate_with(context)?,
            kernarg_alignment: hsa
                .symbol_kernarg_segment_alignment(symbol)
                .call_status(INFO)
                .annotate_with(context)?,
            constant_count: info.constant_count,
            binding_count: info.binding_count,
        };
        // The device table's 16-bit fields must hold the values (IREE truncates).
        args.to_device_record().annotate_with(context)?;
        out.push(args);
    }
    Ok(out)
}

/// Resolves each export's kernel object on `agent`, uploads the kernel-args
/// table to the agent's coarse-grained pool and builds the descriptors.
fn upload_device_tables(
    executable: &mut Executable,
    hsa: &dyn Hsa,
    handle: HsaExecutable,
    device: usize,
    agent: Agent,
) -> Result<()> {
    let count = executable.host_kernel_args.len();
    let mut device_args = Vec::with_capacity(count);
    let mut table = Vec::with_capacity(count * crate::amdgpu::kernarg::DEVICE_KERNEL_ARGS_SIZE);
    for (symbol_name, host) in executable.symbols.iter().zip(&executable.host_kernel_args) {
        let symbol = hsa
            .executable_get_symbol_by_name(handle, symbol_name, Some(agent))
            .call_status("hsa_executable_get_symbol_by_name")
            .annotate_with(|| format!("resolving `{symbol_name}`"))?;
        let kernel_object = hsa
            .symbol_kernel_object(symbol)
            .call_status("hsa_executable_symbol_get_info")
            .annotate_with(|| format!("resolving `{symbol_name}`"))?;
        let args = KernelArgs {
            kernel_object,
            ..*host
        };
        table.extend_from_slice(&args.to_device_record()?);
        device_args.push(args);
    }

    let kernel_args_table = if count == 0 {
        None
    } else {
        let pool = find_coarse_global_memory_pool(hsa, agent)
            .annotate("finding memory pool for storing kernel arg tables")?;
        let ptr = hsa
            .memory_pool_allocate(pool, table.len() as u64, MEMORY_POOL_STANDARD_FLAG)
            .call_status("hsa_amd_memory_pool_allocate")?;
        if let Err(error) = hsa
            .memory_copy_to_device(ptr, &table)
            .call_status("hsa_memory_copy")
        {
            let freed = hsa
                .memory_pool_free(ptr)
                .call_status("hsa_amd_memory_pool_free");
            return Err(with_cleanup(error, freed));
        }
        Some(ptr)
    };
    // Recorded before the descriptors so that a failure below frees the table.
    let slot = executable
        .devices
        .get_mut(device)
        .ok_or_else(|| Status::internal("device ordinal outside the executable"))?;
    *slot = Some(DeviceTables {
        kernel_args_table,
        descriptors: Vec::new(),
    });
    let mut descriptors = Vec::with_capacity(count);
    for (export, args) in device_args.iter().enumerate() {
        descriptors.push(DispatchDescriptor::new(args).annotate_with(|| {
            format!("initializing dispatch descriptor for device {device} export {export}")
        })?);
    }
    if let Some(Some(tables)) = executable.devices.get_mut(device) {
        tables.descriptors = descriptors;
    }
    Ok(())
}

/// Registers the identity, function records, exact code-object bytes and
/// each loaded device's loader range.
fn register_profile(
    executable: &mut Executable,
    hsa: &dyn Hsa,
    handle: HsaExecutable,
    physical: &PhysicalDeviceSet,
    topology: &AgentTopology,
    code_object: SharedBytes,
    registry: &ProfileRegistry,
) -> Result<()> {
    let functions: Vec<FunctionDescription<'_>> = executable
        .reflection
        .exports()
        .iter()
        .zip(&executable.host_kernel_args)
        .map(|(info, args)| FunctionDescription {
            name: &info.name,
            parameter_count: u32::from(info.parameter_count),
            constant_count: args.constant_count,
            binding_count: args.binding_count,
            workgroup_size: args.workgroup_size.map(u32::from),
        })
        .collect();
    let id = registry.register_executable(&functions, Some(executable.code_object_hash))?;
    executable.profile_id = id;

    const ITERATE: &str = "hsa_ven_amd_loader_executable_iterate_loaded_code_objects";
    const INFO: &str = "hsa_ven_amd_loader_loaded_code_object_get_info";
    let loaded = hsa
        .executable_iterate_loaded_code_objects(handle)
        .call_status(ITERATE)?;
    let mut by_agent = std::collections::HashMap::with_capacity(loaded.len());
    for lco in loaded {
        let agent = hsa.loaded_code_object_agent(lco).call_status(INFO)?;
        by_agent.entry(agent).or_insert(lco);
    }
    let mut loads = Vec::with_capacity(physical.physical_device_count);
    for device in physical.ordinals() {
        let agent = topology
            .gpu_agents()
            .get(device)
            .copied()
            .unwrap_or_default();
        let lco = by_agent
            .get(&agent)
            .copied()
            .ok_or_else(|| Status::not_found("no loaded code object found for agent"))
            .annotate_with(|| format!("GPU agent[{device}]"))?;
        let physical_device_ordinal = u32::try_from(device).map_err(|_| {
            Status::out_of_range("profile executable physical device ordinal exceeds uint32_t")
        })?;
        loads.push(CodeObjectLoad {
            physical_device_ordinal,
            load_delta: hsa
                .loaded_code_object_load_delta(lco)
                .call_status(INFO)
                .annotate("querying loaded executable code-object profile metadata")?,
            load_size: hsa
                .loaded_code_object_load_size(lco)
                .call_status(INFO)
                .annotate("querying loaded executable code-object profile metadata")?,
        });
    }
    registry.register_executable_artifacts(
        id,
        code_object,
        Some(executable.code_object_hash),
        &loads,
    )
}
