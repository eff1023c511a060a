//! Handles: `tag << 48 | serial`, derived from the description's order and
//! one counter, never from host addresses, so identical runs give
//! identical handles. A handle of the wrong kind is simply invalid.

/// Agents (serial: HSA order + 1).
pub(crate) const TAG_AGENT: u64 = 1;
/// ISAs (serial: machine-wide distinct ISA + 1).
pub(crate) const TAG_ISA: u64 = 2;
/// Memory pools (serial: global pool index + 1).
pub(crate) const TAG_POOL: u64 = 3;
/// Code-object readers.
pub(crate) const TAG_READER: u64 = 4;
/// Executables.
pub(crate) const TAG_EXECUTABLE: u64 = 5;
/// Executable symbols.
pub(crate) const TAG_SYMBOL: u64 = 6;
/// Loaded code objects.
pub(crate) const TAG_LOADED: u64 = 7;
/// Physical memory handles (`hsa_amd_vmem_alloc_handle_t`).
pub(crate) const TAG_VMEM_HANDLE: u64 = 8;
/// Primary contexts (`hipCtx_t`; serial: ordinal + 1).
pub(crate) const TAG_HIP_CONTEXT: u64 = 0x10;
/// Memory pools (`hipMemPool_t`).
pub(crate) const TAG_HIP_POOL: u64 = 0x11;
/// Modules (`hipModule_t`).
pub(crate) const TAG_HIP_MODULE: u64 = 0x12;
/// Functions (`hipFunction_t`).
pub(crate) const TAG_HIP_FUNCTION: u64 = 0x13;

/// The handle of `serial` of kind `tag`.
pub(crate) fn handle(tag: u64, serial: u64) -> u64 {
    (tag << 48) | serial
}

/// The serial of `handle` if it is of kind `tag` (serials start at 1).
pub(crate) fn serial(handle: u64, tag: u64) -> Option<u64> {
    (handle >> 48 == tag && handle & 0xffff_ffff_ffff != 0).then_some(handle & 0xffff_ffff_ffff)
}

/// The index (serial - 1) of `handle` if it is of kind `tag`.
pub(crate) fn index(handle: u64, tag: u64) -> Option<usize> {
    serial(handle, tag).and_then(|s| usize::try_from(s - 1).ok())
}

/// The handle of agent `index` (HSA order).
pub(crate) fn agent_handle(index: usize) -> u64 {
    handle(TAG_AGENT, index as u64 + 1)
}

/// The one counter every object's serial comes from, in call order.
#[derive(Debug, Default)]
pub(crate) struct Serials {
    last: u64,
}

impl Serials {
    /// The next serial.
    pub(crate) fn next(&mut self) -> u64 {
        self.last += 1;
        self.last
    }

    /// The first of `count` serials taken in a row (the serial after the
    /// last one taken when `count` is 0).
    pub(crate) fn take(&mut self, count: u64) -> u64 {
        let first = self.last + 1;
        self.last += count;
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handle_is_valid_only_for_its_own_kind_and_a_nonzero_serial() {
        let h = handle(TAG_READER, 7);
        assert_eq!(h, 0x0004_0000_0000_0007);
        assert_eq!(serial(h, TAG_READER), Some(7));
        assert_eq!(serial(h, TAG_EXECUTABLE), None);
        assert_eq!(serial(handle(TAG_READER, 0), TAG_READER), None);
        assert_eq!(index(agent_handle(3), TAG_AGENT), Some(3));
    }

    #[test]
    fn serials_run_on_across_ranges_in_call_order() {
        let mut serials = Serials::default();
        assert_eq!(serials.next(), 1);
        // A load of three symbols takes 2..=4, then its own serial.
        assert_eq!(serials.take(3), 2);
        assert_eq!(serials.next(), 5);
        // A load without symbols takes an empty range at the next serial.
        assert_eq!(serials.take(0), 6);
        assert_eq!(serials.next(), 6);
    }
}
