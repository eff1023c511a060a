//! What HIP's launch checks need from a code object's `NT_AMDGPU_METADATA`
//! notes (LLVM AMDGPUUsage, "Code Object V3+ Metadata"): per kernel its
//! descriptor symbol, kernarg segment size, flat work-group limit, required
//! work-group size and static LDS.
//!
//! The simulator reads the notes itself, independently of `amdgpu-hal`'s
//! decoder, so a launch checked here is an oracle for the HAL rather than a
//! copy of it. Every note of the object is read and their kernels merged,
//! as `llvm-readelf --notes` lists them.

use std::collections::BTreeMap;

use serde::Deserialize;

/// `NT_AMDGPU_METADATA`.
const NT_AMDGPU_METADATA: u32 = 32;
/// `PT_NOTE`.
const PT_NOTE: u32 = 4;
/// Most notes read from one object.
pub const MAX_NOTES: usize = 4096;
/// Most kernels kept from one object (the loader's dynamic-symbol limit).
pub const MAX_KERNELS: usize = crate::elf::MAX_SYMBOLS;
/// LLVM's default flat work-group limit when the metadata gives none
/// (`.max_flat_workgroup_size` is required from code object v3 on; 1024 is
/// `AMDGPUSubtarget::getFlatWorkGroupSizes`' default).
pub const DEFAULT_MAX_FLAT_WORKGROUP_SIZE: u32 = 1024;

/// The launch facts of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelLaunchInfo {
    /// `.name`.
    pub name: String,
    /// `.symbol` (the `.kd` descriptor).
    pub symbol: String,
    /// `.kernarg_segment_size`.
    pub kernarg_segment_size: u32,
    /// `.max_flat_workgroup_size` (default [`DEFAULT_MAX_FLAT_WORKGROUP_SIZE`]).
    pub max_flat_workgroup_size: u32,
    /// `.reqd_workgroup_size`, when the kernel has one.
    pub reqd_workgroup_size: Option<[u32; 3]>,
    /// `.group_segment_fixed_size` (static LDS bytes).
    pub group_segment_fixed_size: u32,
    /// `(offset, size)` of each explicit argument (hidden ones excluded), in order.
    pub explicit_args: Vec<(u32, u32)>,
    /// `(offset, size, value kind)` of each hidden argument, which the
    /// runtime fills (`hidden_block_count_x`, `hidden_group_size_x`, ...).
    pub hidden_args: Vec<(u32, u32, String)>,
    /// `.vgpr_count` (0 when the metadata omits it).
    pub vgpr_count: u32,
    /// `.sgpr_count` (0 when the metadata omits it).
    pub sgpr_count: u32,
    /// `.wavefront_size` (0 when the metadata omits it).
    pub wavefront_size: u32,
}

#[derive(Deserialize)]
struct Document {
    #[serde(rename = "amdhsa.kernels", default)]
    kernels: Vec<Kernel>,
}

#[derive(Deserialize)]
struct Kernel {
    #[serde(rename = ".name")]
    name: String,
    #[serde(rename = ".symbol")]
    symbol: String,
    #[serde(rename = ".kernarg_segment_size", default)]
    kernarg_segment_size: u32,
    #[serde(rename = ".max_flat_workgroup_size", default)]
    max_flat_workgroup_size: Option<u32>,
    #[serde(rename = ".reqd_workgroup_size", default)]
    reqd_workgroup_size: Option<Vec<u32>>,
    #[serde(rename = ".vgpr_count", default)]
    vgpr_count: u32,
    #[serde(rename = ".sgpr_count", default)]
    sgpr_count: u32,
    #[serde(rename = ".wavefront_size", default)]
    wavefront_size: u32,
    #[serde(rename = ".group_segment_fixed_size", default)]
    group_segment_fixed_size: u32,
    #[serde(rename = ".args", default)]
    args: Vec<Arg>,
}

#[derive(Deserialize)]
struct Arg {
    #[serde(rename = ".offset")]
    offset: u32,
    #[serde(rename = ".size")]
    size: u32,
    #[serde(rename = ".value_kind")]
    value_kind: String,
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(b.try_into().ok()?))
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(b.try_into().ok()?))
}

/// The `(offset, size)` file ranges of the `PT_NOTE` segments.
fn note_ranges(bytes: &[u8]) -> Option<Vec<(usize, usize)>> {
    let phoff = usize::try_from(u64_at(bytes, 32)?).ok()?;
    let phentsize = usize::from(u16::from_le_bytes(bytes.get(54..56)?.try_into().ok()?));
    let phnum = usize::from(u16::from_le_bytes(bytes.get(56..58)?.try_into().ok()?));
    let mut out = Vec::new();
    for i in 0..phnum {
        let at = phoff.checked_add(i.checked_mul(phentsize)?)?;
        if u32_at(bytes, at)? != PT_NOTE {
            continue;
        }
        let offset = usize::try_from(u64_at(bytes, at.checked_add(8)?)?).ok()?;
        let size = usize::try_from(u64_at(bytes, at.checked_add(32)?)?).ok()?;
        out.push((offset, size));
    }
    Some(out)
}

/// The descriptors of every `AMDGPU`/`NT_AMDGPU_METADATA` note in `segment`.
fn metadata_notes(segment: &[u8], out: &mut Vec<Vec<u8>>) -> Result<(), String> {
    let mut at = 0usize;
    while at < segment.len() {
        let header = |i: usize| u32_at(segment, at + 4 * i).map(|v| v as usize);
        let (Some(namesz), Some(descsz), Some(kind)) = (header(0), header(1), header(2)) else {
            return Err("truncated note header".into());
        };
        let name_at = at + 12;
        let desc_at = name_at
            .checked_add(
                namesz
                    .checked_next_multiple_of(4)
                    .ok_or("note name size overflows")?,
            )
            .ok_or("note offset overflows")?;
        let end = desc_at
            .checked_add(
                descsz
                    .checked_next_multiple_of(4)
                    .ok_or("note size overflows")?,
            )
            .ok_or("note offset overflows")?;
        let name = segment
            .get(name_at..name_at + namesz)
            .ok_or("note name out of range")?;
        let desc = segment
            .get(desc_at..desc_at + descsz)
            .ok_or("note descriptor out of range")?;
        if name == b"AMDGPU\0" && kind as u32 == NT_AMDGPU_METADATA {
            if out.len() >= MAX_NOTES {
                return Err(format!("more than {MAX_NOTES} metadata notes"));
            }
            out.push(desc.to_vec());
        }
        at = end;
    }
    Ok(())
}

/// Every kernel of every metadata note of the ELF `bytes`, by descriptor
/// symbol. An object without metadata has no kernels to launch.
pub fn read_kernels(bytes: &[u8]) -> Result<BTreeMap<String, KernelLaunchInfo>, String> {
    let ranges = note_ranges(bytes).ok_or("program headers out of range")?;
    let mut notes = Vec::new();
    for (offset, size) in ranges {
        let segment = offset
            .checked_add(size)
            .and_then(|end| bytes.get(offset..end))
            .ok_or("PT_NOTE segment out of range")?;
        metadata_notes(segment, &mut notes)?;
    }
    let mut kernels = BTreeMap::new();
    for note in notes {
        let document: Document = rmp_serde::from_slice(&note)
            .map_err(|e| format!("NT_AMDGPU_METADATA is not valid metadata: {e}"))?;
        for k in document.kernels {
            if kernels.len() >= MAX_KERNELS {
                return Err(format!("more than {MAX_KERNELS} kernels"));
            }
            let reqd = match k.reqd_workgroup_size.as_deref() {
                None => None,
                Some(&[x, y, z]) => Some([x, y, z]),
                Some(_) => {
                    return Err(format!(
                        "kernel '{}': .reqd_workgroup_size is not 3 values",
                        k.name
                    ));
                }
            };
            let info = KernelLaunchInfo {
                name: k.name,
                symbol: k.symbol.clone(),
                kernarg_segment_size: k.kernarg_segment_size,
                max_flat_workgroup_size: k
                    .max_flat_workgroup_size
                    .unwrap_or(DEFAULT_MAX_FLAT_WORKGROUP_SIZE),
                reqd_workgroup_size: reqd,
                group_segment_fixed_size: k.group_segment_fixed_size,
                explicit_args: k
                    .args
                    .iter()
                    .filter(|a| !a.value_kind.starts_with("hidden_"))
                    .map(|a| (a.offset, a.size))
                    .collect(),
                hidden_args: k
                    .args
                    .iter()
                    .filter(|a| a.value_kind.starts_with("hidden_"))
                    .map(|a| (a.offset, a.size, a.value_kind.clone()))
                    .collect(),
                vgpr_count: k.vgpr_count,
                sgpr_count: k.sgpr_count,
                wavefront_size: k.wavefront_size,
            };
            if kernels.insert(k.symbol, info).is_some() {
                return Err("two kernels share one descriptor symbol".into());
            }
        }
    }
    Ok(kernels)
}
