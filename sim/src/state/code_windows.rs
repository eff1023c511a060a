//! Where loaded images go: a code object's image laid out as ROCr lays
//! it out ([`image_of`]), placed in its agent's window of code addresses
//! ([`CodeWindows`]), for the loader's loads and HIP modules alike.

use std::sync::Arc;

use crate::codes::HsaCode;
use crate::elf::CodeObject;
use crate::memory::{Image, Memory, align_up};
use crate::shared_bytes::SharedBytes;

/// Largest image one code object may load as.
pub const MAX_LOAD_BYTES: u64 = 1 << 32;
/// Start of the code windows (see [`crate::memory`]'s address layout).
pub const CODE_WINDOWS_BASE: u64 = 1 << 40;
/// Bytes of simulated code addresses per agent: the code windows of
/// [`crate::validate::MAX_AGENTS`] agents fill 1 TiB.
pub const CODE_WINDOW_BYTES: u64 = 8 << 30;
/// Alignment of load bases.
pub const LOAD_ALIGNMENT: u64 = 1 << 16;

/// Start of agent `agent`'s window of code addresses.
pub fn code_base(agent: usize) -> u64 {
    CODE_WINDOWS_BASE + agent as u64 * CODE_WINDOW_BYTES
}

/// `code`'s loaded image over `bytes` (as ROCr lays it out: the image
/// spans the segments' highest end, offset by the lowest address), to be
/// shared by every mapping of it.
pub(crate) fn image_of(code: &CodeObject, bytes: &SharedBytes) -> Result<Arc<Image>, HsaCode> {
    let min_vaddr = code.min_vaddr();
    let load_size = code.max_vaddr();
    if load_size == 0 || load_size > MAX_LOAD_BYTES {
        return Err(HsaCode::OUT_OF_RESOURCES);
    }
    let pieces = code
        .segments
        .iter()
        .filter_map(|s| {
            code.file_range_at(bytes, s.vaddr, s.filesz)
                .map(|range| (s.vaddr - min_vaddr, range))
        })
        .collect();
    Image::new(bytes.clone(), load_size, pieces)
        .map(Arc::new)
        .ok_or(HsaCode::INVALID_ARGUMENT)
}

/// Where each agent's next code object goes in its code window.
#[derive(Debug)]
pub(crate) struct CodeWindows {
    /// Per agent: the window offset after its last load.
    next: Vec<u64>,
}

impl CodeWindows {
    /// The windows of `agents` agents, nothing loaded.
    pub(crate) fn new(agents: usize) -> CodeWindows {
        CodeWindows {
            next: vec![0; agents],
        }
    }

    /// Places `code`'s `image` in `agent_index`'s code window (after the
    /// last load while the window lasts, then wherever it fits) and
    /// returns its base and the load delta.
    pub(crate) fn map(
        &mut self,
        memory: &mut Memory,
        agent_index: usize,
        code: &CodeObject,
        image: &Arc<Image>,
    ) -> Result<(u64, u64), HsaCode> {
        let min_vaddr = code.min_vaddr();
        let window = code_base(agent_index);
        let len = align_up(image.size(), LOAD_ALIGNMENT).ok_or(HsaCode::OUT_OF_RESOURCES)?;
        let next = self.next.get(agent_index).copied().unwrap_or(0);
        let base = next
            .checked_add(len)
            .filter(|&end| end <= CODE_WINDOW_BYTES)
            .map(|_| window + next)
            .or_else(|| memory.first_fit(window, CODE_WINDOW_BYTES, len, LOAD_ALIGNMENT))
            .ok_or(HsaCode::OUT_OF_RESOURCES)?;
        memory.map_image(base, Arc::clone(image))?;
        if let Some(n) = self.next.get_mut(agent_index) {
            *n = base - window + len;
        }
        Ok((base, base.wrapping_sub(min_vaddr)))
    }
}
