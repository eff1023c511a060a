//! Export reflection: per-export info, parameters (stored densely with
//! prefix-sum offsets) and an O(1) name index.

use std::collections::HashMap;

use crate::status::{Result, Status};

bitflags::bitflags! {
    /// `iree_hal_executable_function_flags_t`.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct ExportFlags: u64 {
        /// Contiguous workgroups process data sequentially.
        const SEQUENTIAL = 1 << 0;
        /// The workgroup size is chosen at dispatch time; `workgroup_size` is
        /// its minimum and granularity.
        const WORKGROUP_SIZE_DYNAMIC = 1 << 1;
    }
}

pub use crate::codeobj::metadata::ParameterType;

/// The lower-case name of a parameter type used in JSON output
/// (`"constant"`, `"binding"`, `"buffer_ptr"`).
pub const fn parameter_type_name(kind: ParameterType) -> &'static str {
    match kind {
        ParameterType::Constant => "constant",
        ParameterType::Binding => "binding",
        ParameterType::BufferPtr => "buffer_ptr",
    }
}

impl Parameter {
    /// An owned copy of a projected metadata parameter.
    pub fn from_export_parameter(p: &crate::codeobj::metadata::ExportParameter<'_>) -> Parameter {
        Parameter {
            kind: p.kind,
            size: p.size,
            flags: p.flags,
            name: p.name.to_owned(),
            offset: p.offset,
        }
    }
}

/// One reflected parameter of an export (`..._function_parameter_t`), owning its name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Parameter {
    /// Constant, binding or buffer pointer.
    pub kind: ParameterType,
    /// Bytes of the value.
    pub size: u8,
    /// Parameter flags (none defined).
    pub flags: u16,
    /// Source name; may be empty.
    pub name: String,
    /// Binding ordinal or constant byte offset.
    pub offset: u16,
}

/// Reflected information about one export (`iree_hal_executable_function_info_t`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ExportInfo {
    /// Reflection name.
    pub name: String,
    /// Behaviour flags.
    pub flags: ExportFlags,
    /// HAL 32-bit constants expected.
    pub constant_count: u16,
    /// HAL bindings expected.
    pub binding_count: u16,
    /// Reflected parameters.
    pub parameter_count: u16,
    /// Static (or, when dynamic, minimum) workgroup size.
    pub workgroup_size: [u32; 3],
}

/// The reflection of all exports of an executable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reflection {
    infos: Vec<ExportInfo>,
    parameter_offsets: Vec<usize>,
    parameters: Vec<Parameter>,
    by_name: HashMap<String, u32>,
}

pub(crate) fn export_out_of_range(ordinal: u64, count: usize) -> Status {
    crate::status!(
        OutOfRange,
        "export ordinal {ordinal} out of range; executable has {count} export{}",
        if count == 1 { "" } else { "s" }
    )
}

impl Reflection {
    /// An empty reflection with room for `exports` exports.
    pub fn with_capacity(exports: usize) -> Reflection {
        Reflection {
            infos: Vec::with_capacity(exports),
            parameter_offsets: {
                let mut v = Vec::with_capacity(exports + 1);
                v.push(0);
                v
            },
            parameters: Vec::new(),
            by_name: HashMap::with_capacity(exports),
        }
    }

    /// Appends an export; a name an earlier export has is `INVALID_ARGUMENT`
    /// (IREE's lookup by name would silently find the first).
    pub fn push(&mut self, info: ExportInfo, parameters: Vec<Parameter>) -> Result<()> {
        let ordinal = u32::try_from(self.infos.len())
            .map_err(|_| Status::out_of_range("executable export count exceeds uint32_t"))?;
        if let Some(&first) = self.by_name.get(&info.name) {
            return Err(crate::status!(
                InvalidArgument,
                "executable exports {first} and {ordinal} share the name `{}`; export names must be unique",
                crate::escape::echo(&info.name)
            ));
        }
        self.by_name.insert(info.name.clone(), ordinal);
        self.parameters.extend(parameters);
        self.parameter_offsets.push(self.parameters.len());
        self.infos.push(info);
        Ok(())
    }

    /// Number of exports.
    pub fn export_count(&self) -> usize {
        self.infos.len()
    }

    /// All export infos, in ordinal order.
    pub fn exports(&self) -> &[ExportInfo] {
        &self.infos
    }

    /// The info of export `ordinal` (`OUT_OF_RANGE` past the end).
    pub fn export_info(&self, ordinal: u64) -> Result<&ExportInfo> {
        usize::try_from(ordinal)
            .ok()
            .and_then(|i| self.infos.get(i))
            .ok_or_else(|| export_out_of_range(ordinal, self.infos.len()))
    }

    /// The parameters of export `ordinal`.
    pub fn export_parameters(&self, ordinal: u64) -> Result<&[Parameter]> {
        let count = self.infos.len();
        let i = usize::try_from(ordinal)
            .ok()
            .filter(|&i| i < count)
            .ok_or_else(|| export_out_of_range(ordinal, count))?;
        let range = match (
            self.parameter_offsets.get(i),
            self.parameter_offsets.get(i + 1),
        ) {
            (Some(&begin), Some(&end)) => begin..end,
            _ => return Err(Status::internal("export parameter offsets out of sync")),
        };
        self.parameters
            .get(range)
            .ok_or_else(|| Status::internal("export parameter offsets out of sync"))
    }

    /// Prefix-sum offsets into the dense parameter list (one per export plus a sentinel).
    pub fn parameter_offsets(&self) -> &[usize] {
        &self.parameter_offsets
    }

    /// The ordinal of the first export named `name`, in O(1).
    pub fn lookup_export_by_name(&self, name: &str) -> Result<u32> {
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| crate::status!(NotFound, "export '{name}' not found in executable"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::StatusCode;

    fn info(name: &str, parameters: u16) -> ExportInfo {
        ExportInfo {
            name: name.into(),
            flags: ExportFlags::empty(),
            constant_count: 0,
            binding_count: parameters,
            parameter_count: parameters,
            workgroup_size: [1, 1, 1],
        }
    }

    fn binding(i: u16) -> Parameter {
        Parameter {
            kind: ParameterType::Binding,
            size: 8,
            flags: 0,
            name: format!("b{i}"),
            offset: i,
        }
    }

    #[test]
    fn offsets_are_prefix_sums_and_lookups_are_checked() {
        let mut r = Reflection::with_capacity(3);
        r.push(info("a", 2), vec![binding(0), binding(1)]).unwrap();
        r.push(info("b", 0), vec![]).unwrap();
        r.push(info("c", 1), vec![binding(0)]).unwrap();
        // A repeated name would make lookups by name ambiguous.
        let err = r.push(info("a", 1), vec![binding(0)]).unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
        assert_eq!(
            err.message(),
            "executable exports 0 and 3 share the name `a`; export names must be unique"
        );
        assert_eq!(r.export_count(), 3);
        assert_eq!(r.parameter_offsets(), [0, 2, 2, 3]);
        assert_eq!(r.export_parameters(0).unwrap().len(), 2);
        assert!(r.export_parameters(1).unwrap().is_empty());
        assert_eq!(r.export_parameters(2).unwrap()[0].name, "b0");
        assert_eq!(r.lookup_export_by_name("a").unwrap(), 0);
        assert_eq!(r.lookup_export_by_name("b").unwrap(), 1);
        let err = r.lookup_export_by_name("d").unwrap_err();
        assert_eq!(err.code(), StatusCode::NotFound);
        assert!(err.mentions("export 'd' not found"));
        let err = r.export_info(3).unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange);
        assert!(err.mentions("export ordinal 3 out of range; executable has 3 exports"));
        assert!(
            export_out_of_range(1, 1)
                .to_string()
                .ends_with("export ordinal 1 out of range; executable has 1 export")
        );
        assert_eq!(
            r.export_parameters(u64::MAX).unwrap_err().code(),
            StatusCode::OutOfRange
        );
    }
}
