//! The reports of a run: each process that used the node writes one at
//! exit (`AMDGPU_SIM_REPORT`, `key value` lines: live objects, `injected OP
//! -> CODE NAME` lines, launch and call counts, the instructions executed
//! by fidelity with a `kernel NAME instructions N exact E approximate A
//! unmodelled U` line per kernel; docs/SIMULATOR.md "The report"). A run's report is theirs merged (counts summed), its
//! [`RunReport::failure`] what the node saw go wrong that a program's own
//! exit status may hide, and [`RunReport::summary`] the paragraph
//! `amdgpu-hal run --report` prints at exit.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The report's keys that count live objects (what a program left
/// behind), in the report's order. `allocated_bytes` is their size, said
/// beside them.
pub const LIVE_OBJECT_KEYS: [&str; 22] = [
    "allocations",
    "readers",
    "executables",
    "hip_contexts",
    "hip_pools",
    "hip_modules",
    "hip_streams",
    "hip_events",
    "hip_graphs",
    "hip_graph_execs",
    "host_allocations",
    "host_registrations",
    "hsa_signals",
    "hsa_queues",
    "image_mappings",
    "shared_images",
    "vmem_reservations",
    "vmem_handles",
    "vmem_mappings",
    "hsa_locked",
    "hsa_async_copies",
    "hip_fat_binaries",
];

/// A run's reports, merged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunReport {
    /// The processes whose reports were merged.
    pub processes: usize,
    /// Every `key value` line with a number, summed over the processes.
    pub counts: BTreeMap<String, u64>,
    /// The `injected OP -> CODE NAME` lines, process after process.
    pub injected: Vec<String>,
    /// Each kernel's instructions executed by fidelity, summed over the
    /// processes: `[all, exact, approximate, unmodelled]`.
    pub kernels: BTreeMap<String, [u64; 4]>,
    /// The `read_back_digest` lines (hexadecimal), summed with wrap-around
    /// as the C library sums each copy's hash: the digest of every copy of
    /// every process. `None` when no report has one.
    pub read_back_digest: Option<u64>,
}

/// The report's key whose value is a hexadecimal digest, not a count.
const DIGEST_KEY: &str = "read_back_digest";

/// The words of a `kernel` line between its counts, in order.
const KERNEL_FIELDS: [&str; 4] = ["instructions", "exact", "approximate", "unmodelled"];

/// A `kernel NAME instructions N exact E approximate A unmodelled U` line's
/// name and counts (a kernel's name has no spaces: it is an ELF symbol).
fn kernel_line(rest: &str) -> Option<(&str, [u64; 4])> {
    let mut words = rest.split(' ');
    let name = words.next()?;
    let mut counts = [0; 4];
    for (field, count) in KERNEL_FIELDS.iter().zip(&mut counts) {
        if words.next()? != *field {
            return None;
        }
        *count = words.next()?.parse().ok()?;
    }
    words.next().is_none().then_some((name, counts))
}

impl RunReport {
    /// Adds one process's report text. Lines of other shapes (keys a newer
    /// library adds with other values) are left out of the sums.
    pub fn add(&mut self, text: &str) {
        self.processes += 1;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("injected ") {
                self.injected.push(rest.to_owned());
                continue;
            }
            if let Some((name, counts)) = line.strip_prefix("kernel ").and_then(kernel_line) {
                let sums = self.kernels.entry(name.to_owned()).or_default();
                for (sum, count) in sums.iter_mut().zip(counts) {
                    *sum = sum.saturating_add(count);
                }
                continue;
            }
            let Some((key, value)) = line.split_once(' ') else {
                continue;
            };
            if key == DIGEST_KEY {
                if let Ok(digest) = u64::from_str_radix(value.trim(), 16) {
                    let sum = self.read_back_digest.get_or_insert(0);
                    *sum = sum.wrapping_add(digest);
                }
                continue;
            }
            if let Ok(value) = value.trim().parse::<u64>() {
                let sum = self.counts.entry(key.to_owned()).or_default();
                *sum = sum.saturating_add(value);
            }
        }
    }

    /// The count of `key` (0 when no report has it).
    pub fn count(&self, key: &str) -> u64 {
        self.counts.get(key).copied().unwrap_or(0)
    }

    /// The merged report as the C library writes one: the summed counts,
    /// then the injected calls, then each kernel's fidelity line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (key, value) in &self.counts {
            let _ = writeln!(out, "{key} {value}");
        }
        if let Some(digest) = self.read_back_digest {
            let _ = writeln!(out, "{DIGEST_KEY} {digest:016x}");
        }
        for line in &self.injected {
            let _ = writeln!(out, "injected {line}");
        }
        for (name, [all, exact, approximate, unmodelled]) in &self.kernels {
            let _ = writeln!(
                out,
                "kernel {name} instructions {all} exact {exact} approximate {approximate} \
                 unmodelled {unmodelled}"
            );
        }
        out
    }

    /// What the node saw fail that the program may not have said with
    /// its exit status: kernels that faulted (a memory access outside
    /// every allocation, an injected fault, code the interpreter could
    /// not run once it started) and launches refused (a kernel the node
    /// cannot run). `None` when nothing did.
    pub fn failure(&self) -> Option<String> {
        let plural = |n: u64| if n == 1 { "" } else { "es" };
        let faulted = self.count("launches_faulted");
        let refused = self.count("launches_refused");
        let mut why = Vec::new();
        if faulted > 0 {
            why.push(format!(
                "{faulted} kernel launch{} fault (launches_faulted {faulted})",
                plural(faulted)
            ));
        }
        if refused > 0 {
            why.push(format!(
                "{refused} kernel launch{} it could not run (launches_refused {refused})",
                plural(refused)
            ));
        }
        (!why.is_empty()).then(|| format!("the simulated node saw {}", why.join(" and ")))
    }

    /// The paragraph printed at exit: processes, launches executed /
    /// faulted / refused / skipped, calls, injected failures, the
    /// instructions executed by fidelity and live objects left.
    pub fn summary(&self, machine: &str) -> String {
        let mut out = format!(
            "amdgpu-hal run on {machine}: {} process{} used the node; kernel launches: {} \
             executed, {} faulted, {} refused, {} skipped; {} HSA and {} HIP calls",
            self.processes,
            if self.processes == 1 { "" } else { "es" },
            self.count("launches_executed"),
            self.count("launches_faulted"),
            self.count("launches_refused"),
            self.count("launches_skipped"),
            self.count("hsa_calls"),
            self.count("hip_calls"),
        );
        if !self.injected.is_empty() {
            let _ = write!(out, "; {} failed by injection", self.injected.len());
        }
        let instructions = self.count("instructions");
        if instructions > 0 {
            let _ = write!(
                out,
                "; {instructions} instructions executed: {} exact, {} approximate, {} unmodelled",
                self.count("instructions_exact"),
                self.count("instructions_approximate"),
                self.count("instructions_unmodelled"),
            );
        }
        let live: Vec<String> = LIVE_OBJECT_KEYS
            .iter()
            .filter(|key| self.count(key) > 0)
            .map(|key| format!("{key} {}", self.count(key)))
            .collect();
        if live.is_empty() {
            out.push_str("; no live objects left");
        } else {
            let _ = write!(
                out,
                "; live objects left: {} ({} bytes allocated)",
                live.join(", "),
                self.count("allocated_bytes")
            );
        }
        out.push('.');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLEAN: &str = "allocations 0\nallocated_bytes 0\nhip_streams 0\n\
        launches 3\nlaunches_executed 3\nlaunches_skipped 0\nlaunches_faulted 0\n\
        hsa_calls 120\nhip_calls 45\n";
    const LEAKY: &str = "allocations 2\nallocated_bytes 8192\nhip_streams 1\n\
        injected hipMalloc -> 2 hipErrorOutOfMemory\n\
        launches 2\nlaunches_executed 1\nlaunches_skipped 0\nlaunches_faulted 1\n\
        hsa_calls 10\nhip_calls 5\ninstructions 40\ninstructions_exact 30\n\
        instructions_approximate 8\ninstructions_unmodelled 2\n\
        kernel vector_add instructions 40 exact 30 approximate 8 unmodelled 2\n\
        kernel odd line\n";

    /// Digests are hexadecimal, summed with wrap-around (each process's is
    /// a wrapping sum of its copies' hashes), never read as decimal counts.
    #[test]
    fn read_back_digests_sum_with_wrap_around() {
        let mut report = RunReport::default();
        report.add("read_back_copies 1\nread_back_digest ffffffffffffffff\n");
        report.add("read_back_copies 2\nread_back_digest 0000000000000003\n");
        assert_eq!(report.read_back_digest, Some(2));
        assert_eq!(report.count("read_back_copies"), 3);
        assert_eq!(report.count("read_back_digest"), 0);
        assert!(
            report
                .render()
                .contains("read_back_digest 0000000000000002\n")
        );
        let mut none = RunReport::default();
        none.add(CLEAN);
        assert!(!none.render().contains("read_back_digest"));
    }

    #[test]
    fn reports_of_several_processes_sum() {
        let mut report = RunReport::default();
        report.add(CLEAN);
        report.add(LEAKY);
        assert_eq!(report.processes, 2);
        assert_eq!(report.count("launches_executed"), 4);
        assert_eq!(report.count("launches_faulted"), 1);
        assert_eq!(report.count("hsa_calls"), 130);
        assert_eq!(report.count("allocations"), 2);
        // A line that is not `key number` is not summed.
        assert_eq!(report.count("kernel"), 0);
        report.add("kernel vector_add instructions 4 exact 1 approximate 2 unmodelled 1\n");
        assert_eq!(report.kernels.len(), 1, "{:?}", report.kernels);
        assert_eq!(report.kernels["vector_add"], [44, 31, 10, 3]);
        assert_eq!(report.injected, ["hipMalloc -> 2 hipErrorOutOfMemory"]);
        let text = report.render();
        assert!(text.contains("launches_executed 4\n"), "{text}");
        assert!(
            text.ends_with(
                "injected hipMalloc -> 2 hipErrorOutOfMemory\n\
                 kernel vector_add instructions 44 exact 31 approximate 10 unmodelled 3\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_faulted_launch_is_a_failure_and_a_clean_run_is_not() {
        let mut clean = RunReport::default();
        clean.add(CLEAN);
        assert_eq!(clean.failure(), None);
        let mut faulted = RunReport::default();
        faulted.add(LEAKY);
        assert_eq!(
            faulted.failure().as_deref(),
            Some("the simulated node saw 1 kernel launch fault (launches_faulted 1)")
        );
        let mut refused = RunReport::default();
        refused.add("launches_faulted 0\nlaunches_refused 2\n");
        assert_eq!(
            refused.failure().as_deref(),
            Some("the simulated node saw 2 kernel launches it could not run (launches_refused 2)")
        );
    }

    #[test]
    fn the_summary_says_launches_calls_and_what_is_left() {
        let mut clean = RunReport::default();
        clean.add(CLEAN);
        assert_eq!(
            clean.summary("w7900"),
            "amdgpu-hal run on w7900: 1 process used the node; kernel launches: 3 executed, \
             0 faulted, 0 refused, 0 skipped; 120 HSA and 45 HIP calls; no live objects left."
        );
        let mut leaky = RunReport::default();
        leaky.add(LEAKY);
        assert_eq!(
            leaky.summary("mi300x-8"),
            "amdgpu-hal run on mi300x-8: 1 process used the node; kernel launches: 1 executed, \
             1 faulted, 0 refused, 0 skipped; 10 HSA and 5 HIP calls; 1 failed by injection; \
             40 instructions executed: 30 exact, 8 approximate, 2 unmodelled; live objects \
             left: allocations 2, hip_streams 1 (8192 bytes allocated)."
        );
    }
}
