//! The `load` document: creates the executable (wrapped `AMD1` or raw
//! HSACO) on a backend's node exactly as the HAL does — topology, format
//! inference, device selection by queue affinity, preflight, load, kernel
//! args, per-device tables and dispatch descriptors — and describes what was
//! loaded where ([`super::load_json`] writes it as JSON).

use serde::Serialize;

use crate::amdgpu::agents::{AgentTopology, DEFAULT_GPU_AGENT_QUEUE_COUNT};
use std::sync::Arc;

use crate::amdgpu::executable::{
    Executable, ExecutableParams, ExportFlags, SharedExecutable, create_shared,
};
use crate::amdgpu::profile::ProfileRegistry;
use crate::amdgpu::queue_affinity::{QUEUE_AFFINITY_ANY, QueueAffinity};
use crate::backend::{Backend, ByteOwner, CallResultExt, SharedBytes};
use crate::input::{InputKind, ReleaseBehind, map_or_read_file};
use crate::status;
use crate::status::{Result, ResultExt, Status};
use crate::wrapped::DataExtent;
use crate::wrapped::infer::{InferredFormat, has_known_magic, infer_format};
use crate::wrapped::vmfb::{self, Vmfb};

pub use super::load_module::EmbeddedSource;
use super::load_module::choose;

/// What to load and for which queues.
#[derive(Clone, Debug)]
pub struct LoadArgs {
    /// The executable: a wrapped `AMD1` FlatBuffer or a raw HSACO, or an
    /// IREE bytecode module (`.vmfb`) holding executables for this node.
    pub file: std::path::PathBuf,
    /// Queues to load for: `any`, or a mask in `0x…` hex or decimal whose
    /// bit q is queue q. Each GPU has 2 queues (IREE's default), so bits 2k
    /// and 2k+1 select GPUk: `0x3` is GPU0, `0xc` GPU1, `0xf` both.
    pub affinity: QueueAffinity,
    /// Of a module, the one executable to load: its read-only data segment
    /// (`4`) or the name of an export it holds; `None` loads every one the
    /// node's GPUs run.
    pub executable: Option<String>,
}

/// Parses `any`, `0x…` hex or a decimal queue-affinity mask.
pub fn parse_affinity(text: &str) -> std::result::Result<QueueAffinity, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("any") {
        return Ok(QUEUE_AFFINITY_ANY);
    }
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(&hex.replace('_', ""), 16),
        None => text.replace('_', "").parse::<u64>(),
    };
    parsed.map_err(|e| format!("queue affinity `{text}` is not a 64-bit mask: {e}"))
}

/// A 64-bit address or handle the document spells as lower-case hex with a
/// `0x` prefix and no padding (`0x7f3c0010`). Held as the number, so that a
/// document of N exports on D devices keeps no N·D strings; it is formatted
/// only when written ([`std::fmt::Display`], serde, `load_json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hex(pub u64);

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#x}", self.0)
    }
}

impl Serialize for Hex {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The `load --json` document (`machine`, `format`, `loaded_devices`,
/// `exports[].name`, `exports[].kernel_objects` are fixed by docs/CLI.md).
#[derive(Debug, Serialize)]
pub struct LoadJson {
    /// The machine.
    pub machine: String,
    /// The backend's name.
    pub backend: String,
    /// `amd1` or `elf`.
    pub container: &'static str,
    /// Where in a bytecode module (`.vmfb`) the executable was found; absent
    /// for an executable file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedded: Option<EmbeddedSource>,
    /// The executable format (the code object's target ID).
    pub format: String,
    /// The normalized queue affinity, hex.
    pub queue_affinity: String,
    /// Physical device ordinals the code object is loaded on.
    pub loaded_devices: Vec<usize>,
    /// The profile-registry id.
    pub profile_id: u64,
    /// The 128-bit code-object hash, two hex words.
    pub code_object_hash: [String; 2],
    /// Where the loader placed the code object on each loaded device, as the
    /// profile registry records it (IREE's profile code-object load info).
    pub code_object_loads: Vec<CodeObjectLoadJson>,
    /// Exports in ordinal order.
    pub exports: Vec<LoadExportJson>,
}

/// The code object's placement on one device.
#[derive(Debug, Serialize)]
pub struct CodeObjectLoadJson {
    /// Physical device ordinal.
    pub device: usize,
    /// Load base minus the code object's lowest segment address
    /// (`HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA`), as the
    /// 64-bit two's complement: a kernel object is this plus its `.kd`
    /// symbol's value.
    pub load_delta: Hex,
    /// Loaded bytes (`..._LOAD_SIZE`).
    pub load_size: u64,
}

/// One export.
#[derive(Debug, Serialize)]
pub struct LoadExportJson {
    /// Reflection name.
    pub name: String,
    /// Loader symbol.
    pub symbol: String,
    /// `kernel_objects[k]` is the kernel object on the k-th loaded device.
    pub kernel_objects: Vec<Hex>,
    /// Workgroup size (minimum when dynamic).
    pub workgroup_size: [u32; 3],
    /// Whether the workgroup size is chosen at dispatch time.
    pub dynamic_workgroup_size: bool,
    /// HAL constants.
    pub constant_count: u16,
    /// HAL bindings.
    pub binding_count: u16,
    /// Reflected parameters.
    pub parameter_count: u16,
    /// Kernel args as resolved from the symbol (full width).
    pub kernel_args: KernelArgsJson,
    /// Per loaded device: table address and dispatch descriptor.
    pub devices: Vec<DeviceExportJson>,
}

/// Kernel args of an export.
#[derive(Debug, Serialize)]
pub struct KernelArgsJson {
    /// Kernarg segment bytes.
    pub kernarg_size: u32,
    /// Kernarg segment alignment as the code object declares it
    /// (`.kernarg_segment_align`: the same number `inspect` shows).
    pub kernarg_alignment: u32,
    /// Kernarg segment alignment as the HSA loader reports it and the HAL's
    /// kernel-args record carries it (ROCr: 16 for every V3+ kernel).
    pub hsa_kernarg_alignment: u32,
    /// Static LDS bytes.
    pub group_segment_size: u32,
    /// Scratch bytes per work-item.
    pub private_segment_size: u32,
}

/// An export on one device.
#[derive(Debug, Serialize)]
pub struct DeviceExportJson {
    /// Physical device ordinal.
    pub device: usize,
    /// Kernel object.
    pub kernel_object: Hex,
    /// Address of its 40-byte record in the device kernel-args table.
    pub kernel_args_address: Hex,
    /// HAL ABI kernarg bytes to reserve.
    pub hal_kernarg_size: usize,
    /// Whether the HAL layout carries the implicit-args suffix.
    pub hal_implicit_args: bool,
    /// Kernarg blocks for a HAL dispatch.
    pub hal_kernarg_blocks: u32,
    /// Kernarg blocks for a custom dispatch.
    pub custom_kernarg_blocks: u32,
    /// Largest workgroup count per dimension.
    pub max_workgroup_count: [u32; 3],
    /// Largest dynamic LDS request.
    pub max_dynamic_workgroup_local_memory: u32,
}

fn describe(
    backend: &Backend,
    format: String,
    exe: &Executable,
    registry: &ProfileRegistry,
) -> Result<LoadJson> {
    let devices = exe.loaded_devices();
    let mut code_object_loads = Vec::with_capacity(devices.len());
    for &device in &devices {
        let ordinal = u32::try_from(device).map_err(|_| {
            status!(
                OutOfRange,
                "physical device ordinal {device} exceeds uint32_t"
            )
        })?;
        let record = registry.lookup_code_object_load(exe.profile_id(), ordinal)?;
        code_object_loads.push(CodeObjectLoadJson {
            device,
            load_delta: Hex(record.load.load_delta as u64),
            load_size: record.load.load_size,
        });
    }
    let mut exports = Vec::with_capacity(exe.export_count());
    for ordinal in 0..exe.export_count() as u64 {
        let info = exe.export_info(ordinal)?;
        let host = exe.kernel_args_for_host(ordinal)?;
        let mut per_device = Vec::with_capacity(devices.len());
        for &device in &devices {
            let args = exe.kernel_args_for_device(ordinal, device)?;
            let d = exe.dispatch_descriptor(ordinal, device)?;
            per_device.push(DeviceExportJson {
                device,
                kernel_object: Hex(args.kernel_args.kernel_object),
                kernel_args_address: Hex(args.address.addr()),
                hal_kernarg_size: d.hal_kernarg_layout.total_kernarg_size,
                hal_implicit_args: d.hal_kernarg_layout.has_implicit_args,
                hal_kernarg_blocks: d.hal_kernarg_block_count,
                custom_kernarg_blocks: d.custom_kernarg_block_count,
                max_workgroup_count: d.max_workgroup_count,
                max_dynamic_workgroup_local_memory: d.max_dynamic_workgroup_local_memory,
            });
        }
        exports.push(LoadExportJson {
            name: info.name.clone(),
            symbol: exe.export_symbol(ordinal)?.to_string(),
            kernel_objects: per_device.iter().map(|d| d.kernel_object).collect(),
            workgroup_size: info.workgroup_size,
            dynamic_workgroup_size: info.flags.contains(ExportFlags::WORKGROUP_SIZE_DYNAMIC),
            constant_count: info.constant_count,
            binding_count: info.binding_count,
            parameter_count: info.parameter_count,
            kernel_args: KernelArgsJson {
                kernarg_size: host.kernarg_size,
                kernarg_alignment: exe.export_code_object_kernarg_alignment(ordinal)?,
                hsa_kernarg_alignment: host.kernarg_alignment,
                group_segment_size: host.group_segment_size,
                private_segment_size: host.private_segment_size,
            },
            devices: per_device,
        });
    }
    let hash = exe.code_object_hash();
    Ok(LoadJson {
        machine: backend.machine().to_string(),
        backend: backend.name().to_string(),
        container: exe.container().as_str(),
        embedded: None,
        format,
        queue_affinity: format!("0x{:x}", exe.queue_affinity()),
        loaded_devices: devices,
        profile_id: exe.profile_id(),
        code_object_hash: [format!("0x{:016x}", hash[0]), format!("0x{:016x}", hash[1])],
        code_object_loads,
        exports,
    })
}

/// Refuses a requested affinity with bits no queue of `topology` owns.
/// IREE's rule (the loader's) drops such bits silently, so `0x5` on one GPU
/// of two queues would load as `0x1`; a person asking for queue 2 of a
/// machine without one is told instead, with the bits that exist.
fn check_affinity(requested: QueueAffinity, topology: &AgentTopology, machine: &str) -> Result<()> {
    if requested == QUEUE_AFFINITY_ANY {
        return Ok(());
    }
    let Ok(domain) = topology.queue_affinity_domain() else {
        // No GPU (or no queues): the loader says so in its own words.
        return Ok(());
    };
    let valid = domain.supported_affinity;
    let outside = requested & !valid;
    if outside == 0 && requested != 0 {
        return Ok(());
    }
    let gpus = domain.physical_device_count;
    let queues = domain.queue_count_per_physical_device;
    let problem = if requested == 0 {
        "selects no queue".to_string()
    } else {
        format!("names queues {machine} does not have ({outside:#x})")
    };
    Err(crate::status!(
        InvalidArgument,
        "queue affinity {requested:#x} {problem}; valid bits are {valid:#x} ({gpus} GPU{} x {queues} queues: bits {q}k to {q}k+{last} \
         are GPUk's), or `any`",
        if gpus == 1 { "" } else { "s" },
        q = queues,
        last = queues.saturating_sub(1)
    ))
}

/// Loads `args.file` on the backend's node and describes the result. A
/// bytecode module (`.vmfb`) loads each executable whose target this
/// node's GPUs run, as IREE creates every executable of a module it loads,
/// or the one `args.executable` names (`report::load_module`).
pub fn load(backend: &Backend, args: &LoadArgs) -> Result<Loaded> {
    // Shared, not copied: the simulated runtime keeps the code object as a
    // range of the file (the loader copies it for a backend that does not).
    let file = Arc::new(map_or_read_file(&args.file, InputKind::Executable)?);
    let data = SharedBytes::whole(Arc::clone(&file) as ByteOwner);
    let path = crate::escape::display_path(&args.file);
    let infer = |code: &[u8]| {
        infer_format(code, DataExtent::Known)
            .annotate_with(|| format!("inferring the format of `{path}`"))
    };
    // A module's executables are known once the node's GPUs are.
    let source = if vmfb::is_vmfb(&data) {
        Source::Module(vmfb::parse(&data).annotate_with(|| format!("reading `{path}`"))?)
    } else if has_known_magic(&data) {
        Source::Executable(infer(&data)?)
    } else {
        return Err(status!(
            InvalidArgument,
            "`{path}` is not an executable: load reads IREE's wrapped AMDGPU executables (`AMD1`), raw HSACOs (ELF) and IREE bytecode modules (`.vmfb`), and its bytes begin with none of their magic numbers"
        ));
    };
    if let (Some(name), Source::Executable(_)) = (&args.executable, &source) {
        return Err(status!(
            InvalidArgument,
            "--executable `{}` picks one executable of a bytecode module (`.vmfb`), and `{path}` is an executable file",
            crate::escape::Escaped(name)
        ));
    }
    let hsa = backend.hsa()?;
    hsa.init().call_status("hsa_init")?;
    let result = (|| {
        let topology = AgentTopology::from_backend(hsa, DEFAULT_GPU_AGENT_QUEUE_COUNT)?;
        let one = |code: &[u8], inferred: &InferredFormat| {
            check_affinity(args.affinity, &topology, backend.machine())?;
            let params = ExecutableParams {
                executable_format: &inferred.format,
                executable_data: code,
                queue_affinity: args.affinity,
                constant_count: 0,
            };
            // Once the loader has read the code object (hashed and loaded),
            // the mapped file's pages go; the runtime reads back what it
            // needs.
            let shared = SharedExecutable {
                bytes: &data,
                progress: &ReleaseBehind::new(&file),
            };
            let registry = ProfileRegistry::new();
            let exe = create_shared(backend.hsa_arc()?, &topology, &params, &registry, shared)
                .annotate_with(|| format!("loading `{path}`"))?;
            describe(backend, inferred.format.clone(), &exe, &registry)
        };
        match &source {
            Source::Module(module) => {
                let chosen = choose(hsa, &topology, module, args.executable.as_deref())
                    .annotate_with(|| format!("loading from `{path}`"))?;
                let mut executables = Vec::with_capacity(chosen.len());
                for (code, embedded) in chosen {
                    let mut doc = one(code, &infer(code)?)?;
                    doc.embedded = Some(embedded);
                    executables.push(doc);
                }
                Ok(Loaded::Module(ModuleLoadJson {
                    container: "vmfb",
                    name: module.name.to_owned(),
                    executables,
                }))
            }
            Source::Executable(inferred) => Ok(Loaded::Executable(one(&data[..], inferred)?)),
        }
    })();
    Status::join_results(result, hsa.shut_down().call_status("hsa_shut_down"))
}

/// What `load` loaded: an executable file, or the executables of a
/// bytecode module.
#[derive(Debug)]
pub enum Loaded {
    /// An executable file's document.
    Executable(LoadJson),
    /// A module's document: one executable file's document per executable.
    Module(ModuleLoadJson),
}

impl Loaded {
    /// Every executable's document, in load order.
    pub fn into_documents(self) -> Vec<LoadJson> {
        match self {
            Loaded::Executable(doc) => vec![doc],
            Loaded::Module(module) => module.executables,
        }
    }
}

/// The `load --json` document of a bytecode module.
#[derive(Debug, Serialize)]
pub struct ModuleLoadJson {
    /// Always `vmfb`.
    pub container: &'static str,
    /// The module's name.
    pub name: String,
    /// Each executable loaded, in segment order, as an executable file's
    /// document with `embedded` set.
    pub executables: Vec<LoadJson>,
}

/// What the file is: a module whose executable is chosen once the node's
/// GPUs are known, or an executable whose format is known.
enum Source<'a> {
    Module(Vmfb<'a>),
    Executable(InferredFormat),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affinity_masks_parse() {
        assert_eq!(parse_affinity("any"), Ok(QUEUE_AFFINITY_ANY));
        assert_eq!(parse_affinity("0xC"), Ok(0xC));
        assert_eq!(parse_affinity("0x_ff"), Ok(0xFF));
        assert_eq!(parse_affinity("12"), Ok(12));
        assert!(parse_affinity("0x1_0000_0000_0000_0000").is_err());
        assert!(parse_affinity("-1").is_err());
        assert!(parse_affinity("").is_err());
    }
}
