//! Every committed HSACO fixture: an insta snapshot of what we read (target,
//! code object version, size, kernels with their arguments and projected
//! parameters), and a comparison with `llvm-readelf-19 -h` and `--notes`
//! (skipped with one line, or failed under `AMDGPU_HAL_REQUIRE_ALL=1`, when
//! `llvm-readelf-19` is not installed).

mod support;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use amdgpu_hal::codeobj::elf::{
    calculate_size, code_object_version, read_amdgpu_header, target_id_from_elf,
};
use amdgpu_hal::codeobj::metadata::CodeObjectMetadata;

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hsaco");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "hsaco"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 40,
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
        let name = path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .trim_end_matches(".hsaco");
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
    ];
    path == "target"
        || path == "version"
        || path
            .rsplit('.')
            .next()
            .is_some_and(|key| KEYS.contains(&key))
}

#[test]
fn metadata_matches_llvm_readelf_notes() {
    let Some(tool) = support::requires::llvm_readelf("HSACO metadata vs llvm-readelf-19 --notes")
    else {
        return;
    };
    for path in fixtures() {
        let data = std::fs::read(&path).unwrap();
        let md = CodeObjectMetadata::from_elf(&data).unwrap();
        let mut theirs: Vec<_> = flatten_readelf_notes(&run(tool, "--notes", &path))
            .into_iter()
            .filter(|(key, _)| is_modelled(key))
            .collect();
        theirs.sort();
        let ours = flatten_ours(&md);
        assert!(
            theirs.len() > 20,
            "{}: too little parsed from readelf",
            path.display()
        );
        assert_eq!(ours, theirs, "{}", path.display());
    }
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
    let Some(tool) = support::requires::llvm_readelf("HSACO headers vs llvm-readelf-19 -h") else {
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
            let outside = matches!(kernel.symbol, "mixed_args.kd" | "dynamic_lds.kd");
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
