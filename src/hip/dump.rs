//! `dump_device_info`: the device facts IREE's HIP driver prints, in the
//! seed's order and wording (including its `mHz` for megahertz).
//!
//! Where IREE converts to `int` (`size / 1024`), the values here stay `u64`,
//! so a device with more than 2 PiB of memory would still print correctly.

use std::fmt::Write as _;

use crate::backend::HipDeviceProps;
use crate::escape::Escaped;

/// The facts one dump prints: the properties struct, or the subset the
/// required `hipDeviceGetAttribute` gives when the runtime lacks the
/// optional `hipGetDeviceProperties` (no arch name, no global memory size).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpFacts {
    /// The properties (from the struct or from attributes).
    pub props: HipDeviceProps,
    /// False when `props` came from attributes: `gcn_arch_name` and
    /// `total_global_mem` are then unknown and printed as such.
    pub from_properties_call: bool,
}

/// Appends IREE's dump lines to `out`: the library path line when known,
/// then every property. Each line starts with `\n`, as IREE's builder does;
/// blank lines separate the groups.
pub fn format_device_info(out: &mut String, library_path: Option<&str>, facts: &DumpFacts) {
    let p = &facts.props;
    // `write!` into a String cannot fail; the results are ignored on purpose.
    if let Some(path) = library_path {
        let _ = write!(out, "\n- amdhip64_dylib_path: {}", Escaped(path));
    }
    let _ = write!(out, "\n- gpu-compute-capability: {}.{}", p.major, p.minor);
    if facts.from_properties_call {
        let _ = write!(out, "\n- gpu-arch-name: {}", Escaped(&p.gcn_arch_name));
    } else {
        out.push_str("\n- gpu-arch-name: unknown (hipGetDeviceProperties not available)");
    }
    out.push('\n');
    let [x, y, z] = p.max_threads_dim;
    let _ = write!(out, "\n- launch-max-block-dims: ({x}, {y}, {z})");
    out.push('\n');
    let _ = write!(
        out,
        "\n- block-max-thread-count: {}",
        p.max_threads_per_block
    );
    let _ = write!(
        out,
        "\n- block-max-32-bit-register-count: {}",
        p.regs_per_block
    );
    let _ = write!(
        out,
        "\n- block-max-shared-memory: {} KB",
        p.shared_mem_per_block / 1024
    );
    out.push('\n');
    let _ = write!(out, "\n- memory-is-integrated-memory: {}", p.integrated);
    let _ = write!(
        out,
        "\n- memory-supports-managed-memory: {}",
        p.managed_memory
    );
    let _ = write!(
        out,
        "\n- memory-total-const-memory-size: {} MB",
        p.total_const_mem / 1024 / 1024
    );
    if facts.from_properties_call {
        let _ = write!(
            out,
            "\n- memory-total-global-memory-size: {} MB",
            p.total_global_mem / 1024 / 1024
        );
    } else {
        out.push_str("\n- memory-total-global-memory-size: unknown");
    }
    let _ = write!(out, "\n- memory-l2-cache-size: {} bytes", p.l2_cache_size);
    out.push('\n');
    let _ = write!(
        out,
        "\n- gpu-compute-unit-count: {}",
        p.multi_processor_count
    );
    let _ = write!(
        out,
        "\n- gpu-compute-max-clock-rate: {} mHz",
        p.clock_rate / 1000
    );
    let _ = write!(
        out,
        "\n- gpu-memory-max-clock-rate: {} mHz",
        p.memory_clock_rate / 1000
    );
    let _ = write!(out, "\n- gpu-warp-size: {}", p.warp_size);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mi300x() -> HipDeviceProps {
        HipDeviceProps {
            name: "AMD Instinct MI300X".into(),
            gcn_arch_name: "gfx942:sramecc+:xnack-".into(),
            total_global_mem: 192 * 1024 * 1024 * 1024,
            shared_mem_per_block: 64 * 1024,
            regs_per_block: 65536,
            warp_size: 64,
            max_threads_per_block: 1024,
            max_threads_dim: [1024, 1024, 1024],
            clock_rate: 2_100_000,
            memory_clock_rate: 1_300_000,
            total_const_mem: 2 * 1024 * 1024 * 1024 - 1,
            major: 9,
            minor: 4,
            multi_processor_count: 304,
            l2_cache_size: 4 * 1024 * 1024,
            managed_memory: 1,
            ..HipDeviceProps::default()
        }
    }

    #[test]
    fn seed_order_and_wording() {
        let mut out = String::new();
        let facts = DumpFacts {
            props: mi300x(),
            from_properties_call: true,
        };
        format_device_info(&mut out, Some("/opt/rocm/lib/libamdhip64.so"), &facts);
        assert_eq!(
            out,
            "\n- amdhip64_dylib_path: /opt/rocm/lib/libamdhip64.so\
             \n- gpu-compute-capability: 9.4\
             \n- gpu-arch-name: gfx942:sramecc+:xnack-\
             \n\
             \n- launch-max-block-dims: (1024, 1024, 1024)\
             \n\
             \n- block-max-thread-count: 1024\
             \n- block-max-32-bit-register-count: 65536\
             \n- block-max-shared-memory: 64 KB\
             \n\
             \n- memory-is-integrated-memory: 0\
             \n- memory-supports-managed-memory: 1\
             \n- memory-total-const-memory-size: 2047 MB\
             \n- memory-total-global-memory-size: 196608 MB\
             \n- memory-l2-cache-size: 4194304 bytes\
             \n\
             \n- gpu-compute-unit-count: 304\
             \n- gpu-compute-max-clock-rate: 2100 mHz\
             \n- gpu-memory-max-clock-rate: 1300 mHz\
             \n- gpu-warp-size: 64\
             \n"
        );
    }

    #[test]
    fn without_the_properties_call_unknowns_are_named() {
        let mut out = String::new();
        let facts = DumpFacts {
            props: mi300x(),
            from_properties_call: false,
        };
        format_device_info(&mut out, None, &facts);
        assert!(out.starts_with("\n- gpu-compute-capability: 9.4\n- gpu-arch-name: unknown"));
        assert!(out.contains("\n- memory-total-global-memory-size: unknown\n"));
        assert!(!out.contains("gfx942"));
    }
}
