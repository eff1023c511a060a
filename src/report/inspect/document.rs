//! What `inspect` reports: [`InspectReport`], one [`ExportReport`] per
//! export with its [`ParameterReport`]s, and the text form `amdgpu-hal
//! inspect` prints. The JSON form is [`InspectReport::write_json`]; the
//! `Serialize` derive gives the same bytes and is what the tests hold it to.

use std::fmt;

use serde::Serialize;

use crate::codeobj::metadata::ParameterType;
use crate::escape::Escaped;

use crate::wrapped::Container;

/// One reflected kernel parameter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParameterReport<'a> {
    /// Binding, constant or buffer pointer (`"binding"`, `"constant"` or
    /// `"buffer_ptr"` in JSON). A one-byte type rather than its name: a
    /// large object's reports hold tens of thousands of parameters.
    #[serde(rename = "type")]
    pub kind: ParameterType,
    /// Size in bytes.
    pub size: u8,
    /// Byte offset in the constant block, or binding ordinal.
    pub offset: u16,
    /// The argument's name (empty when it has none).
    pub name: &'a str,
}

/// One export. Names borrow from the inspected file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExportReport<'a> {
    /// The HAL function name.
    pub name: &'a str,
    /// The code object's kernel descriptor symbol (`.symbol` of its
    /// metadata, `name.kd`), in every container.
    pub symbol: &'a str,
    /// The name IREE's HAL resolves the export by: the descriptor symbol
    /// (`hsa_executable_get_symbol_by_name`) for `AMD1` and raw HSACOs, the
    /// kernel function name (`hipModuleGetFunction`) for `HIP1`.
    pub hal_symbol: &'a str,
    /// The workgroup (block) size; 1x1x1 when dynamic.
    pub workgroup_size: [u32; 3],
    /// True for a raw-HSACO kernel without `.reqd_workgroup_size`.
    pub dynamic_workgroup_size: bool,
    /// 32-bit constants the HAL passes: the container's declared count, or
    /// for a raw HSACO the projection's; `None` for a raw kernel the
    /// projection refuses (see `hal_error`).
    pub constant_count: Option<u32>,
    /// Bindings the HAL passes (as `constant_count`).
    pub binding_count: Option<u32>,
    /// The metadata's arguments projected to HAL parameters.
    pub parameters: Vec<ParameterReport<'a>>,
    /// `.kernarg_segment_size`.
    pub kernarg_size: u32,
    /// `.kernarg_segment_align`.
    pub kernarg_alignment: u32,
    /// `.group_segment_fixed_size` (static LDS bytes).
    pub group_segment_size: u32,
    /// `.private_segment_fixed_size` (scratch bytes per work-item).
    pub private_segment_size: u32,
    /// `.vgpr_count`: vector registers (arch VGPRs) per work-item.
    pub vgpr_count: Option<u32>,
    /// `.sgpr_count`: scalar registers per wavefront.
    pub sgpr_count: Option<u32>,
    /// `.agpr_count`: accumulation registers (GFX90A/GFX942) per work-item.
    pub agpr_count: Option<u32>,
    /// `.vgpr_spill_count`: VGPRs spilled to scratch.
    pub vgpr_spill_count: Option<u32>,
    /// `.sgpr_spill_count`: SGPRs spilled.
    pub sgpr_spill_count: Option<u32>,
    /// `.wavefront_size`: 32 or 64.
    pub wavefront_size: Option<u32>,
    /// `.max_flat_workgroup_size`: most work-items per work-group.
    pub max_flat_workgroup_size: Option<u32>,
    /// `.uses_dynamic_stack`: the stack size is not known at compile time.
    pub uses_dynamic_stack: Option<bool>,
    /// Why IREE's HAL would refuse this export (`load` and `pack` fail on
    /// it), as `CODE; message`; `None` when it can be loaded.
    pub hal_error: Option<String>,
}

/// What `inspect` reports for one file; its names borrow from the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InspectReport<'a> {
    /// `amd1`, `hip1` or `elf`.
    pub container: Container,
    /// The code object's target ID from its ELF `e_flags`, as IREE formats it.
    pub format: String,
    /// Bytes the executable occupies.
    pub size: u64,
    /// The code object version (`EI_ABIVERSION` mapped: 4, 5, 6, ...).
    pub code_object_version: u32,
    /// The exports in entry-point order.
    pub exports: Vec<ExportReport<'a>>,
}

impl fmt::Display for InspectReport<'_> {
    /// The human-readable form `amdgpu-hal inspect` prints without `--json`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let container = match self.container {
            Container::Amd1 => "AMD1 (wrapped AMDGPU executable)",
            Container::Hip1 => "HIP1 (wrapped HIP executable)",
            Container::Elf => "ELF (raw HSACO)",
        };
        writeln!(f, "container:           {container}")?;
        writeln!(f, "format:              {}", Escaped(&self.format))?;
        writeln!(f, "size:                {} bytes", self.size)?;
        writeln!(f, "code object version: {}", self.code_object_version)?;
        writeln!(f, "exports:             {}", self.exports.len())?;
        // An absent number (no projection, a key the metadata omits) is `-`.
        let show = |value: Option<u32>| value.map_or_else(|| "-".to_owned(), |v| v.to_string());
        for (i, export) in self.exports.iter().enumerate() {
            let [x, y, z] = export.workgroup_size;
            let dynamic = if export.dynamic_workgroup_size {
                " (dynamic)"
            } else {
                ""
            };
            writeln!(f, "[{i}] {}", Escaped(export.name))?;
            writeln!(f, "    symbol:          {}", Escaped(export.symbol))?;
            if export.hal_symbol != export.symbol {
                writeln!(f, "    HAL symbol:      {}", Escaped(export.hal_symbol))?;
            }
            writeln!(f, "    workgroup size:  {x}x{y}x{z}{dynamic}")?;
            writeln!(
                f,
                "    constants:       {}   bindings: {}",
                show(export.constant_count),
                show(export.binding_count)
            )?;
            writeln!(
                f,
                "    kernarg:         {} bytes, align {}",
                export.kernarg_size, export.kernarg_alignment
            )?;
            writeln!(
                f,
                "    segments:        group {} bytes, private {} bytes",
                export.group_segment_size, export.private_segment_size
            )?;
            writeln!(
                f,
                "    registers:       vgpr {}, sgpr {}, agpr {}; spilled vgpr {}, sgpr {}",
                show(export.vgpr_count),
                show(export.sgpr_count),
                show(export.agpr_count),
                show(export.vgpr_spill_count),
                show(export.sgpr_spill_count)
            )?;
            writeln!(
                f,
                "    wavefront:       {}   max flat workgroup: {}   dynamic stack: {}",
                show(export.wavefront_size),
                show(export.max_flat_workgroup_size),
                match export.uses_dynamic_stack {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "-",
                }
            )?;
            if let Some(reason) = &export.hal_error {
                writeln!(f, "    HAL refuses:     {}", Escaped(reason))?;
            }
            for parameter in &export.parameters {
                let name = if parameter.name.is_empty() {
                    "-"
                } else {
                    parameter.name
                };
                let name = Escaped(name);
                writeln!(
                    f,
                    "    param {:<10} offset {:<4} size {:<3} {name}",
                    parameter.kind.as_str(),
                    parameter.offset,
                    parameter.size
                )?;
            }
        }
        Ok(())
    }
}
