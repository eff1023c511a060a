//! HIP modules: code objects (or offload bundles) loaded on the current
//! device, their functions and globals, function attributes, and kernel
//! launches (checked and recorded at once; the kernel runs in stream
//! order).

use std::ffi::{c_char, c_int, c_void};

use amdgpu_sim::HipCode;
use amdgpu_sim::hip_module::LaunchRequest;
use amdgpu_sim::kernel_exec::KernelRun;

use super::context::current_device;
use super::image::read_image;
use super::registration::{is_registered_kernel, kernel_function};
use super::stream::{enqueue, stream_device};
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, as_handle, handle, modelled, of_handle, put};
use crate::core::ptr;
use crate::core::runtime::Runtime;
use crate::core::streams::Op;
use crate::device_fault;

/// `HIP_LAUNCH_PARAM_BUFFER_POINTER`, `_SIZE`, `_END`.
const LAUNCH_PARAM_BUFFER_POINTER: usize = 1;
const LAUNCH_PARAM_BUFFER_SIZE: usize = 2;
const LAUNCH_PARAM_END: usize = 3;
/// Most `extra` entries read before `HIP_LAUNCH_PARAM_END`.
const MAX_LAUNCH_EXTRA: usize = 16;

/// The explicit kernargs of a launch, laid out from `kernelParams` (one
/// pointer per explicit argument of the kernel's metadata) or taken from
/// `extra`'s buffer.
///
/// # Safety
/// `hipModuleLaunchKernel`'s contract: `params` is NULL or holds a pointer
/// to each explicit argument's value; `extra` is NULL or a
/// `HIP_LAUNCH_PARAM_*` list ending in `HIP_LAUNCH_PARAM_END` whose buffer
/// entry is the argument buffer and whose size entry points at its size.
pub(crate) unsafe fn kernargs(
    rt: &Runtime,
    function: u64,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> Result<Vec<u8>, HipCode> {
    let (args, _) = rt.sim.hip_function_args(function)?;
    if !extra.is_null() {
        // Read key by key: the array ends at HIP_LAUNCH_PARAM_END, not at a known length.
        let entry = |i: usize| {
            // SAFETY: the caller's promise for `params` and `extra`.
            unsafe { ptr::read_array(extra.wrapping_add(i).cast_const(), 1) }
                .and_then(|v| v.first().copied())
                .ok_or(HipCode::INVALID_VALUE)
        };
        let (mut buffer, mut size) = (None, None);
        let mut i = 0;
        loop {
            if i >= MAX_LAUNCH_EXTRA * 2 {
                return Err(HipCode::INVALID_VALUE);
            }
            match entry(i)? as usize {
                LAUNCH_PARAM_END => break,
                LAUNCH_PARAM_BUFFER_POINTER => buffer = Some(entry(i + 1)?),
                LAUNCH_PARAM_BUFFER_SIZE => size = Some(entry(i + 1)?),
                _ => return Err(HipCode::INVALID_VALUE),
            }
            i += 2;
        }
        let (Some(buffer), Some(size)) = (buffer, size) else {
            return Err(HipCode::INVALID_VALUE);
        };
        // SAFETY: the caller's promise for `params` and `extra`.
        let size = unsafe { ptr::read_array(size.cast_const().cast::<usize>(), 1) }
            .and_then(|v| v.first().copied())
            .ok_or(HipCode::INVALID_VALUE)?;
        // The buffer entry is the argument buffer itself (clr's
        // hip_module.cpp: `kernargs = extra[1]`).
        // SAFETY: the caller's promise for `params` and `extra`.
        return unsafe { ptr::read_bytes(buffer.cast_const(), size) }.ok_or(HipCode::INVALID_VALUE);
    }
    let end = args
        .iter()
        .map(|&(o, s)| o as usize + s as usize)
        .max()
        .unwrap_or(0);
    let mut out = vec![0u8; end];
    if args.is_empty() {
        return Ok(out);
    }
    let pointers =
        // SAFETY: the caller's promise for `params` and `extra`.
        unsafe { ptr::read_array(params.cast_const(), args.len()) }.ok_or(HipCode::INVALID_VALUE)?;
    for (&(offset, size), &pointer) in args.iter().zip(&pointers) {
        // SAFETY: the caller's promise for `params` and `extra`.
        let bytes =
            unsafe { ptr::read_bytes(pointer, size as usize) }.ok_or(HipCode::INVALID_VALUE)?;
        if let Some(slot) = out.get_mut(offset as usize..offset as usize + size as usize) {
            slot.copy_from_slice(&bytes);
        }
    }
    Ok(out)
}

c_exports! {
    /// `hipModuleLoadData`: a code object (or offload bundle) on the current device.
    ///
    /// # Safety
    /// `module` is NULL or points at a writable module handle; `image` is NULL or a code object or offload bundle whose headers describe its extent.
    unsafe fn hipModuleLoadData(module: *mut handle, image: *const c_void) -> hipError_t {
        // SAFETY: the caller's contract (above).
        modelled(hipErrorInvalidDevice, |rt| unsafe { load_module(rt, "hipModuleLoadData", module, image) })
    }

    /// `hipModuleLoadDataEx`: the JIT options do not apply to code objects.
    ///
    /// # Safety
    /// `module` is NULL or points at a writable module handle; `image` is NULL or a code object or offload bundle whose headers describe its extent.
    unsafe fn hipModuleLoadDataEx(module: *mut handle, image: *const c_void, num_options: u32,
        options: *mut c_int, option_values: *mut *mut c_void) -> hipError_t {
        let _ = (num_options, options, option_values);
        // SAFETY: the caller's contract (above).
        modelled(hipErrorInvalidDevice, |rt| unsafe { load_module(rt, "hipModuleLoadDataEx", module, image) })
    }

    /// `hipModuleUnload`.
    fn hipModuleUnload(module: handle) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| rt.sim.hip_module_unload(of_handle(module)))
    }

    /// `hipModuleGetFunction`.
    ///
    /// # Safety
    /// `function` is NULL or points at a writable function handle; `name` is NULL or NUL-terminated.
    unsafe fn hipModuleGetFunction(function: *mut handle, module: handle, name: *const c_char) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            // SAFETY: the caller's contract (above).
            let name = unsafe { ptr::read_c_str(name) }.ok_or(HipCode::INVALID_VALUE)?;
            if function.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            let f = rt.sim.hip_module_get_function(of_handle(module), &name)?;
            // SAFETY: the caller's contract (above).
            unsafe { put(function, as_handle(f)) }
        })
    }

    /// `hipModuleGetGlobal`: either out-parameter may be null.
    ///
    /// # Safety
    /// `dptr` and `bytes` are NULL or point at a writable `void*` and `size_t`; `name` is NULL or NUL-terminated.
    unsafe fn hipModuleGetGlobal(dptr: *mut *mut c_void, bytes: *mut usize, module: handle, name: *const c_char) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            // SAFETY: the caller's contract (above).
            let name = unsafe { ptr::read_c_str(name) }.ok_or(HipCode::INVALID_VALUE)?;
            let (address, size) = rt.sim.hip_module_get_global(of_handle(module), &name)?;
            if !dptr.is_null() {
                // SAFETY: the caller's contract (above).
                unsafe { put(dptr, address as usize as *mut c_void) }?;
            }
            if !bytes.is_null() {
                // SAFETY: the caller's contract (above).
                unsafe { put(bytes, size as usize) }?;
            }
            Ok(())
        })
    }

    /// `hipFuncGetAttribute(&value, attribute, function)`.
    ///
    /// # Safety
    /// `value` is NULL or points at a writable `int`.
    unsafe fn hipFuncGetAttribute(value: *mut c_int, attribute: c_int, function: handle) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            if value.is_null() {
                return Err(HipCode::INVALID_VALUE);
            }
            // SAFETY: the caller's contract (above).
            unsafe { put(value, rt.sim.hip_func_get_attribute(of_handle(function), attribute)?) }
        })
    }

    /// `hipFuncSetAttribute(function, attribute, value)`: `function` is a
    /// registered kernel's host stub (its function on the current device)
    /// or a `hipFunction_t`.
    fn hipFuncSetAttribute(function: *const c_void, attribute: c_int, value: c_int) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            let function = if is_registered_kernel(rt, function as usize) {
                kernel_function(rt, function as usize, current_device(&rt.sim))?
            } else {
                function as usize as u64
            };
            rt.sim.hip_func_set_attribute(function, attribute, value)
        })
    }

    /// `hipModuleLaunchKernel`: checked and recorded now; the kernel runs in
    /// stream order.
    ///
    /// # Safety
    /// `kernel_params` is NULL or holds a pointer to each explicit argument's value; `extra` is NULL or a `HIP_LAUNCH_PARAM_*` list ending in `HIP_LAUNCH_PARAM_END`.
    unsafe fn hipModuleLaunchKernel(f: handle, grid_dim_x: u32, grid_dim_y: u32, grid_dim_z: u32,
        block_dim_x: u32, block_dim_y: u32, block_dim_z: u32, shared_mem_bytes: u32,
        stream: handle, kernel_params: *mut *mut c_void, extra: *mut *mut c_void) -> hipError_t {
        modelled(hipErrorInvalidDevice, |rt| {
            let ordinal = stream_device(rt, stream)?;
            let function = of_handle(f);
            // SAFETY: the caller's contract (above).
            let kernargs = unsafe { kernargs(rt, function, kernel_params, extra) }?;
            let request = LaunchRequest {
                function,
                ordinal,
                grid: [grid_dim_x, grid_dim_y, grid_dim_z],
                block: [block_dim_x, block_dim_y, block_dim_z],
                shared_bytes: shared_mem_bytes,
            };
            let launched = rt.sim.hip_module_launch_kernel(&request, kernargs);
            submit(rt, stream, ordinal, launched)
        })
    }
}

/// Puts a checked and recorded launch's kernel on its stream; a kernel
/// the node cannot run (said on stderr) ends the process, or leaves its
/// device failed (`hipErrorLaunchFailure`).
pub(crate) fn submit(
    rt: &Runtime,
    stream: handle,
    ordinal: i32,
    launched: Result<Option<KernelRun>, HipCode>,
) -> Call {
    match launched.inspect_err(|&code| {
        if code == HipCode::LAUNCH_FAILURE {
            // Counted first: the report an abort writes shows it.
            rt.device_faults.refuse_launch(ordinal);
            device_fault::kernel_unrunnable(rt, None);
        }
    })? {
        // SAFETY: a kernel op touches no memory of the caller's beyond
        // what HIP allocated or registered.
        Some(run) => unsafe { enqueue(rt, stream, Op::Kernel(Box::new(run))) },
        None => Ok(()),
    }
}

/// `hipModuleLoadData*`.
///
/// # Safety
/// `module` is NULL or points at a writable handle; `image` is NULL or a
/// code object or offload bundle whose headers describe its own extent.
unsafe fn load_module(
    rt: &Runtime,
    op: &'static str,
    module: *mut handle,
    image: *const c_void,
) -> Call {
    if module.is_null() || image.is_null() {
        return Err(HipCode::INVALID_VALUE);
    }
    let ordinal = current_device(&rt.sim);
    // SAFETY: the caller's promise for `image` and `module`.
    let bytes = unsafe { read_image(&rt.sim, ordinal, image) }?;
    let m = rt.sim.hip_module_load_shared(op, ordinal, bytes)?;
    // SAFETY: the caller's promise for `image` and `module`.
    unsafe { put(module, as_handle(m)) }
}
