//! `amdgpu-hal load FILE`: creates the executable on the chosen machine
//! exactly as the HAL does (`report::load`) and prints what was loaded
//! where; of an IREE module, each executable the machine's GPUs run (or
//! the one `--executable` names), one table each. A failure prints the
//! Status and exits 1.

use std::io::Write;

use amdgpu_hal::amdgpu::queue_affinity::QueueAffinity;
use amdgpu_hal::escape::Escaped;
use amdgpu_hal::report::agents::list_hsa_agents;
use amdgpu_hal::report::load::{LoadJson, Loaded, load, parse_affinity};
use amdgpu_hal::report::load_json::write_load;
use amdgpu_hal::report::no_gpu;
use amdgpu_hal::status::Result;
use clap::Args;

use super::{GlobalArgs, write_error};

/// Arguments of `load`.
#[derive(Debug, Args)]
pub struct LoadArgs {
    /// The executable: a wrapped `AMD1` FlatBuffer or a raw HSACO, or an
    /// IREE bytecode module (`.vmfb`), whose executables the machine's GPUs
    /// run are each loaded.
    pub file: std::path::PathBuf,
    /// Of a module, load only this executable: its read-only data segment
    /// (`4`, as `inspect` lists it) or the name of an export it holds.
    #[arg(long, value_name = "NAME")]
    pub executable: Option<String>,
    /// Queues to load for: `any`, or a mask in `0x…` hex or decimal whose
    /// bit q is queue q. Each GPU has 2 queues (IREE's default), so bits 2k
    /// and 2k+1 select GPUk: `0x3` is GPU0, `0xc` GPU1, `0xf` both.
    #[arg(long, value_name = "MASK", default_value = "any", value_parser = parse_affinity)]
    pub affinity: QueueAffinity,
}

/// Runs `load`.
pub fn run(global: &GlobalArgs, args: &LoadArgs, out: &mut dyn Write) -> Result<()> {
    let backend = global.selection().open_backend()?;
    if list_hsa_agents(&backend)?
        .iter()
        .all(|agent| agent.kind != "gpu")
    {
        return Err(no_gpu(backend.machine(), backend.name())
            .annotate(format!("loading `{}`", args.file.display())));
    }
    let request = amdgpu_hal::report::load::LoadArgs {
        file: args.file.clone(),
        affinity: args.affinity,
        executable: args.executable.clone(),
    };
    match load(&backend, &request)? {
        // Hand-written JSON (`report::load_json`): serde's bytes without its
        // per-token cost on a large object's document.
        Loaded::Executable(doc) if global.json => write_load(&doc, out)
            .and_then(|()| writeln!(out))
            .map_err(write_error),
        Loaded::Executable(doc) => write_text(out, &doc).map_err(write_error),
        // A module's few executables: serde's writer, terminal-safe as
        // `write_load`'s strings are.
        Loaded::Module(module) if global.json => {
            amdgpu_hal::json_writer::to_writer_pretty(&mut *out, &module)
                .map_err(std::io::Error::from)
                .and_then(|()| writeln!(out))
                .map_err(write_error)
        }
        Loaded::Module(module) => {
            let count = module.executables.len();
            (|| {
                writeln!(
                    out,
                    "module `{}`: {count} executable{} loaded",
                    Escaped(&module.name),
                    if count == 1 { "" } else { "s" }
                )?;
                for doc in &module.executables {
                    write_text(out, doc)?;
                }
                Ok(())
            })()
            .map_err(write_error)
        }
    }
}

fn write_text(out: &mut dyn Write, doc: &LoadJson) -> std::io::Result<()> {
    writeln!(
        out,
        "{} executable, format {}, loaded on {} of {} ({} backend), queue affinity {}",
        doc.container,
        Escaped(&doc.format),
        match doc.loaded_devices.len() {
            1 => "device".to_string(),
            _ => "devices".to_string(),
        } + " "
            + &doc
                .loaded_devices
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        doc.machine,
        doc.backend,
        doc.queue_affinity
    )?;
    if let Some(embedded) = &doc.embedded {
        writeln!(
            out,
            "  from the module's rodata segment {} ({}{})",
            embedded.segment,
            embedded.container,
            if embedded.container == "hip1" {
                ": its code object, loaded as a raw HSACO"
            } else {
                ""
            }
        )?;
    }
    for (i, e) in doc.exports.iter().enumerate() {
        let wg = e.workgroup_size;
        writeln!(
            out,
            "  [{i}] {} ({}): workgroup {}x{}x{}{}, {} bindings, {} constants, {} parameters; \
             kernarg {} B align {} (HSA {}), LDS {} B, scratch {} B",
            Escaped(&e.name),
            Escaped(&e.symbol),
            wg[0],
            wg[1],
            wg[2],
            if e.dynamic_workgroup_size {
                " (dynamic)"
            } else {
                ""
            },
            e.binding_count,
            e.constant_count,
            e.parameter_count,
            e.kernel_args.kernarg_size,
            e.kernel_args.kernarg_alignment,
            e.kernel_args.hsa_kernarg_alignment,
            e.kernel_args.group_segment_size,
            e.kernel_args.private_segment_size
        )?;
        for d in &e.devices {
            writeln!(
                out,
                "      device {}: kernel object {}, args at {}, HAL kernargs {} B ({} blocks{}), custom {} blocks",
                d.device,
                d.kernel_object,
                d.kernel_args_address,
                d.hal_kernarg_size,
                d.hal_kernarg_blocks,
                if d.hal_implicit_args {
                    ", implicit args"
                } else {
                    ""
                },
                d.custom_kernarg_blocks
            )?;
        }
    }
    Ok(())
}
