#!/usr/bin/env python3
"""Runs the kernel corpus (fixtures/kernels) on the simulated GPUs and compares
every result with the CPU oracle's (expected/NAME.txt).

usage: kernels-check.py LIB --preset MACHINE=CHIP [--preset ...]
                        [--program NAME ...] [--json OUT] [options]
       kernels-check.py --cpu [--program NAME ...] [--json OUT] [options]

LIB is the libamdhip64 to test, handed to IREE's HIP driver as
--hip_dylib_path=file:LIB (the simulator's libamdgpu_sim_ffi.so). For each
preset, each program's vmfb/NAME.CHIP.vmfb runs under iree-run-module on
--device=hip with AMDGPU_SIM_MACHINE=MACHINE and the program's inputs (the
`// INPUTS:` lines of src/NAME.mlir).

With --device amdgpu, LIB is instead a directory holding the
libhsa-runtime64.so.1 to test and the /dev/kfd stand-in
libamdgpu_sim_kfd.so (scripts/sim-libs.sh's directory), and the modules run
on IREE's AMDGPU driver: --device=amdgpu with IREE_HAL_AMDGPU_LIBHSA_PATH=LIB
and LD_PRELOAD=LIB/libamdgpu_sim_kfd.so (an iree-run-module built with that
driver: scripts/iree-cts/build.sh's).

  --preset MACHINE=CHIP  a simulated machine and the chip its modules were built
                         for, e.g. mi300x-8=gfx942, mi250x-4=gfx90a,
                         w7900=gfx1100, r9700-4=gfx1201; repeatable
  --program NAME         only this program; repeatable (default: all of src/)
  --cpu                  self-check of the corpus and the comparator: run
                         NAME.cpu.vmfb on --device=local-task instead (no LIB,
                         no presets); every program must pass
  --device D             hip (default) or amdgpu: the IREE driver (see LIB)
  --modules DIR          the modules (default: CORPUS/vmfb)
  --report               check the simulator's leak report (AMDGPU_SIM_REPORT)
                         of every run: anything left alive makes it a leak
  --json OUT             also write every run's outcome to OUT
  --outputs DIR          write each GPU run's results to DIR/NAME.MACHINE.bin
                         instead of printing them (iree-run-module's
                         --output=+FILE.bin, one per result, their contents
                         one after another: every bit kept, whatever the
                         element type; numpy files cannot hold bf16), for
                         the caller to compare runs bit for bit (as
                         tests/it/sim/thread_counts.rs does across
                         AMDGPU_SIM_THREADS); such a run passes when
                         iree-run-module succeeds, its results not compared
                         with the oracle's
  --timeout S            seconds one iree-run-module may take (default 120)
  --jobs N               runs at once (default: the cores)
  --iree-run-module P    the tool (default: $IREE_RUN_MODULE, else the one in
                         python3's iree-base-runtime package)
  --corpus DIR           the corpus (default: fixtures/kernels of this checkout)

Comparison: the number of results, every shape and element type must match
exactly; integers and booleans exactly; floating-point elements (f16, bf16,
f32, f64) under the program's `// TOLERANCE:` line, either `exact` or
`rel=R abs=A` (default rel=1e-5 abs=0): |got - expected| <= A + R*|expected|.
iree-run-module prints 6 significant digits, so under a rel/abs tolerance a
difference of one unit in the 6th significant digit of the expected value is
also accepted (a 1-ulp difference can flip it). NaN matches NaN (any sign),
infinities must match exactly, and +0 equals -0.

A program whose GPU code computes something else than the program says, by
IREE's own lowering (docs/IREE-DEFECTS.md), says so in a line
`// GPU-COMPUTES: result[I]=result[J] ...`: on a GPU target, result I is
compared with the CPU's result J (e.g. arith.minimumf lowered to
llvm.minnum computes what arith.minnumf does).

Statuses: pass; mismatch (the first differing result and index, both values,
and how many elements differ); error (iree-run-module failed or printed
something unparsable: the tail of its stderr); timeout; leak (with --report:
the results matched but the report counts live objects, or none was
written). With --report each record also has the report's counts ("report").

Exit status: 0 when every run passed, 1 when any did not, 2 on a usage error.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_ELEMENTS = 100000
FLOAT_TYPES = {"f16", "bf16", "f32", "f64"}
RESULT_LINE = re.compile(r"^result\[(\d+)\]: (.*)$")
# The /dev/kfd stand-in IREE's AMDGPU driver needs preloaded, in LIB.
KFD_STAND_IN = "libamdgpu_sim_kfd.so"


class Program:
    """A corpus program: its name, inputs and tolerance from its header."""

    def __init__(self, corpus, name):
        self.name = name
        self.source = os.path.join(corpus, "src", name + ".mlir")
        self.expected = os.path.join(corpus, "expected", name + ".txt")
        self.inputs = []
        self.rel, self.abs, self.exact = 1e-5, 0.0, False
        # On GPU targets: result index -> the CPU result it is compared with.
        self.gpu_computes = {}
        with open(self.source) as f:
            for line in f:
                if line.startswith("// INPUTS:"):
                    self.inputs += shlex.split(line[len("// INPUTS:"):])
                elif line.startswith("// GPU-COMPUTES:"):
                    for pair in line[len("// GPU-COMPUTES:"):].split():
                        m = re.fullmatch(r"result\[(\d+)\]=result\[(\d+)\]", pair)
                        if not m:
                            raise ValueError(f"{name}: bad GPU-COMPUTES entry {pair!r}")
                        self.gpu_computes[int(m.group(1))] = int(m.group(2))
                elif line.startswith("// TOLERANCE:"):
                    self.parse_tolerance(line[len("// TOLERANCE:"):].strip())

    def parse_tolerance(self, text):
        if text.split()[0] == "exact":
            self.rel, self.abs, self.exact = 0.0, 0.0, True
            return
        fields = dict(w.split("=", 1) for w in text.split() if "=" in w)
        self.rel = float(fields.get("rel", 0.0))
        self.abs = float(fields.get("abs", 0.0))
        self.exact = self.rel == 0.0 and self.abs == 0.0

    def tolerance(self):
        return "exact" if self.exact else f"rel={self.rel:g} abs={self.abs:g}"


class Result:
    """One printed result: `2x3xf32=[1 2 3][4 5 6]` or `f32=1.5`."""

    def __init__(self, text):
        text = text.strip()
        if "=" not in text:
            raise ValueError(f"not a buffer view: {text[:80]!r}")
        head, data = text.split("=", 1)
        parts = head.split("x")
        self.dtype = parts[-1]
        try:
            self.shape = [int(d) for d in parts[:-1]]
        except ValueError:
            raise ValueError(f"bad shape in {head!r}") from None
        if "..." in data:
            raise ValueError("output elided (raise --output_max_element_count)")
        self.tokens = data.replace("[", " ").replace("]", " ").split()
        if len(self.tokens) != math.prod(self.shape):
            raise ValueError(f"{head}: {len(self.tokens)} elements printed")

    def type(self):
        return "x".join([str(d) for d in self.shape] + [self.dtype])


def parse_output(stdout):
    """The results iree-run-module printed, in order."""
    results, lines, i = [], stdout.splitlines(), 0
    while i < len(lines):
        m = RESULT_LINE.match(lines[i])
        i += 1
        if not m:
            continue
        if int(m.group(1)) != len(results):
            raise ValueError(f"result[{m.group(1)}] out of order")
        if m.group(2).strip() == "hal.buffer_view":
            if i >= len(lines):
                raise ValueError("output ends after a result header")
            results.append(Result(lines[i]))
            i += 1
        else:
            results.append(Result(m.group(2)))
    return results


def unravel(flat, shape):
    index = []
    for d in reversed(shape):
        index.append(flat % d if d else 0)
        flat = flat // d if d else 0
    return list(reversed(index))


def print_quantum(x):
    """One unit in the 6th significant digit of x (iree-run-module's %g)."""
    if x == 0 or not math.isfinite(x):
        return 0.0
    return 10.0 ** (math.floor(math.log10(abs(x))) - 5)


def element_matches(got, want, is_float, program):
    if not is_float:
        return int(got, 10) == int(want, 10)
    g, w = float(got), float(want)
    if math.isnan(w) or math.isnan(g):
        return math.isnan(w) and math.isnan(g)
    if math.isinf(w) or math.isinf(g):
        return g == w
    if program.exact:
        return g == w
    diff = abs(g - w)
    # The slack absorbs the rounding of the tolerance sum itself.
    slack = 1e-12 * abs(w)
    return (diff <= program.abs + program.rel * abs(w) + slack
            or diff <= print_quantum(w) * (1 + 1e-9))


def compare(got_results, want_results, program):
    """None when they match, else (detail, first-mismatch dict)."""
    if len(got_results) != len(want_results):
        return (f"{len(got_results)} results, expected {len(want_results)}",
                {"results": len(got_results), "expected_results": len(want_results)})
    first, failed = None, []
    for r, (got, want) in enumerate(zip(got_results, want_results)):
        if got.type() != want.type():
            failed.append(r)
            first = first or (f"result[{r}] is {got.type()}, expected {want.type()}",
                              {"result": r, "type": got.type(), "expected_type": want.type()})
            continue
        is_float = want.dtype in FLOAT_TYPES
        bad = []
        for k, (g, w) in enumerate(zip(got.tokens, want.tokens)):
            try:
                ok = element_matches(g, w, is_float, program)
            except ValueError:
                ok = False
            if not ok:
                bad.append(k)
        if bad:
            failed.append(r)
            if first is None:
                k = bad[0]
                index = unravel(k, want.shape)
                where = f"[{', '.join(map(str, index))}]" if index else "[]"
                first = (f"result[{r}] {want.type()} at {where}: got {got.tokens[k]}, "
                         f"expected {want.tokens[k]} ({len(bad)}/{len(want.tokens)} elements differ)",
                         {"result": r, "index": index, "flat_index": k, "got": got.tokens[k],
                          "expected": want.tokens[k], "differing": len(bad),
                          "elements": len(want.tokens)})
    if first is None:
        return None
    detail, info = first
    if len(want_results) > 1:
        detail += f"; {len(failed)}/{len(want_results)} results differ"
    info["differing_results"] = failed
    return detail, info


def tail(text, lines=6, width=300):
    """The last non-empty lines of text, each cut to width characters."""
    kept = [l.strip() for l in text.strip().splitlines() if l.strip()][-lines:]
    return "\n".join(l if len(l) <= width else l[:width - 3] + "..." for l in kept)


def run_one(args, program, target):
    """Runs one program on one target: a dict describing the outcome."""
    machine, chip = target
    record = {"program": program.name, "machine": machine, "chip": chip,
              "tolerance": program.tolerance()}
    module = os.path.join(args.modules, f"{program.name}.{chip}.vmfb")
    if not os.path.exists(module):
        record.update(status="error", detail=f"no module {os.path.relpath(module)}")
        return record
    if chip == "cpu":
        device = ["--device=local-task"]
        env = dict(os.environ)
    elif args.device == "amdgpu":
        device = ["--device=amdgpu"]
        env = dict(os.environ, AMDGPU_SIM_MACHINE=machine,
                   IREE_HAL_AMDGPU_LIBHSA_PATH=args.lib,
                   LD_PRELOAD=os.path.join(args.lib, KFD_STAND_IN))
    else:
        device = ["--device=hip", f"--hip_dylib_path=file:{args.lib}"]
        env = dict(os.environ, AMDGPU_SIM_MACHINE=machine)
    env.pop("AMDGPU_SIM_FAULTS", None)
    report = None
    if args.report and chip != "cpu":
        fd, report = tempfile.mkstemp(prefix=f"kernels-check-{program.name}-{machine}-")
        os.close(fd)
        os.unlink(report)
        env["AMDGPU_SIM_REPORT"] = report
    command = [args.iree_run_module, *device, f"--module={module}",
               f"--function={program.name}",
               f"--output_max_element_count={MAX_ELEMENTS}", *program.inputs]
    saved = None
    if args.outputs and chip != "cpu":
        with open(program.expected) as f:
            count = len(parse_output(f.read()))
        saved = os.path.join(args.outputs, f"{program.name}.{machine}.bin")
        if os.path.exists(saved):
            os.unlink(saved)
        command += [f"--output=+{saved}"] * count
    record["command"] = " ".join(shlex.quote(c) for c in command[:5]) + " <INPUTS>"
    start = time.monotonic()
    child = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, errors="replace", start_new_session=True)
    try:
        stdout, stderr = child.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        stdout, stderr = child.communicate()
        record.update(status="timeout", detail=f"killed after {args.timeout:g} s",
                      stderr_tail=tail(stderr))
        record["seconds"] = round(time.monotonic() - start, 2)
        return record
    record["seconds"] = round(time.monotonic() - start, 2)
    record["rc"] = child.returncode
    if report is not None:
        record["report"] = read_report(report)
    if child.returncode != 0:
        what = (f"signal {-child.returncode}" if child.returncode < 0
                else f"rc={child.returncode}")
        record.update(status="error", detail=f"iree-run-module {what}: {tail(stderr, 2, 200) or '(no stderr)'}",
                      stderr_tail=tail(stderr))
        return record
    if saved is not None:
        record.update(status="pass", detail=f"results in {saved}")
        return record
    try:
        got = parse_output(stdout)
    except ValueError as e:
        record.update(status="error", detail=f"unparsable output: {e}",
                      stdout_tail=tail(stdout), stderr_tail=tail(stderr))
        return record
    with open(program.expected) as f:
        want = parse_output(f.read())
    if chip != "cpu":
        want = [want[program.gpu_computes.get(i, i)] for i in range(len(want))]
    diff = compare(got, want, program)
    if diff is not None:
        record.update(status="mismatch", detail=diff[0], first_mismatch=diff[1])
    elif report is not None and (alive := live_objects(record["report"])):
        record.update(status="leak", detail="left alive: " + ", ".join(
            f"{k} {v}" for k, v in alive.items()))
    else:
        record.update(status="pass", detail="")
    return record


def read_report(path):
    """The counts of the simulator's report (`key value` lines; the
    `injected` lines are not counts); the file is removed."""
    counts = {}
    try:
        with open(path) as f:
            for line in f:
                key, _, value = line.strip().partition(" ")
                if value.isdigit():
                    counts[key] = int(value)
        os.unlink(path)
    except OSError:
        pass
    return counts


def live_objects(counts):
    """What a report says is alive: every count but the call, launch,
    read-back and instruction tallies; a missing report counts as one
    problem."""
    if not counts:
        return {"no report written": 1}
    return {k: v for k, v in counts.items()
            if v and not k.endswith("_calls")
            and not k.startswith(("launches", "instructions", "read_back_"))}


def print_table(records, out=sys.stdout):
    rows = [("program", "target", "status", "detail")]
    for r in records:
        target = "cpu (local-task)" if r["chip"] == "cpu" else f"{r['machine']}={r['chip']}"
        detail = " | ".join(r.get("detail", "").splitlines())
        rows.append((r["program"], target, r["status"], detail))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row[:3], widths)) + "  " + row[3], file=out)
    counts = {}
    for r in records:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    statuses = ("pass", "mismatch", "error", "timeout") + (("leak",) if "leak" in counts else ())
    summary = ", ".join(f"{counts.get(s, 0)} {s}" for s in statuses)
    print(f"\n{len(records)} runs: {summary}", file=out)


def installed_tool(variable, package, name):
    """A tool shipped inside a pip package: $variable if set, else `name`
    in the directory of the installed `package` (found by a child Python,
    so that only the package's own interpreter need have it), else `name`
    on PATH."""
    if os.environ.get(variable):
        return os.environ[variable]
    try:
        found = subprocess.run(
            [sys.executable, "-c",
             "import importlib.util, os, sys; "
             f"spec = importlib.util.find_spec({package!r}); "
             "print(os.path.dirname(spec.origin))"],
            capture_output=True, text=True, check=True)
        path = os.path.join(found.stdout.strip(), name)
        if os.access(path, os.X_OK):
            return path
    except (subprocess.CalledProcessError, OSError):
        pass
    return os.path.basename(name)


def default_iree_run_module():
    """pip's iree-run-module (iree-base-runtime), $IREE_RUN_MODULE first."""
    return installed_tool("IREE_RUN_MODULE", "iree._runtime_libs", "iree-run-module")


def default_iree_compile():
    """pip's iree-compile binary itself ($IREE_COMPILE first). The
    `iree-compile` on PATH is a console script: a Python interpreter (and,
    under pyenv, a shell shim before it) starts and then runs the binary,
    which costs more than the compiler's own start-up; the campaigns that
    compile thousands of modules pay it each time."""
    return installed_tool("IREE_COMPILE", "iree.compiler", "_mlir_libs/iree-compile")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="See the module docstring (head -50 scripts/kernels-check.py) for details.")
    parser.add_argument("lib", nargs="?", help="the libamdhip64 to test (not with --cpu)")
    parser.add_argument("--preset", action="append", default=[], metavar="MACHINE=CHIP")
    parser.add_argument("--program", action="append", default=[], metavar="NAME")
    parser.add_argument("--cpu", action="store_true")
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--outputs", metavar="DIR")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--iree-run-module", dest="iree_run_module")
    parser.add_argument("--corpus", default=os.path.join(ROOT, "fixtures", "kernels"))
    parser.add_argument("--modules", metavar="DIR")
    parser.add_argument("--device", choices=("hip", "amdgpu"), default="hip")
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    args.modules = args.modules or os.path.join(args.corpus, "vmfb")

    if args.cpu:
        if args.lib or args.preset:
            parser.error("--cpu takes neither LIB nor --preset")
        targets = [("local-task", "cpu")]
    else:
        if not args.lib or not args.preset:
            parser.error("give LIB and at least one --preset MACHINE=CHIP (or --cpu)")
        if args.device == "amdgpu":
            if not os.path.isfile(os.path.join(args.lib, KFD_STAND_IN)):
                parser.error(f"no {KFD_STAND_IN} in {args.lib} (--device amdgpu takes a directory)")
        elif not os.path.isfile(args.lib):
            parser.error(f"no such library: {args.lib}")
        args.lib = os.path.abspath(args.lib)
        targets = []
        for p in args.preset:
            machine, sep, chip = p.partition("=")
            if not sep or not machine or not chip:
                parser.error(f"--preset wants MACHINE=CHIP, got {p!r}")
            targets.append((machine, chip))
    args.iree_run_module = args.iree_run_module or default_iree_run_module()
    if not os.path.exists(args.iree_run_module) and "/" in args.iree_run_module:
        parser.error(f"no iree-run-module at {args.iree_run_module}")

    src = os.path.join(args.corpus, "src")
    names = args.program or sorted(f[:-5] for f in os.listdir(src) if f.endswith(".mlir"))
    programs = []
    for name in names:
        if not os.path.exists(os.path.join(src, name + ".mlir")):
            parser.error(f"no program {name} in {src}")
        programs.append(Program(args.corpus, name))

    if args.outputs:
        os.makedirs(args.outputs, exist_ok=True)
    jobs = [(p, t) for p in programs for t in targets]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        records = list(pool.map(lambda job: run_one(args, *job), jobs))
    print_table(records)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"lib": args.lib, "iree_run_module": args.iree_run_module,
                       "runs": records}, f, indent=1)
            f.write("\n")
    return 0 if all(r["status"] == "pass" for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
