//! HIP's registration path: what a program built by hipcc or clang
//! (`-x hip`) calls from its start-up code. `__hipRegisterFatBinary` takes
//! the offload bundle the compiler embedded, `__hipRegisterFunction` each
//! kernel's host stub, `__hipRegisterVar` and `__hipRegisterManagedVar`
//! each `__device__`, `__constant__` and `__managed__` variable, and
//! `__hipUnregisterFatBinary` (at exit) releases them.
//!
//! As ROCm (`hip_platform.cpp`, deferred loading, the default): the code
//! object for a device is chosen from the bundle and loaded on that device
//! at the first launch or symbol use there (`hipv4-`/`hip-` entries whose
//! target ID runs on the device's ISA: the processor, or its generic
//! family, and each `sramecc`/`xnack` setting either unspecified or the
//! device's — the first such entry, as comgr's lookup takes it); a device
//! the bundle has no code for answers `hipErrorNoBinaryForGpu` there. A
//! host address never registered is `hipErrorInvalidDeviceFunction` (a
//! kernel) or `hipErrorInvalidSymbol` (a variable).
//!
//! The registration calls return no error: a failure (a bad wrapper, an
//! injected fault) is recorded as the last error (`hipGetLastError`), and
//! what failed to register is then not found at its use. The kernels and
//! variables of a fat binary whose registration failed (a NULL handle)
//! are passed over without a word, so the error a program sees at start
//! is the failure itself.

use std::ffi::{c_char, c_int, c_void};
use std::fmt::Debug;

use amdgpu_sim::HipCode;

use super::image::read_image;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::fat_binaries::{Kernel, Registry, Variable, VariableKind};
use crate::core::hip_call::finish;
use crate::core::host_memory::HostKind;
use crate::core::ptr;
use crate::core::runtime::{Runtime, runtime};

/// `__hipFatMAGIC2`: "HIPF".
const FAT_MAGIC: u32 = 0x4849_5046;
/// The wrapper version clang and hipcc emit.
const FAT_VERSION: u32 = 1;
/// The wrapper: magic, version, bundle pointer, unused pointer.
const WRAPPER_BYTES: usize = 24;

/// Runs one registration call: counted and faulted as `op`, its failure
/// the last error; `None` when it failed (or there is no runtime).
fn registration<T: Debug>(
    op: &'static str,
    body: impl FnOnce(&'static Runtime) -> Result<T, HipCode>,
) -> Option<T> {
    let Some(rt) = runtime() else {
        finish(hipErrorInvalidDevice);
        return None;
    };
    match rt.sim.hip_external(op, || body(rt)) {
        Ok(value) => Some(value),
        Err(code) => {
            finish(code.0);
            None
        }
    }
}

/// The fat binary a `void**` module handle names.
fn binary_of(registry: &Registry, modules: *mut *mut c_void) -> Result<u64, HipCode> {
    let handle = modules as usize as u64;
    if registry.binaries.contains_key(&handle) {
        Ok(handle)
    } else {
        Err(HipCode::INVALID_RESOURCE_HANDLE)
    }
}

/// A registered name (NUL-terminated, bounded by `ptr::read_c_str`).
///
/// # Safety
/// `name` is NULL or NUL-terminated.
unsafe fn name_of(name: *const c_char) -> Result<String, HipCode> {
    // SAFETY: the caller's promise.
    unsafe { ptr::read_c_str(name) }
        .filter(|n| !n.is_empty())
        .ok_or(HipCode::INVALID_VALUE)
}

/// The module `binary` has on `ordinal`, its code object chosen from the
/// bundle and loaded at this first use there (with each managed
/// variable's device-side pointer set); a failure leaves nothing loaded.
fn module_on(
    rt: &Runtime,
    registry: &mut Registry,
    binary: u64,
    ordinal: i32,
) -> Result<u64, HipCode> {
    let fat = registry
        .binaries
        .get(&binary)
        .ok_or(HipCode::INVALID_RESOURCE_HANDLE)?;
    if let Some(&module) = fat.modules.get(&ordinal) {
        return Ok(module);
    }
    // SAFETY: the bundle was registered by the program's start-up code:
    // the compiler's offload bundle in the program's static data, whose
    // headers describe its extent.
    let bytes = unsafe { read_image(&rt.sim, ordinal, fat.bundle as *const c_void) }?;
    let module = rt.sim.hip_registered_load(ordinal, bytes)?;
    let managed = registry
        .variables
        .values()
        .filter(|v| v.binary == binary)
        .filter_map(|v| match v.kind {
            VariableKind::Managed(address) => Some((v.name.clone(), address)),
            _ => None,
        });
    for (name, address) in managed {
        let pointed = rt
            .sim
            .hip_registered_global(module, &name)
            .and_then(|(device, _)| {
                rt.sim
                    .hip_registered_write(device, &(address as u64).to_le_bytes())
            });
        if let Err(code) = pointed {
            // Nothing of the failed load stays.
            let _ = rt.sim.hip_registered_unload(module);
            return Err(code);
        }
    }
    if let Some(fat) = registry.binaries.get_mut(&binary) {
        fat.modules.insert(ordinal, module);
    }
    Ok(module)
}

/// The function handle of the kernel registered for `host_function`, on
/// `ordinal` (its fat binary loaded there at this first use).
pub(crate) fn kernel_function(
    rt: &Runtime,
    host_function: usize,
    ordinal: i32,
) -> Result<u64, HipCode> {
    let mut registry = rt.fat_binaries();
    let kernel = registry
        .kernels
        .get(&host_function)
        .ok_or(HipCode::INVALID_DEVICE_FUNCTION)?;
    if let Some(&function) = kernel.functions.get(&ordinal) {
        return Ok(function);
    }
    let (binary, name) = (kernel.binary, kernel.name.clone());
    let module = module_on(rt, &mut registry, binary, ordinal)?;
    let function = rt
        .sim
        .hip_registered_function(module, &name)
        .map_err(|code| match code {
            HipCode::NOT_FOUND => HipCode::INVALID_DEVICE_FUNCTION,
            other => other,
        })?;
    if let Some(kernel) = registry.kernels.get_mut(&host_function) {
        kernel.functions.insert(ordinal, function);
    }
    Ok(function)
}

/// Whether `host_function` is a registered kernel's host stub.
pub(crate) fn is_registered_kernel(rt: &Runtime, host_function: usize) -> bool {
    rt.fat_binaries().kernels.contains_key(&host_function)
}

/// The address and size of the variable registered for `host_variable`,
/// on `ordinal`: a managed variable's memory (both sides see it), else
/// the variable in the module its fat binary has there (loaded at this
/// first use).
pub(crate) fn symbol_on(
    rt: &Runtime,
    host_variable: usize,
    ordinal: i32,
) -> Result<(u64, usize), HipCode> {
    let mut registry = rt.fat_binaries();
    let Variable {
        binary,
        name,
        size,
        kind,
    } = registry
        .variables
        .get(&host_variable)
        .cloned()
        .ok_or(HipCode::INVALID_SYMBOL)?;
    if let VariableKind::Managed(address) = kind {
        return Ok((address as u64, size));
    }
    let module = module_on(rt, &mut registry, binary, ordinal)?;
    let (address, found) =
        rt.sim
            .hip_registered_global(module, &name)
            .map_err(|code| match code {
                HipCode::NOT_FOUND => HipCode::INVALID_SYMBOL,
                other => other,
            })?;
    // The code object's size, unless the registration said less.
    Ok((
        address,
        size.min(usize::try_from(found).unwrap_or(usize::MAX)),
    ))
}

c_exports! {
    /// `__hipRegisterFatBinary(wrapper)`: the module handle the program
    /// passes to the other registration calls (NULL, and the last error,
    /// for a wrapper that is not `HIPF` version 1).
    ///
    /// # Safety
    /// `data` is NULL or the compiler's fat-binary wrapper, whose bundle
    /// pointer is the program's offload bundle.
    unsafe fn __hipRegisterFatBinary(data: *const c_void) -> *mut *mut c_void {
        registration("__hipRegisterFatBinary", |rt| {
            // SAFETY: the caller's contract (above).
            let wrapper = unsafe { ptr::read_bytes(data, WRAPPER_BYTES) }
                .ok_or(HipCode::INVALID_VALUE)?;
            let word = |at: usize| {
                wrapper[at..at + 4]
                    .try_into()
                    .map(u32::from_le_bytes)
                    .unwrap_or(0)
            };
            let bundle = wrapper[8..16]
                .try_into()
                .map(u64::from_le_bytes)
                .unwrap_or(0);
            if word(0) != FAT_MAGIC || word(4) != FAT_VERSION || bundle == 0 {
                return Err(HipCode::INVALID_IMAGE);
            }
            rt.fat_binaries()
                .register(bundle as usize)
                .ok_or(HipCode::OUT_OF_MEMORY)
        })
        .map_or(std::ptr::null_mut(), |handle| handle as usize as *mut *mut c_void)
    }

    /// `__hipRegisterFunction`: the kernel `device_function` (its mangled
    /// name) of the fat binary `modules`, launched by `host_function`, the
    /// host stub's address. The launch-bound arguments are unused, as in
    /// ROCm. Returns 0 (clang declares an `int`; ROCm's returns nothing).
    ///
    /// # Safety
    /// `device_function` and `device_name` are NULL or NUL-terminated.
    unsafe fn __hipRegisterFunction(modules: *mut *mut c_void, host_function: *const c_void,
        device_function: *mut c_char, device_name: *const c_char, thread_limit: u32,
        tid: *mut c_void, bid: *mut c_void, block_dim: *mut dim3, grid_dim: *mut dim3,
        w_size: *mut c_int) -> c_int {
        let _ = (thread_limit, tid, bid, block_dim, grid_dim, w_size);
        if modules.is_null() {
            return 0;
        }
        registration("__hipRegisterFunction", |rt| {
            // SAFETY: the caller's contract (above).
            let name = unsafe { name_of(device_function) }
                // SAFETY: the caller's contract (above).
                .or_else(|_| unsafe { name_of(device_name) })?;
            let mut registry = rt.fat_binaries();
            let binary = binary_of(&registry, modules)?;
            if host_function.is_null() || !registry.has_room() {
                return Err(HipCode::INVALID_VALUE);
            }
            registry.add_kernel(host_function as usize, Kernel {
                binary,
                name,
                functions: Default::default(),
            });
            Ok(())
        });
        0
    }

    /// `__hipRegisterVar`: the `__device__` (or, `constant` non-zero,
    /// `__constant__`) variable `device_var` of `modules`, named in host
    /// code by the address `var`.
    ///
    /// # Safety
    /// `device_var` and `host_var` are NULL or NUL-terminated.
    unsafe fn __hipRegisterVar(modules: *mut *mut c_void, var: *mut c_void, host_var: *mut c_char,
        device_var: *mut c_char, ext: c_int, size: usize, constant: c_int, global: c_int) {
        let _ = (ext, global);
        if modules.is_null() {
            return;
        }
        registration("__hipRegisterVar", |rt| {
            // SAFETY: the caller's contract (above).
            let name = unsafe { name_of(device_var) }
                // SAFETY: the caller's contract (above).
                .or_else(|_| unsafe { name_of(host_var) })?;
            let mut registry = rt.fat_binaries();
            let binary = binary_of(&registry, modules)?;
            if var.is_null() || !registry.has_room() {
                return Err(HipCode::INVALID_VALUE);
            }
            let kind = if constant != 0 { VariableKind::Constant } else { VariableKind::Device };
            registry.add_variable(var as usize, Variable { binary, name, size, kind });
            Ok(())
        });
    }

    /// `__hipRegisterManagedVar`: the `__managed__` variable `name` of
    /// `hip_module`: `size` bytes of managed memory (host memory HIP
    /// allocated, which kernels reach at the same address) initialised
    /// from `init_value`, its address stored in the host pointer
    /// `*pointer` and, at each device's load, in the device-side variable.
    ///
    /// # Safety
    /// `pointer` is NULL or a writable `void*`; `init_value` is NULL or
    /// `size` readable bytes; `name` is NULL or NUL-terminated.
    unsafe fn __hipRegisterManagedVar(hip_module: *mut c_void, pointer: *mut *mut c_void,
        init_value: *mut c_void, name: *const c_char, size: usize, align: u32) {
        let _ = align;
        if hip_module.is_null() {
            return;
        }
        registration("__hipRegisterManagedVar", |rt| {
            // SAFETY: the caller's contract (above).
            let name = unsafe { name_of(name) }?;
            let mut registry = rt.fat_binaries();
            let binary = binary_of(&registry, hip_module.cast())?;
            if pointer.is_null() || size == 0 || !registry.has_room() {
                return Err(HipCode::INVALID_VALUE);
            }
            let init = if init_value.is_null() {
                vec![0; size]
            } else {
                // SAFETY: the caller's contract (above).
                unsafe { ptr::read_bytes(init_value, size) }.ok_or(HipCode::INVALID_VALUE)?
            };
            let address = rt.host_memory().allocate(size, HostKind::Managed)?;
            // SAFETY: a fresh managed allocation of `size` bytes, and the
            // caller's writable `pointer`.
            let stored = unsafe {
                ptr::write_bytes(address as *mut c_void, &init)
                    && ptr::write(pointer.cast(), address as *mut c_void)
            };
            if !stored {
                let _ = rt.host_memory().free(address, HostKind::Managed);
                return Err(HipCode::INVALID_VALUE);
            }
            if let Some(fat) = registry.binaries.get_mut(&binary) {
                fat.managed.push(address);
            }
            registry.add_variable(pointer as usize, Variable {
                binary,
                name,
                size,
                kind: VariableKind::Managed(address),
            });
            Ok(())
        });
    }

    /// `__hipUnregisterFatBinary` (from the program's exit handler): the
    /// binary's kernels, variables, modules on every device and managed
    /// memory. Not counted: a release, which a client must always be able
    /// to make.
    fn __hipUnregisterFatBinary(modules: *mut *mut c_void) {
        let Some(rt) = runtime() else {
            return;
        };
        let Some(fat) = rt.fat_binaries().unregister(modules as usize as u64) else {
            finish(hipErrorInvalidResourceHandle);
            return;
        };
        for module in fat.modules.into_values() {
            let _ = rt.sim.hip_registered_unload(module);
        }
        for address in fat.managed {
            let _ = rt.host_memory().free(address, HostKind::Managed);
        }
    }
}
