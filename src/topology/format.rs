//! Human-readable forms of edges and of the matrix.
//!
//! IREE formats the enums with its bit-field formatter, so a COPY wait prints
//! as `NATIVE|COPY` and a HOST_STAGED link as `SAME_DIE|HOST`. Here every
//! enum prints its one exact name.

use std::fmt::{self, Write as _};

use super::edge::{Edge, TopologyCapabilities};
use super::matrix::Topology;

impl fmt::Display for Edge {
    /// `wait=<M> signal=<M> link=<L> buf_nc=<M>/<M> buf_c=<M>/<M> wait_cost=<n>
    /// signal_cost=<n> copy_cost=<n> latency=<n> numa=<n> caps=<A|B|..>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "wait={} signal={} link={} buf_nc={}/{} buf_c={}/{} wait_cost={} signal_cost={} copy_cost={} latency={} numa={} caps=",
            self.wait_mode().name(),
            self.signal_mode().name(),
            self.link_class().name(),
            self.buffer_read_mode_noncoherent().name(),
            self.buffer_write_mode_noncoherent().name(),
            self.buffer_read_mode_coherent().name(),
            self.buffer_write_mode_coherent().name(),
            self.wait_cost(),
            self.signal_cost(),
            self.copy_cost(),
            self.latency_class(),
            self.numa_distance(),
        )?;
        write_capabilities(f, self.capabilities())
    }
}

fn write_capabilities(f: &mut fmt::Formatter<'_>, caps: TopologyCapabilities) -> fmt::Result {
    if caps.is_empty() {
        return f.write_str("NONE");
    }
    let mut first = true;
    for (name, _) in caps.iter_names() {
        if !first {
            f.write_char('|')?;
        }
        f.write_str(name)?;
        first = false;
    }
    let unknown = caps.bits() & !TopologyCapabilities::all().bits();
    if unknown != 0 {
        if !first {
            f.write_char('|')?;
        }
        write!(f, "0x{unknown:X}")?;
    }
    Ok(())
}

impl Topology {
    /// IREE's matrix dump: one cell per edge with the wait mode's letter
    /// (`N`ative, `I`mport, `C`opy, `-` none), then the legend.
    ///
    /// ```text
    /// Topology Matrix (2 devices):
    ///         D0    D1  
    /// D0:    N     C   
    /// D1:    C     N   
    ///
    /// Legend: N=Native, I=Import, C=Copy, -=None
    /// ```
    pub fn dump_matrix(&self) -> String {
        let n = self.device_count();
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = writeln!(out, "Topology Matrix ({n} devices):");
        out.push_str("      ");
        for j in 0..n {
            let _ = write!(out, "  D{j}  ");
        }
        out.push('\n');
        for (i, row) in self.rows().enumerate() {
            let _ = write!(out, "D{i}:  ");
            for edge in row {
                let _ = write!(out, "  {}   ", edge.wait_mode().letter());
            }
            out.push('\n');
        }
        out.push_str("\nLegend: N=Native, I=Import, C=Copy, -=None\n");
        out
    }
}
