//! Kernel launches of HIP functions: checked as ROCm's
//! `ihipLaunchKernel_validate` checks them, plus the kernel's own
//! metadata, recorded in the launch log, and made ready to run (the
//! kernel decoded at its function's first executed launch).

use std::sync::Arc;

use amdgpu_isa::{Chip, KernelDescriptor};

use super::Modules;
use crate::codes::HipCode;
use crate::handles::{TAG_HIP_FUNCTION, serial};
use crate::kernel_exec::{
    KernelRun, KernelSource, Kernels, MAX_KERNARG_BYTES, decode_kernel, kernel_code_span,
    kernel_run,
};
use crate::memory::Memory;
use crate::topology::Topology;

/// Launches kept in the launch log (later ones are counted only).
pub const MAX_LAUNCH_LOG: usize = 1 << 16;

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

impl Modules {
    /// The launch `request` describes, if the device and the kernel accept
    /// it (the rules listed at `Sim::hip_module_launch_kernel`).
    pub(crate) fn checked_launch(
        &self,
        topology: &Topology,
        request: &LaunchRequest,
        kernargs: Vec<u8>,
    ) -> Result<Launch, HipCode> {
        let f = self.function_of(request.function)?;
        if self.module_device(f)? != request.ordinal {
            return Err(HipCode::INVALID_RESOURCE_HANDLE);
        }
        let props = topology.device_properties(request.ordinal)?;
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
        if lds > topology.lds_limit(request.ordinal) {
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
        Ok(Launch {
            ordinal: request.ordinal,
            kernel: f.kernel.name.clone(),
            grid: request.grid,
            block,
            shared_bytes: request.shared_bytes,
            kernargs,
        })
    }

    /// The kernel run of a checked launch, everything it needs gathered:
    /// `None` when kernels are skipped (said once on stderr); the kernel
    /// decoded at its first launch and kept with its function.
    pub(crate) fn prepare_run(
        &mut self,
        topology: &Topology,
        kernels: &mut Kernels,
        memory: &mut Memory,
        request: &LaunchRequest,
        launch: &Launch,
    ) -> Result<Option<KernelRun>, HipCode> {
        if kernels.skip_launch() {
            return Ok(None);
        }
        let f = self.function_of(request.function)?.clone();
        let serial =
            serial(request.function, TAG_HIP_FUNCTION).ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
        let module = self
            .modules
            .get(&f.module)
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
        let code = Arc::clone(&module.code);
        let delta = module.delta;
        let (_, kd_address, _) = code
            .symbol(&f.kernel.symbol, delta)
            .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
        let mut kd = [0u8; 64];
        memory
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
                let processor = topology
                    .device_isas(request.ordinal)?
                    .first()
                    .map(|t| t.processor.clone())
                    .unwrap_or_default();
                let chip = Chip::from_name(&processor)
                    .ok_or_else(|| fail(format!("the interpreter does not run {processor}")))?;
                let code_span = kernel_code_span(&code.code, &f.kernel.name)
                    .ok_or_else(|| fail("no function symbol gives its code's size".into()))?;
                let mut read = |address: u64, out: &mut [u8]| memory.read(address, out).is_ok();
                let program = decode_kernel(chip, &descriptor, kd_address, code_span, &mut read)
                    .map_err(fail)?;
                let program = Arc::new(program);
                if let Some(cached) = self.functions.get_mut(&serial) {
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

    /// Records a launch in the launch log.
    pub(crate) fn record_launch(&mut self, launch: Launch) {
        self.launch_count += 1;
        if self.launches.len() < MAX_LAUNCH_LOG {
            self.launches.push(launch);
        }
    }

    /// The launches recorded so far (at most [`MAX_LAUNCH_LOG`]) and the
    /// total count.
    pub(crate) fn launches(&self) -> (Vec<Launch>, u64) {
        (self.launches.clone(), self.launch_count)
    }
}
