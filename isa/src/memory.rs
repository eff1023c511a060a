//! The memory a kernel sees: the caller's (the node's device memory, and
//! whatever host memory it lets kernels reach), with the kernarg segment and
//! the dispatch packet in front of it at addresses of their own.

use std::fmt;

/// A memory access's direction, as a fault names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A read (a load, or an atomic's read of the old value).
    Load,
    /// A write (a store, or an atomic's write of the new value).
    Store,
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Access::Load => "load",
            Access::Store => "store",
        })
    }
}

/// An access to bytes outside the memory a kernel may touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBounds;

/// The memory a kernel reads and writes: the node's device memory.
pub trait Memory {
    /// Reads `out.len()` bytes at `address`; `Err` when any byte is outside
    /// memory the kernel may access. An access that fails reads and writes
    /// nothing (the interpreter makes a wave's accesses to one run of
    /// memory as one access, and goes lane by lane when it fails).
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds>;
    /// Writes `data` at `address`; `Err` as for [`Memory::read`].
    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds>;
    /// An atomic's access: reads the `len` bytes (at most 8) at `address`
    /// as a little-endian value, writes back what `modify` makes of it and
    /// answers the value read, no other access to those bytes coming
    /// between (a memory shared by work-groups on several threads holds
    /// its lock across both). `Err(Access::Load)` when the bytes cannot be
    /// read, `Err(Access::Store)` when they cannot be written (then
    /// nothing is). The default reads, then writes: enough for memory one
    /// thread owns.
    fn read_modify_write(
        &mut self,
        address: u64,
        len: usize,
        modify: &mut dyn FnMut(u64) -> u64,
    ) -> Result<u64, Access> {
        let mut buf = [0u8; 8];
        let bytes = buf.get_mut(..len).ok_or(Access::Load)?;
        self.read(address, bytes).map_err(|_| Access::Load)?;
        let old = u64::from_le_bytes(buf);
        let new = modify(old).to_le_bytes();
        let new = new.get(..len).ok_or(Access::Store)?;
        self.write(address, new).map_err(|_| Access::Store)?;
        Ok(old)
    }
}

/// [`Memory`] made of host buffers at fixed addresses, for running a kernel
/// over buffers of one's own: an access that does not lie wholly inside one
/// buffer is [`OutOfBounds`].
#[derive(Clone, Debug, Default)]
pub struct Regions {
    regions: Vec<(u64, Vec<u8>)>,
}

impl Regions {
    /// Memory of these buffers, each at its address.
    pub fn new(regions: Vec<(u64, Vec<u8>)>) -> Self {
        Regions { regions }
    }

    /// The bytes of the buffer at `base`, if there is one.
    pub fn bytes(&self, base: u64) -> Option<&[u8]> {
        self.regions
            .iter()
            .find(|(b, _)| *b == base)
            .map(|(_, bytes)| bytes.as_slice())
    }

    fn slice(&mut self, address: u64, len: usize) -> Result<&mut [u8], OutOfBounds> {
        for (base, bytes) in &mut self.regions {
            if let Some(start) = address.checked_sub(*base)
                && let Ok(start) = usize::try_from(start)
                && let Some(end) = start.checked_add(len)
                && let Some(s) = bytes.get_mut(start..end)
            {
                return Ok(s);
            }
        }
        Err(OutOfBounds)
    }
}

impl Memory for Regions {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        out.copy_from_slice(self.slice(address, out.len())?);
        Ok(())
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        self.slice(address, data.len())?.copy_from_slice(data);
        Ok(())
    }
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
#[derive(Clone, Copy)]
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

    /// Reads `out.len()` bytes at `address`. A read that starts in the
    /// kernarg segment and runs past its end, where the memory behind
    /// holds nothing, reads zeros there: LLVM widens kernarg loads up to a
    /// 16-dword `s_load` (a 56-byte segment read by an `s_load_dwordx8` at
    /// 32), which the runtimes' kernarg buffers, always larger than one
    /// segment, serve on hardware.
    pub(crate) fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        if let Some(bytes) = self.overlay(address, out.len()) {
            out.copy_from_slice(bytes);
            return Ok(());
        }
        let result = self.memory.read(address, out);
        if result.is_err()
            && let Some(aql) = &self.aql
            && let Some(offset) = address.checked_sub(aql.kernarg_address)
            && let Some(head) = usize::try_from(offset)
                .ok()
                .and_then(|offset| aql.kernargs.get(offset..))
        {
            let (inside, past) = out.split_at_mut(head.len().min(out.len()));
            inside.copy_from_slice(head.get(..inside.len()).unwrap_or_default());
            past.fill(0);
            return Ok(());
        }
        result
    }

    /// An atomic's read-modify-write at `address` ([`Memory::read_modify_write`];
    /// the kernarg segment and packet are read-only: a store fault).
    pub(crate) fn read_modify_write(
        &mut self,
        address: u64,
        len: usize,
        modify: &mut dyn FnMut(u64) -> u64,
    ) -> Result<u64, Access> {
        if self.overlay(address, 1).is_some() {
            return Err(Access::Store);
        }
        self.memory.read_modify_write(address, len, modify)
    }

    /// Whether `len` bytes at `address` lie wholly outside the kernarg
    /// segment and the dispatch packet, in the caller's memory.
    pub(crate) fn plain(&self, address: u64, len: usize) -> bool {
        let Some(aql) = &self.aql else {
            return true;
        };
        let end = address.saturating_add(len as u64);
        [
            (aql.kernarg_address, aql.kernargs.len()),
            (aql.packet_address, aql.packet.len()),
        ]
        .into_iter()
        .all(|(base, bytes)| end <= base || address >= base.saturating_add(bytes as u64))
    }

    /// Writes `data` at `address` (the kernarg segment and packet are read-only).
    pub(crate) fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        if self.overlay(address, 1).is_some() {
            return Err(OutOfBounds);
        }
        self.memory.write(address, data)
    }
}

#[cfg(test)]
mod regions_tests {
    use super::*;

    #[test]
    fn an_access_must_lie_wholly_inside_one_buffer() {
        let mut memory = Regions::new(vec![(0x100, vec![1, 2, 3, 4]), (0x104, vec![5, 6])]);
        let mut out = [0u8; 2];
        assert_eq!(memory.read(0x102, &mut out), Ok(()));
        assert_eq!(out, [3, 4]);
        // Touching buffers are still two: an access across them is refused.
        assert_eq!(memory.read(0x103, &mut out), Err(OutOfBounds));
        assert_eq!(memory.read(0xff, &mut out), Err(OutOfBounds));
        assert_eq!(memory.read(0x105, &mut out), Err(OutOfBounds));
        assert_eq!(memory.read(u64::MAX, &mut out), Err(OutOfBounds));
        assert_eq!(memory.write(0x104, &[7, 8]), Ok(()));
        assert_eq!(memory.write(0x105, &[9, 9]), Err(OutOfBounds));
        assert_eq!(memory.bytes(0x104), Some(&[7u8, 8][..]));
        assert_eq!(memory.bytes(0x100), Some(&[1u8, 2, 3, 4][..]));
        assert_eq!(memory.bytes(0x102), None);
    }
}
