#!/usr/bin/env python3
"""Differential testing of the simulated GPUs against IREE's CPU backend
with random programs (docs/IREE-DIFF.md).

usage: run.py --seeds A..B [--chips gfx942,gfx90a,gfx1100] [--jobs N]
              [--keep DIR] [--json OUT] [--lib LIB]
       run.py --seed N --show          print seed N's program
       run.py --seed N [--chips ...]   run one seed, printing every outcome

Each seed's program (gen.py) is compiled by iree-compile for llvm-cpu and for
each chip's HIP target (modules cached by content hash under
target/iree-diff/cache, or --cache DIR), run by iree-run-module on --device=local-task and on
the simulated node (--device=hip://0 with the library, AMDGPU_SIM_MACHINE
the chip's preset), and the GPU's results compared with the CPU's: integers
exactly; float results bit for bit (any NaN equals any NaN) or, for
transcendental functions, within the program's declared relative and
absolute bounds.

Outcomes per seed and chip: agree; mismatch; unsupported (the interpreter
lacks an instruction: `amdgpu-sim: kernel ... cannot execute: ... not
supported`); fault (`faulted`, or SIGABRT, which the library raises on a
kernel fault; a run that prints a kernel's fault or failure is classified
by it even when iree-run-module exits 0); error (other failures); timeout; compile-error (only the GPU
compile failed); invalid (the CPU compile or run failed: a generator
problem, reported, not a disagreement). A disagreement that known.json
explains becomes known:ID. Every disagreement is kept under --keep DIR
(default target/iree-diff/keep/seed-N/): the program, each chip's record
(both outputs, the simulator's stderr) and repro-CHIP.sh.

Exit status: 0 when every disagreement is explained, 1 otherwise, 2 on a
usage error.
"""
import argparse
import concurrent.futures
import hashlib
import importlib.util
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
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import evaluate  # noqa: E402
import gen  # noqa: E402
import values as V  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
CHIPS = {"gfx942": "mi300x-8", "gfx90a": "mi250x-4", "gfx1100": "w7900"}
DEFAULT_CACHE = os.path.join(ROOT, "target", "iree-diff", "cache")
DEFAULT_KEEP = os.path.join(ROOT, "target", "iree-diff", "keep")
DEFAULT_LIB = os.path.join(ROOT, "target", "debug", "libamdgpu_sim_ffi.so")
UNSUPPORTED = re.compile(r"cannot execute: .*instruction `([^`]+)` is not supported")
DISAGREE = ("mismatch", "unsupported", "fault", "error", "timeout", "compile-error")


def load_kernels_check():
    """scripts/kernels-check.py as a module (its parser and comparator)."""
    path = os.path.join(ROOT, "scripts", "kernels-check.py")
    spec = importlib.util.spec_from_file_location("kernels_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KC = load_kernels_check()
EXACT = types.SimpleNamespace(exact=True, rel=0.0, abs=0.0)


def target_flags(target):
    """iree-compile's target flags (as fixtures/kernels/build.sh's)."""
    if target == "cpu":
        return ["--iree-hal-target-device=local", "--iree-hal-local-target-device-backends=llvm-cpu",
                "--iree-llvmcpu-target-cpu=generic"]
    return ["--iree-hal-target-device=hip", f"--iree-rocm-target={target}"]


def compiler_version(compile_tool):
    """The compiler's version line (part of every cache key)."""
    out = subprocess.run([compile_tool, "--version"], capture_output=True, text=True)
    return out.stdout.strip()


def compile_module(args, text, target, flags):
    """The cached module of text for target: (path, None, "") or (None,
    errors, the compiler's whole stderr)."""
    command = target_flags(target) + flags
    key = hashlib.sha256("\0".join([args.version, text] + command).encode()).hexdigest()[:24]
    path = os.path.join(args.cache, f"{key}.{target}.vmfb")
    if os.path.exists(path):
        return path, None, ""
    fd, source = tempfile.mkstemp(suffix=".mlir", prefix="iree-diff-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    tmp = path + f".{os.getpid()}.tmp"
    try:
        done = subprocess.run([args.iree_compile, source, *command, "-o", tmp],
                              capture_output=True, text=True, timeout=args.compile_timeout)
    except subprocess.TimeoutExpired:
        if os.path.exists(tmp):
            os.unlink(tmp)
        message = f"iree-compile took more than {args.compile_timeout:g} s"
        return None, message, message
    finally:
        os.unlink(source)
    if done.returncode != 0:
        if os.path.exists(tmp):
            os.unlink(tmp)
        errors = [l for l in done.stderr.splitlines()
                  if "error" in l or "Running pass" in l] or done.stderr.splitlines()
        return None, "\n".join(errors[:5]), done.stderr
    os.replace(tmp, path)
    return path, None, ""


def run_module(args, module, program, chip, entry="main"):
    """Runs @entry of module on the CPU (chip None) or the chip's preset:
    (returncode or 'timeout', stdout, stderr, command)."""
    if chip is None:
        device, env = ["--device=local-task"], dict(os.environ)
    else:
        device = ["--device=hip://0", f"--hip_dylib_path=file:{args.lib}"]
        env = dict(os.environ, AMDGPU_SIM_MACHINE=CHIPS[chip])
    env.pop("AMDGPU_SIM_FAULTS", None)
    command = [args.iree_run_module, *device, f"--module={module}", f"--function={entry}",
               f"--output_max_element_count={KC.MAX_ELEMENTS}", *program.input_flags()]
    child = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, errors="replace",
                             start_new_session=True)
    try:
        stdout, stderr = child.communicate(timeout=args.timeout)
        return child.returncode, stdout, stderr, command
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        stdout, stderr = child.communicate()
        return "timeout", stdout, stderr, command


def element_ok(got, want, t, tolerance):
    """Whether one printed element (integers; a float's bits) matches."""
    g, w = int(got, 10), int(want, 10)
    if t not in V.FLOATS:
        return g == w
    x, y = V.from_bits(t, g), V.from_bits(t, w)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if tolerance is None or math.isinf(x) or math.isinf(y):
        return V.wrap(V.bits_type(t), g) == V.wrap(V.bits_type(t), w)
    rel, absolute = tolerance
    return abs(x - y) <= absolute + rel * abs(y)


def show_element(token, t):
    """A printed element, with its float value for float results."""
    if t not in V.FLOATS:
        return token
    bits = int(token, 10) & ((1 << V.WIDTH[t]) - 1)
    return f"{V.from_bits(t, bits)!r} (0x{bits:0{V.WIDTH[t] // 4}x})"


def narrow_denormal(x, t, text):
    """Whether x (a value of t) is a denormal of a narrower float type the
    program computes in (f16 or bf16 in f32 or f64, f32 in f64), held
    exactly: an f16 exp2 of 2^-24 extended to f32 is 5.96e-08."""
    for narrow in ("f16", "bf16", "f32"):
        if V.WIDTH[narrow] >= V.WIDTH[t] or (text is not None and narrow not in text):
            continue
        if V.is_denormal(narrow, x) and V.from_bits(narrow, V.to_bits(narrow, x)) == x:
            return True
    return False


def mismatch_pattern(pairs, t, text=None):
    """'gpu-denormal-cpu-zero' when every differing element is a denormal
    on the GPU (of t, or of a narrower float type the program text uses,
    extended) and a zero on the CPU, else ''."""
    try:
        values = [(V.from_bits(t, int(g, 10)), V.from_bits(t, int(w, 10))) for g, w in pairs]
    except (ValueError, KeyError):
        return ""
    if values and all((V.is_denormal(t, g) or narrow_denormal(g, t, text)) and w == 0
                      for g, w in values):
        return "gpu-denormal-cpu-zero"
    return ""


def compare(got, want, program):
    """None when the GPU's results match the CPU's, else a detail dict.
    Integer results go through kernels-check's exact comparator; float
    results (printed as their bits) through element_ok."""
    if len(got) != len(want):
        return {"detail": f"{len(got)} results, expected {len(want)}"}
    for r, (g, w) in enumerate(zip(got, want)):
        t, tolerance = program.results[r][2], program.tolerances[r]
        if t not in V.FLOATS or g.type() != w.type():
            diff = KC.compare([g], [w], EXACT)
            if diff:
                return dict(diff[1], detail=f"result[{r}] " + diff[0].split(" ", 1)[1],
                            result=r, type=t)
            continue
        bad = [k for k, (a, b) in enumerate(zip(g.tokens, w.tokens))
               if not element_ok(a, b, t, tolerance)]
        if bad:
            k = bad[0]
            index = KC.unravel(k, w.shape)
            pattern = mismatch_pattern([(g.tokens[i], w.tokens[i]) for i in bad], t, program.text())
            return {"detail": f"result[{r}] {t} at {index}: got {show_element(g.tokens[k], t)}, "
                              f"expected {show_element(w.tokens[k], t)} "
                              f"({len(bad)}/{len(w.tokens)} elements differ)"
                              + (f" [{pattern}]" if pattern else ""),
                    "result": r, "type": t, "index": index, "flat_index": k,
                    "differing": len(bad)}
    return None


def failing(got, want, program):
    """The indices of the results that differ beyond their tolerance."""
    bad = []
    for r, (g, w) in enumerate(zip(got, want)):
        t, tolerance = program.results[r][2], program.tolerances[r]
        if t not in V.FLOATS or g.type() != w.type():
            if g.tokens != w.tokens or g.type() != w.type():
                bad.append(r)
        elif any(not element_ok(a, b, t, tolerance) for a, b in zip(g.tokens, w.tokens)):
            bad.append(r)
    return bad


EVALUATED_KINDS = ("elementwise", "dynamic", "tensor_ops", "movement")


# The evaluator's verdicts that explain a failing result by the CPU.
EXPLAINING = ("evaluator-agrees-denormal-on-the-way", "evaluator-agrees-cpu-transcendental-off",
              "evaluator-agrees-but-a-nan-sign")


def explanation(got, want, program):
    """The set of tags explaining every failing result by IREE's CPU:
    'gpu-denormal-cpu-zero' for a result whose differing elements are all
    denormals on the GPU and zeros on the CPU; else the evaluator's verdict
    (evaluate.verdict) when it is one of EXPLAINING. None when some
    failing result has no such explanation (then no tag: a class must not
    hide it); the evaluator's other verdicts are added for the reader."""
    tags, explained = set(), True
    text = program.text()
    try:
        bad = failing(got, want, program)
    except (ValueError, IndexError, KeyError):
        return None
    for r in bad:
        g, w = got[r], want[r]
        t, tolerance = program.results[r][2], program.tolerances[r]
        if t in V.FLOATS and g.type() == w.type():
            pairs = [(a, b) for a, b in zip(g.tokens, w.tokens)
                     if not element_ok(a, b, t, tolerance)]
            if mismatch_pattern(pairs, t, text):
                tags.add("gpu-denormal-cpu-zero")
                continue
        opinion = None
        if program.kind in EVALUATED_KINDS:
            opinion = evaluate.verdict(text, program.inputs, got, want, program.tolerances,
                                       r, program.kind)
        if opinion in EXPLAINING:
            tags.add(opinion)
            continue
        explained = False
        if opinion:
            tags.add(opinion)
    if not explained:
        return {t for t in tags if t not in EXPLAINING and t != "gpu-denormal-cpu-zero"} or None
    return tags or None


def classify_failure(code, stderr):
    """The outcome of a GPU run that did not finish normally."""
    if code == "timeout":
        return "timeout", ""
    m = UNSUPPORTED.search(stderr)
    if m:
        return "unsupported", m.group(1)
    if "faulted" in stderr or code == -signal.SIGABRT:
        return "fault", ""
    return "error", ""


def run_seed(args, seed):
    """Every chip's outcome for one seed, compiled alone: a list of record
    dicts."""
    return run_alone(args, gen.Program(seed))


def batch_text(programs):
    """One module holding every program, @main of seed N renamed @sN."""
    return "\n".join(p.text().replace("func.func @main(", f"func.func @s{p.seed}(", 1)
                     for p in programs)


# Where the compiler's messages name a program of a batch: a dispatch of
# @sN (LLVM's "Running pass ... on function '@sN_dispatch_...'"), or an
# error at a line of the batch's text.
BLAME = re.compile(r"@s(\d+)_|^\S*\.mlir:(\d+):\d+: error", re.M)


def blamed(programs, stderr):
    """The seeds of the programs that the compiler's stderr names."""
    starts, line = [], 1
    for p in programs:
        starts.append((line, p.seed))
        line += p.text().count("\n") + 1
    seeds = set()
    for m in BLAME.finditer(stderr):
        if m.group(1):
            seeds.add(int(m.group(1)))
        else:
            at = int(m.group(2))
            seeds.add(max((s for s in starts if s[0] <= at), default=starts[0])[1])
    return seeds & {p.seed for p in programs}


def compile_batch(args, programs, target):
    """The module of the programs that compile together for target: (path,
    their seeds), or (None, empty) when none do. A program the compiler's
    errors name is left out and the rest compiled again, so one program the
    compiler rejects (or crashes on) decides only its own outcome: it is
    compiled alone, later, for its own record."""
    members = list(programs)
    while len(members) > 1:
        module, _, stderr = compile_module(args, batch_text(members), target,
                                           members[0].compile_flags)
        if module is not None:
            return module, {p.seed for p in members}
        culprits = blamed(members, stderr)
        if not culprits:
            break
        members = [p for p in members if p.seed not in culprits]
    return None, set()


def run_batch(args, seeds):
    """Every chip's outcome for consecutive seeds, compiled as one module per
    target (iree-compile's start-up, most of a small program's compile
    time, paid once): a list of record dicts. Programs with other compile
    flags go in a module of their own."""
    groups = {}
    for seed in seeds:
        program = gen.Program(seed)
        groups.setdefault(tuple(program.compile_flags), []).append(program)
    records = []
    for programs in groups.values():
        records += run_together(args, programs)
    return records


def run_together(args, programs):
    """Compiles programs as one module for the CPU and each chip, runs each
    program's function, and compares; those left out of a target's batch
    run alone."""
    start = time.monotonic()
    cpu_module, cpu_seeds = compile_batch(args, programs, "cpu")
    cpu_seconds = round((time.monotonic() - start) / len(programs), 2)
    chip_modules = {}
    records = []
    for program in programs:
        if program.seed not in cpu_seeds:
            records += run_alone(args, program)
            continue
        base = {"seed": program.seed, "kind": program.kind, "cpu_seconds": cpu_seconds}
        entry = f"s{program.seed}"
        cpu = run_on_cpu(args, program, cpu_module, entry)
        if isinstance(cpu, str):
            records += [dict(base, chip=c, outcome="invalid", detail=cpu) for c in args.chips]
            continue
        for chip in args.chips:
            if chip not in chip_modules:
                start = time.monotonic()
                chip_modules[chip] = (*compile_batch(args, programs, chip),
                                      round((time.monotonic() - start) / len(programs), 2))
            module, seeds, seconds = chip_modules[chip]
            compiled = (module, None, seconds, entry) if program.seed in seeds else None
            records.append(run_chip(args, program, dict(base, chip=chip), cpu, compiled))
    return records


def run_alone(args, program):
    """Every chip's outcome for one program compiled alone."""
    base = {"seed": program.seed, "kind": program.kind}
    start = time.monotonic()
    cpu_module, errors, _ = compile_module(args, program.text(), "cpu", program.compile_flags)
    base["cpu_seconds"] = round(time.monotonic() - start, 2)
    if cpu_module is None:
        return [dict(base, chip=c, outcome="invalid", detail="cpu compile: " + errors)
                for c in args.chips]
    cpu = run_on_cpu(args, program, cpu_module, "main")
    if isinstance(cpu, str):
        return [dict(base, chip=c, outcome="invalid", detail=cpu) for c in args.chips]
    return [run_chip(args, program, dict(base, chip=chip), cpu, None) for chip in args.chips]


def run_on_cpu(args, program, module, entry):
    """The CPU's (parsed results, stdout) of @entry, or why it failed (a
    string: the program is invalid)."""
    code, out, err, _ = run_module(args, module, program, None, entry)
    try:
        want = KC.parse_output(out) if code == 0 else None
    except ValueError as e:
        code, err = "unparsable", str(e)
    if code != 0:
        return f"cpu run {code}: {KC.tail(err, 2)}"
    return want, out


def run_chip(args, program, record, cpu, compiled):
    """Runs the program on record's chip and compares with the CPU's
    (parsed results, stdout): the completed record. compiled is (module,
    errors, seconds, entry) of a batch, or None to compile it alone."""
    chip = record["chip"]
    text = program.text()
    if compiled is None:
        start = time.monotonic()
        module, errors, _ = compile_module(args, text, chip, program.compile_flags)
        compiled = (module, errors, round(time.monotonic() - start, 2), "main")
    module, errors, record["compile_seconds"], entry = compiled
    command = None
    if module is None:
        record.update(outcome="compile-error", detail=errors)
    else:
        start = time.monotonic()
        code, out, err, command = run_module(args, module, program, chip, entry)
        record["run_seconds"] = round(time.monotonic() - start, 2)
        record["stderr"] = KC.tail(err, 8)
        judge(record, program, code, out, err, cpu)
    if record["outcome"] != "agree":
        record["ops"] = sorted(program.ops)
        explain(args.known, record, text)
        keep(args, record, text, module, command)
    return record


def judge(record, program, code, out, err, cpu):
    """Sets record's outcome from the GPU run (exit status, stdout, stderr)
    and the CPU's (parsed results, stdout)."""
    if code != 0 or "amdgpu-sim: kernel" in err:
        outcome, instruction = classify_failure(code, err)
        sim = [l for l in err.splitlines() if l.startswith("amdgpu-sim:")]
        record.update(outcome=outcome,
                      detail=f"rc={code}: " + (sim[0] if sim else KC.tail(err, 2, 300)))
        if instruction:
            record["instruction"] = instruction
        return
    want, cpu_out = cpu
    try:
        got = KC.parse_output(out)
        diff = compare(got, want, program)
    except ValueError as e:
        got, diff = None, {"detail": f"unparsable output: {e}"}
    if diff is None:
        record.update(outcome="agree", detail="")
        return
    tags = explanation(got, want, program) if got is not None else None
    diff["detail"] = diff["detail"].replace(" [gpu-denormal-cpu-zero]", "")
    if tags:
        diff["detail"] += "".join(f" [{tag}]" for tag in sorted(tags))
    record.update(diff, outcome="mismatch", got=out, expected=cpu_out)


def rejudge(known, record):
    """A record of an earlier run judged again by today's classification: a
    disagreement (known or not) is matched against known.json anew, a
    mismatch first explained anew from its stored outputs."""
    outcome = record.get("class", record["outcome"])
    if outcome not in DISAGREE:
        return record
    record = dict(record, outcome=outcome)
    record.pop("class", None)
    program = gen.Program(record["seed"])
    if outcome == "mismatch" and "got" in record:
        detail = re.sub(r"( \[[a-z-]+\])+$", "", record.get("detail", ""))
        try:
            got, want = KC.parse_output(record["got"]), KC.parse_output(record["expected"])
            tags = explanation(got, want, program)
        except ValueError:
            tags = None
        record["detail"] = detail + "".join(f" [{tag}]" for tag in sorted(tags or ()))
    explain(known, record, program.text())
    return record


def load_known(path):
    """The known disagreement classes (known.json): id, chips, outcome,
    optional instruction / detail / program regexes, reason, evidence."""
    with open(path) as f:
        return json.load(f)["classes"]


def explain(known, record, text):
    """Marks a disagreement known:ID when a known class matches it."""
    for k in known:
        if record["chip"] not in k["chips"] or record["outcome"] != k["outcome"]:
            continue
        if "instruction" in k and not re.fullmatch(k["instruction"], record.get("instruction", "")):
            continue
        if "detail" in k and not re.search(k["detail"], record.get("detail", "")):
            continue
        if "program" in k and not re.search(k["program"], text):
            continue
        record["class"] = record["outcome"]
        record["outcome"] = "known:" + k["id"]
        return


def repro_script(args, record, command):
    """repro-CHIP.sh's text: the compile and run commands of one disagreement."""
    chip, seed = record["chip"], record["seed"]
    lines = ["#!/bin/sh", f"# iree-diff seed {seed} on {chip}: {record['outcome']}",
             f"# rerun: scripts/iree-diff/run.py --seed {seed} --chips {chip}",
             "cd \"$(dirname \"$0\")\"",
             shlex.join(["iree-compile", "program.mlir", *target_flags(chip),
                         "--iree-input-demote-f64-to-f32=false", "-o", f"{chip}.vmfb"]),
             shlex.join(["iree-compile", "program.mlir", *target_flags("cpu"),
                         "--iree-input-demote-f64-to-f32=false", "-o", "cpu.vmfb"])]
    inputs = [c for c in command if c.startswith("--input=")]
    run = [args.iree_run_module, "--function=main", f"--output_max_element_count={KC.MAX_ELEMENTS}"]
    lines.append(shlex.join([f"AMDGPU_SIM_MACHINE={CHIPS[chip]}", *run, "--device=hip://0",
                             f"--hip_dylib_path=file:{args.lib}", f"--module={chip}.vmfb", *inputs]))
    lines.append(shlex.join([*run, "--device=local-task", "--module=cpu.vmfb", *inputs]))
    return "\n".join(lines) + "\n"


def keep(args, record, text, module, command):
    """Writes a disagreement's program, record and repro-CHIP.sh under --keep."""
    where = os.path.join(args.keep, f"seed-{record['seed']}")
    os.makedirs(where, exist_ok=True)
    with open(os.path.join(where, "program.mlir"), "w") as f:
        f.write(text)
    with open(os.path.join(where, f"{record['chip']}.json"), "w") as f:
        json.dump(record, f, indent=1)
    path = os.path.join(where, f"repro-{record['chip']}.sh")
    if module is not None:
        with open(path, "w") as f:
            f.write(repro_script(args, record, command))
        os.chmod(path, 0o755)
    record["kept"] = os.path.relpath(where, ROOT)
    record["repro"] = f"scripts/iree-diff/run.py --seed {record['seed']} --chips {record['chip']}"


def summary(records, seconds, jobs, out=sys.stdout):
    """The per-chip table (programs, agree, known, each disagreement
    outcome, mean compile and run seconds), then the known classes met."""
    chips = sorted({r["chip"] for r in records}, key=list(CHIPS).index)
    outcomes = ("agree", "known") + DISAGREE + ("invalid",)
    rows = [["chip", "programs", *outcomes, "compile s", "run s"]]
    for chip in chips:
        mine = [r for r in records if r["chip"] == chip]
        timed = [r for r in mine if "compile_seconds" in r]
        avg = lambda key: sum(r.get(key, 0) for r in timed) / max(1, len(timed))  # noqa: E731
        count = lambda o: sum(r["outcome"].split(":")[0] == o for r in mine)  # noqa: E731
        rows.append([chip, str(len(mine)), *(str(count(o)) for o in outcomes),
                     f"{avg('compile_seconds'):.1f}", f"{avg('run_seconds'):.2f}"])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))),
              file=out)
    for known in sorted({r["outcome"] for r in records if r["outcome"].startswith("known:")}):
        per_chip = ", ".join(f"{c} {sum(r['outcome'] == known and r['chip'] == c for r in records)}"
                             for c in chips)
        print(f"  {known}: {per_chip}", file=out)
    seeds = len({r["seed"] for r in records})
    if seconds is None:
        print(f"\n{seeds} seeds", file=out)
        return
    print(f"\n{seeds} seeds in {seconds:.0f} s with {jobs} jobs: "
          f"{60 * seeds / max(seconds, 1e-9):.1f} programs per minute (all chips)", file=out)


def parse_seeds(text):
    """'A..B' (inclusive), 'N', or a comma-separated list of either, as a
    list of seeds; ValueError on anything else."""
    seeds = []
    for part in text.split(","):
        a, sep, b = part.strip().partition("..")
        seeds += range(int(a), int(b) + 1) if sep else [int(a)]
    return seeds


def main():
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", metavar="A..B")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--show", action="store_true", help="print the program of --seed")
    parser.add_argument("--chips", default=",".join(CHIPS))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--batch", type=int, default=25,
                        help="programs compiled as one module per target (1: each alone)")
    parser.add_argument("--keep", default=DEFAULT_KEEP, metavar="DIR")
    parser.add_argument("--json", metavar="OUT")
    parser.add_argument("--records", metavar="FILE",
                        help="append each batch's records to FILE as JSON lines as they finish")
    parser.add_argument("--summarize", metavar="FILE", nargs="+",
                        help="print the table of --records files, their mismatches judged "
                             "again by today's evaluator and known.json (no runs; with "
                             "--records OUT, write the records judged again)")
    parser.add_argument("--lib", default=DEFAULT_LIB)
    parser.add_argument("--cache", default=DEFAULT_CACHE, help="compiled modules by content hash")
    parser.add_argument("--known", default=os.path.join(HERE, "known.json"))
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run")
    parser.add_argument("--compile-timeout", type=float, default=300.0,
                        help="seconds per compile (a compile cut short is a compile-error)")
    parser.add_argument("--iree-compile", dest="iree_compile")
    parser.add_argument("--iree-run-module", dest="iree_run_module")
    args = parser.parse_args()
    if args.summarize:
        records = []
        for path in args.summarize:
            with open(path) as f:
                records += [json.loads(line) for line in f if line.strip()]
        known = load_known(args.known)
        records = [rejudge(known, r) for r in records]
        if args.records:
            with open(args.records, "w") as f:
                f.writelines(json.dumps(r) + "\n" for r in records)
        summary(records, None, None)
        return 1 if any(r["outcome"] in DISAGREE for r in records) else 0
    if (args.seeds is None) == (args.seed is None):
        parser.error("give --seeds A..B or --seed N")
    if args.show:
        if args.seed is None:
            parser.error("--show needs --seed N")
        sys.stdout.write(gen.Program(args.seed).text())
        return 0
    args.chips = [c for c in args.chips.split(",") if c]
    if any(c not in CHIPS for c in args.chips):
        parser.error(f"chips are {', '.join(CHIPS)}")
    if not os.path.isfile(args.lib):
        parser.error(f"no library {args.lib} (cargo build -p amdgpu-sim-ffi)")
    args.lib = os.path.abspath(args.lib)
    args.keep = os.path.abspath(args.keep)
    args.known = load_known(args.known)
    args.iree_run_module = args.iree_run_module or KC.default_iree_run_module()
    args.iree_compile = args.iree_compile or KC.default_iree_compile()
    args.version = compiler_version(args.iree_compile)
    os.makedirs(args.cache, exist_ok=True)
    try:
        seeds = parse_seeds(args.seeds) if args.seeds else [args.seed]
    except ValueError:
        print(f"run.py: --seeds takes A..B, N or a comma-separated list of them, not {args.seeds!r}",
              file=sys.stderr)
        return 2
    start = time.monotonic()
    records = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        size = max(1, args.batch) if args.seed is None else 1
        batches = [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]
        # Each batch is reported as it finishes, not in seed order: one
        # slow batch must not hold back the records of the others.
        futures = [pool.submit(run_batch if len(b) > 1 else run_seed, args,
                               b if len(b) > 1 else b[0]) for b in batches]
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            records += result
            if args.records:
                with open(args.records, "a") as f:
                    f.writelines(json.dumps(r) + "\n" for r in result)
            for r in result:
                if r["outcome"] != "agree" or args.seed is not None:
                    print(f"seed {r['seed']} {r['chip']} {r['kind']}: {r['outcome']} "
                          f"{r.get('detail', '')[:400]}" + (f"\n  repro: {r['repro']}" if "repro" in r else ""),
                          flush=True)
    print()
    records.sort(key=lambda r: (r["seed"], list(CHIPS).index(r["chip"])))
    summary(records, time.monotonic() - start, args.jobs)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"lib": args.lib, "compiler": args.version, "records": records}, f, indent=1)
            f.write("\n")
    return 1 if any(r["outcome"] in DISAGREE for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
