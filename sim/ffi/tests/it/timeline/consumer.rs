//! A real consumer reads the timeline: Meta's Holistic Trace Analysis
//! (PyPI `holistictraceanalysis`, which loads Chrome trace-event JSON into
//! a table, offline) parses the file of a kernel run and finds every slice,
//! the kernel's on its stream's track with its duration. Perfetto's own
//! Python trace processor fetches its engine over the network at first
//! use, so it cannot be this test's consumer.
//!
//! Without the package the test prints one `skipped:` line (a failure
//! under `AMDGPU_HAL_REQUIRE_ALL=1`).

use std::process::{Command, Stdio};

use super::{KERNEL, read_trace, trace_file};

/// The pip packages the consumer needs (HTA 0.5.0 imports `psutil`
/// without declaring it).
const HTA: &str = "holistictraceanalysis==0.5.0 psutil";

/// Loads the trace at `argv[1]` with HTA; prints the slices it read, then
/// each slice of `argv[2]` as `tid dur`.
const READ: &str = r#"
import os, shutil, sys, tempfile
from hta.trace_analysis import TraceAnalysis
folder = tempfile.mkdtemp()
shutil.copy(sys.argv[1], os.path.join(folder, "rank-0.json"))
analysis = TraceAnalysis(trace_dir=folder)
table = analysis.t.get_trace(0)
symbols = analysis.t.symbol_table.get_sym_table()
names = table["name"].map(lambda i: symbols[i])
print(len(table))
for _, row in table[names == sys.argv[2]].iterrows():
    print(int(row["tid"]), int(row["dur"]))
shutil.rmtree(folder)
"#;

fn hta_present() -> bool {
    Command::new("python3")
        .args(["-c", "import hta.trace_analysis"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn holistic_trace_analysis_reads_every_slice_of_a_kernel_run() {
    if !hta_present() {
        crate::rocminfo::skip(
            "Holistic Trace Analysis reading a timeline",
            &format!("needs pip packages {HTA}"),
        );
        return;
    }
    let path = trace_file("consumer");
    let output = crate::child::command("timeline::kernel_run_child")
        .env("AMDGPU_SIM_TRACE", format!("chrome:{}", path.display()))
        .env("AMDGPU_SIM_FAULTS", "hipMalloc@4=2")
        .output()
        .expect("run the child");
    crate::child::assert_passed(&output, "kernel_run_child");
    let kept = std::env::temp_dir().join(format!(
        "amdgpu-timeline-consumer-{}-copy.json",
        std::process::id()
    ));
    std::fs::copy(&path, &kept).expect("keep a copy for HTA");
    let trace = read_trace(&path, &output);
    let read = Command::new("python3")
        .args(["-c", READ])
        .arg(&kept)
        .arg(KERNEL)
        .output()
        .expect("run python3");
    let _ = std::fs::remove_file(&kept);
    let stdout = String::from_utf8_lossy(&read.stdout);
    assert!(
        read.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&read.stderr)
    );
    let mut lines = stdout.lines();
    let slices = trace.events.iter().filter(|e| e.ph == "X").count();
    assert_eq!(lines.next(), Some(slices.to_string().as_str()), "{stdout}");
    let kernel = trace.named(KERNEL)[0];
    let rows: Vec<(u64, u64)> = lines
        .map(|line| {
            let mut fields = line.split(' ').map(|f| f.parse::<u64>().expect(line));
            (fields.next().expect(line), fields.next().expect(line))
        })
        .collect();
    assert_eq!(rows.len(), 1, "{stdout}");
    let (tid, dur) = rows[0];
    assert_eq!(tid, kernel.tid, "{stdout}");
    // HTA keeps whole microseconds: its start rounded up, its end down.
    let micros = kernel.dur_ns / 1000;
    assert!(
        dur + 1 >= micros && dur <= micros,
        "HTA's {dur} µs for the kernel's {} ns",
        kernel.dur_ns
    );
}
