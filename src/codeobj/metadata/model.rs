//! The decoded metadata: code object, kernels, kernel arguments. Strings are
//! borrowed from the MessagePack blob (which is borrowed from the ELF).

use std::collections::HashMap;

use super::prehashed::Prehashed;
use crate::{Result, Status, status};

/// The classification of an argument's `.value_kind` (IREE's arg kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// `by_value`: bytes copied into the kernarg segment.
    ByValue,
    /// `global_buffer`: a pointer to global memory.
    GlobalBuffer,
    /// `dynamic_shared_pointer`: a pointer to dynamically sized LDS.
    DynamicSharedPointer,
    /// `image`: an image descriptor pointer.
    Image,
    /// `sampler`: a sampler descriptor pointer.
    Sampler,
    /// `pipe`: an OpenCL pipe pointer.
    Pipe,
    /// `queue`: an OpenCL device-enqueue queue pointer.
    Queue,
    /// Any other `hidden_*` kind: a value the runtime fills in.
    Hidden,
    /// `hidden_none`: reserved hidden space that needs no value.
    HiddenNone,
    /// Anything else; kept as opaque metadata.
    Unknown,
}

impl ValueKind {
    /// Classifies a `.value_kind` string.
    pub fn classify(name: &str) -> ValueKind {
        match name {
            "by_value" => ValueKind::ByValue,
            "global_buffer" => ValueKind::GlobalBuffer,
            "dynamic_shared_pointer" => ValueKind::DynamicSharedPointer,
            "image" => ValueKind::Image,
            "sampler" => ValueKind::Sampler,
            "pipe" => ValueKind::Pipe,
            "queue" => ValueKind::Queue,
            "hidden_none" => ValueKind::HiddenNone,
            _ if name.starts_with("hidden_") => ValueKind::Hidden,
            _ => ValueKind::Unknown,
        }
    }

    /// True for the hidden ABI arguments (`hidden_*`), which HAL reflection skips.
    pub fn is_hidden(self) -> bool {
        matches!(self, ValueKind::Hidden | ValueKind::HiddenNone)
    }
}

/// One kernel argument (an element of `.args`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgMetadata<'a> {
    /// `.name`, if present.
    pub name: Option<&'a str>,
    /// `.type_name`, if present.
    pub type_name: Option<&'a str>,
    /// `.offset`: byte offset in the kernarg segment.
    pub offset: u32,
    /// `.size`: bytes of kernarg storage.
    pub size: u32,
    /// `.align` (or `.alignment`): storage alignment; 0 when absent.
    pub alignment: u32,
    /// `.pointee_align`, if present (dynamic shared pointers).
    pub pointee_align: Option<u32>,
    /// The classified `.value_kind`.
    pub kind: ValueKind,
    /// The raw `.value_kind` string.
    pub value_kind: &'a str,
    /// `.address_space`, if present (`global`, `constant`, `local`, ...).
    pub address_space: Option<&'a str>,
    /// The effective access: `.actual_access` if present, else `.access`.
    pub access: Option<&'a str>,
}

/// One kernel (an element of `amdhsa.kernels`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelMetadata<'a> {
    /// `.name`, if present.
    pub name: Option<&'a str>,
    /// `.symbol`: the kernel descriptor symbol, usually `name.kd`.
    pub symbol: &'a str,
    /// The export reflection name: a non-empty `.name`, else `.symbol`
    /// without its `.kd` suffix.
    pub reflection_name: &'a str,
    /// `.language`, if present (`OpenCL C`, `HIP`, ...).
    pub language: Option<&'a str>,
    /// `.kernarg_segment_size`.
    pub kernarg_segment_size: u32,
    /// `.kernarg_segment_align` (a power of two).
    pub kernarg_segment_align: u32,
    /// `.group_segment_fixed_size`: static LDS bytes.
    pub group_segment_fixed_size: u32,
    /// `.private_segment_fixed_size`: static scratch bytes per work-item.
    pub private_segment_fixed_size: u32,
    /// `.wavefront_size`, if present.
    pub wavefront_size: Option<u32>,
    /// `.sgpr_count`, if present.
    pub sgpr_count: Option<u32>,
    /// `.vgpr_count`, if present.
    pub vgpr_count: Option<u32>,
    /// `.agpr_count`, if present.
    pub agpr_count: Option<u32>,
    /// `.sgpr_spill_count`, if present.
    pub sgpr_spill_count: Option<u32>,
    /// `.vgpr_spill_count`, if present.
    pub vgpr_spill_count: Option<u32>,
    /// `.max_flat_workgroup_size`, if present.
    pub max_flat_workgroup_size: Option<u32>,
    /// `.reqd_workgroup_size`, if present.
    pub reqd_workgroup_size: Option<[u32; 3]>,
    /// `.workgroup_size_hint`, if present.
    pub workgroup_size_hint: Option<[u32; 3]>,
    /// `.uses_dynamic_stack`, if present.
    pub uses_dynamic_stack: Option<bool>,
    /// The arguments in metadata order (sorted by offset, non-overlapping).
    pub args: Vec<ArgMetadata<'a>>,
}

impl KernelMetadata<'_> {
    /// Bytes of all argument names (hidden arguments included), as IREE sizes
    /// its name storage.
    pub fn arg_name_storage_size(&self) -> usize {
        self.args
            .iter()
            .map(|arg| arg.name.map_or(0, str::len))
            .sum()
    }
}

/// The decoded `NT_AMDGPU_METADATA` note of a code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeObjectMetadata<'a> {
    /// `amdhsa.version` (`[1, 2]` for code object V5 and V6), if present.
    pub version: Option<[u32; 2]>,
    /// `amdhsa.target` (`amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`), if present.
    pub target: Option<&'a str>,
    /// The kernels in metadata order.
    pub kernels: Vec<KernelMetadata<'a>>,
    /// Kernel index by `.symbol`.
    by_symbol: SymbolIndex<'a>,
}

/// Kernel indices by `.symbol`, for lookups in O(1): what
/// [`CodeObjectMetadata::kernel_index_by_symbol`] answers from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymbolIndex<'a> {
    /// `DUPLICATE` marks a symbol more than one kernel has.
    indices: HashMap<Prehashed<'a>, usize>,
}

const DUPLICATE: usize = usize::MAX;

impl<'a> SymbolIndex<'a> {
    /// An index with room for `kernels` symbols.
    pub fn with_capacity(kernels: usize) -> SymbolIndex<'a> {
        SymbolIndex {
            indices: HashMap::with_capacity(kernels),
        }
    }

    /// Makes room for `additional` more symbols.
    pub fn reserve(&mut self, additional: usize) {
        self.indices.reserve(additional);
    }

    /// Records that kernel `index` has `symbol`.
    pub fn insert(&mut self, symbol: &'a str, index: usize) {
        self.indices
            .entry(Prehashed::new(symbol))
            .and_modify(|slot| *slot = DUPLICATE)
            .or_insert(index);
    }

    /// The index of the one kernel whose `.symbol` is exactly `symbol`
    /// (including `.kd`): `NOT_FOUND` when no kernel has it,
    /// `FAILED_PRECONDITION` when several do.
    pub fn get(&self, symbol: &str) -> Result<usize> {
        match self.indices.get(&Prehashed::new(symbol)).copied() {
            None => Err(status!(
                NotFound,
                "AMDGPU metadata kernel symbol `{symbol}` not found"
            )),
            Some(DUPLICATE) => Err(status!(
                FailedPrecondition,
                "AMDGPU metadata has duplicate kernel symbol `{symbol}`"
            )),
            Some(index) => Ok(index),
        }
    }
}

impl<'a> CodeObjectMetadata<'a> {
    pub(crate) fn new(
        version: Option<[u32; 2]>,
        target: Option<&'a str>,
        kernels: Vec<KernelMetadata<'a>>,
    ) -> CodeObjectMetadata<'a> {
        let mut by_symbol = SymbolIndex::with_capacity(kernels.len());
        for (index, kernel) in kernels.iter().enumerate() {
            by_symbol.insert(kernel.symbol, index);
        }
        CodeObjectMetadata {
            version,
            target,
            kernels,
            by_symbol,
        }
    }

    /// The kernel whose `.symbol` is exactly `symbol` (including `.kd`), in
    /// O(1). `NOT_FOUND` when none is; `FAILED_PRECONDITION` when several are.
    pub fn find_kernel_by_symbol(&self, symbol: &str) -> Result<&KernelMetadata<'a>> {
        self.kernel_index_by_symbol(symbol).and_then(|index| {
            self.kernels
                .get(index)
                .ok_or_else(|| Status::internal("AMDGPU metadata symbol index out of sync"))
        })
    }

    /// The index in [`Self::kernels`] of the kernel whose `.symbol` is
    /// `symbol`, with [`Self::find_kernel_by_symbol`]'s errors.
    pub fn kernel_index_by_symbol(&self, symbol: &str) -> Result<usize> {
        self.by_symbol.get(symbol)
    }

    /// Total number of arguments over all kernels.
    pub fn arg_count(&self) -> usize {
        self.kernels.iter().map(|kernel| kernel.args.len()).sum()
    }

    /// Bytes of all reflection names (IREE's `reflection_name_storage_size`).
    pub fn reflection_name_storage_size(&self) -> usize {
        self.kernels
            .iter()
            .map(|kernel| kernel.reflection_name.len())
            .sum()
    }

    /// Bytes of all argument names (IREE's `arg_name_storage_size`).
    pub fn arg_name_storage_size(&self) -> usize {
        self.kernels
            .iter()
            .map(KernelMetadata::arg_name_storage_size)
            .sum()
    }
}

/// The export reflection name: a non-empty `.name`, else `.symbol` with a
/// `.kd` suffix removed.
pub fn reflection_name<'a>(name: Option<&'a str>, symbol: &'a str) -> &'a str {
    match name {
        Some(name) if !name.is_empty() => name,
        _ => symbol.strip_suffix(".kd").unwrap_or(symbol),
    }
}
