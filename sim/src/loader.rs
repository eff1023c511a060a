//! The simulated code-object loader: readers, executables, loading with
//! ROCr's target check, freezing, symbols and the loaded-code-object
//! extension.
//!
//! The calls are here; `state::loader`'s `Loader` holds the rules and
//! `state::code_windows` where loaded images go.

use std::sync::Arc;

use crate::codes::HsaCode;
use crate::elf::CodeObject;
use crate::node::Sim;
use crate::shared_bytes::SharedBytes;

pub use crate::state::code_windows::{
    CODE_WINDOW_BYTES, CODE_WINDOWS_BASE, LOAD_ALIGNMENT, MAX_LOAD_BYTES, code_base,
};
pub use crate::state::loader::{LoadedInfo, SymbolInfo};

impl Sim {
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
        // Copied and parsed before the node is locked: neither needs it.
        let reader =
            (!bytes.is_empty()).then(|| (shared(), CodeObject::parse(bytes).map(Arc::new)));
        self.hsa(
            "hsa_code_object_reader_create_from_memory",
            || format!("{} bytes", bytes.len()),
            |_, state| {
                let (bytes, parsed) = reader.ok_or(HsaCode::INVALID_ARGUMENT)?;
                Ok(state
                    .loader
                    .create_reader(&mut state.serials, bytes, parsed))
            },
        )
    }

    /// `hsa_code_object_reader_destroy`.
    pub fn code_object_reader_destroy(&self, reader: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_code_object_reader_destroy",
            || format!("{reader:#x}"),
            |_, state| state.loader.destroy_reader(reader),
        )
    }

    /// `hsa_executable_create_alt` with raw profile and rounding values.
    pub fn executable_create_alt(&self, profile: u32, rounding_mode: u32) -> Result<u64, HsaCode> {
        self.hsa(
            "hsa_executable_create_alt",
            || format!("{profile}, {rounding_mode}"),
            |_, state| {
                state
                    .loader
                    .create_executable(&mut state.serials, profile, rounding_mode)
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
            |topology, state| {
                state.loader.load(
                    topology,
                    &mut state.serials,
                    &mut state.memory,
                    executable,
                    agent,
                    reader,
                )
            },
        )
    }

    /// `hsa_executable_freeze`.
    pub fn executable_freeze(&self, executable: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_executable_freeze",
            || format!("{executable:#x}"),
            |_, state| state.loader.freeze(executable),
        )
    }

    /// `hsa_executable_destroy`: unloads every code object and drops the symbols.
    pub fn executable_destroy(&self, executable: u64) -> Result<(), HsaCode> {
        self.hsa(
            "hsa_executable_destroy",
            || format!("{executable:#x}"),
            |_, state| {
                state
                    .loader
                    .destroy_executable(&mut state.memory, executable)
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
        self.hsa(
            "hsa_executable_get_symbol_by_name",
            args,
            |topology, state| {
                state
                    .loader
                    .symbol_by_name(topology, executable, name, agent)
            },
        )
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
            |_, state| state.loader.symbol(symbol),
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
            |_, state| state.loader.loaded_code_objects(executable),
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
            |_, state| state.loader.loaded_code_object(loaded),
        )
    }
}
