//! Typed values of the HSA info queries (`hsa.h`, `hsa_ext_amd.h`,
//! `hsa_ven_amd_loader.h`): device types, segments, pool flags and access,
//! link info, symbol kinds, profiles and rounding modes.
//!
//! The value enums are `amdgpu-sys`'s (each keeps the C enumerator value as
//! its `raw()`); the pool flags and the link-info hop are typed here.

pub use amdgpu_sys::hsa_values::{
    DeviceType, LinkType, MEMORY_POOL_STANDARD_FLAG, PoolAccess, Profile, RoundingMode, Segment,
    SymbolKind,
};
use amdgpu_sys::hsa_values::{
    GLOBAL_FLAG_COARSE_GRAINED, GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED, GLOBAL_FLAG_FINE_GRAINED,
    GLOBAL_FLAG_KERNARG_INIT,
};

bitflags::bitflags! {
    /// `hsa_amd_memory_pool_global_flag_t` (`HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct GlobalFlags: u32 {
        /// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT`: kernel arguments may live here.
        const KERNARG_INIT = GLOBAL_FLAG_KERNARG_INIT;
        /// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED`: coherent with other agents while in use.
        const FINE_GRAINED = GLOBAL_FLAG_FINE_GRAINED;
        /// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED`: coherent only at dispatch boundaries.
        const COARSE_GRAINED = GLOBAL_FLAG_COARSE_GRAINED;
        /// `HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED` (ROCm 6): fine-grained with device-scope atomics.
        const EXTENDED_SCOPE_FINE_GRAINED = GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED;
    }
}

/// `hsa_amd_memory_pool_link_info_t`: one hop of the path from an agent to a
/// memory pool (`HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO` gives one per
/// hop); `link_type()` is its link type as [`LinkType`].
pub use amdgpu_sys::hsa_types::hsa_amd_memory_pool_link_info_t as LinkInfo;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_flags_are_the_header_bits() {
        assert_eq!(GlobalFlags::COARSE_GRAINED.bits(), 4);
        assert_eq!(GlobalFlags::FINE_GRAINED.bits(), 2);
    }
}
