//! The rules of HIP modules (`crate::hip_module`'s calls): modules over
//! the loader's code windows, sharing one parse, metadata and image per
//! bytes while one of them is loaded; functions and globals by name; and
//! kernel launches (`launch`) checked, recorded and made ready to run.

use std::collections::BTreeMap;
use std::sync::{Arc, Weak};

use amdgpu_isa::Program;

use super::code_windows::{CodeWindows, image_of};
use crate::codes::HipCode;
use crate::elf::{CodeObject, SymbolKind};
use crate::handles::{Serials, TAG_HIP_FUNCTION, TAG_HIP_MODULE, handle, serial};
use crate::isa::Target;
use crate::kernel_meta::{KernelLaunchInfo, read_kernels};
use crate::memory::{Image, Memory};
use crate::shared_bytes::SharedBytes;
use crate::topology::Topology;

mod launch;

pub use launch::{Launch, LaunchRequest, MAX_LAUNCH_LOG};

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

/// What a function's code object and device say about it: the facts
/// `hipFuncGetAttributes` and the occupancy queries read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionFacts {
    /// The device its module is loaded on.
    pub ordinal: i32,
    /// The kernel's metadata.
    pub kernel: KernelLaunchInfo,
    /// The descriptor's private segment (scratch) bytes per work-item.
    pub private_segment_size: u32,
    /// The dynamic-LDS limit `hipFuncSetAttribute` set (0: none set).
    pub max_dynamic_shared: u32,
    /// LDS bytes a work-group may use on the device.
    pub lds_limit: u64,
    /// The device's properties (compute units, wave size, limits,
    /// `gcnArchName`).
    pub device: amdgpu_sys::hip_types::HipDeviceProps,
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

/// A module ready to load: its device's agent and its code, checked
/// against the device (what needs no lock of the node).
pub(crate) struct ModuleLoad {
    agent: usize,
    code: Arc<ModuleCode>,
}

/// One loaded module.
#[derive(Debug)]
struct HipModule {
    ordinal: i32,
    image: u64,
    delta: u64,
    code: Arc<ModuleCode>,
    functions: Vec<u64>,
}

/// One `hipFunction_t`.
#[derive(Clone, Debug)]
struct HipFunction {
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
    modules: BTreeMap<u64, HipModule>,
    functions: BTreeMap<u64, HipFunction>,
    launches: Vec<Launch>,
    launch_count: u64,
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
    pub(crate) fn shared_code(&mut self, bytes: &[u8]) -> Option<Arc<ModuleCode>> {
        self.shared.retain(|w| w.strong_count() > 0);
        self.shared
            .iter()
            .filter_map(Weak::upgrade)
            .find(|code| code.image.bytes()[..] == *bytes)
    }

    /// `bytes` checked for loading on `ordinal` (an object for another
    /// processor is `hipErrorNoBinaryForGpu`, bytes that are no AMDGPU
    /// code object `hipErrorInvalidImage`), parsed and laid out as an
    /// image over `shared()` unless `live` (a live module's code of the
    /// same bytes) answers for them. Reads no state of the node: the
    /// caller runs it before locking it.
    pub(crate) fn prepare(
        topology: &Topology,
        ordinal: i32,
        bytes: &[u8],
        live: Option<Arc<ModuleCode>>,
        shared: impl FnOnce() -> SharedBytes,
    ) -> Result<ModuleLoad, HipCode> {
        let agent = topology.gpu_agent(ordinal)?;
        // The same bytes parse the same way: a live module's code
        // answers every check below as a fresh parse would.
        let found = match live {
            Some(shared) => Found::Shared(shared),
            None => Found::Fresh(CodeObject::parse(bytes).map_err(|_| HipCode::INVALID_IMAGE)?),
        };
        let code = match &found {
            Found::Shared(shared) => &shared.code,
            Found::Fresh(code) => code,
        };
        let target =
            Target::from_elf(code.e_flags, code.abi_version).ok_or(HipCode::INVALID_IMAGE)?;
        if !topology.runs_on(agent, &target) {
            return Err(HipCode::NO_BINARY_FOR_GPU);
        }
        let code = match found {
            Found::Shared(shared) => shared,
            Found::Fresh(code) => {
                let kernels = read_kernels(bytes).map_err(|_| HipCode::INVALID_IMAGE)?;
                let image = image_of(&code, &shared()).map_err(|_| HipCode::OUT_OF_MEMORY)?;
                let symbols = code
                    .symbols
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.name.clone(), i))
                    .collect();
                Arc::new(ModuleCode {
                    code,
                    kernels,
                    symbols,
                    image,
                })
            }
        };
        Ok(ModuleLoad { agent, code })
    }

    /// Loads a prepared module on `ordinal`: its image mapped in the
    /// agent's code window, its code shared with later loads of the same
    /// bytes.
    pub(crate) fn load(
        &mut self,
        windows: &mut CodeWindows,
        memory: &mut Memory,
        serials: &mut Serials,
        ordinal: i32,
        load: ModuleLoad,
    ) -> Result<u64, HipCode> {
        let ModuleLoad { agent, code } = load;
        let (image, delta) = windows
            .map(memory, agent, &code.code, &code.image)
            .map_err(|_| HipCode::OUT_OF_MEMORY)?;
        // Code a live module shares is listed already, unless that module
        // was unloaded while this one was prepared.
        if !self.shared.iter().any(|w| w.as_ptr() == Arc::as_ptr(&code)) {
            self.shared.push(Arc::downgrade(&code));
        }
        let s = serials.next();
        self.modules.insert(
            s,
            HipModule {
                ordinal,
                image,
                delta,
                code,
                functions: Vec::new(),
            },
        );
        Ok(handle(TAG_HIP_MODULE, s))
    }

    /// `hipModuleUnload`: the module, its image and its functions.
    pub(crate) fn unload(&mut self, memory: &mut Memory, module: u64) -> Result<(), HipCode> {
        let s = serial(module, TAG_HIP_MODULE).ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
        let m = self
            .modules
            .remove(&s)
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
        for f in &m.functions {
            self.functions.remove(f);
        }
        memory.unmap_image(m.image);
        Ok(())
    }

    /// `hipModuleGetFunction`: the kernel named `name` (its `.name`, or the
    /// descriptor symbol without `.kd`); unknown names are `hipErrorNotFound`.
    pub(crate) fn function(
        &mut self,
        serials: &mut Serials,
        module: u64,
        name: &str,
    ) -> Result<u64, HipCode> {
        let s = serial(module, TAG_HIP_MODULE).ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
        let m = self
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
        let f = serials.next();
        if let Some(m) = self.modules.get_mut(&s) {
            m.functions.push(f);
        }
        self.functions.insert(
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
    }

    /// `hipModuleGetGlobal`: address and size of a variable.
    pub(crate) fn global(&self, module: u64, name: &str) -> Result<(u64, u64), HipCode> {
        let m = serial(module, TAG_HIP_MODULE)
            .and_then(|s| self.modules.get(&s))
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
        match m.code.symbol(name, m.delta) {
            Some((SymbolKind::Variable, address, size)) => Ok((address, size)),
            _ => Err(HipCode::NOT_FOUND),
        }
    }

    /// `hipFuncGetAttribute` (see [`function_attribute`]).
    pub(crate) fn function_attribute(
        &self,
        topology: &Topology,
        function: u64,
        attribute: i32,
    ) -> Result<i32, HipCode> {
        use function_attribute as a;
        let f = self.function_of(function)?;
        let ordinal = self.module_device(f)?;
        let clamp = |v: u64| i32::try_from(v).unwrap_or(i32::MAX);
        Ok(match attribute {
            a::MAX_THREADS_PER_BLOCK => clamp(u64::from(f.kernel.max_flat_workgroup_size)),
            a::SHARED_SIZE_BYTES => clamp(u64::from(f.kernel.group_segment_fixed_size)),
            a::NUM_REGS => clamp(u64::from(f.kernel.vgpr_count)),
            a::CONST_SIZE_BYTES | a::CACHE_MODE_CA => 0,
            a::LOCAL_SIZE_BYTES => clamp(u64::from(f.private_segment_size)),
            a::PTX_VERSION | a::BINARY_VERSION => {
                let p = topology.device_properties(ordinal)?;
                p.major * 10 + p.minor
            }
            a::MAX_DYNAMIC_SHARED_SIZE_BYTES => clamp(
                topology
                    .lds_limit(ordinal)
                    .saturating_sub(u64::from(f.kernel.group_segment_fixed_size)),
            ),
            a::PREFERRED_SHARED_MEMORY_CARVEOUT => -1,
            _ => return Err(HipCode::INVALID_VALUE),
        })
    }

    /// `hipFuncSetAttribute`: only the dynamic-LDS limit is kept; a value
    /// above what the device leaves beside the static LDS is refused.
    pub(crate) fn set_function_attribute(
        &mut self,
        topology: &Topology,
        function: u64,
        attribute: i32,
        value: i32,
    ) -> Result<(), HipCode> {
        use function_attribute as a;
        let f = self.function_of(function)?;
        let ordinal = self.module_device(f)?;
        let room = topology
            .lds_limit(ordinal)
            .saturating_sub(u64::from(f.kernel.group_segment_fixed_size));
        let value = u32::try_from(value).map_err(|_| HipCode::INVALID_VALUE)?;
        match attribute {
            a::MAX_DYNAMIC_SHARED_SIZE_BYTES if u64::from(value) <= room => {}
            a::PREFERRED_SHARED_MEMORY_CARVEOUT if value <= 100 => return Ok(()),
            _ => return Err(HipCode::INVALID_VALUE),
        }
        if let Some(f) = serial(function, TAG_HIP_FUNCTION).and_then(|s| self.functions.get_mut(&s))
        {
            f.max_dynamic_shared = value;
        }
        Ok(())
    }

    /// The explicit arguments `(offset, size)` and kernarg size of a
    /// function, for laying out `kernelParams`.
    pub(crate) fn function_args(&self, function: u64) -> Result<(Vec<(u32, u32)>, u32), HipCode> {
        let f = self.function_of(function)?;
        Ok((
            f.kernel.explicit_args.clone(),
            f.kernel.kernarg_segment_size,
        ))
    }

    /// The facts of a function ([`FunctionFacts`]).
    pub(crate) fn function_facts(
        &self,
        topology: &Topology,
        function: u64,
    ) -> Result<FunctionFacts, HipCode> {
        let f = self.function_of(function)?;
        let ordinal = self.module_device(f)?;
        Ok(FunctionFacts {
            ordinal,
            kernel: f.kernel.clone(),
            private_segment_size: f.private_segment_size,
            max_dynamic_shared: f.max_dynamic_shared,
            lds_limit: topology.lds_limit(ordinal),
            device: topology.device_properties(ordinal)?,
        })
    }

    fn function_of(&self, function: u64) -> Result<&HipFunction, HipCode> {
        serial(function, TAG_HIP_FUNCTION)
            .and_then(|s| self.functions.get(&s))
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)
    }

    fn module_device(&self, f: &HipFunction) -> Result<i32, HipCode> {
        self.modules
            .get(&f.module)
            .map(|m| m.ordinal)
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)
    }
}
