//! IREE's default export-parameter projection of a kernel's arguments: each
//! `global_buffer` becomes a binding, each `by_value` a run of 32-bit
//! constants, hidden arguments are skipped, anything else is unsupported.
//!
//! The rules are those of the pinned IREE (`b48a5955`),
//! `runtime/src/iree/hal/drivers/amdgpu/util/hsaco_metadata.c`,
//! `iree_hal_amdgpu_hsaco_metadata_calculate_default_export_parameter_requirements`:
//! a `by_value` argument must be at most 255 bytes and a multiple of 4
//! (`iree_host_size_has_alignment(arg->size, sizeof(uint32_t))`), so `char`,
//! `short` and `char3` arguments are refused. Some IREE-derived trees accept
//! any non-zero size; the pinned one does not, and neither does this.
//!
//! A kernel the projection refuses is still a valid kernel: `inspect` shows
//! it with the reason ([`KernelMetadata::default_export_parameters`]'s
//! error), while `load` and `pack` refuse the code object naming every such
//! kernel at once ([`projection_refusal`]).

use super::model::{KernelMetadata, ValueKind};
use crate::{Result, Status, status};

/// Largest `by_value` argument a HAL parameter can describe (its size is a `u8`).
pub const MAX_PARAMETER_SIZE: u32 = u8::MAX as u32;
/// Largest parameter, binding and constant count (the HAL fields are `u16`).
pub const MAX_PARAMETER_COUNT: usize = u16::MAX as usize;

/// What a HAL parameter is; serialized as its [`ParameterType::as_str`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ParameterType {
    /// Bytes in the dense constant block (`offset` is a byte offset).
    Constant = 0,
    /// A buffer binding (`offset` is the binding ordinal).
    Binding = 1,
    /// A raw buffer pointer (not produced by the default projection).
    BufferPtr = 2,
}

impl ParameterType {
    /// `"constant"`, `"binding"` or `"buffer_ptr"`: the name `inspect`
    /// reports it by.
    pub fn as_str(self) -> &'static str {
        match self {
            ParameterType::Constant => "constant",
            ParameterType::Binding => "binding",
            ParameterType::BufferPtr => "buffer_ptr",
        }
    }
}

/// One HAL function parameter (`iree_hal_executable_function_parameter_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExportParameter<'a> {
    /// Constant or binding.
    pub kind: ParameterType,
    /// Size in bytes (8 for bindings).
    pub size: u8,
    /// Parameter flags (none are set by the default projection).
    pub flags: u16,
    /// The argument's `.name`, empty when it has none.
    pub name: &'a str,
    /// Byte offset in the constant block, or binding ordinal.
    pub offset: u16,
}

/// The counts a kernel's default projection needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExportParameterRequirements {
    /// HAL-visible parameters (hidden arguments skipped).
    pub parameter_count: u16,
    /// 32-bit constants the `by_value` parameters occupy.
    pub constant_count: u16,
    /// Bindings the `global_buffer` parameters occupy.
    pub binding_count: u16,
    /// Bytes of all parameter names.
    pub name_storage_size: usize,
}

/// A kernel's projected parameters with their requirements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportParameters<'a> {
    /// The counts.
    pub requirements: ExportParameterRequirements,
    /// The parameters in argument order.
    pub parameters: Vec<ExportParameter<'a>>,
}

impl<'a> KernelMetadata<'a> {
    /// Walks the visible arguments, checking each, and calls `emit` with the
    /// parameter it projects to.
    fn project(
        &self,
        mut emit: impl FnMut(ExportParameter<'a>),
    ) -> Result<ExportParameterRequirements> {
        let kernel = self.reflection_name;
        let (mut parameters, mut bindings, mut constant_bytes, mut names) =
            (0usize, 0usize, 0usize, 0usize);
        for (index, arg) in self.args.iter().enumerate() {
            let name = arg.name.unwrap_or("");
            let parameter = match arg.kind {
                kind if kind.is_hidden() => continue,
                ValueKind::GlobalBuffer => {
                    if arg.size != 8 {
                        return Err(status!(
                            InvalidArgument,
                            "AMDGPU kernel `{kernel}` global_buffer argument {index} has unsupported size {}",
                            arg.size
                        ));
                    }
                    let offset = u16::try_from(bindings).map_err(|_| counts_exceeded())?;
                    bindings += 1;
                    ExportParameter {
                        kind: ParameterType::Binding,
                        size: 8,
                        flags: 0,
                        name,
                        offset,
                    }
                }
                ValueKind::ByValue => {
                    let size = u8::try_from(arg.size).map_err(|_| {
                        status!(
                            OutOfRange,
                            "AMDGPU kernel `{kernel}` by_value argument {index} size {} exceeds HAL parameter size range",
                            arg.size
                        )
                    })?;
                    if size % 4 != 0 {
                        return Err(status!(
                            InvalidArgument,
                            "AMDGPU kernel `{kernel}` by_value argument {index} size {size} is not a whole number of 32-bit HAL constants"
                        ));
                    }
                    let offset = u16::try_from(constant_bytes).map_err(|_| {
                        status!(
                            OutOfRange,
                            "AMDGPU kernel `{kernel}` by_value argument {index} constant offset exceeds HAL parameter offset range"
                        )
                    })?;
                    constant_bytes += usize::from(size);
                    ExportParameter {
                        kind: ParameterType::Constant,
                        size,
                        flags: 0,
                        name,
                        offset,
                    }
                }
                _ => {
                    return Err(status!(
                        InvalidArgument,
                        "AMDGPU kernel `{kernel}` argument {index} uses unsupported reflected value_kind `{}`",
                        arg.value_kind
                    ));
                }
            };
            parameters += 1;
            names += name.len();
            emit(parameter);
        }
        let constants = constant_bytes.div_ceil(4);
        let narrow = |count: usize| u16::try_from(count).map_err(|_| counts_exceeded());
        Ok(ExportParameterRequirements {
            parameter_count: narrow(parameters)?,
            constant_count: narrow(constants)?,
            binding_count: narrow(bindings)?,
            name_storage_size: names,
        })
    }

    /// The counts of the default projection, or IREE's error for the first
    /// argument it cannot project.
    pub fn default_export_parameter_requirements(&self) -> Result<ExportParameterRequirements> {
        self.project(|_| {})
    }

    /// The default projection, each parameter handed to `emit` in order as
    /// it is made (nothing is collected): the requirements, or the same
    /// refusal as [`Self::default_export_parameters`] (some parameters may
    /// have been emitted before it).
    pub fn for_each_default_export_parameter(
        &self,
        emit: impl FnMut(ExportParameter<'a>),
    ) -> Result<ExportParameterRequirements> {
        self.project(emit)
    }

    /// The default projection: requirements and the parameters themselves.
    pub fn default_export_parameters(&self) -> Result<ExportParameters<'a>> {
        let mut parameters = Vec::with_capacity(self.args.len());
        let requirements = self.project(|parameter| parameters.push(parameter))?;
        Ok(ExportParameters {
            requirements,
            parameters,
        })
    }

    /// Writes the default projection into `out` (IREE's populate call) and
    /// returns how many parameters were written. `RESOURCE_EXHAUSTED` when `out`
    /// is too small; nothing is written then.
    pub fn populate_default_export_parameters(
        &self,
        out: &mut [ExportParameter<'a>],
    ) -> Result<usize> {
        let requirements = self.default_export_parameter_requirements()?;
        let needed = usize::from(requirements.parameter_count);
        if out.len() < needed {
            return Err(status!(
                ResourceExhausted,
                "AMDGPU metadata export parameter output capacity too small ({} < {needed})",
                out.len()
            ));
        }
        let mut slots = out.iter_mut();
        self.project(|parameter| {
            if let Some(slot) = slots.next() {
                *slot = parameter;
            }
        })?;
        Ok(needed)
    }
}

fn counts_exceeded() -> crate::Status {
    status!(
        OutOfRange,
        "AMDGPU metadata reflected parameter counts exceed HAL ranges (at most {MAX_PARAMETER_COUNT})"
    )
}

/// One status for a code object some of whose `total` kernels (or exports:
/// `unit` names what is counted) IREE's HAL cannot describe: every refusal's message (its annotations in
/// parentheses), in order, joined with `; ` after a count, so that the user
/// sees all of them at once rather than the first. The code is the first
/// refusal's. `refused` must not be empty (an `INTERNAL` status says so if
/// it is).
pub fn projection_refusal(refused: &[Status], total: usize, unit: &str) -> Status {
    let Some(first) = refused.first() else {
        return Status::internal("projection_refusal called without refusals");
    };
    let mut message = format!(
        "{} of {total} {unit} are outside IREE's HAL projection: ",
        refused.len()
    );
    for (i, status) in refused.iter().enumerate() {
        if i > 0 {
            message.push_str("; ");
        }
        message.push_str(status.message());
        if !status.annotations().is_empty() {
            message.push_str(" (");
            message.push_str(&status.annotations().join(", "));
            message.push(')');
        }
    }
    Status::new(first.code(), message)
}
