//! The loader's objects and their rules: code-object readers (the bytes,
//! parsed once), executables (frozen or not, their loads), loaded code
//! objects and the symbols they define, with ROCr's checks and statuses.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::code_windows::{CodeWindows, image_of};
use crate::codes::HsaCode;
use crate::elf::{CodeObject, ElfError, Symbol, SymbolKind};
use crate::handles::{
    Serials, TAG_EXECUTABLE, TAG_LOADED, TAG_READER, TAG_SYMBOL, agent_handle, handle, serial,
};
use crate::isa::Target;
use crate::memory::{Image, Memory};
use crate::shared_bytes::SharedBytes;
use crate::topology::Topology;

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

/// `HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED`.
const VARIABLE_ALREADY_DEFINED: HsaCode = HsaCode(0x1014);

/// A code-object reader: its bytes and how they parsed (a malformed code
/// object is reported when it is loaded, as ROCr does).
struct Reader {
    bytes: SharedBytes,
    parsed: Result<Arc<CodeObject>, ElfError>,
    /// What every load of this reader shares, made at its first load (it
    /// outlives the reader while loaded).
    loadable: Option<Arc<Loadable>>,
}

/// A code object as loads share it, whatever agent they are on: the
/// parsed object, its loaded image and its symbols by name.
pub(crate) struct Loadable {
    pub(crate) code: Arc<CodeObject>,
    pub(crate) image: Arc<Image>,
    /// Indices into `code.symbols` sorted by name; of a repeated name the
    /// last one is what a lookup finds.
    by_name: Vec<u32>,
}

impl Loadable {
    /// `code` over its loaded `image`, its symbols indexed by name.
    pub(crate) fn new(code: Arc<CodeObject>, image: Arc<Image>) -> Loadable {
        let mut by_name: Vec<u32> = (0..code.symbols.len())
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        // Stable: equal names stay in symbol order, so the last is the latest.
        by_name.sort_by(|&a, &b| name_of(&code, a).cmp(name_of(&code, b)));
        Loadable {
            code,
            image,
            by_name,
        }
    }

    /// The index of the symbol `name` (the last of that name).
    pub(crate) fn find(&self, name: &str) -> Option<u64> {
        let end = self
            .by_name
            .partition_point(|&i| name_of(&self.code, i) <= name);
        let &i = self.by_name.get(end.checked_sub(1)?)?;
        (name_of(&self.code, i) == name).then_some(u64::from(i))
    }
}

fn name_of(code: &CodeObject, i: u32) -> &str {
    code.symbols
        .get(i as usize)
        .map_or("", |symbol| symbol.name.as_str())
}

/// An executable: frozen or not, and its loads in load order.
struct Executable {
    frozen: bool,
    loaded: Vec<u64>,
}

/// A code object loaded on one agent. Its symbols' serials are the
/// `code.symbols.len()` serials from `first_symbol`, in symbol order, taken
/// just before its own: one record per load, not per symbol.
struct Loaded {
    agent: usize,
    base: u64,
    delta: i64,
    size: u64,
    first_symbol: u64,
    code: Arc<Loadable>,
}

/// The loader's readers, executables and loads, and the code windows
/// every load (HIP modules' too) is placed in.
pub(crate) struct Loader {
    readers: BTreeMap<u64, Reader>,
    executables: BTreeMap<u64, Executable>,
    loaded: BTreeMap<u64, Loaded>,
    /// First symbol serial of a load → the load's serial (loads that define
    /// symbols): a symbol handle's load is the range below it.
    symbol_ranges: BTreeMap<u64, u64>,
    pub(crate) windows: CodeWindows,
}

impl Loader {
    /// No object yet, on a node of `agents` agents.
    pub(crate) fn new(agents: usize) -> Loader {
        Loader {
            readers: BTreeMap::new(),
            executables: BTreeMap::new(),
            loaded: BTreeMap::new(),
            symbol_ranges: BTreeMap::new(),
            windows: CodeWindows::new(agents),
        }
    }

    /// Live readers.
    pub(crate) fn reader_count(&self) -> u64 {
        self.readers.len() as u64
    }

    /// Live executables.
    pub(crate) fn executable_count(&self) -> u64 {
        self.executables.len() as u64
    }

    /// Where the loaded code objects' images are mapped.
    pub(crate) fn image_bases(&self) -> impl Iterator<Item = u64> + '_ {
        self.loaded.values().map(|l| l.base)
    }

    /// The kernels loaded on agent `agent_index`, in load order, then
    /// symbol order: each one's shared code, its descriptor symbol, the
    /// address of its kernel object (the loaded descriptor) and its
    /// kernarg size.
    pub(crate) fn kernels_on(
        &self,
        agent_index: usize,
    ) -> impl Iterator<Item = (&Arc<Loadable>, &Symbol, u64, u32)> + '_ {
        self.loaded
            .values()
            .filter(move |l| l.agent == agent_index)
            .flat_map(|l| {
                l.code
                    .code
                    .symbols
                    .iter()
                    .filter_map(move |s| match s.kind {
                        SymbolKind::Kernel { kernarg_size, .. } => Some((
                            &l.code,
                            s,
                            s.value.wrapping_add_signed(l.delta),
                            kernarg_size,
                        )),
                        SymbolKind::Variable => None,
                    })
            })
    }

    /// `hsa_code_object_reader_create_from_memory` of `bytes`, parsed as
    /// `parsed` (before the node was locked).
    pub(crate) fn create_reader(
        &mut self,
        serials: &mut Serials,
        bytes: SharedBytes,
        parsed: Result<Arc<CodeObject>, ElfError>,
    ) -> u64 {
        let serial = serials.next();
        self.readers.insert(
            serial,
            Reader {
                bytes,
                parsed,
                loadable: None,
            },
        );
        handle(TAG_READER, serial)
    }

    /// `hsa_code_object_reader_destroy`.
    pub(crate) fn destroy_reader(&mut self, reader: u64) -> Result<(), HsaCode> {
        let s = serial(reader, TAG_READER).ok_or(HsaCode::INVALID_CODE_OBJECT_READER)?;
        self.readers
            .remove(&s)
            .map(|_| ())
            .ok_or(HsaCode::INVALID_CODE_OBJECT_READER)
    }

    /// `hsa_executable_create_alt` with raw profile and rounding values.
    pub(crate) fn create_executable(
        &mut self,
        serials: &mut Serials,
        profile: u32,
        rounding_mode: u32,
    ) -> Result<u64, HsaCode> {
        if profile > 1 || rounding_mode > 2 {
            return Err(HsaCode::INVALID_ARGUMENT);
        }
        let serial = serials.next();
        self.executables.insert(
            serial,
            Executable {
                frozen: false,
                loaded: Vec::new(),
            },
        );
        Ok(handle(TAG_EXECUTABLE, serial))
    }

    /// `hsa_executable_load_agent_code_object`: checks the code object's
    /// target against the agent's ISAs (ROCr: unknown target →
    /// `INVALID_ISA_NAME`, unsupported by the agent → `INCOMPATIBLE_ARGUMENTS`),
    /// places its image in the agent's code window and defines its symbols.
    pub(crate) fn load(
        &mut self,
        topology: &Topology,
        serials: &mut Serials,
        memory: &mut Memory,
        executable: u64,
        agent: u64,
        reader: u64,
    ) -> Result<u64, HsaCode> {
        let exec_serial = serial(executable, TAG_EXECUTABLE)
            .filter(|s| self.executables.contains_key(s))
            .ok_or(HsaCode::INVALID_EXECUTABLE)?;
        if self.executables.get(&exec_serial).is_some_and(|e| e.frozen) {
            return Err(HsaCode::FROZEN_EXECUTABLE);
        }
        let agent_index = topology.agent_index(agent)?;
        let reader_serial = serial(reader, TAG_READER)
            .filter(|s| self.readers.contains_key(s))
            .ok_or(HsaCode::INVALID_CODE_OBJECT_READER)?;
        let reader = self
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
        let target =
            Target::from_elf(code.e_flags, code.abi_version).ok_or(HsaCode::INVALID_ISA_NAME)?;
        if !topology.runs_on(agent_index, &target) {
            return Err(HsaCode::INCOMPATIBLE_ARGUMENTS);
        }
        let exec_loads = self
            .executables
            .get(&exec_serial)
            .map(|e| e.loaded.as_slice())
            .unwrap_or_default();
        let defined = exec_loads
            .iter()
            .filter_map(|l| self.loaded.get(l))
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
                let image = image_of(&code, &bytes)?;
                let loadable = Arc::new(Loadable::new(Arc::clone(&code), image));
                if let Some(reader) = self.readers.get_mut(&reader_serial) {
                    reader.loadable = Some(Arc::clone(&loadable));
                }
                loadable
            }
        };
        let (base, delta) = self
            .windows
            .map(memory, agent_index, &code, &loadable.image)?;
        // The symbols' serials, in symbol order, then the load's own.
        let first_symbol = serials.take(code.symbols.len() as u64);
        let loaded_serial = serials.next();
        if !code.symbols.is_empty() {
            self.symbol_ranges.insert(first_symbol, loaded_serial);
        }
        self.loaded.insert(
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
        if let Some(exec) = self.executables.get_mut(&exec_serial) {
            exec.loaded.push(loaded_serial);
        }
        Ok(handle(TAG_LOADED, loaded_serial))
    }

    /// `hsa_executable_freeze`.
    pub(crate) fn freeze(&mut self, executable: u64) -> Result<(), HsaCode> {
        let exec = serial(executable, TAG_EXECUTABLE)
            .and_then(|s| self.executables.get_mut(&s))
            .ok_or(HsaCode::INVALID_EXECUTABLE)?;
        if exec.frozen {
            return Err(HsaCode::FROZEN_EXECUTABLE);
        }
        exec.frozen = true;
        Ok(())
    }

    /// `hsa_executable_destroy`: unloads every code object and drops the symbols.
    pub(crate) fn destroy_executable(
        &mut self,
        memory: &mut Memory,
        executable: u64,
    ) -> Result<(), HsaCode> {
        let s = serial(executable, TAG_EXECUTABLE).ok_or(HsaCode::INVALID_EXECUTABLE)?;
        let exec = self
            .executables
            .remove(&s)
            .ok_or(HsaCode::INVALID_EXECUTABLE)?;
        for loaded in exec.loaded {
            if let Some(l) = self.loaded.remove(&loaded) {
                memory.unmap_image(l.base);
                self.symbol_ranges.remove(&l.first_symbol);
            }
        }
        Ok(())
    }

    /// `hsa_executable_get_symbol_by_name`. The executable must be frozen;
    /// `agent = None` asks for a program symbol (code objects loaded on an
    /// agent define only agent symbols).
    pub(crate) fn symbol_by_name(
        &self,
        topology: &Topology,
        executable: u64,
        name: &str,
        agent: Option<u64>,
    ) -> Result<u64, HsaCode> {
        let s = serial(executable, TAG_EXECUTABLE).ok_or(HsaCode::INVALID_EXECUTABLE)?;
        let exec = self
            .executables
            .get(&s)
            .ok_or(HsaCode::INVALID_EXECUTABLE)?;
        if !exec.frozen {
            return Err(HsaCode::INVALID_EXECUTABLE);
        }
        let Some(agent) = agent else {
            return Err(HsaCode::INVALID_SYMBOL_NAME);
        };
        let agent_index = topology.agent_index(agent)?;
        exec.loaded
            .iter()
            .filter_map(|l| self.loaded.get(l))
            .filter(|l| l.agent == agent_index)
            .find_map(|l| l.code.find(name).map(|i| l.first_symbol + i))
            .map(|serial| handle(TAG_SYMBOL, serial))
            .ok_or(HsaCode::INVALID_SYMBOL_NAME)
    }

    /// Everything about one symbol (`hsa_executable_symbol_get_info`).
    pub(crate) fn symbol(&self, symbol: u64) -> Result<SymbolInfo, HsaCode> {
        let s = serial(symbol, TAG_SYMBOL).ok_or(HsaCode::INVALID_EXECUTABLE_SYMBOL)?;
        let (first, loaded) = self
            .symbol_ranges
            .range(..=s)
            .next_back()
            .and_then(|(&first, l)| Some((first, self.loaded.get(l)?)))
            .ok_or(HsaCode::INVALID_EXECUTABLE_SYMBOL)?;
        let record = usize::try_from(s - first)
            .ok()
            .and_then(|i| loaded.code.code.symbols.get(i))
            .ok_or(HsaCode::INVALID_EXECUTABLE_SYMBOL)?;
        Ok(SymbolInfo {
            name: record.name.clone(),
            agent: agent_handle(loaded.agent),
            kind: record.kind,
            address: record.value.wrapping_add(loaded.delta as u64),
            size: record.size,
        })
    }

    /// `hsa_ven_amd_loader_executable_iterate_loaded_code_objects`, in load order.
    pub(crate) fn loaded_code_objects(&self, executable: u64) -> Result<Vec<u64>, HsaCode> {
        let exec = serial(executable, TAG_EXECUTABLE)
            .and_then(|s| self.executables.get(&s))
            .ok_or(HsaCode::INVALID_EXECUTABLE)?;
        Ok(exec.loaded.iter().map(|&s| handle(TAG_LOADED, s)).collect())
    }

    /// Everything about one loaded code object
    /// (`hsa_ven_amd_loader_loaded_code_object_get_info`).
    pub(crate) fn loaded_code_object(&self, loaded: u64) -> Result<LoadedInfo, HsaCode> {
        let l = serial(loaded, TAG_LOADED)
            .and_then(|s| self.loaded.get(&s))
            .ok_or(HsaCode::INVALID_ARGUMENT)?;
        Ok(LoadedInfo {
            agent: agent_handle(l.agent),
            load_base: l.base,
            load_delta: l.delta,
            load_size: l.size,
        })
    }
}
