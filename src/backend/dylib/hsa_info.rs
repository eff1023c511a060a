//! The `*_get_info` calls of `libhsa-runtime64`: the attribute is one of
//! `amdgpu-sys`'s enums, whose C value size is known, and the answer goes
//! into the caller's buffer only when it holds it. For the counted
//! attributes (the ISA and symbol names, the link hops) the runtime writes
//! as many bytes as another attribute says, so that one is asked first;
//! link hops are read through a private buffer with room for a struct that
//! grows again (`LINK_INFO_RESERVED_STRIDE`).

use amdgpu_sys::hsa_info::{
    AgentInfo, AgentMemoryPoolInfo, ExecutableSymbolInfo, InfoSize, IsaInfo, LoadedCodeObjectInfo,
    MemoryPoolInfo,
};
use amdgpu_sys::hsa_status::{HSA_STATUS_ERROR, HSA_STATUS_ERROR_INVALID_ARGUMENT};
use amdgpu_sys::hsa_types::*;

use super::hsa::{HsaCall, HsaLibrary, check};

/// `out` holds a value of `size` (a fixed-size attribute).
fn holds(size: InfoSize, out: &[u8]) -> HsaCall<()> {
    match size {
        InfoSize::Fixed(n) if out.len() >= n => Ok(()),
        _ => Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
    }
}

/// `out` holds `count` elements of `element` bytes (a counted attribute).
fn holds_counted(count: [u8; 4], element: usize, out: &[u8]) -> HsaCall<()> {
    let bytes = (u32::from_ne_bytes(count) as usize).checked_mul(element);
    match bytes {
        Some(n) if n <= out.len() => Ok(()),
        _ => Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
    }
}

impl HsaLibrary {
    /// `hsa_agent_get_info` into `out`.
    pub fn agent_get_info(
        &self,
        agent: hsa_agent_t,
        attribute: AgentInfo,
        out: &mut [u8],
    ) -> HsaCall<()> {
        holds(attribute.size(), out)?;
        // SAFETY: the runtime writes the attribute's C type, `size()` bytes
        // (amdgpu-sys), and `out` holds at least that many (checked above).
        check(unsafe {
            (self.symbols.hsa_agent_get_info)(agent, attribute.raw(), out.as_mut_ptr().cast())
        })
    }

    /// `hsa_isa_get_info_alt` into `out` (the name: `NAME_LENGTH` asked first).
    pub fn isa_get_info_alt(
        &self,
        isa: hsa_isa_t,
        attribute: IsaInfo,
        out: &mut [u8],
    ) -> HsaCall<()> {
        if let InfoSize::Counted(element) = attribute.size() {
            let mut length = [0u8; 4];
            self.isa_get_info_alt(isa, IsaInfo::NameLength, &mut length)?;
            holds_counted(length, element, out)?;
        } else {
            holds(attribute.size(), out)?;
        }
        // SAFETY: the runtime writes the attribute's C type (for the name,
        // the `NAME_LENGTH` bytes it just reported) and `out` holds them.
        check(unsafe {
            (self.symbols.hsa_isa_get_info_alt)(isa, attribute.raw(), out.as_mut_ptr().cast())
        })
    }

    /// `hsa_amd_memory_pool_get_info` into `out`.
    pub fn memory_pool_get_info(
        &self,
        pool: hsa_amd_memory_pool_t,
        attribute: MemoryPoolInfo,
        out: &mut [u8],
    ) -> HsaCall<()> {
        holds(attribute.size(), out)?;
        // SAFETY: as in `agent_get_info`.
        check(unsafe {
            (self.symbols.hsa_amd_memory_pool_get_info)(
                pool,
                attribute.raw(),
                out.as_mut_ptr().cast(),
            )
        })
    }

    /// `hsa_amd_agent_memory_pool_get_info` into `out` (the link info:
    /// `NUM_LINK_HOPS` asked first, then read at the 28-byte stride every
    /// ROCm since 3.x uses, through a buffer of
    /// [`LINK_INFO_RESERVED_STRIDE`] bytes a hop).
    pub fn agent_memory_pool_get_info(
        &self,
        agent: hsa_agent_t,
        pool: hsa_amd_memory_pool_t,
        attribute: AgentMemoryPoolInfo,
        out: &mut [u8],
    ) -> HsaCall<()> {
        let InfoSize::Counted(element) = attribute.size() else {
            holds(attribute.size(), out)?;
            // SAFETY: as in `agent_get_info`.
            return check(unsafe {
                (self.symbols.hsa_amd_agent_memory_pool_get_info)(
                    agent,
                    pool,
                    attribute.raw(),
                    out.as_mut_ptr().cast(),
                )
            });
        };
        let mut hops = [0u8; 4];
        self.agent_memory_pool_get_info(agent, pool, AgentMemoryPoolInfo::NumLinkHops, &mut hops)?;
        holds_counted(hops, element, out)?;
        let hops = u32::from_ne_bytes(hops) as usize;
        let mut buffer = vec![0u8; hops * LINK_INFO_RESERVED_STRIDE];
        // SAFETY: the runtime writes `hops` structs of its own size, which
        // is 28 bytes on every ROCm since 3.x and is reserved at 64 each.
        check(unsafe {
            (self.symbols.hsa_amd_agent_memory_pool_get_info)(
                agent,
                pool,
                attribute.raw(),
                buffer.as_mut_ptr().cast(),
            )
        })?;
        let len = hops * element;
        match (out.get_mut(..len), buffer.get(..len)) {
            (Some(out), Some(answer)) => {
                out.copy_from_slice(answer);
                Ok(())
            }
            _ => Err(HSA_STATUS_ERROR_INVALID_ARGUMENT),
        }
    }

    /// `hsa_executable_symbol_get_info` into `out` (the name: `NAME_LENGTH`
    /// asked first).
    pub fn executable_symbol_get_info(
        &self,
        symbol: hsa_executable_symbol_t,
        attribute: ExecutableSymbolInfo,
        out: &mut [u8],
    ) -> HsaCall<()> {
        if let InfoSize::Counted(element) = attribute.size() {
            let mut length = [0u8; 4];
            self.executable_symbol_get_info(symbol, ExecutableSymbolInfo::NameLength, &mut length)?;
            holds_counted(length, element, out)?;
        } else {
            holds(attribute.size(), out)?;
        }
        // SAFETY: as in `isa_get_info_alt`.
        check(unsafe {
            (self.symbols.hsa_executable_symbol_get_info)(
                symbol,
                attribute.raw(),
                out.as_mut_ptr().cast(),
            )
        })
    }

    /// `hsa_ven_amd_loader_loaded_code_object_get_info` (through the loader
    /// table) into `out`.
    pub fn loaded_code_object_get_info(
        &self,
        loaded: hsa_loaded_code_object_t,
        attribute: LoadedCodeObjectInfo,
        out: &mut [u8],
    ) -> HsaCall<()> {
        holds(attribute.size(), out)?;
        let get_info = self
            .loader()?
            .loaded_code_object_get_info
            .ok_or(HSA_STATUS_ERROR)?;
        // SAFETY: as in `agent_get_info`, through the table's declared signature.
        check(unsafe { get_info(loaded, attribute.raw(), out.as_mut_ptr().cast()) })
    }
}
