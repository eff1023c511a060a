//! The node's side of HIP's registration path (`__hipRegisterFatBinary`
//! and the launches by host function): a registered fat binary's code
//! object loaded on a device at its first use, its kernels and variables
//! looked up by name, the facts `hipFuncGetAttributes` and the occupancy
//! queries read, and the module unloaded when the binary is unregistered.
//!
//! None of these counts a call of its own: each runs inside the HIP call
//! that needed it (`hipLaunchKernel`, `hipMemcpyToSymbol`, …), which the C
//! library counts (and faults) first, as ROCm loads a registered code
//! object inside the call that first uses it.

use crate::codes::HipCode;
use crate::node::Sim;
use crate::shared_bytes::SharedBytes;
use crate::state::hip_module::Modules;

pub use crate::state::hip_module::FunctionFacts;

impl Sim {
    /// Loads the code object `bytes` (chosen from a registered fat binary
    /// for `ordinal`) as a module of `ordinal`, uncounted: the checks and
    /// errors of [`Sim::hip_module_load`].
    pub fn hip_registered_load(
        &self,
        ordinal: i32,
        bytes: impl Into<SharedBytes>,
    ) -> Result<u64, HipCode> {
        let bytes = bytes.into();
        let view = bytes.clone();
        let live = self.lock().modules.shared_code(&view);
        let load = Modules::prepare(&self.topology, ordinal, &view, live, move || bytes)?;
        let state = &mut *self.lock();
        state.modules.load(
            &mut state.loader.windows,
            &mut state.memory,
            &mut state.serials,
            ordinal,
            load,
        )
    }

    /// The kernel `name` of a module the registration path loaded
    /// (`hipModuleGetFunction`'s lookup, uncounted).
    pub fn hip_registered_function(&self, module: u64, name: &str) -> Result<u64, HipCode> {
        let state = &mut *self.lock();
        state.modules.function(&mut state.serials, module, name)
    }

    /// Address and size of the variable `name` of a module the
    /// registration path loaded (`hipModuleGetGlobal`'s lookup, uncounted).
    pub fn hip_registered_global(&self, module: u64, name: &str) -> Result<(u64, u64), HipCode> {
        self.lock().modules.global(module, name)
    }

    /// Writes `bytes` at `address` of a loaded module's image (a managed
    /// variable's device-side pointer), uncounted.
    pub fn hip_registered_write(&self, address: u64, bytes: &[u8]) -> Result<(), HipCode> {
        self.lock()
            .memory
            .write(address, bytes)
            .map_err(|_| HipCode::INVALID_VALUE)
    }

    /// Unloads a module the registration path loaded, uncounted.
    pub fn hip_registered_unload(&self, module: u64) -> Result<(), HipCode> {
        let state = &mut *self.lock();
        state.modules.unload(&mut state.memory, module)
    }

    /// What the code object says about a function, for
    /// `hipFuncGetAttributes` and the occupancy queries (uncounted).
    pub fn hip_function_facts(&self, function: u64) -> Result<FunctionFacts, HipCode> {
        self.lock().modules.function_facts(&self.topology, function)
    }
}
