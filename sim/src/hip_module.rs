//! HIP modules on the simulated node: `hipModuleLoadData` through the
//! node's code-object loader, functions and globals by name, and kernel
//! launches checked against the kernel's metadata and the device, then
//! recorded; the kernel itself is decoded for the interpreter at its first
//! launch and runs in stream order (`kernel_exec`).

use std::collections::BTreeMap;
use std::sync::{Arc, Weak};

use crate::codes::HipCode;
use crate::elf::{CodeObject, SymbolKind};
use crate::isa::Target;
use crate::kernel_exec::{
    KERNELS_ENV, KernelCounts, KernelMode, KernelRun, KernelSource, MAX_KERNARG_BYTES,
    decode_kernel, kernel_run,
};
use crate::kernel_meta::{KernelLaunchInfo, read_kernels};
use crate::memory::Image;
use crate::node::{Sim, State, handle, serial};
use crate::shared_bytes::SharedBytes;
use amdgpu_isa::{Chip, KernelDescriptor, Program};

/// Handle tag of modules (`hipModule_t`).
pub(crate) const TAG_HIP_MODULE: u64 = 0x12;
/// Handle tag of functions (`hipFunction_t`).
pub(crate) const TAG_HIP_FUNCTION: u64 = 0x13;
/// Launches kept in the launch log (later ones are counted only).
pub const MAX_LAUNCH_LOG: usize = 1 << 16;
/// Bytes of LDS a work-group may use on every AMD GPU the presets model
/// (`hipDeviceAttributeMaxSharedMemoryPerBlock` where the description gives none).
const DEFAULT_LDS_BYTES: u64 = 64 * 1024;

/// `hipFunction_attribute` values (`driver_types.h`).
pub mod function_attribute {
    /// `HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK`.
    pub const MAX_THREADS_PER_BLOCK: i32 = 0;
    /// `HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`.
    pub const SHARED_SIZE_BYTES: i32 = 1;
    /// `HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES`.
    pub const CONST_SIZE_BYTES: i32 = 2;
    /// `HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES`.
    pub const LOCAL_SIZE_BYTES: i32 = 3;
    /// `HIP_FUNC_ATTRIBUTE_NUM_REGS`.
    pub const NUM_REGS: i32 = 4;
    /// `HIP_FUNC_ATTRIBUTE_PTX_VERSION`.
    pub const PTX_VERSION: i32 = 5;
    /// `HIP_FUNC_ATTRIBUTE_BINARY_VERSION`.
    pub const BINARY_VERSION: i32 = 6;
    /// `HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA`.
    pub const CACHE_MODE_CA: i32 = 7;
    /// `HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`.
    pub const MAX_DYNAMIC_SHARED_SIZE_BYTES: i32 = 8;
    /// `HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT`.
    pub const PREFERRED_SHARED_MEMORY_CARVEOUT: i32 = 9;
}

/// What every module of the same bytes shares, whatever device it is loaded
/// on: the parsed code object, its kernels' metadata, its symbols by name
/// and its loaded image.
#[derive(Debug)]
pub(crate) struct ModuleCode {
    code: CodeObject,
    kernels: BTreeMap<String, KernelLaunchInfo>,
    /// Dynamic symbols by name (the last of a repeated name): index into `code.symbols`.
    symbols: BTreeMap<String, usize>,
    image: Arc<Image>,
}

impl ModuleCode {
    /// The symbol `name` of a module loaded with `delta`: (kind, loaded address, size).
    fn symbol(&self, name: &str, delta: u64) -> Option<(SymbolKind, u64, u64)> {
        let symbol = self.code.symbols.get(*self.symbols.get(name)?)?;
        Some((symbol.kind, symbol.value.wrapping_add(delta), symbol.size))
    }
}

/// A module's code: a live module's, or just parsed.
enum Found {
    Shared(Arc<ModuleCode>),
    Fresh(CodeObject),
}

/// One loaded module.
#[derive(Debug)]
pub(crate) struct HipModule {
    ordinal: i32,
    image: u64,
    delta: u64,
    code: Arc<ModuleCode>,
    functions: Vec<u64>,
}

/// One `hipFunction_t`.
#[derive(Clone, Debug)]
pub(crate) struct HipFunction {
    module: u64,
    kernel: KernelLaunchInfo,
    private_segment_size: u32,
    max_dynamic_shared: u32,
    /// The kernel decoded for the interpreter, at its first executed launch.
    program: Option<Arc<Program>>,
}

/// Modules, functions and the launch log.
#[derive(Debug, Default)]
pub(crate) struct Modules {
    pub(crate) modules: BTreeMap<u64, HipModule>,
    functions: BTreeMap<u64, HipFunction>,
    launches: Vec<Launch>,
    launch_count: u64,
    pub(crate) kernel_mode: KernelMode,
    pub(crate) kernel_counts: KernelCounts,
    /// Kernels made to fault (`Sim::inject_kernel_fault`).
    pub(crate) kernel_faults: Vec<crate::faults::KernelFault>,
    skip_said: bool,
    /// The code of live modules, so that loading the same bytes on another
    /// device (IREE loads a module once per device) shares it; an entry dies
    /// with the last module that holds it.
    shared: Vec<Weak<ModuleCode>>,
}

impl Modules {
    /// Live modules.
    pub(crate) fn live(&self) -> u64 {
        self.modules.len() as u64
    }

    /// Where the live modules' images are mapped.
    pub(crate) fn image_bases(&self) -> impl Iterator<Item = u64> + '_ {
        self.modules.values().map(|m| m.image)
    }

    /// The live module code of exactly these bytes, if any.
    fn shared_code(&mut self, bytes: &[u8]) -> Option<Arc<ModuleCode>> {
        self.shared.retain(|w| w.strong_count() > 0);
        self.shared
            .iter()
            .filter_map(Weak::upgrade)
            .find(|code| code.image.bytes()[..] == *bytes)
    }
}

/// A recorded kernel launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The device.
    pub ordinal: i32,
    /// The kernel's `.name`.
    pub kernel: String,
    /// Work-groups per dimension.
    pub grid: [u32; 3],
    /// Work-items per work-group per dimension.
    pub block: [u32; 3],
    /// Dynamic LDS bytes.
    pub shared_bytes: u32,
    /// The kernarg segment's explicit bytes as the launch laid them out.
    pub kernargs: Vec<u8>,
}

/// What a launch asks for.
#[derive(Clone, Debug)]
pub struct LaunchRequest {
    /// The function handle.
    pub function: u64,
    /// The device of the stream it is launched on.
    pub ordinal: i32,
    /// Work-groups per dimension.
    pub grid: [u32; 3],
    /// Work-items per work-group.
    pub block: [u32; 3],
    /// Dynamic LDS bytes.
    pub shared_bytes: u32,
}

impl Sim {
    /// `hipModuleLoadData(Ex)` of the ELF `bytes` on `ordinal`: an object for
    /// another processor is `hipErrorNoBinaryForGpu` (ROCm's answer), bytes
    /// that are no AMDGPU code object `hipErrorInvalidImage`. Loads of the
    /// same bytes while one is live share its code and image: the bytes
    /// are copied once, not once per device.
    pub fn hip_module_load(
        &self,
        op: &'static str,
        ordinal: i32,
        bytes: &[u8],
    ) -> Result<u64, HipCode> {
        self.hip_module_load_with(op, ordinal, bytes, || SharedBytes::from(bytes))
    }

    /// [`Sim::hip_module_load`] of bytes the caller already holds shared
    /// (the C library's copy of the caller's image): kept as the module's
    /// image without another copy.
    pub fn hip_module_load_shared(
        &self,
        op: &'static str,
        ordinal: i32,
        bytes: impl Into<SharedBytes>,
    ) -> Result<u64, HipCode> {
        let bytes = bytes.into();
        let view = bytes.clone();
        self.hip_module_load_with(op, ordinal, &view, move || bytes)
    }

    fn hip_module_load_with(
        &self,
        op: &'static str,
        ordinal: i32,
        bytes: &[u8],
        shared: impl FnOnce() -> SharedBytes,
    ) -> Result<u64, HipCode> {
        self.hip(
            op,
            || format!("{ordinal}, {} bytes", bytes.len()),
            |sim, state| {
                let agent = sim.gpu_agent(ordinal)?;
                // The same bytes parse the same way: a live module's code
                // answers every check below as a fresh parse would.
                let found = match state.hip_rt.modules.shared_code(bytes) {
                    Some(shared) => Found::Shared(shared),
                    None => {
                        Found::Fresh(CodeObject::parse(bytes).map_err(|_| HipCode::INVALID_IMAGE)?)
                    }
                };
                let code = match &found {
                    Found::Shared(shared) => &shared.code,
                    Found::Fresh(code) => code,
                };
                let target = Target::from_elf(code.e_flags, code.abi_version)
                    .ok_or(HipCode::INVALID_IMAGE)?;
                let runs = sim.machine.agents.get(agent).is_some_and(|a| {
                    a.isas
                        .iter()
                        .filter_map(|isa| Target::parse(&isa.name))
                        .any(|isa| target.runs_on(&isa))
                });
                if !runs {
                    return Err(HipCode::NO_BINARY_FOR_GPU);
                }
                let (module_code, new) = match found {
                    Found::Shared(shared) => (shared, false),
                    Found::Fresh(code) => {
                        let kernels = read_kernels(bytes).map_err(|_| HipCode::INVALID_IMAGE)?;
                        let image =
                            Sim::image_of(&code, &shared()).map_err(|_| HipCode::OUT_OF_MEMORY)?;
                        let symbols = code
                            .symbols
                            .iter()
                            .enumerate()
                            .map(|(i, s)| (s.name.clone(), i))
                            .collect();
                        let module_code = ModuleCode {
                            code,
                            kernels,
                            symbols,
                            image,
                        };
                        (Arc::new(module_code), true)
                    }
                };
                let (image, delta) = sim
                    .map_code_object(state, agent, &module_code.code, &module_code.image)
                    .map_err(|_| HipCode::OUT_OF_MEMORY)?;
                if new {
                    state
                        .hip_rt
                        .modules
                        .shared
                        .push(Arc::downgrade(&module_code));
                }
                let s = state.serial();
                state.hip_rt.modules.modules.insert(
                    s,
                    HipModule {
                        ordinal,
                        image,
                        delta,
                        code: module_code,
                        functions: Vec::new(),
                    },
                );
                Ok(handle(TAG_HIP_MODULE, s))
            },
        )
    }

    /// `hipModuleUnload`: the module, its image and its functions.
    pub fn hip_module_unload(&self, module: u64) -> Result<(), HipCode> {
        self.hip(
            "hipModuleUnload",
            || format!("{module:#x}"),
            |_, state| {
                let s = serial(module, TAG_HIP_MODULE).ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
                let m = state
                    .hip_rt
                    .modules
                    .modules
                    .remove(&s)
                    .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
                for f in &m.functions {
                    state.hip_rt.modules.functions.remove(f);
                }
                state.memory.unmap_image(m.image);
                Ok(())
            },
        )
    }

    /// `hipModuleGetFunction`: the kernel named `name` (its `.name`, or the
    /// descriptor symbol without `.kd`); unknown names are `hipErrorNotFound`.
    pub fn hip_module_get_function(&self, module: u64, name: &str) -> Result<u64, HipCode> {
        self.hip(
            "hipModuleGetFunction",
            || format!("{module:#x}, {name:?}"),
            |_, state| {
                let s = serial(module, TAG_HIP_MODULE).ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
                let m = state
                    .hip_rt
                    .modules
                    .modules
                    .get(&s)
                    .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
                let symbol = format!("{name}.kd");
                let kernel = m
                    .code
                    .kernels
                    .get(&symbol)
                    .cloned()
                    .ok_or(HipCode::NOT_FOUND)?;
                let private_segment_size = match m.code.symbol(&symbol, m.delta) {
                    Some((
                        SymbolKind::Kernel {
                            private_segment_size,
                            ..
                        },
                        _,
                        _,
                    )) => private_segment_size,
                    _ => return Err(HipCode::NOT_FOUND),
                };
                let f = state.serial();
                if let Some(m) = state.hip_rt.modules.modules.get_mut(&s) {
                    m.functions.push(f);
                }
                state.hip_rt.modules.functions.insert(
                    f,
                    HipFunction {
                        module: s,
                        kernel,
                        private_segment_size,
                        max_dynamic_shared: 0,
                        program: None,
                    },
                );
                Ok(handle(TAG_HIP_FUNCTION, f))
            },
        )
    }

    /// `hipModuleGetGlobal`: address and size of a variable.
    pub fn hip_module_get_global(&self, module: u64, name: &str) -> Result<(u64, u64), HipCode> {
        self.hip(
            "hipModuleGetGlobal",
            || format!("{module:#x}, {name:?}"),
            |_, state| {
                let m = serial(module, TAG_HIP_MODULE)
                    .and_then(|s| state.hip_rt.modules.modules.get(&s))
                    .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
                match m.code.symbol(name, m.delta) {
                    Some((SymbolKind::Variable, address, size)) => Ok((address, size)),
                    _ => Err(HipCode::NOT_FOUND),
                }
            },
        )
    }

    /// `hipFuncGetAttribute` (see [`function_attribute`]).
    pub fn hip_func_get_attribute(&self, function: u64, attribute: i32) -> Result<i32, HipCode> {
        self.hip(
            "hipFuncGetAttribute",
            || format!("{function:#x}, {attribute}"),
            |sim, state| {
                use function_attribute as a;
                let f = function_of(state, function)?;
                let ordinal = module_device(state, f)?;
                let clamp = |v: u64| i32::try_from(v).unwrap_or(i32::MAX);
                Ok(match attribute {
                    a::MAX_THREADS_PER_BLOCK => clamp(u64::from(f.kernel.max_flat_workgroup_size)),
                    a::SHARED_SIZE_BYTES => clamp(u64::from(f.kernel.group_segment_fixed_size)),
                    a::CONST_SIZE_BYTES | a::NUM_REGS | a::CACHE_MODE_CA => 0,
                    a::LOCAL_SIZE_BYTES => clamp(u64::from(f.private_segment_size)),
                    a::PTX_VERSION | a::BINARY_VERSION => {
                        let p = sim.hip_get_device_properties_unlogged(ordinal)?;
                        p.major * 10 + p.minor
                    }
                    a::MAX_DYNAMIC_SHARED_SIZE_BYTES => clamp(
                        lds_limit(sim, ordinal)
                            .saturating_sub(u64::from(f.kernel.group_segment_fixed_size)),
                    ),
                    a::PREFERRED_SHARED_MEMORY_CARVEOUT => -1,
                    _ => return Err(HipCode::INVALID_VALUE),
                })
            },
        )
    }

    /// `hipFuncSetAttribute`: only the dynamic-LDS limit is kept; a value
    /// above what the device leaves beside the static LDS is refused.
    pub fn hip_func_set_attribute(
        &self,
        function: u64,
        attribute: i32,
        value: i32,
    ) -> Result<(), HipCode> {
        self.hip(
            "hipFuncSetAttribute",
            || format!("{function:#x}, {attribute}, {value}"),
            |sim, state| {
                use function_attribute as a;
                let f = function_of(state, function)?;
                let ordinal = module_device(state, f)?;
                let room = lds_limit(sim, ordinal)
                    .saturating_sub(u64::from(f.kernel.group_segment_fixed_size));
                let value = u32::try_from(value).map_err(|_| HipCode::INVALID_VALUE)?;
                match attribute {
                    a::MAX_DYNAMIC_SHARED_SIZE_BYTES if u64::from(value) <= room => {}
                    a::PREFERRED_SHARED_MEMORY_CARVEOUT if value <= 100 => return Ok(()),
                    _ => return Err(HipCode::INVALID_VALUE),
                }
                if let Some(f) = serial(function, TAG_HIP_FUNCTION)
                    .and_then(|s| state.hip_rt.modules.functions.get_mut(&s))
                {
                    f.max_dynamic_shared = value;
                }
                Ok(())
            },
        )
    }

    /// The explicit arguments `(offset, size)` and kernarg size of a
    /// function, for laying out `kernelParams` (no call is counted).
    pub fn hip_function_args(&self, function: u64) -> Result<(Vec<(u32, u32)>, u32), HipCode> {
        let state = self.lock();
        let f = function_of(&state, function)?;
        Ok((
            f.kernel.explicit_args.clone(),
            f.kernel.kernarg_segment_size,
        ))
    }

    /// `hipModuleLaunchKernel`: checks the launch as ROCm's
    /// `ihipLaunchKernel_validate` does, plus the kernel's own metadata, then
    /// records it with its laid-out kernargs.
    ///
    /// - grid × block beyond 2^32 - 1 work-items in a dimension, a block
    ///   above the device's or the kernel's flat work-group limit, or one
    ///   that is not the kernel's `.reqd_workgroup_size`:
    ///   `hipErrorInvalidConfiguration`;
    /// - static + dynamic LDS above the device's per-block LDS:
    ///   `hipErrorInvalidValue`;
    /// - a function whose module is on another device than the stream:
    ///   `hipErrorInvalidResourceHandle`;
    /// - kernargs of another size than the kernel's kernarg segment:
    ///   `hipErrorInvalidValue`.
    ///
    /// The kernel to execute, in the order of the stream the launch is on
    /// ([`Sim::hip_execute_kernel`]), unless kernels are skipped
    /// ([`KernelMode::Skip`]). A kernel the interpreter cannot run (an
    /// instruction it lacks) fails the launch with `hipErrorLaunchFailure`
    /// and says on stderr which instruction, where, in which kernel.
    pub fn hip_module_launch_kernel(
        &self,
        request: &LaunchRequest,
        kernargs: Vec<u8>,
    ) -> Result<Option<KernelRun>, HipCode> {
        let kernarg_len = kernargs.len();
        self.hip(
            "hipModuleLaunchKernel",
            move || format!("{request:?}, {kernarg_len} kernarg bytes"),
            |sim, state| {
                let launch = checked_launch(sim, state, request, kernargs)?;
                let run = prepare_run(sim, state, request, &launch)?;
                record_launch(state, launch);
                Ok(run)
            },
        )
    }

    /// Checks a launch as [`Sim::hip_module_launch_kernel`] does, without
    /// recording it or counting a call: what a graph's kernel node is
    /// checked against when it is added (the caller counts its own call).
    pub fn hip_check_launch(
        &self,
        request: &LaunchRequest,
        kernargs: &[u8],
    ) -> Result<(), HipCode> {
        let state = self.lock();
        checked_launch(self, &state, request, kernargs.to_vec()).map(|_| ())
    }

    /// Checks and records a launch without counting a call: a kernel node
    /// of a graph as `hipGraphLaunch` (the counted call) runs it.
    pub fn hip_record_launch(
        &self,
        request: &LaunchRequest,
        kernargs: Vec<u8>,
    ) -> Result<Option<KernelRun>, HipCode> {
        let mut state = self.lock();
        let launch = checked_launch(self, &state, request, kernargs)?;
        let run = prepare_run(self, &mut state, request, &launch)?;
        record_launch(&mut state, launch);
        Ok(run)
    }

    /// The launches recorded so far (at most [`MAX_LAUNCH_LOG`]) and the
    /// total count.
    pub fn hip_launches(&self) -> (Vec<Launch>, u64) {
        let state = self.lock();
        let m = &state.hip_rt.modules;
        (m.launches.clone(), m.launch_count)
    }
}

/// The launch `request` describes, if the device and the kernel accept it
/// (the rules listed at [`Sim::hip_module_launch_kernel`]).
fn checked_launch(
    sim: &Sim,
    state: &State,
    request: &LaunchRequest,
    kernargs: Vec<u8>,
) -> Result<Launch, HipCode> {
    let f = function_of(state, request.function)?;
    if module_device(state, f)? != request.ordinal {
        return Err(HipCode::INVALID_RESOURCE_HANDLE);
    }
    let props = sim.hip_get_device_properties_unlogged(request.ordinal)?;
    let block = request.block;
    if block.contains(&0) || request.grid.contains(&0) {
        return Err(HipCode::INVALID_CONFIGURATION);
    }
    for (g, b) in request.grid.iter().zip(block) {
        if u64::from(*g) * u64::from(b) > u64::from(u32::MAX) {
            return Err(HipCode::INVALID_CONFIGURATION);
        }
    }
    let flat: u64 = block.iter().map(|&b| u64::from(b)).product();
    let device_limit = u64::try_from(props.max_threads_per_block).unwrap_or(0);
    if flat > device_limit || flat > u64::from(f.kernel.max_flat_workgroup_size) {
        return Err(HipCode::INVALID_CONFIGURATION);
    }
    for (b, max) in block.iter().zip(props.max_threads_dim) {
        if i64::from(*b) > i64::from(max) {
            return Err(HipCode::INVALID_CONFIGURATION);
        }
    }
    if f.kernel.reqd_workgroup_size.is_some_and(|r| r != block) {
        return Err(HipCode::INVALID_CONFIGURATION);
    }
    let lds = u64::from(f.kernel.group_segment_fixed_size) + u64::from(request.shared_bytes);
    if lds > lds_limit(sim, request.ordinal) {
        return Err(HipCode::INVALID_VALUE);
    }
    let explicit_end = f
        .kernel
        .explicit_args
        .iter()
        .map(|&(o, s)| u64::from(o) + u64::from(s))
        .max()
        .unwrap_or(0);
    if (kernargs.len() as u64) < explicit_end
        || kernargs.len() as u64 > u64::from(f.kernel.kernarg_segment_size)
    {
        return Err(HipCode::INVALID_VALUE);
    }
    let launch = Launch {
        ordinal: request.ordinal,
        kernel: f.kernel.name.clone(),
        grid: request.grid,
        block,
        shared_bytes: request.shared_bytes,
        kernargs,
    };
    Ok(launch)
}

/// The kernel run of a checked launch: `None` when kernels are skipped
/// (said once on stderr); the kernel decoded at its first launch.
fn prepare_run(
    sim: &Sim,
    state: &mut State,
    request: &LaunchRequest,
    launch: &Launch,
) -> Result<Option<KernelRun>, HipCode> {
    let modules = &mut state.hip_rt.modules;
    if modules.kernel_mode == KernelMode::Skip {
        modules.kernel_counts.skipped += 1;
        if !modules.skip_said {
            modules.skip_said = true;
            eprintln!(
                "amdgpu-sim: kernels are not executed ({}=skip): results are not computed",
                KERNELS_ENV
            );
        }
        return Ok(None);
    }
    let f = function_of(state, request.function)?.clone();
    let serial =
        serial(request.function, TAG_HIP_FUNCTION).ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
    let module = state
        .hip_rt
        .modules
        .modules
        .get(&f.module)
        .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
    let code = Arc::clone(&module.code);
    let delta = module.delta;
    let (_, kd_address, _) = code
        .symbol(&f.kernel.symbol, delta)
        .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
    let mut kd = [0u8; 64];
    state
        .memory
        .read(kd_address, &mut kd)
        .map_err(|_| HipCode::LAUNCH_FAILURE)?;
    let descriptor = KernelDescriptor::parse(&kd).ok_or(HipCode::LAUNCH_FAILURE)?;
    if f.kernel.kernarg_segment_size > MAX_KERNARG_BYTES {
        eprintln!(
            "amdgpu-sim: kernel `{}` cannot execute: a {}-byte kernarg segment (at most {MAX_KERNARG_BYTES})",
            f.kernel.name, f.kernel.kernarg_segment_size
        );
        return Err(HipCode::LAUNCH_FAILURE);
    }
    let program = match f.program {
        Some(program) => program,
        None => {
            let fail = |reason: String| {
                eprintln!(
                    "amdgpu-sim: kernel `{}` cannot execute: {reason}",
                    f.kernel.name
                );
                HipCode::LAUNCH_FAILURE
            };
            let processor = sim
                .hip_device_isas(request.ordinal)?
                .first()
                .map(|t| t.processor.clone())
                .unwrap_or_default();
            let chip = Chip::from_name(&processor)
                .ok_or_else(|| fail(format!("the interpreter does not run {processor}")))?;
            let code_size = code
                .code
                .functions
                .iter()
                .find(|(name, _, _)| *name == f.kernel.name)
                .map(|&(_, _, size)| size)
                .ok_or_else(|| fail("no function symbol gives its code's size".into()))?;
            let memory = &mut state.memory;
            let mut read = |address: u64, out: &mut [u8]| memory.read(address, out).is_ok();
            let program =
                decode_kernel(chip, &descriptor, kd_address, code_size, &mut read).map_err(fail)?;
            let program = Arc::new(program);
            if let Some(cached) = state.hip_rt.modules.functions.get_mut(&serial) {
                cached.program = Some(Arc::clone(&program));
            }
            program
        }
    };
    let source = KernelSource {
        info: &f.kernel,
        program,
        descriptor,
        kernel_object: kd_address,
    };
    Ok(Some(kernel_run(
        source,
        launch.grid,
        launch.block,
        launch.shared_bytes,
        &launch.kernargs,
    )))
}

fn record_launch(state: &mut State, launch: Launch) {
    let log = &mut state.hip_rt.modules;
    log.launch_count += 1;
    if log.launches.len() < MAX_LAUNCH_LOG {
        log.launches.push(launch);
    }
}

fn function_of(state: &State, function: u64) -> Result<&HipFunction, HipCode> {
    serial(function, TAG_HIP_FUNCTION)
        .and_then(|s| state.hip_rt.modules.functions.get(&s))
        .ok_or(HipCode::INVALID_RESOURCE_HANDLE)
}

fn module_device(state: &State, f: &HipFunction) -> Result<i32, HipCode> {
    state
        .hip_rt
        .modules
        .modules
        .get(&f.module)
        .map(|m| m.ordinal)
        .ok_or(HipCode::INVALID_RESOURCE_HANDLE)
}

/// LDS bytes one work-group may use on `ordinal`.
fn lds_limit(sim: &Sim, ordinal: i32) -> u64 {
    sim.hip_get_device_properties_unlogged(ordinal)
        .ok()
        .map(|p| p.shared_mem_per_block)
        .filter(|&b| b > 0)
        .unwrap_or(DEFAULT_LDS_BYTES)
}

impl Sim {
    /// The ISAs of `ordinal`'s agent, parsed (no call is counted).
    pub fn hip_device_isas(&self, ordinal: i32) -> Result<Vec<Target>, HipCode> {
        let agent = self.gpu_agent(ordinal)?;
        Ok(self
            .machine
            .agents
            .get(agent)
            .map(|a| {
                a.isas
                    .iter()
                    .filter_map(|i| Target::parse(&i.name))
                    .collect()
            })
            .unwrap_or_default())
    }
}
