//! HIP modules on the simulated node: `hipModuleLoadData` through the
//! node's code-object loader, functions and globals by name, and kernel
//! launches checked against the kernel's metadata and the device, then
//! recorded; the kernel itself is decoded for the interpreter at its first
//! launch and runs in stream order (`kernel_exec`).
//!
//! The calls are here; `state::hip_module`'s `Modules` holds the rules.

use crate::codes::HipCode;
use crate::isa::Target;
use crate::kernel_exec::KernelRun;
use crate::node::Sim;
use crate::shared_bytes::SharedBytes;
use crate::state::hip_module::Modules;

pub use crate::state::hip_module::{Launch, LaunchRequest, MAX_LAUNCH_LOG, function_attribute};

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
        // Parsing, reading the metadata and laying out the image need no
        // state of the node: done before the call locks it.
        let live = self.lock().modules.shared_code(bytes);
        let load = Modules::prepare(&self.topology, ordinal, bytes, live, shared);
        self.hip(
            op,
            || format!("{ordinal}, {} bytes", bytes.len()),
            |_, state| {
                state.modules.load(
                    &mut state.loader.windows,
                    &mut state.memory,
                    &mut state.serials,
                    ordinal,
                    load?,
                )
            },
        )
    }

    /// `hipModuleUnload`: the module, its image and its functions.
    pub fn hip_module_unload(&self, module: u64) -> Result<(), HipCode> {
        self.hip(
            "hipModuleUnload",
            || format!("{module:#x}"),
            |_, state| state.modules.unload(&mut state.memory, module),
        )
    }

    /// `hipModuleGetFunction`: the kernel named `name` (its `.name`, or the
    /// descriptor symbol without `.kd`); unknown names are `hipErrorNotFound`.
    pub fn hip_module_get_function(&self, module: u64, name: &str) -> Result<u64, HipCode> {
        self.hip(
            "hipModuleGetFunction",
            || format!("{module:#x}, {name:?}"),
            |_, state| state.modules.function(&mut state.serials, module, name),
        )
    }

    /// `hipModuleGetGlobal`: address and size of a variable.
    pub fn hip_module_get_global(&self, module: u64, name: &str) -> Result<(u64, u64), HipCode> {
        self.hip(
            "hipModuleGetGlobal",
            || format!("{module:#x}, {name:?}"),
            |_, state| state.modules.global(module, name),
        )
    }

    /// `hipFuncGetAttribute` (see [`crate::hip_module::function_attribute`]).
    pub fn hip_func_get_attribute(&self, function: u64, attribute: i32) -> Result<i32, HipCode> {
        self.hip(
            "hipFuncGetAttribute",
            || format!("{function:#x}, {attribute}"),
            |topology, state| {
                state
                    .modules
                    .function_attribute(topology, function, attribute)
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
            |topology, state| {
                state
                    .modules
                    .set_function_attribute(topology, function, attribute, value)
            },
        )
    }

    /// The explicit arguments `(offset, size)` and kernarg size of a
    /// function, for laying out `kernelParams` (no call is counted).
    pub fn hip_function_args(&self, function: u64) -> Result<(Vec<(u32, u32)>, u32), HipCode> {
        self.lock().modules.function_args(function)
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
    /// ([`crate::kernel_exec::KernelMode::Skip`]). A kernel the interpreter
    /// cannot run (an instruction it lacks) fails the launch with
    /// `hipErrorLaunchFailure` and says on stderr which instruction, where,
    /// in which kernel.
    pub fn hip_module_launch_kernel(
        &self,
        request: &LaunchRequest,
        kernargs: Vec<u8>,
    ) -> Result<Option<KernelRun>, HipCode> {
        let kernarg_len = kernargs.len();
        self.hip(
            "hipModuleLaunchKernel",
            move || format!("{request:?}, {kernarg_len} kernarg bytes"),
            |topology, state| {
                let modules = &mut state.modules;
                let launch = modules.checked_launch(topology, request, kernargs)?;
                let run = modules.prepare_run(
                    topology,
                    &mut state.kernels,
                    &mut state.memory,
                    request,
                    &launch,
                )?;
                modules.record_launch(launch);
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
        let kernargs = kernargs.to_vec();
        self.lock()
            .modules
            .checked_launch(&self.topology, request, kernargs)
            .map(|_| ())
    }

    /// Checks and records a launch without counting a call: a kernel node
    /// of a graph as `hipGraphLaunch` (the counted call) runs it.
    pub fn hip_record_launch(
        &self,
        request: &LaunchRequest,
        kernargs: Vec<u8>,
    ) -> Result<Option<KernelRun>, HipCode> {
        let state = &mut *self.lock();
        let modules = &mut state.modules;
        let launch = modules.checked_launch(&self.topology, request, kernargs)?;
        let run = modules.prepare_run(
            &self.topology,
            &mut state.kernels,
            &mut state.memory,
            request,
            &launch,
        )?;
        modules.record_launch(launch);
        Ok(run)
    }

    /// The launches recorded so far (at most
    /// [`crate::hip_module::MAX_LAUNCH_LOG`]) and the total count.
    pub fn hip_launches(&self) -> (Vec<Launch>, u64) {
        self.lock().modules.launches()
    }

    /// The ISAs of `ordinal`'s agent, parsed (no call is counted).
    pub fn hip_device_isas(&self, ordinal: i32) -> Result<Vec<Target>, HipCode> {
        self.topology.device_isas(ordinal)
    }
}
