//! The generated FlatBuffer code has IREE's wire layout: field ids as IREE
//! declares them, and every table and field of `schemas/*.fbs` in the same
//! order in the committed generated files (a schema edit without
//! `schemas/generate.sh` fails here; `generate.sh --check` in CI proves the
//! bytes).

use amdgpu_hal_schemas::amdgpu::iree::hal::{amdgpu, debug};
use amdgpu_hal_schemas::hip::iree::hal::hip;
use amdgpu_hal_schemas::vm::iree::vm;

/// The vtable offset of field id `id`.
const fn vt(id: u16) -> u16 {
    4 + 2 * id
}

#[test]
fn amd1_field_ids_are_irees() {
    assert_eq!(amdgpu::ExecutableDef::VT_ISA, vt(0));
    assert_eq!(amdgpu::ExecutableDef::VT_EXPORTS, vt(1));
    assert_eq!(amdgpu::ExecutableDef::VT_MODULES, vt(2));
    assert_eq!(amdgpu::ExecutableDef::VT_SOURCE_FILES, vt(3));
    assert_eq!(amdgpu::ExportDef::VT_SYMBOL_NAME, vt(0));
    assert_eq!(amdgpu::ExportDef::VT_WORKGROUP_SIZE, vt(1));
    assert_eq!(amdgpu::ExportDef::VT_CONSTANT_COUNT, vt(2));
    assert_eq!(amdgpu::ExportDef::VT_BINDING_FLAGS, vt(3));
    assert_eq!(amdgpu::ExportDef::VT_DEBUG_INFO, vt(4));
    assert_eq!(amdgpu::ModuleDef::VT_IMAGE, vt(0));
    assert_eq!(std::mem::size_of::<amdgpu::Dims>(), 12);
    assert_eq!(amdgpu::BindingBits::READ_ONLY.bits(), 1);
    assert_eq!(amdgpu::BindingBits::INDIRECT.bits(), 2);
    assert_eq!(amdgpu::EXECUTABLE_DEF_IDENTIFIER, "AMD1");
    assert_eq!(amdgpu::EXECUTABLE_DEF_EXTENSION, "amd1");
}

#[test]
fn debug_info_field_ids_are_irees() {
    assert_eq!(debug::FileLineLocDef::VT_FILENAME, vt(0));
    assert_eq!(debug::FileLineLocDef::VT_LINE, vt(1));
    assert_eq!(debug::StageLocationDef::VT_STAGE, vt(0));
    assert_eq!(debug::StageLocationDef::VT_LOCATION, vt(1));
    assert_eq!(debug::ExportDef::VT_NAME, vt(0));
    assert_eq!(debug::ExportDef::VT_LOCATION, vt(1));
    assert_eq!(debug::ExportDef::VT_STAGE_LOCATIONS, vt(2));
    assert_eq!(debug::SourceFileDef::VT_PATH, vt(0));
    assert_eq!(debug::SourceFileDef::VT_CONTENT, vt(1));
}

#[test]
fn hip1_field_ids_are_irees() {
    assert_eq!(hip::ExecutableDef::VT_EXPORTS, vt(0));
    assert_eq!(hip::ExecutableDef::VT_MODULES, vt(1));
    assert_eq!(hip::ExecutableDef::VT_SOURCE_FILES, vt(2));
    assert_eq!(hip::ExportDef::VT_MODULE_ORDINAL, vt(0));
    assert_eq!(hip::ExportDef::VT_KERNEL_NAME, vt(1));
    assert_eq!(hip::ExportDef::VT_BLOCK_DIMS, vt(2));
    assert_eq!(hip::ExportDef::VT_BLOCK_SHARED_MEMORY_SIZE, vt(3));
    assert_eq!(hip::ExportDef::VT_CONSTANT_COUNT, vt(4));
    assert_eq!(hip::ExportDef::VT_BINDING_FLAGS, vt(5));
    assert_eq!(hip::ExportDef::VT_DEBUG_INFO, vt(6));
    assert_eq!(hip::ModuleDef::VT_HSACO_IMAGE, vt(0));
    assert_eq!(std::mem::size_of::<hip::BlockDims>(), 12);
    assert_eq!(hip::EXECUTABLE_DEF_IDENTIFIER, "HIP1");
}

/// IREE's `runtime/src/iree/schemas/bytecode_module_def.fbs`: `name`,
/// `version`, then `requirements`, `attrs`, `types`, `dependencies`,
/// `imported_functions`, `exported_functions`, `function_signatures` (ids
/// 2-8, deprecated placeholders here), then `rodata_segments`; a segment's
/// `compression_type` union takes ids 0 and 1.
#[test]
fn bytecode_module_field_ids_are_irees() {
    assert_eq!(vm::BytecodeModuleDef::VT_NAME, vt(0));
    assert_eq!(vm::BytecodeModuleDef::VT_VERSION, vt(1));
    assert_eq!(vm::BytecodeModuleDef::VT_RODATA_SEGMENTS, vt(9));
    assert_eq!(vm::RodataSegmentDef::VT_COMPRESSION_TYPE_TYPE, vt(0));
    assert_eq!(vm::RodataSegmentDef::VT_COMPRESSION_TYPE, vt(1));
    assert_eq!(vm::RodataSegmentDef::VT_EMBEDDED_DATA, vt(2));
    assert_eq!(vm::RodataSegmentDef::VT_EXTERNAL_DATA_OFFSET, vt(3));
    assert_eq!(vm::RodataSegmentDef::VT_EXTERNAL_DATA_LENGTH, vt(4));
    assert_eq!(vm::CompressionTypeDef::UncompressedDataDef.0, 1);
    assert_eq!(vm::BYTECODE_MODULE_DEF_IDENTIFIER, "IREE");
    assert_eq!(vm::BYTECODE_MODULE_DEF_EXTENSION, "vmfb");
}

/// `(table, [field])` in declaration order from `.fbs` sources.
fn schema_tables(sources: &[&str]) -> Vec<(String, Vec<String>)> {
    let mut tables = Vec::new();
    for source in sources {
        let mut current: Option<(String, Vec<String>)> = None;
        for line in source.lines() {
            let line = line.split("//").next().unwrap().trim();
            if let Some(rest) = line.strip_prefix("table ") {
                current = Some((rest.trim_end_matches(" {").trim().to_string(), Vec::new()));
            } else if line == "}" {
                tables.extend(current.take());
            } else if let (Some((_, fields)), Some((name, _))) =
                (current.as_mut(), line.split_once(':'))
            {
                fields.push(name.trim().to_string());
            }
        }
    }
    tables
}

/// `(table, [field])` in order from a generated file's `VT_*` constants.
fn generated_tables(generated: &str) -> Vec<(String, Vec<String>)> {
    let mut tables: Vec<(String, Vec<String>)> = Vec::new();
    let mut current: Option<String> = None;
    for line in generated.lines() {
        if let Some(rest) = line.strip_prefix("impl<'a> ") {
            current = rest
                .strip_suffix("<'a> {")
                .filter(|name| name.chars().all(char::is_alphanumeric))
                .map(str::to_string);
            if let Some(name) = &current {
                tables.push((name.clone(), Vec::new()));
            }
        } else if let (Some(_), Some(rest)) = (&current, line.trim().strip_prefix("pub const VT_"))
        {
            let (name, _) = rest.split_once(':').unwrap();
            tables.last_mut().unwrap().1.push(name.to_ascii_lowercase());
        }
    }
    tables
}

const DEBUG_FBS: &str = include_str!("../../../schemas/executable_debug_info.fbs");

#[test]
fn generated_amd1_code_matches_the_schema_field_for_field() {
    let schema = schema_tables(&[
        DEBUG_FBS,
        include_str!("../../../schemas/amdgpu_executable_def.fbs"),
    ]);
    let generated = generated_tables(include_str!(
        "../../../schemas/src/amdgpu_executable_def_generated.rs"
    ));
    assert_eq!(schema.len(), 7);
    assert_eq!(generated, schema);
}

#[test]
fn generated_hip1_code_matches_the_schema_field_for_field() {
    let schema = schema_tables(&[
        DEBUG_FBS,
        include_str!("../../../schemas/hip_executable_def.fbs"),
    ]);
    let generated = generated_tables(include_str!(
        "../../../schemas/src/hip_executable_def_generated.rs"
    ));
    assert_eq!(schema.len(), 7);
    assert_eq!(generated, schema);
}
