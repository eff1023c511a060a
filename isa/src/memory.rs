//! The memory a kernel sees: the caller's (the node's device memory, and
//! whatever host memory it lets kernels reach), with the kernarg segment and
//! the dispatch packet in front of it at addresses of their own.

/// An access to bytes outside the memory a kernel may touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBounds;

/// The memory a kernel reads and writes: the node's device memory.
pub trait Memory {
    /// Reads `out.len()` bytes at `address`; `Err` when any byte is outside
    /// memory the kernel may access.
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds>;
    /// Writes `data` at `address`; `Err` as for [`Memory::read`].
    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds>;
}

/// The kernarg segment and the dispatch packet, seen at their addresses
/// in front of the caller's memory.
pub(crate) struct Segments<'a> {
    pub(crate) memory: &'a mut dyn Memory,
    /// The kernarg segment and the dispatch packet with their addresses;
    /// `None` where the kernel reads both from memory (a PM4 dispatch).
    pub(crate) aql: Option<AqlSegments<'a>>,
}

/// An AQL dispatch's kernarg segment and packet.
pub(crate) struct AqlSegments<'a> {
    pub(crate) kernarg_address: u64,
    pub(crate) kernargs: &'a [u8],
    pub(crate) packet_address: u64,
    pub(crate) packet: [u8; 64],
}

impl Segments<'_> {
    fn overlay(&self, address: u64, len: usize) -> Option<&[u8]> {
        let aql = self.aql.as_ref()?;
        for (base, bytes) in [
            (aql.kernarg_address, aql.kernargs),
            (aql.packet_address, &aql.packet[..]),
        ] {
            if let Some(offset) = address.checked_sub(base)
                && let Ok(offset) = usize::try_from(offset)
                && offset < bytes.len()
            {
                return bytes.get(offset..offset.checked_add(len)?);
            }
        }
        None
    }

    /// Reads `out.len()` bytes at `address`.
    pub(crate) fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        if let Some(bytes) = self.overlay(address, out.len()) {
            out.copy_from_slice(bytes);
            return Ok(());
        }
        self.memory.read(address, out)
    }

    /// Writes `data` at `address` (the kernarg segment and packet are read-only).
    pub(crate) fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        if self.overlay(address, 1).is_some() {
            return Err(OutOfBounds);
        }
        self.memory.write(address, data)
    }
}
