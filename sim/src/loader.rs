//! The simulated code-object loader: readers, executables, loading with
//! ROCr's target check, freezing, symbols and the loaded-code-object
//! extension.

use std::sync::Arc;

use crate::codes::HsaCode;
use crate::elf::{CodeObject, SymbolKind};
use crate::isa::Target;
use crate::memory::Image;
use crate::node::{
    Executable, Loadable, Loaded, Reader, Sim, TAG_EXECUTABLE, TAG_LOADED, TAG_READER, TAG_SYMBOL,
    handle, serial,
};
use crate::shared_bytes::SharedBytes;

/// Largest image one code object may load as.
pub const MAX_LOAD_BYTES: u64 = 1 << 32;
/// Start of the code windows (see [`crate::memory`]'s address layout).
pub const CODE_WINDOWS_BASE: u64 = 1 << 40;
/// Bytes of simulated code addresses per agent: the code windows of
/// [`crate::validate::MAX_AGENTS`] agents fill 1 TiB.
pub const CODE_WINDOW_BYTES: u64 = 8 << 30;
/// Alignment of load bases.
pub const LOAD_ALIGNMENT: u64 = 1 << 16;
/// `HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED`.
const VARIABLE_ALREADY_DEFINED: HsaCode = HsaCode(0x1014);

/// Start of agent `agent`'s window of code addresses.
pub fn code_base(agent: usize) -> u64 {
    CODE_WINDOWS_BASE + agent as u64 * CODE_WINDOW_BYTES
}

/// What a symbol query returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolInfo {
    /// The name.
    pub name: String,
    /// The agent's handle.
    pub agent: u64,
    /// Kernel (with its descriptor facts) or variable.
    pub kind: SymbolKind,
    /// Kernel object or variable address.
    pub address: u64,
    /// `st_size`.
    pub size: u64,
}

/// What a loaded-code-object query returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadedInfo {
    /// The agent's handle.
    pub agent: u64,
    /// `LOAD_BASE`.
    pub load_base: u64,
    /// `LOAD_DELTA`.
    pub load_delta: i64,
    /// `LOAD_SIZE`.
    pub load_size: u64,
}

impl Sim {
    /// `code`'s loaded image over `bytes` (as ROCr lays it out: the image
    /// spans the segments' highest end, offset by the lowest address), to
    /// be shared by every mapping of it.
    pub(crate) fn image_of(code: &CodeObject, bytes: &SharedBytes) -> Result<Arc<Image>, HsaCode> {
        let min_vaddr = code.min_vaddr();
        let load_size = code.max_vaddr();
        if load_size == 0 || load_size > MAX_LOAD_BYTES {
            return Err(HsaCode::OUT_OF_RESOURCES);
        }
        let pieces = code
            .segments
            .iter()
            .filter_map(|s| {
                code.file_range_at(bytes, s.vaddr, s.filesz)
                    .map(|range| (s.vaddr - min_vaddr, range))
            })
            .collect();
        Image::new(bytes.clone(), load_size, pieces)
            .map(Arc::new)
            .ok_or(HsaCode::INVALID_ARGUMENT)
    }

    /// Places `code`'s `image` in `agent`'s code window (after the last
    /// load while the window lasts, then wherever it fits) and returns its
    /// base and the load delta.
    pub(crate) fn map_code_object(
        &self,
        state: &mut crate::node::State,
        agent_index: usize,
        code: &CodeObject,
        image: &Arc<Image>,
    ) -> Result<(u64, u64), HsaCode> {
        let min_vaddr = code.min_vaddr();
        let window = code_base(agent_index);
        let len = crate::memory::align_up(image.size(), LOAD_ALIGNMENT)
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        let next = state.code_next.get(agent_index).copied().unwrap_or(0);
        let base = next
            .checked_add(len)
            .filter(|&end| end <= CODE_WINDOW_BYTES)
            .map(|_| window + next)
            .or_else(|| {
                state
                    .memory
                    .first_fit(window, CODE_WINDOW_BYTES, len, LOAD_ALIGNMENT)
            })
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        state.memory.map_image(base, Arc::clone(image))?;
        if let Some(n) = state.code_next.get_mut(agent_index) {
            *n = base - window + len;
        }
        Ok((base, base.wrapping_sub(min_vaddr)))
    }

    /// `hsa_code_object_reader_create_from_memory`: copies and parses the
    /// bytes. Like ROCr, a malformed code object is reported when it is loaded.
    pub fn code_object_reader_create_from_memory(&self, bytes: &[u8]) -> Result<u64, HsaCode> {
        self.reader_create(bytes, || SharedBytes::from(bytes))
    }

    /// [`Sim::code_object_reader_create_from_memory`] of bytes the caller
    /// already holds shared (the C library's copy of the caller's buffer, or
    /// the caller's mapped file): kept without another copy.
    pub fn code_object_reader_create_from_shared(
        &self,
        bytes: impl Into<SharedBytes>,
    ) -> Result<u64, HsaCode> {
        let bytes = bytes.into();
        let view = bytes.clone();
        self.reader_create(&view, move || bytes)
    }

    fn reader_create(
        &self,
        bytes: &[u8],
        shared: impl FnOnce() -> SharedBytes,
    ) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_code_object_reader_create_from_memory",
            || format!("{} bytes", bytes.len()),
            |_, state| {
                if bytes.is_empty() {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                let parsed = CodeObject::parse(bytes).map(Arc::new);
                let serial = state.serial();
                state.readers.insert(
                    serial,
                    Reader {
                        bytes: shared(),
                        parsed,
                        loadable: None,
                    },
                );
                Ok(handle(TAG_READER, serial))
            },
        )
    }

    /// `hsa_code_object_reader_destroy`.
    pub fn code_object_reader_destroy(&self, reader: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_code_object_reader_destroy",
            || format!("{reader:#x}"),
            |_, state| {
                let s = serial(reader, TAG_READER).ok_or(HsaCode::INVALID_CODE_OBJECT_READER)?;
                state
                    .readers
                    .remove(&s)
                    .map(|_| ())
                    .ok_or(HsaCode::INVALID_CODE_OBJECT_READER)
            },
        )
    }

    /// `hsa_executable_create_alt` with raw profile and rounding values.
    pub fn executable_create_alt(&self, profile: u32, rounding_mode: u32) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_executable_create_alt",
            || format!("{profile}, {rounding_mode}"),
            |_, state| {
                if profile > 1 || rounding_mode > 2 {
                    return Err(HsaCode::INVALID_ARGUMENT);
                }
                let serial = state.serial();
                state.executables.insert(
                    serial,
                    Executable {
                        frozen: false,
                        loaded: Vec::new(),
                    },
                );
                Ok(handle(TAG_EXECUTABLE, serial))
            },
        )
    }

    /// `hsa_executable_load_agent_code_object`: checks the code object's
    /// target against the agent's ISAs (ROCr: unknown target →
    /// `INVALID_ISA_NAME`, unsupported by the agent → `INCOMPATIBLE_ARGUMENTS`),
    /// places its image in the agent's code window and defines its symbols.
    pub fn executable_load_agent_code_object(
        &self,
        executable: u64,
        agent: u64,
        reader: u64,
    ) -> Result<u64, HsaCode> {
        let args = || format!("{executable:#x}, {agent:#x}, {reader:#x}");
        self.hsa(
            "hsa_executable_load_agent_code_object",
            args,
            |sim, state| {
                let exec_serial = serial(executable, TAG_EXECUTABLE)
                    .filter(|s| state.executables.contains_key(s))
                    .ok_or(HsaCode::INVALID_EXECUTABLE)?;
                if state
                    .executables
                    .get(&exec_serial)
                    .is_some_and(|e| e.frozen)
                {
                    return Err(HsaCode::FROZEN_EXECUTABLE);
                }
                let agent_index = sim.agent_index(agent)?;
                let reader_serial = serial(reader, TAG_READER)
                    .filter(|s| state.readers.contains_key(s))
                    .ok_or(HsaCode::INVALID_CODE_OBJECT_READER)?;
                let reader = state
                    .readers
                    .get(&reader_serial)
                    .ok_or(HsaCode::INVALID_CODE_OBJECT_READER)?;
                let (code, bytes, loadable) = match &reader.parsed {
                    Ok(code) => (
                        Arc::clone(code),
                        reader.bytes.clone(),
                        reader.loadable.clone(),
                    ),
                    Err(_) => return Err(HsaCode::INVALID_CODE_OBJECT),
                };
                if !(1..=4).contains(&code.abi_version) {
                    return Err(HsaCode::INVALID_CODE_OBJECT);
                }
                let target = Target::from_elf(code.e_flags, code.abi_version)
                    .ok_or(HsaCode::INVALID_ISA_NAME)?;
                let supported = sim
                    .machine
                    .agents
                    .get(agent_index)
                    .map(|a| {
                        a.isas
                            .iter()
                            .filter_map(|isa| Target::parse(&isa.name))
                            .any(|isa| target.runs_on(&isa))
                    })
                    .unwrap_or(false);
                if !supported {
                    return Err(HsaCode::INCOMPATIBLE_ARGUMENTS);
                }
                let exec_loads = state
                    .executables
                    .get(&exec_serial)
                    .map(|e| e.loaded.as_slice())
                    .unwrap_or_default();
                let defined = exec_loads
                    .iter()
                    .filter_map(|l| state.loaded.get(l))
                    .filter(|l| l.agent == agent_index)
                    .any(|l| {
                        code.symbols
                            .iter()
                            .any(|symbol| l.code.find(&symbol.name).is_some())
                    });
                if defined {
                    return Err(VARIABLE_ALREADY_DEFINED);
                }
                // One image and symbol index per reader, shared by every
                // agent it is loaded on.
                let loadable = match loadable {
                    Some(loadable) => loadable,
                    None => {
                        let image = Sim::image_of(&code, &bytes)?;
                        let loadable = Arc::new(Loadable::new(Arc::clone(&code), image));
                        if let Some(reader) = state.readers.get_mut(&reader_serial) {
                            reader.loadable = Some(Arc::clone(&loadable));
                        }
                        loadable
                    }
                };
                let (base, delta) =
                    sim.map_code_object(state, agent_index, &code, &loadable.image)?;
                // The symbols' serials, in symbol order, then the load's own.
                let first_symbol = state.next_serial + 1;
                state.next_serial += code.symbols.len() as u64;
                let loaded_serial = state.serial();
                if !code.symbols.is_empty() {
                    state.symbol_ranges.insert(first_symbol, loaded_serial);
                }
                state.loaded.insert(
                    loaded_serial,
                    Loaded {
                        agent: agent_index,
                        base,
                        delta: delta as i64,
                        size: code.max_vaddr(),
                        first_symbol,
                        code: loadable,
                    },
                );
                if let Some(exec) = state.executables.get_mut(&exec_serial) {
                    exec.loaded.push(loaded_serial);
                }
                Ok(handle(TAG_LOADED, loaded_serial))
            },
        )
    }

    /// `hsa_executable_freeze`.
    pub fn executable_freeze(&self, executable: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_executable_freeze",
            || format!("{executable:#x}"),
            |_, state| {
                let exec = serial(executable, TAG_EXECUTABLE)
                    .and_then(|s| state.executables.get_mut(&s))
                    .ok_or(HsaCode::INVALID_EXECUTABLE)?;
                if exec.frozen {
                    return Err(HsaCode::FROZEN_EXECUTABLE);
                }
                exec.frozen = true;
                Ok(())
            },
        )
    }

    /// `hsa_executable_destroy`: unloads every code object and drops the symbols.
    pub fn executable_destroy(&self, executable: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_executable_destroy",
            || format!("{executable:#x}"),
            |_, state| {
                let s = serial(executable, TAG_EXECUTABLE).ok_or(HsaCode::INVALID_EXECUTABLE)?;
                let exec = state
                    .executables
                    .remove(&s)
                    .ok_or(HsaCode::INVALID_EXECUTABLE)?;
                for loaded in exec.loaded {
                    if let Some(l) = state.loaded.remove(&loaded) {
                        state.memory.unmap_image(l.base);
                        state.symbol_ranges.remove(&l.first_symbol);
                    }
                }
                Ok(())
            },
        )
    }

    /// `hsa_executable_get_symbol_by_name`. The executable must be frozen;
    /// `agent = None` asks for a program symbol (code objects loaded on an
    /// agent define only agent symbols).
    pub fn executable_get_symbol_by_name(
        &self,
        executable: u64,
        name: &str,
        agent: Option<u64>,
    ) -> Result<u64, HsaCode> {
        let args = || format!("{executable:#x}, {name:?}, {agent:x?}");
        self.hsa("hsa_executable_get_symbol_by_name", args, |sim, state| {
            let s = serial(executable, TAG_EXECUTABLE).ok_or(HsaCode::INVALID_EXECUTABLE)?;
            let exec = state
                .executables
                .get(&s)
                .ok_or(HsaCode::INVALID_EXECUTABLE)?;
            if !exec.frozen {
                return Err(HsaCode::INVALID_EXECUTABLE);
            }
            let Some(agent) = agent else {
                return Err(HsaCode::INVALID_SYMBOL_NAME);
            };
            let agent_index = sim.agent_index(agent)?;
            exec.loaded
                .iter()
                .filter_map(|l| state.loaded.get(l))
                .filter(|l| l.agent == agent_index)
                .find_map(|l| l.code.find(name).map(|i| l.first_symbol + i))
                .map(|serial| handle(TAG_SYMBOL, serial))
                .ok_or(HsaCode::INVALID_SYMBOL_NAME)
        })
    }

    /// `hsa_executable_symbol_get_info`: everything about one symbol.
    pub(crate) fn symbol_info(
        &self,
        symbol: u64,
        attribute: &'static str,
    ) -> Result<SymbolInfo, HsaCode> {
        self.hsa(
            "hsa_executable_symbol_get_info",
            || format!("{symbol:#x}, {attribute}"),
            |_, state| {
                let s = serial(symbol, TAG_SYMBOL).ok_or(HsaCode::INVALID_EXECUTABLE_SYMBOL)?;
                let (first, loaded) = state
                    .symbol_ranges
                    .range(..=s)
                    .next_back()
                    .and_then(|(&first, l)| Some((first, state.loaded.get(l)?)))
                    .ok_or(HsaCode::INVALID_EXECUTABLE_SYMBOL)?;
                let record = usize::try_from(s - first)
                    .ok()
                    .and_then(|i| loaded.code.code.symbols.get(i))
                    .ok_or(HsaCode::INVALID_EXECUTABLE_SYMBOL)?;
                Ok(SymbolInfo {
                    name: record.name.clone(),
                    agent: Sim::agent_handle(loaded.agent),
                    kind: record.kind,
                    address: record.value.wrapping_add(loaded.delta as u64),
                    size: record.size,
                })
            },
        )
    }

    /// `hsa_ven_amd_loader_executable_iterate_loaded_code_objects`, in load order.
    pub fn executable_iterate_loaded_code_objects(
        &self,
        executable: u64,
    ) -> Result<Vec<u64>, HsaCode> {
        let args = || format!("{executable:#x}");
        self.hsa(
            "hsa_ven_amd_loader_executable_iterate_loaded_code_objects",
            args,
            |_, state| {
                let exec = serial(executable, TAG_EXECUTABLE)
                    .and_then(|s| state.executables.get(&s))
                    .ok_or(HsaCode::INVALID_EXECUTABLE)?;
                Ok(exec.loaded.iter().map(|&s| handle(TAG_LOADED, s)).collect())
            },
        )
    }

    /// `hsa_ven_amd_loader_loaded_code_object_get_info`: everything about one loaded code object.
    pub(crate) fn loaded_code_object_info(
        &self,
        loaded: u64,
        attribute: &'static str,
    ) -> Result<LoadedInfo, HsaCode> {
        let args = || format!("{loaded:#x}, {attribute}");
        self.hsa(
            "hsa_ven_amd_loader_loaded_code_object_get_info",
            args,
            |_, state| {
                let l = serial(loaded, TAG_LOADED)
                    .and_then(|s| state.loaded.get(&s))
                    .ok_or(HsaCode::INVALID_ARGUMENT)?;
                Ok(LoadedInfo {
                    agent: Sim::agent_handle(l.agent),
                    load_base: l.base,
                    load_delta: l.delta,
                    load_size: l.size,
                })
            },
        )
    }
}
