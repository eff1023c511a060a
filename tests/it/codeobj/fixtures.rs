//! Every committed HSACO fixture: an insta snapshot of what we read (target,
//! code object version, size, kernels with their arguments and projected
//! parameters), and a comparison with `llvm-readelf-19 -h` and `--notes` of
//! every real code object the project ships — the HSACOs and relocatable
//! objects of `fixtures/hsaco`, IREE's HSACOs and the images inside its
//! `AMD1`/`HIP1` executables in `fixtures/iree`. Without `llvm-readelf-19`
//! the comparisons print one `skipped:` line (and fail when
//! `AMDGPU_HAL_REQUIRE_ALL=1`).

use crate::support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use amdgpu_hal::codeobj::elf::{
    calculate_size, code_object_version, read_amdgpu_header, target_id_from_elf,
};
use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;
use amdgpu_hal::codeobj::notes::find_metadata_notes;
use amdgpu_hal::wrapped::{Amd1Executable, DataExtent, Hip1Executable};

/// The HSACO fixtures (`*.hsaco`) and relocatable objects (`*.o`) of
/// `fixtures/hsaco`, sorted.
fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hsaco");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "hsaco" || ext == "o")
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 46,
        "expected the full fixture matrix, found {}",
        files.len()
    );
    files
}

/// A compact, stable text rendering of everything we read from one file.
fn describe(data: &[u8]) -> String {
    let mut out = String::new();
    let header = read_amdgpu_header(data).unwrap();
    let target = target_id_from_elf(data).unwrap();
    writeln!(out, "target: {target}").unwrap();
    writeln!(
        out,
        "kind: {:?}, version: {}.{}.{}, generic_version: {}, sramecc: {:?}, xnack: {:?}",
        target.kind,
        target.version.major,
        target.version.minor,
        target.version.stepping,
        target.generic_version,
        target.sramecc,
        target.xnack
    )
    .unwrap();
    writeln!(
        out,
        "e_flags: {:#x}, code_object_version: {}, size: {}",
        header.e_flags,
        code_object_version(data).unwrap(),
        calculate_size(data).unwrap()
    )
    .unwrap();
    let md = CodeObjectMetadata::from_elf(data).unwrap();
    let notes = find_metadata_notes(data).unwrap().len();
    if notes > 1 {
        writeln!(out, "metadata notes: {notes}").unwrap();
    }
    writeln!(out, "amdhsa.version: {:?}", md.version).unwrap();
    writeln!(out, "amdhsa.target: {:?}", md.target).unwrap();
    for k in &md.kernels {
        writeln!(
            out,
            "kernel {} (symbol {}, reflection {})",
            k.name.unwrap_or("-"),
            k.symbol,
            k.reflection_name
        )
        .unwrap();
        writeln!(
            out,
            "  kernarg {} align {}, group {}, private {}, wavefront {:?}, sgpr {:?}, vgpr {:?}, agpr {:?}, spills {:?}/{:?}",
            k.kernarg_segment_size,
            k.kernarg_segment_align,
            k.group_segment_fixed_size,
            k.private_segment_fixed_size,
            k.wavefront_size,
            k.sgpr_count,
            k.vgpr_count,
            k.agpr_count,
            k.sgpr_spill_count,
            k.vgpr_spill_count
        )
        .unwrap();
        writeln!(
            out,
            "  max_flat_workgroup_size {:?}, reqd {:?}, dynamic_stack {:?}, language {:?}",
            k.max_flat_workgroup_size, k.reqd_workgroup_size, k.uses_dynamic_stack, k.language
        )
        .unwrap();
        for a in &k.args {
            writeln!(
                out,
                "  arg @{} size {} align {} {} ({:?}) name {:?} type {:?} space {:?} access {:?}",
                a.offset,
                a.size,
                a.alignment,
                a.value_kind,
                a.kind,
                a.name,
                a.type_name,
                a.address_space,
                a.access
            )
            .unwrap();
        }
        match k.default_export_parameters() {
            Ok(p) => {
                let r = p.requirements;
                writeln!(
                    out,
                    "  export: {} parameters, {} bindings, {} constants",
                    r.parameter_count, r.binding_count, r.constant_count
                )
                .unwrap();
                for param in &p.parameters {
                    writeln!(
                        out,
                        "    {:?} size {} offset {} {:?}",
                        param.kind, param.size, param.offset, param.name
                    )
                    .unwrap();
                }
            }
            Err(e) => writeln!(out, "  export: {e}").unwrap(),
        }
    }
    out
}

#[test]
fn snapshot_every_fixture() {
    for path in fixtures() {
        let data = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        // Relocatable objects keep their extension in the snapshot name.
        let name = name.strip_suffix(".hsaco").unwrap_or(name);
        insta::assert_snapshot!(name, describe(&data));
    }
}

fn run(tool: &str, flag: &str, path: &Path) -> String {
    let output = Command::new(tool).arg(flag).arg(path).output().unwrap();
    assert!(output.status.success(), "{tool} {flag} {}", path.display());
    String::from_utf8(output.stdout).unwrap()
}

/// A YAML scalar as llvm-readelf prints it: `!str n`, `'float*'`, `256`.
fn scalar(value: &str) -> String {
    let value = value.trim();
    let value = value.strip_prefix("!str ").unwrap_or(value);
    value.trim_matches('\'').to_owned()
}

/// The metadata YAML of `llvm-readelf --notes`, flattened to `path = value`
/// lines: `kernel[0].symbol`, `kernel[0].arg[1].size`,
/// `kernel[0].reqd_workgroup_size = 256,1,1`, `target`, `version = 1,2`.
fn flatten_readelf_notes(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let (mut kernel, mut arg) = (None::<usize>, None::<usize>);
    let mut list_key: Option<String> = None;
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim_start();
        if body == "---" || body == "..." || body.is_empty() {
            continue;
        }
        // Elements of a scalar list belong to the key above them.
        if let (Some(key), Some(item)) = (&list_key, body.strip_prefix("- "))
            && !item.contains(':')
        {
            let value = scalar(item);
            match out.iter_mut().rev().find(|(k, _)| k == key) {
                Some((_, list)) if !list.is_empty() => {
                    list.push(',');
                    list.push_str(&value);
                }
                Some((_, list)) => list.push_str(&value),
                None => out.push((key.clone(), value)),
            }
            continue;
        }
        list_key = None;
        let (entry, body) = match body.strip_prefix("- ") {
            Some(rest) => (true, rest),
            None => (false, body),
        };
        let Some((key, value)) = body.split_once(':') else {
            continue;
        };
        let key = key.trim_start_matches('.');
        match (indent, entry) {
            (2, true) => {
                kernel = Some(kernel.map_or(0, |k| k + 1));
                arg = None;
            }
            (6, true) => arg = Some(arg.map_or(0, |a| a + 1)),
            _ => {}
        }
        let path = match (indent, kernel, arg) {
            (0, _, _) => key.trim_start_matches("amdhsa.").to_owned(),
            (6 | 8, Some(k), Some(a)) => format!("kernel[{k}].arg[{a}].{key}"),
            (2 | 4, Some(k), _) => {
                if key != "args" {
                    arg = None;
                }
                format!("kernel[{k}].{key}")
            }
            _ => continue,
        };
        if value.trim().is_empty() {
            list_key = Some(path.clone());
            if !path.ends_with(".args") && path != "kernels" {
                out.push((path, String::new()));
            }
        } else {
            out.push((path, scalar(value)));
        }
    }
    out
}

/// Our reading of the same fields, flattened the same way.
fn flatten_ours(md: &CodeObjectMetadata<'_>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut put = |path: String, value: Option<String>| {
        if let Some(value) = value {
            out.push((path, value));
        }
    };
    let list = |values: &[u32]| {
        values
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    put("target".into(), md.target.map(str::to_owned));
    put("version".into(), md.version.map(|v| list(&v)));
    for (k, kernel) in md.kernels.iter().enumerate() {
        let p = |key: &str| format!("kernel[{k}].{key}");
        let n = |value: Option<u32>| value.map(|v| v.to_string());
        put(p("name"), kernel.name.map(str::to_owned));
        put(p("symbol"), Some(kernel.symbol.to_owned()));
        put(p("language"), kernel.language.map(str::to_owned));
        put(
            p("kernarg_segment_size"),
            n(Some(kernel.kernarg_segment_size)),
        );
        put(
            p("kernarg_segment_align"),
            n(Some(kernel.kernarg_segment_align)),
        );
        put(
            p("group_segment_fixed_size"),
            n(Some(kernel.group_segment_fixed_size)),
        );
        put(
            p("private_segment_fixed_size"),
            n(Some(kernel.private_segment_fixed_size)),
        );
        put(p("wavefront_size"), n(kernel.wavefront_size));
        put(p("sgpr_count"), n(kernel.sgpr_count));
        put(p("vgpr_count"), n(kernel.vgpr_count));
        put(p("agpr_count"), n(kernel.agpr_count));
        put(p("sgpr_spill_count"), n(kernel.sgpr_spill_count));
        put(p("vgpr_spill_count"), n(kernel.vgpr_spill_count));
        put(
            p("max_flat_workgroup_size"),
            n(kernel.max_flat_workgroup_size),
        );
        put(
            p("reqd_workgroup_size"),
            kernel.reqd_workgroup_size.map(|v| list(&v)),
        );
        put(
            p("workgroup_size_hint"),
            kernel.workgroup_size_hint.map(|v| list(&v)),
        );
        put(
            p("uses_dynamic_stack"),
            kernel.uses_dynamic_stack.map(|v| v.to_string()),
        );
        for (a, arg) in kernel.args.iter().enumerate() {
            let q = |key: &str| format!("kernel[{k}].arg[{a}].{key}");
            put(q("name"), arg.name.map(str::to_owned));
            put(q("type_name"), arg.type_name.map(str::to_owned));
            put(q("offset"), n(Some(arg.offset)));
            put(q("size"), n(Some(arg.size)));
            put(q("value_kind"), Some(arg.value_kind.to_owned()));
            put(q("address_space"), arg.address_space.map(str::to_owned));
            put(q("pointee_align"), n(arg.pointee_align));
            put(q("effective_access"), arg.access.map(str::to_owned));
        }
    }
    out.sort();
    out
}

/// The keys our model reads; readelf's other keys (`.is_const`,
/// `.language_version`, `.workgroup_processor_mode`, ...) are not compared.
fn is_modelled(path: &str) -> bool {
    const KEYS: &[&str] = &[
        "name",
        "symbol",
        "language",
        "kernarg_segment_size",
        "kernarg_segment_align",
        "group_segment_fixed_size",
        "private_segment_fixed_size",
        "wavefront_size",
        "sgpr_count",
        "vgpr_count",
        "agpr_count",
        "sgpr_spill_count",
        "vgpr_spill_count",
        "max_flat_workgroup_size",
        "reqd_workgroup_size",
        "workgroup_size_hint",
        "uses_dynamic_stack",
        "type_name",
        "offset",
        "size",
        "value_kind",
        "address_space",
        "pointee_align",
        "effective_access",
    ];
    path == "target"
        || path == "version"
        || path
            .rsplit('.')
            .next()
            .is_some_and(|key| KEYS.contains(&key))
}

/// readelf's flattened notes made comparable with ours: every note's
/// `target`/`version` must agree and appears once; each argument's
/// `.actual_access`, else `.access`, becomes its `effective_access` (the
/// model keeps the one that applies).
fn normalize_readelf(entries: Vec<(String, String)>, what: &str) -> Vec<(String, String)> {
    let mut top: BTreeMap<String, String> = BTreeMap::new();
    let mut access: BTreeMap<String, (Option<String>, Option<String>)> = BTreeMap::new();
    let mut out = Vec::new();
    for (key, value) in entries {
        if key == "target" || key == "version" {
            if let Some(first) = top.get(&key) {
                assert_eq!(first, &value, "{what}: notes disagree on {key}");
            } else {
                top.insert(key, value);
            }
        } else if let Some(arg) = key.strip_suffix(".actual_access") {
            access.entry(arg.to_owned()).or_default().0 = Some(value);
        } else if let Some(arg) = key.strip_suffix(".access") {
            access.entry(arg.to_owned()).or_default().1 = Some(value);
        } else {
            out.push((key, value));
        }
    }
    out.extend(top);
    for (arg, (actual, declared)) in access {
        if let Some(value) = actual.or(declared) {
            out.push((format!("{arg}.effective_access"), value));
        }
    }
    out.retain(|(key, _)| is_modelled(key));
    out.sort();
    out
}

/// Every real code object the project ships, as (label, ELF bytes): the
/// HSACOs and relocatable objects of `fixtures/hsaco`, IREE's HSACOs, and
/// every module image of IREE's `AMD1` and `HIP1` executables (SPIR-V
/// offload bundles are not ELF and are counted apart).
fn every_code_object() -> (Vec<(String, Vec<u8>)>, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, Vec<u8>)> = fixtures()
        .into_iter()
        .map(|path| {
            let label = path.strip_prefix(root).unwrap().display().to_string();
            (label, std::fs::read(&path).unwrap())
        })
        .collect();
    let mut bundles = 0;
    let mut iree: Vec<PathBuf> = std::fs::read_dir(root.join("fixtures/iree"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    iree.sort();
    for path in iree {
        let label = path.strip_prefix(root).unwrap().display().to_string();
        let extension = path.extension().and_then(|e| e.to_str());
        if !matches!(extension, Some("hsaco" | "amd1" | "hip1")) {
            continue;
        }
        let data = std::fs::read(&path).unwrap();
        let images: Vec<Vec<u8>> = match extension {
            Some("hsaco") => vec![data.clone()],
            Some("amd1") => {
                let exe = Amd1Executable::parse(&data, DataExtent::Known).unwrap();
                vec![exe.single_module_image().unwrap().to_vec()]
            }
            Some("hip1") => Hip1Executable::parse(&data, DataExtent::Known)
                .unwrap()
                .module_images()
                .iter()
                .map(|image| image.to_vec())
                .collect(),
            _ => continue,
        };
        for (i, image) in images.into_iter().enumerate() {
            if image.starts_with(b"\x7fELF") {
                out.push((format!("{label} module {i}"), image));
            } else {
                bundles += 1;
            }
        }
    }
    (out, bundles)
}

/// The done-when test of issue 19: the decoded metadata of every real code
/// object equals `llvm-readelf-19 --notes`' reading of it — every note (the
/// multi-unit objects hold three), kernel names and symbols, every argument's
/// name, type, offset, size, kind, address space, pointee alignment and
/// access, kernarg and segment sizes, wavefront size, register and spill
/// counts, work-group sizes, dynamic stack, target and version.
#[test]
fn every_code_object_decodes_as_llvm_readelf_reads_it() {
    let Some(tool) = support::requires::llvm_readelf(
        "comparing every fixture's metadata with llvm-readelf-19 --notes",
    ) else {
        return;
    };
    let (objects, bundles) = every_code_object();
    let dir = std::env::temp_dir().join(format!("amdgpu-hal-readelf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut kernels, mut fields, mut multi_note) = (0, 0, 0);
    for (i, (label, data)) in objects.iter().enumerate() {
        let path = dir.join(format!("{i}.elf"));
        std::fs::write(&path, data).unwrap();
        let text = run(tool, "--notes", &path);
        let md = CodeObjectMetadata::from_elf(data).unwrap_or_else(|e| panic!("{label}: {e}"));
        let notes = find_metadata_notes(data).unwrap().len();
        assert_eq!(
            text.matches("NT_AMDGPU_METADATA").count(),
            notes,
            "{label}: metadata notes"
        );
        multi_note += usize::from(notes > 1);
        let theirs = normalize_readelf(flatten_readelf_notes(&text), label);
        let ours = flatten_ours(&md);
        let their_kernels = theirs
            .iter()
            .filter(|(key, _)| key.starts_with("kernel[") && key.ends_with("].symbol"))
            .count();
        assert_eq!(md.kernels.len(), their_kernels, "{label}: kernel count");
        assert!(theirs.len() > 20, "{label}: too little parsed from readelf");
        assert_eq!(ours, theirs, "{label}");
        kernels += md.kernels.len();
        fields += ours.len();
    }
    std::fs::remove_dir_all(&dir).ok();
    println!(
        "llvm-readelf-19 --notes comparison: {} code objects ({multi_note} with several notes; \
         {bundles} SPIR-V bundles are not ELF), {kernels} kernels, {fields} fields equal",
        objects.len()
    );
    assert!(objects.len() >= 46 + 30, "{}", objects.len());
    assert!(multi_note >= 4, "{multi_note}");
}

/// `llvm-readelf -h`'s feature spelling: `xnack` (any), `xnack-`, `xnack+`,
/// nothing when unsupported.
fn readelf_feature(name: &str, state: amdgpu_hal::codeobj::FeatureState) -> Option<String> {
    use amdgpu_hal::codeobj::FeatureState::*;
    match state {
        Any => Some(name.to_owned()),
        Off => Some(format!("{name}-")),
        On => Some(format!("{name}+")),
        Unsupported => None,
    }
}

#[test]
fn header_matches_llvm_readelf_header() {
    let Some(tool) = support::requires::llvm_readelf(
        "comparing every fixture's ELF header with llvm-readelf-19 -h",
    ) else {
        return;
    };
    for path in fixtures() {
        let data = std::fs::read(&path).unwrap();
        let text = run(tool, "-h", &path);
        let field = |name: &str| {
            text.lines()
                .find_map(|line| line.trim().strip_prefix(name))
                .map(|rest| rest.trim().to_owned())
                .unwrap_or_else(|| panic!("{}: no `{name}` line", path.display()))
        };
        let header = read_amdgpu_header(&data).unwrap();
        let target = target_id_from_elf(&data).unwrap();
        assert_eq!(
            field("ABI Version:"),
            header.abi_version.to_string(),
            "{}",
            path.display()
        );
        assert_eq!(field("OS/ABI:"), "AMDGPU - HSA");
        assert_eq!(field("Machine:"), "EM_AMDGPU");
        let mut expected = vec![
            format!("{:#X}", header.e_flags).replace("0X", "0x"),
            target.processor.clone(),
        ];
        expected.extend(readelf_feature("xnack", target.xnack));
        expected.extend(readelf_feature("sramecc", target.sramecc));
        if target.generic_version != 0 {
            expected.push(format!("generic_v{}", target.generic_version));
        }
        assert_eq!(field("Flags:"), expected.join(", "), "{}", path.display());
        let shoff: u64 = field("Start of section headers:")
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let shnum: u64 = field("Number of section headers:").parse().unwrap();
        assert_eq!((header.shoff, u64::from(header.shnum)), (shoff, shnum));
        // lld puts the section header table last: it ends the file.
        assert_eq!(calculate_size(&data).unwrap() as u64, shoff + shnum * 64);
    }
}

#[test]
fn only_the_kernels_meant_to_fall_outside_the_hal_projection_do() {
    for path in fixtures() {
        let data = std::fs::read(&path).unwrap();
        let md = CodeObjectMetadata::from_elf(&data).unwrap();
        for kernel in &md.kernels {
            // kernels.cl: `mixed_args` has char/short arguments and `dynamic_lds`
            // a dynamic LDS pointer, both valid but outside IREE's projection.
            // arg_kinds.cl: image, sampler and pipe arguments, and 1- and
            // 2-byte by-value ones; only `int_arg` fits.
            let outside = matches!(
                kernel.symbol,
                "mixed_args.kd"
                    | "dynamic_lds.kd"
                    | "image_args.kd"
                    | "pipe_arg.kd"
                    | "char_arg.kd"
                    | "short_arg.kd"
            );
            let projected = kernel.default_export_parameters();
            assert_eq!(
                projected.is_err(),
                outside,
                "{} {}",
                path.display(),
                kernel.symbol
            );
        }
    }
}
