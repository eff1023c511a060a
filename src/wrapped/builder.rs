//! Writes wrapped `AMD1` executables: the 64-byte header and an
//! `iree.hal.amdgpu.ExecutableDef` FlatBuffer laid out the way IREE's
//! compiler and its flatcc verifier expect (images as strings: length,
//! bytes, NUL; source files sorted by path).

use amdgpu_hal_schemas::amdgpu::iree::hal::{amdgpu as fb, debug};
use flatbuffers::{FlatBufferBuilder, WIPOffset};

use super::header::{AMD1_IDENTIFIER, ExecutableHeader};
use crate::status;
use crate::status::Result;

/// Largest executable the builder writes. FlatBuffers offsets are 32-bit and
/// the Rust builder cannot grow past 2 GiB; stay well below.
pub const MAX_BUILT_EXECUTABLE_SIZE: usize = 1 << 30;

/// The flags of one binding (`iree.hal.amdgpu.BindingBits`).
pub use fb::BindingBits;

/// Debug information for one export.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportDebugSpec {
    /// The export's name in the producing program.
    pub name: String,
    /// Source location: file name and line.
    pub location: Option<(String, i32)>,
}

/// One export to write.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportSpec {
    /// The kernel descriptor symbol, `.kd` suffix included.
    pub symbol_name: String,
    /// The workgroup size; `None` writes no `workgroup_size` field (which
    /// verification rejects: only useful to build hostile inputs).
    pub workgroup_size: Option<[u32; 3]>,
    /// Number of 32-bit constants.
    pub constant_count: u32,
    /// One entry per binding.
    pub binding_flags: Vec<BindingBits>,
    /// Optional debug information.
    pub debug: Option<ExportDebugSpec>,
}

/// One embedded source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFileSpec {
    /// The file's path.
    pub path: String,
    /// Its bytes.
    pub content: Vec<u8>,
}

/// Everything a wrapped executable holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExecutableSpec<'a> {
    /// The producer's target name (informational; IREE reads the ELF flags).
    pub isa: Option<String>,
    /// The exports in entry-point order.
    pub exports: Vec<ExportSpec>,
    /// The module images (IREE loads exactly one).
    pub images: Vec<&'a [u8]>,
    /// Embedded sources; written sorted by path.
    pub source_files: Vec<SourceFileSpec>,
}

impl ExecutableSpec<'_> {
    /// A lower bound of the bytes the FlatBuffer will take, to refuse oversize
    /// inputs before the builder (which panics past 2 GiB) sees them.
    fn payload_size(&self) -> usize {
        let images = self
            .images
            .iter()
            .map(|image| image.len().saturating_add(16))
            .fold(0usize, usize::saturating_add);
        let sources = self
            .source_files
            .iter()
            .map(|file| {
                file.path
                    .len()
                    .saturating_add(file.content.len())
                    .saturating_add(32)
            })
            .fold(0usize, usize::saturating_add);
        let exports: usize = self
            .exports
            .iter()
            .map(|export| {
                let debug = export.debug.as_ref().map_or(0, |debug| {
                    debug.name.len() + debug.location.as_ref().map_or(0, |(file, _)| file.len())
                });
                export
                    .symbol_name
                    .len()
                    .saturating_add(export.binding_flags.len().saturating_mul(8))
                    .saturating_add(debug)
                    .saturating_add(128)
            })
            .fold(0usize, usize::saturating_add);
        images.saturating_add(sources).saturating_add(exports)
    }
}

/// Writes `spec` as a wrapped `AMD1` executable (header + FlatBuffer).
///
/// Fails with `RESOURCE_EXHAUSTED` when the result would exceed
/// [`MAX_BUILT_EXECUTABLE_SIZE`].
pub fn build_amd1(spec: &ExecutableSpec<'_>) -> Result<Vec<u8>> {
    build_amd1_within(spec, MAX_BUILT_EXECUTABLE_SIZE)
}

fn build_amd1_within(spec: &ExecutableSpec<'_>, limit: usize) -> Result<Vec<u8>> {
    let payload = spec.payload_size();
    if payload > limit {
        return Err(status!(
            ResourceExhausted,
            "executable contents of {payload} bytes exceed the {limit}-byte limit of a wrapped executable"
        ));
    }
    let mut fbb = FlatBufferBuilder::with_capacity(payload + 1024);

    let exports: Vec<_> = spec
        .exports
        .iter()
        .map(|export| write_export(&mut fbb, export))
        .collect();
    let exports = fbb.create_vector(&exports);

    let modules: Vec<_> = spec
        .images
        .iter()
        .map(|image| {
            // A FlatBuffers string: u32 length, the bytes, NUL.
            let image = WIPOffset::new(fbb.create_byte_string(image).value());
            fb::ModuleDef::create(&mut fbb, &fb::ModuleDefArgs { image: Some(image) })
        })
        .collect();
    let modules = fbb.create_vector(&modules);

    let mut sources: Vec<&SourceFileSpec> = spec.source_files.iter().collect();
    sources.sort_by(|a, b| a.path.cmp(&b.path));
    let sources: Vec<_> = sources
        .into_iter()
        .map(|file| {
            let path = fbb.create_string(&file.path);
            let content = fbb.create_vector(&file.content);
            debug::SourceFileDef::create(
                &mut fbb,
                &debug::SourceFileDefArgs {
                    path: Some(path),
                    content: Some(content),
                },
            )
        })
        .collect();
    let source_files = (!sources.is_empty()).then(|| fbb.create_vector(&sources));

    let isa = spec.isa.as_deref().map(|isa| fbb.create_string(isa));
    let root = fb::ExecutableDef::create(
        &mut fbb,
        &fb::ExecutableDefArgs {
            isa,
            exports: Some(exports),
            modules: Some(modules),
            source_files,
        },
    );
    fb::finish_executable_def_buffer(&mut fbb, root);
    let flatbuffer = fbb.finished_data();

    let mut out = Vec::with_capacity(super::HEADER_SIZE + flatbuffer.len());
    out.extend_from_slice(&ExecutableHeader::encode(
        AMD1_IDENTIFIER,
        flatbuffer.len() as u64,
    ));
    out.extend_from_slice(flatbuffer);
    Ok(out)
}

fn write_export<'a>(
    fbb: &mut FlatBufferBuilder<'a>,
    export: &ExportSpec,
) -> WIPOffset<fb::ExportDef<'a>> {
    let symbol_name = fbb.create_string(&export.symbol_name);
    let binding_flags = fbb.create_vector(&export.binding_flags);
    let debug_info = export.debug.as_ref().map(|info| {
        let name = fbb.create_string(&info.name);
        let location = info.location.as_ref().map(|(file, line)| {
            let filename = fbb.create_string(file);
            debug::FileLineLocDef::create(
                fbb,
                &debug::FileLineLocDefArgs {
                    filename: Some(filename),
                    line: *line,
                },
            )
        });
        debug::ExportDef::create(
            fbb,
            &debug::ExportDefArgs {
                name: Some(name),
                location,
                stage_locations: None,
            },
        )
    });
    let workgroup_size = export
        .workgroup_size
        .map(|[x, y, z]| fb::Dims::new(x, y, z));
    fb::ExportDef::create(
        fbb,
        &fb::ExportDefArgs {
            symbol_name: Some(symbol_name),
            workgroup_size: workgroup_size.as_ref(),
            constant_count: export.constant_count,
            binding_flags: Some(binding_flags),
            debug_info,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StatusCode;

    #[test]
    fn oversize_contents_are_resource_exhausted_not_a_builder_panic() {
        let huge = ExportSpec {
            symbol_name: "k.kd".into(),
            workgroup_size: Some([1, 1, 1]),
            constant_count: 0,
            binding_flags: vec![],
            debug: Some(ExportDebugSpec {
                name: "n".repeat(4096),
                location: None,
            }),
        };
        let spec = ExecutableSpec {
            exports: vec![huge],
            ..ExecutableSpec::default()
        };
        let err = build_amd1_within(&spec, 4096).unwrap_err();
        assert_eq!(err.code(), StatusCode::ResourceExhausted);
        assert!(err.mentions("exceed the 4096-byte limit"), "{err}");
        assert!(build_amd1_within(&spec, 8192).is_ok());
    }
}
