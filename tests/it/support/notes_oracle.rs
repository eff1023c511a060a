//! An oracle independent of the crate's metadata reader: the kernels of a
//! code object as `llvm-readelf-19 --notes` prints them, and IREE's default
//! export-parameter projection applied to them by hand.
//!
//! The projection follows the pinned IREE's
//! `runtime/src/iree/hal/drivers/amdgpu/util/hsaco_metadata.c`
//! (`..._calculate_default_export_parameter_requirements` and
//! `..._populate_default_export_parameters`): hidden arguments are skipped;
//! a `global_buffer` (8 bytes) is a binding whose offset is its binding
//! ordinal; a `by_value` argument (at most 255 bytes, a multiple of 4) is a
//! constant whose offset is the running byte count of the constants before
//! it; any other kind refuses the kernel. The constant count is the byte
//! count rounded up to 32-bit words.

use std::path::Path;
use std::process::Command;

/// One kernel argument as llvm-readelf prints it.
#[derive(Clone, Debug, Default)]
pub struct Arg {
    /// `.name`, empty when absent.
    pub name: String,
    /// `.value_kind`.
    pub value_kind: String,
    /// `.size`.
    pub size: u32,
}

/// One kernel of the metadata as llvm-readelf prints it.
#[derive(Clone, Debug, Default)]
pub struct Kernel {
    /// `.name`.
    pub name: String,
    /// `.symbol`.
    pub symbol: String,
    /// `.kernarg_segment_size`.
    pub kernarg_segment_size: u32,
    /// `.kernarg_segment_align`.
    pub kernarg_segment_align: u32,
    /// `.group_segment_fixed_size`.
    pub group_segment_fixed_size: u32,
    /// `.private_segment_fixed_size`.
    pub private_segment_fixed_size: u32,
    /// `.reqd_workgroup_size`, when present.
    pub reqd_workgroup_size: Option<[u32; 3]>,
    /// `.args`, in order.
    pub args: Vec<Arg>,
}

/// A HAL parameter of the projection: `binding` or `constant`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Projected {
    /// `"binding"` or `"constant"`.
    pub kind: &'static str,
    /// Bytes.
    pub size: u8,
    /// The argument's name.
    pub name: String,
    /// Binding ordinal or constant byte offset.
    pub offset: u16,
}

/// A kernel's projection: parameters, constant count, binding count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Projection {
    /// Parameters in argument order.
    pub parameters: Vec<Projected>,
    /// 32-bit constants.
    pub constant_count: u16,
    /// Bindings.
    pub binding_count: u16,
}

/// Runs `readelf --notes` on `path` and reads its kernels (every metadata
/// note, in order).
pub fn kernels_of(readelf: &str, path: &Path) -> Vec<Kernel> {
    let output = Command::new(readelf)
        .arg("--notes")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{readelf} --notes {}",
        path.display()
    );
    parse(&String::from_utf8(output.stdout).unwrap())
}

/// Runs `readelf --notes` on `image` (written to a scratch file first).
pub fn kernels_of_image(readelf: &str, image: &[u8], tag: &str) -> Vec<Kernel> {
    let path = std::env::temp_dir().join(format!("amdgpu-hal-oracle-{}-{tag}", std::process::id()));
    std::fs::write(&path, image).unwrap();
    let kernels = kernels_of(readelf, &path);
    std::fs::remove_file(&path).unwrap();
    kernels
}

/// A YAML scalar as llvm-readelf prints it: `!str n`, `'float*'`, `256`.
fn scalar(value: &str) -> String {
    let value = value.trim();
    let value = value.strip_prefix("!str ").unwrap_or(value);
    value.trim_matches('\'').to_owned()
}

fn number(value: &str) -> u32 {
    scalar(value)
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {value}"))
}

/// The kernels of llvm-readelf's metadata YAML: kernel entries at indent 2,
/// their keys at 4, argument entries at 6 and their keys at 8; scalar list
/// items (`.reqd_workgroup_size`) at 6.
fn parse(text: &str) -> Vec<Kernel> {
    let mut kernels: Vec<Kernel> = Vec::new();
    let mut in_kernels = false;
    let mut list: Option<String> = None;
    let mut items: Vec<u32> = Vec::new();
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let (entry, body) = match line.trim_start().strip_prefix("- ") {
            Some(rest) => (true, rest),
            None => (false, line.trim_start()),
        };
        if indent == 0 {
            in_kernels = body.starts_with("amdhsa.kernels:");
            continue;
        }
        if !in_kernels {
            continue;
        }
        if indent == 6 && entry && !body.contains(':') {
            items.push(number(body));
            if list.as_deref() == Some("reqd_workgroup_size") && items.len() == 3 {
                kernels.last_mut().unwrap().reqd_workgroup_size =
                    Some([items[0], items[1], items[2]]);
            }
            continue;
        }
        let Some((key, value)) = body.split_once(':') else {
            continue;
        };
        let key = key.trim_start_matches('.');
        match (indent, entry) {
            (2, true) => kernels.push(Kernel::default()),
            (6, true) => kernels.last_mut().unwrap().args.push(Arg::default()),
            _ => {}
        }
        let kernel = kernels.last_mut().unwrap();
        if indent == 6 || indent == 8 {
            let arg = kernel.args.last_mut().unwrap();
            match key {
                "name" => arg.name = scalar(value),
                "value_kind" => arg.value_kind = scalar(value),
                "size" => arg.size = number(value),
                _ => {}
            }
            continue;
        }
        list = value.trim().is_empty().then(|| key.to_owned());
        items.clear();
        match key {
            "name" => kernel.name = scalar(value),
            "symbol" => kernel.symbol = scalar(value),
            "kernarg_segment_size" => kernel.kernarg_segment_size = number(value),
            "kernarg_segment_align" => kernel.kernarg_segment_align = number(value),
            "group_segment_fixed_size" => kernel.group_segment_fixed_size = number(value),
            "private_segment_fixed_size" => kernel.private_segment_fixed_size = number(value),
            _ => {}
        }
    }
    kernels
}

impl Kernel {
    /// IREE's reflection name (`..._select_reflection_name` in
    /// hsaco_metadata.c): `.name` when non-empty, else `.symbol` without
    /// its `.kd` suffix.
    pub fn reflection_name(&self) -> &str {
        if self.name.is_empty() {
            self.symbol.strip_suffix(".kd").unwrap_or(&self.symbol)
        } else {
            &self.name
        }
    }

    /// IREE's default projection of this kernel (module docs), or `None`
    /// where IREE refuses the kernel.
    pub fn iree_projection(&self) -> Option<Projection> {
        let mut parameters = Vec::new();
        let (mut bindings, mut constant_bytes) = (0u16, 0u32);
        for arg in &self.args {
            match arg.value_kind.as_str() {
                kind if kind.starts_with("hidden_") => {}
                "global_buffer" if arg.size == 8 => {
                    parameters.push(Projected {
                        kind: "binding",
                        size: 8,
                        name: arg.name.clone(),
                        offset: bindings,
                    });
                    bindings += 1;
                }
                "by_value" if arg.size <= 255 && arg.size % 4 == 0 => {
                    parameters.push(Projected {
                        kind: "constant",
                        size: arg.size as u8,
                        name: arg.name.clone(),
                        offset: u16::try_from(constant_bytes).ok()?,
                    });
                    constant_bytes += arg.size;
                }
                _ => return None,
            }
        }
        Some(Projection {
            parameters,
            constant_count: u16::try_from(constant_bytes.div_ceil(4)).ok()?,
            binding_count: bindings,
        })
    }
}
