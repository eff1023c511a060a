#!/usr/bin/env python3
"""Runs IREE's own end-to-end check suites (tests/e2e/ of IREE's source) for
the ROCm backend on a simulated node, as IREE's ctest would on an AMD GPU.

usage: run.py LIBRARY [options]

LIBRARY is the libamdhip64 to test (the simulator's libamdgpu_sim_ffi.so),
handed to IREE's HIP driver as --hip_dylib_path=file:LIBRARY.

  --preset M=CHIP      a simulated machine and the chip its modules are
                       compiled for (AMDGPU_SIM_MACHINE=M); repeatable
                       (default mi300x-8=gfx942 mi250x-4=gfx90a w7900=gfx1100;
                       the newest presets are r9700-4=gfx1201, mi355x-8=gfx950)
  --iree-src DIR       IREE's source tree (default target/iree-cts/src, laid
                       out by scripts/iree-cts/build.sh)
  --tools DIR          IREE's runners built with the HIP driver: iree-check-module
                       and iree-e2e-{matmul,conv2d,attention}-test (default
                       target/iree-cts, scripts/iree-cts/build.sh's)
  --iree-compile P     the compiler (default: $IREE_COMPILE, else the binary of
                       pip's iree-base-compiler package, else iree-compile on PATH; pip's
                       iree-base-compiler 3.13)
  --work DIR           modules, logs and results (default target/iree-e2e)
  --suite GLOB         only suites whose DIR/NAME matches; repeatable; GLOB:SRC
                       only that suite's sources whose file name SRC matches
  --jobs N             compiles or runs at once (default: the cores)
  --timeout S          seconds one test file may run (default 300, IREE's
                       TIMEOUT for its slow ROCm suites)
  --compile-timeout S  seconds one compile may take (default 900)
  --json PATH          the results (default WORK/results.json)
  --compile-only       compile, do not run
  --generated          also the generated suites (matmul, attention): see below

The suites come from IREE's CMake (suites.py: which are enabled for
TARGET_BACKEND rocm and DRIVER hip, chip gates, IREE's exclusions). Each
source is compiled as IREE's iree_check_test does:

  iree-compile --output-format=vm-bytecode --mlir-print-op-on-diagnostic=false
    --iree-hal-target-backends=rocm [--iree-input-type=T]
    --iree-rocm-target=CHIP COMPILER_FLAGS SRC -o X.vmfb

(pip's 3.13 compiler reads these spellings), cached under WORK/modules by a
hash of the compiler's version, the arguments and the source, so a rerun
compiles nothing that did not change. A source 3.13 cannot parse as it is
(IREE wrote it for the compiler of b48a5955) is respelled by respell.py's
mechanical, meaning-preserving rules into a copy under WORK/respelled
(generated sources too; IREE's tree is never written), and the copy is
compiled instead when it parses: its test records "respelled" (the rules)
and each of its compiles the copy and the rules; a copy that still does not
parse leaves the test compile-unsupported ("respell_tried"). Each module runs in a process of its
own, as ctest runs it:

  iree-check-module --device=hip --hip_dylib_path=file:LIBRARY
    --module=X.vmfb RUNNER_ARGS --gtest_output=json:...

with AMDGPU_SIM_MACHINE=M and AMDGPU_SIM_REPORT (the simulator's counts:
the kernel launches executed and the digest of what the client read back,
kept per test; other AMDGPU_SIM_ settings of the caller's environment, such
as AMDGPU_SIM_THREADS, pass through); two suites whose modules are the same bytes and
runner arguments share one run.

With --generated, each generated suite (iree_generated_e2e_runner_test for
rocm/hip) is one test more, in row DIR/(generated): its generator
(tests/e2e/DIR/generate_e2e_*.py, PYTHONPATH=IREE's source) writes a tests
and a calls source under WORK/generated/CHIP, both compile with
--iree-hal-target-backends=rocm and the suite's COMPILER_FLAGS (which name
the chip), and IREE's runner runs them (--module=tests --module=calls
RUNNER_ARGS). The runner compares with its own reference on the host; a
NOT_FOUND status, which it answers with exit status 0, is an error here.

Outcomes, one per test file and chip (the first that applies):
  excluded             IREE does not run it for this chip: the suite is in an
                       if() branch not taken (its condition is the cause), or
                       the source is commented out of the suite's SRCS (the
                       comment is the cause)
  compile-unsupported  iree-compile 3.13 cannot parse or verify the source,
                       nor a respelled copy (--compile-to=start reports an
                       error before the one 3.13 gives every such run)
  compile-failed       it parses, and compilation fails later
  compiled-only        a suite without DRIVER: IREE only compiles it (with
                       --compile-only: every test that compiled)
  unsupported          the simulator printed `amdgpu-sim: kernel ... cannot
                       execute: ...` (an instruction or feature the
                       interpreter lacks: the cause)
  fault                it printed `amdgpu-sim: kernel ... faulted: ...`
  hang                 killed after --timeout
  crash                the process died of a signal
  passed               exit status 0
  failed               a check.expect_* failed (the check module's
                       "Expected ..." message), or a generated suite's result
                       disagrees with its reference
  error                anything else: a failing status (the message)
A suite with WILL_FAIL swaps passed and failed, as ctest does.

Writes WORK/results.json or --json (every test: outcome, cause, the functions
gtest ran and how they went, seconds; the suites; the compile and run wall
time per chip; the generated suites this does not run), and prints a table
per suite and chip, the wall times and the causes.

Exit status: 0 whatever the tests did (a caller judges the results), 2 on a
usage error.
"""
import argparse
import collections
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import re
import shlex
import signal
import importlib.util
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from harness_progress import Progress  # noqa: E402
import respell  # noqa: E402
import suites as cmake_suites  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_PRESETS = ["mi300x-8=gfx942", "mi250x-4=gfx90a", "w7900=gfx1100"]
OUTCOMES = ["passed", "failed", "unsupported", "fault", "hang", "crash", "error",
            "compile-unsupported", "compile-failed", "compiled-only", "excluded"]
# Bumped when what a cached compile records changes.
CACHE_LAYOUT = 1
GENERATED_RUNNERS = ["iree-e2e-matmul-test", "iree-e2e-conv2d-test", "iree-e2e-attention-test"]
SIM_UNSUPPORTED = re.compile(r"amdgpu-sim: kernel `([^`]*)` cannot execute: (.*)")
SIM_FAULT = re.compile(r"amdgpu-sim: kernel `([^`]*)` faulted: (.*)")
INSTRUCTION = re.compile(r"instruction `([^`]+)` is not supported")
CHECK_FAILURE = re.compile(r"^Expected (equality|near equality|.* to be (non)?zero)")
# A generated suite's runner: a result that differs from its reference, and
# the NOT_FOUND status it answers with exit status 0 ("device unavailable").
RUNNER_MISMATCH = re.compile(r"error: the actual and expected result \w+ disagree[^\n]*")
RUNNER_NOT_FOUND = re.compile(r"\bNOT_FOUND;")
DIAGNOSTIC = re.compile(r"^(?:\S+:\d+:\d+: )?error: (.*)$")
# What iree-compile 3.13 says to every --compile-to=start, a source that
# parses and verifies included: its default --compile-from is `start` too,
# and it wants from before to. Reaching it means the source parsed.
PHASE_ONLY = "compile-from phase start must precede compile-to phase start"
# Bumped when how a cached failure was told compile-unsupported from
# compile-failed changes (a record without it is checked again, which costs
# one parse, not a compile).
PARSE_CHECK = 2


def default_iree_compile():
    """pip's iree-compile binary itself, as scripts/kernels-check.py finds
    it (the console script on PATH starts Python first, every compile)."""
    path = os.path.join(ROOT, "scripts", "kernels-check.py")
    spec = importlib.util.spec_from_file_location("kernels_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.default_iree_compile()


def tail(text, lines=8, width=400):
    """The last non-empty lines of text, each cut to width characters."""
    kept = [l.rstrip() for l in text.strip().splitlines() if l.strip()][-lines:]
    return "\n".join(l if len(l) <= width else l[:width - 3] + "..." for l in kept)


def first_error(text):
    """The first `error:` diagnostic of a compiler's output, without its
    location, else its last line."""
    for line in text.splitlines():
        m = DIAGNOSTIC.match(line.strip())
        if m:
            return m.group(1).strip()
    return tail(text, 1) or "(no output)"


def parsed(ok, output):
    """Whether an `iree-compile --compile-to=start` that ended so parsed and
    verified its source: it succeeded, or its only errors are PHASE_ONLY
    (3.13 fails every such run with it, after parsing)."""
    if ok:
        return True
    errors = [m.group(1).strip() for m in map(DIAGNOSTIC.match, map(str.strip, output.splitlines()))
              if m]
    return bool(errors) and all(e == PHASE_ONLY for e in errors)


def normalize(message):
    """A message with addresses and numbers blanked, to group like causes."""
    message = re.sub(r"0x[0-9a-fA-F]+", "0x…", message)
    return re.sub(r"\b\d+\b", "N", message)


class Compiler:
    """iree-compile with a cache of its outputs under WORK/modules."""

    def __init__(self, path, cache_dir, timeout, respell_dir=None):
        self.path = path
        self.cache_dir = cache_dir
        self.respell_dir = respell_dir or os.path.join(os.path.dirname(cache_dir), "respelled")
        self.timeout = timeout
        version = subprocess.run([path, "--version"], capture_output=True, text=True)
        self.version = version.stdout.strip()
        os.makedirs(cache_dir, exist_ok=True)

    @staticmethod
    def arguments(suite, chip):
        """The flags IREE passes: iree_check_test's (INPUT_TYPE is among
        the suite's compiler flags already), or for a generated suite
        iree_e2e_runner_test's, whose COMPILER_FLAGS name the chip."""
        base = ["--output-format=vm-bytecode", "--mlir-print-op-on-diagnostic=false",
                "--iree-hal-target-backends=rocm"]
        if not suite.generator:
            base.append(f"--iree-rocm-target={chip}")
        return base + suite.compiler_flags

    def key(self, source, flags):
        with open(source, "rb") as f:
            content = hashlib.sha256(f.read()).hexdigest()
        text = json.dumps([CACHE_LAYOUT, self.version, flags, content])
        return hashlib.sha256(text.encode()).hexdigest()[:24]

    def compile(self, source, flags):
        """{"module", "status" (compiled, compile-unsupported,
        compile-failed), "message", "seconds", "cached"}."""
        key = self.key(source, flags)
        record_path = os.path.join(self.cache_dir, key + ".json")
        if os.path.exists(record_path):
            with open(record_path) as f:
                record = json.load(f)
            if record.get("status") != "compiled" and record.get("parse_check") != PARSE_CHECK:
                record.update(status=self.parse_status(source, flags), parse_check=PARSE_CHECK)
                with open(record_path, "w") as f:
                    json.dump(record, f, indent=1)
            return dict(record, cached=True)
        module = os.path.join(self.cache_dir, key + ".vmfb")
        start = time.monotonic()
        ok, output = self.invoke([*flags, source, "-o", module])
        record = {"module": module, "key": key, "source": source, "flags": flags,
                  "status": "compiled", "message": ""}
        if not ok:
            record.update(status=self.parse_status(source, flags), parse_check=PARSE_CHECK,
                          message=first_error(output), output_tail=tail(output, 20))
        record["seconds"] = round(time.monotonic() - start, 2)
        with open(record_path, "w") as f:
            json.dump(record, f, indent=1)
        return dict(record, cached=False)

    def parse_status(self, source, flags):
        """compile-failed when 3.13 parses and verifies the source (a
        --compile-to=start that gets as far as PHASE_ONLY), else
        compile-unsupported."""
        ok, output = self.invoke([*flags, "--compile-to=start", source, "-o", os.devnull])
        return "compile-failed" if parsed(ok, output) else "compile-unsupported"

    def compile_respelling(self, source, flags):
        """compile()'s record; for a source 3.13 cannot parse as it is
        (compile-unsupported) that respell.py's rules change, the record of
        the respelled copy (WORK/respelled/<hash of the text>/<name>, never
        the source itself) with "respelled": {"copy", "rules"} when the
        copy parses, else the source's record with "respell_tried"."""
        record = self.compile(source, flags)
        if record["status"] != "compile-unsupported":
            return record
        try:
            with open(source, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            return record
        fixed, rules = respell.respell(text)
        if not rules:
            return record
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        copy = os.path.join(self.respell_dir, digest, os.path.basename(source))
        try:
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            with open(copy, encoding="utf-8") as f:
                current = f.read()
        except (OSError, UnicodeDecodeError):
            current = None
        if current != fixed:
            try:
                with open(copy, "w", encoding="utf-8") as f:
                    f.write(fixed)
            except OSError:
                return record
        again = self.compile(copy, flags)
        respelled = {"copy": copy, "rules": rules}
        if again["status"] == "compile-unsupported":
            return dict(record, respell_tried=dict(respelled, message=again["message"]))
        return dict(again, respelled=respelled)

    def invoke(self, args):
        """(succeeded, stderr and stdout)."""
        try:
            done = subprocess.run([self.path, *args], capture_output=True, text=True,
                                  errors="replace", timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return False, f"error: iree-compile took more than {self.timeout:g} s"
        return done.returncode == 0, done.stderr + done.stdout


def sim_causes(stderr):
    """The simulator's reasons a kernel did not run to the end:
    ({unsupported cause}, {fault message})."""
    unsupported, faults = set(), set()
    for line in stderr.splitlines():
        m = SIM_UNSUPPORTED.search(line)
        if m:
            instruction = INSTRUCTION.search(m.group(2))
            unsupported.add(instruction.group(1) if instruction else normalize(m.group(2)))
        m = SIM_FAULT.search(line)
        if m:
            faults.add(normalize(m.group(2)))
    return unsupported, faults


def gtest_functions(path):
    """{function: failure message or ""} from gtest's JSON, or None when the
    process wrote none."""
    try:
        with open(path) as f:
            document = json.load(f)
    except (OSError, ValueError):
        return None
    functions = {}
    for suite in document.get("testsuites", []):
        for test in suite.get("testsuite", []):
            failures = [f.get("failure", "") for f in test.get("failures", [])]
            functions[test["name"]] = "\n".join(failures)
    return functions


def launches(report):
    """The kernel launches the simulator's report counts ({} without one:
    the process died before writing it)."""
    counts = {}
    try:
        with open(report) as f:
            for line in f:
                key, _, value = line.strip().partition(" ")
                if key.startswith("launches") and value.isdigit():
                    counts[key] = int(value)
    except OSError:
        pass
    return counts


def read_back(report):
    """What the client read back from the devices, as the simulator's
    report sums it ({"copies", "bytes", "digest"}; {} without a report):
    the digest is the same for the same results whatever the order of the
    copies (docs/SIMULATOR.md, "Environment", AMDGPU_SIM_REPORT)."""
    fields = {}
    try:
        with open(report) as f:
            for line in f:
                key, _, value = line.strip().partition(" ")
                if key.startswith("read_back_"):
                    fields[key[len("read_back_"):]] = value if key.endswith("digest") else int(value)
    except (OSError, ValueError):
        pass
    return fields


def check_failure(message):
    """The check module's "Expected ..." line of a gtest failure, or None."""
    return next((l for l in message.splitlines() if CHECK_FAILURE.match(l)), None)


def classify(rc, timed_out, stdout, stderr, functions):
    """(outcome, cause) of one run of iree-check-module (functions: its
    gtest results) or of a generated suite's runner (functions None)."""
    unsupported, faults = sim_causes(stderr)
    if unsupported:
        return "unsupported", sorted(unsupported)
    if faults:
        return "fault", sorted(faults)
    if timed_out:
        return "hang", []
    if rc < 0:
        return "crash", [f"signal {signal.Signals(-rc).name}: {tail(stderr + stdout, 2, 200)}"]
    if rc == 0 and not RUNNER_NOT_FOUND.search(stderr):
        return "passed", []
    if functions is None:
        mismatch = RUNNER_MISMATCH.search(stdout + stderr)
        if mismatch:
            return "failed", [mismatch.group(0)]
        return "error", [tail(stdout + "\n" + stderr, 3, 300) or f"exit status {rc}"]
    failed = {name: message for name, message in functions.items() if message}
    checks = [f"{name}: {check_failure(message)}" for name, message in failed.items()
              if check_failure(message)]
    if checks:
        return "failed", checks
    if failed:
        return "error", [f"{name}: {tail(message, 2, 300)}" for name, message in failed.items()]
    return "error", [tail(stdout + "\n" + stderr, 3, 300) or f"exit status {rc}"]


class Runner:
    """IREE's runners on the simulated node, one process per test."""

    def __init__(self, tools, library, out_dir, timeout):
        self.tools = tools
        self.library = library
        self.out_dir = out_dir
        self.timeout = timeout

    def run(self, machine, runner, modules, runner_args):
        """Runs TOOLS/<runner> (iree-check-module or a generated
        suite's runner) on the modules: {"outcome", "cause", "functions",
        "launches", "read_back", "seconds", "log"}."""
        digest = hashlib.sha256(json.dumps([self.library, runner, runner_args]).encode())
        for module in modules:
            with open(module, "rb") as f:
                digest.update(f.read())
        key = digest.hexdigest()[:24]
        out = os.path.join(self.out_dir, machine)
        os.makedirs(out, exist_ok=True)
        log, gtest, report = (os.path.join(out, key + suffix)
                              for suffix in (".log", ".gtest.json", ".report"))
        for stale in (gtest, report):
            if os.path.exists(stale):
                os.unlink(stale)
        is_gtest = runner == "iree-check-module"
        command = [os.path.join(self.tools, runner), "--device=hip",
                   f"--hip_dylib_path=file:{self.library}",
                   *(f"--module={m}" for m in modules), *runner_args]
        if is_gtest:
            command.append(f"--gtest_output=json:{gtest}")
        env = dict(os.environ, AMDGPU_SIM_MACHINE=machine, AMDGPU_SIM_REPORT=report)
        env.pop("AMDGPU_SIM_FAULTS", None)
        start = time.monotonic()
        rc, timed_out, stdout, stderr = self.spawn(command, env)
        seconds = round(time.monotonic() - start, 2)
        with open(log, "w") as f:
            f.write(f"$ {shlex.join(command)}\n# AMDGPU_SIM_MACHINE={machine}\n"
                    f"# rc={rc} timed_out={timed_out} seconds={seconds}\n"
                    f"--- stdout\n{stdout}\n--- stderr\n{stderr}")
        functions = gtest_functions(gtest) if is_gtest else None
        outcome, cause = classify(rc, timed_out, stdout, stderr,
                                  functions if is_gtest else None)
        if is_gtest and functions is None and outcome == "passed":
            outcome, cause = "error", ["exit status 0 without gtest's results"]
        return {"outcome": outcome, "cause": cause, "seconds": seconds, "log": log,
                "launches": launches(report), "read_back": read_back(report),
                "functions": None if functions is None else
                {name: ("failed" if message else "passed") for name, message in functions.items()}}

    def spawn(self, command, env):
        """(exit status, timed out, stdout, stderr); killed after the timeout."""
        child = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 errors="replace", start_new_session=True)
        try:
            stdout, stderr = child.communicate(timeout=self.timeout)
            return child.returncode, False, stdout, stderr
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            stdout, stderr = child.communicate()
            return child.returncode, True, stdout, stderr


def generate_sources(genrules, needed):
    """Runs the genrules that make the needed generated sources."""
    for path in sorted(needed):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        subprocess.run(genrules[path], shell=True, check=True)


def generate_runner_sources(suite, iree_src, out_dir):
    """Runs a generated suite's generator as IREE's CMake does: its tests
    and calls sources, or raises CalledProcessError."""
    gen = suite.generator
    os.makedirs(out_dir, exist_ok=True)
    tests_src = os.path.join(out_dir, f"{suite.name}_{gen['test_type']}.mlir")
    calls_src = os.path.join(out_dir, f"{suite.name}_calls.mlir")
    subprocess.run([sys.executable, gen["script"],
                    f"--output_{gen['test_type']}_mlir={tests_src}",
                    f"--output_calls_mlir={calls_src}", *gen["args"]],
                   env=dict(os.environ, PYTHONPATH=iree_src), check=True,
                   capture_output=True, text=True)
    return [tests_src, calls_src]


def tests_for(declarations, chip, machine, options):
    """One record per (suite, source) for this chip, and one per generated
    suite with --generated; the excluded ones already decided."""
    tests = []
    chosen = declarations.suites + (declarations.generated if options.generated else [])
    for suite in chosen:
        # A pattern is SUITE or SUITE:SOURCE (globs): the suite's sources,
        # or those its SOURCE part matches.
        patterns = [p.split(":", 1) + [None] for p in options.suite]
        matching = [p[1] for p in patterns if fnmatch.fnmatch(suite.key(), p[0])]
        if options.suite and not matching:
            continue
        base = {"suite": f"{suite.directory}/(generated)" if suite.generator else suite.key(),
                "chip": chip, "machine": machine, "_suite": suite}
        reason = None if suite.enabled else "gated: " + " AND ".join(suite.gate)
        label = suite.label_exclusion()
        if label:
            reason = f"label {label}"
        names = [suite.name] if suite.generator else suite.srcs
        if options.suite and None not in matching:
            names = [n for n in names
                     if any(fnmatch.fnmatch(os.path.basename(n), g) for g in matching)]
        for name in names:
            test = dict(base, source=os.path.basename(name), _paths=[name])
            if reason:
                test.update(outcome="excluded", cause=[reason])
            tests.append(test)
        for source, why in suite.excluded if not options.suite or None in matching else []:
            tests.append(dict(base, source=source, _paths=[], outcome="excluded",
                              cause=[f"commented out: {why}"]))
    return tests


def parallel(function, items, jobs):
    """function over items with jobs threads, in order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(function, items))


def prepare_generated(tests, iree_src, out_dir, jobs):
    """The sources of the generated suites' tests (a generator that fails
    makes its test compile-failed)."""
    pending = [t for t in tests if "outcome" not in t and t["_suite"].generator]

    def generate(test):
        try:
            test["_paths"] = generate_runner_sources(test["_suite"], iree_src, out_dir)
        except subprocess.CalledProcessError as e:
            test.update(outcome="compile-failed",
                        cause=[f"generator: {tail(e.stderr or '', 2, 300)}"])
    parallel(generate, pending, jobs)


def compile_phase(compiler, tests, chip, jobs):
    """Compiles every source of every test still undecided; the wall time
    in seconds. A test takes the outcome of its first source that fails."""
    pending = [t for t in tests if "outcome" not in t]
    keys = list(dict.fromkeys((path, tuple(compiler.arguments(test["_suite"], chip)))
                              for test in pending for path in test["_paths"]))
    start = time.monotonic()
    progress = Progress(f"run.py: {chip}", len(keys), "sources compiled")

    def compile_one(key):
        result = compiler.compile_respelling(key[0], list(key[1]))
        progress.done()
        return result
    results = dict(zip(keys, parallel(compile_one, keys, jobs)))
    for test in pending:
        flags = tuple(compiler.arguments(test["_suite"], chip))
        mine = [results[(path, flags)] for path in test["_paths"]]
        test["compile"] = [{k: r[k] for k in ("key", "status", "seconds", "cached",
                                              "respelled", "respell_tried") if k in r}
                           for r in mine]
        rules = [rule for r in mine for rule in r.get("respelled", {}).get("rules", [])]
        if rules:
            test["respelled"] = sorted(set(rules))
        failed = [r for r in mine if r["status"] != "compiled"]
        if failed:
            test.update(outcome=failed[0]["status"], cause=[failed[0]["message"]])
        elif not test["_suite"].driver:
            test.update(outcome="compiled-only", cause=[])
        else:
            test["_modules"] = [r["module"] for r in mine]
    return time.monotonic() - start


def run_phase(runner, tests, machine, jobs):
    """Runs every compiled test; the wall time in seconds."""
    groups = {}
    for test in tests:
        if "outcome" not in test:
            suite = test["_suite"]
            program = suite.generator["runner"] if suite.generator else "iree-check-module"
            key = (program, tuple(test["_modules"]), tuple(suite.runner_args))
            groups.setdefault(key, []).append(test)
    start = time.monotonic()
    # Tests done on stderr as their runs finish (stdout is the tables).
    progress = Progress(f"run.py: {machine}", sum(len(g) for g in groups.values()), "tests run")

    def run_group(key):
        result = runner.run(machine, key[0], list(key[1]), list(key[2]))
        group = groups[key]
        passed = result.get("outcome") == "passed"
        if group[0]["_suite"].will_fail and result.get("outcome") in ("passed", "failed"):
            passed = not passed
        progress.done(len(group), 0 if passed else len(group))
        return result
    results = parallel(run_group, list(groups), jobs)
    for group, result in zip(groups.values(), results):
        for test in group:
            test.update(result)
            if test["_suite"].will_fail and test["outcome"] in ("passed", "failed"):
                test["outcome"] = "failed" if test["outcome"] == "passed" else "passed"
    return time.monotonic() - start


def print_table(tests, presets):
    """The outcome counts per suite and chip, and per chip."""
    short = {"compile-unsupported": "c-unsup", "compile-failed": "c-fail",
             "compiled-only": "c-only", "unsupported": "unsup"}
    names = [short.get(o, o) for o in OUTCOMES]
    suites = sorted({t["suite"] for t in tests})
    width = max(len(s) for s in suites + ["suite"])
    header = f"{'suite':{width}} {'chip':8} " + " ".join(f"{n:>7}" for n in names) + f" {'total':>6}"
    print(header)
    for suite in suites + ["(all)"]:
        for _, chip in presets:
            mine = [t for t in tests if t["chip"] == chip and suite in ("(all)", t["suite"])]
            if not mine:
                continue
            counts = collections.Counter(t["outcome"] for t in mine)
            print(f"{suite:{width}} {chip:8} " + " ".join(f"{counts[o]:>7}" for o in OUTCOMES)
                  + f" {len(mine):>6}")


def print_respelled(tests):
    """The tests compiled from a respelled copy (respell.py), and those a
    rule changed whose copy still did not parse."""
    for test in tests:
        tried = [c["respell_tried"] for c in test.get("compile", []) if "respell_tried" in c]
        if test.get("respelled"):
            print(f"respelled ({', '.join(test['respelled'])}): {test['chip']} {test['suite']} "
                  f"{test['source']}: {test['outcome']}")
        elif tried:
            print(f"respelling did not help ({', '.join(tried[0]['rules'])}): {test['chip']} "
                  f"{test['suite']} {test['source']}: {tried[0]['message']}")


def print_kernel_counts(tests, presets):
    """Per chip, the kernels the passing tests executed, and how many of
    those tests executed none (IREE folded them at compile time)."""
    for _, chip in presets:
        passed = [t for t in tests if t["chip"] == chip and t["outcome"] == "passed"]
        executed = sum(t["launches"].get("launches_executed", 0) for t in passed)
        idle = sum(1 for t in passed if not t["launches"].get("launches_executed"))
        print(f"{chip}: the {len(passed)} passing test files executed {executed} kernels; "
              f"{idle} of them none")


def causes(tests):
    """{outcome: [(cause, {chip: count})]}, most frequent first."""
    table = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for test in tests:
        if test["outcome"] in ("passed", "compiled-only"):
            continue
        for cause in test.get("cause") or ["(none)"]:
            table[test["outcome"]][cause][test["chip"]] += 1
    return {outcome: sorted(((c, dict(n)) for c, n in by_cause.items()),
                            key=lambda item: -sum(item[1].values()))
            for outcome, by_cause in table.items()}


def print_causes(summary, limit=25):
    for outcome in OUTCOMES:
        if outcome not in summary or outcome == "excluded":
            continue
        print(f"\n{outcome}:")
        for cause, counts in summary[outcome][:limit]:
            per_chip = " ".join(f"{chip}={n}" for chip, n in sorted(counts.items()))
            print(f"  {sum(counts.values()):4}  {cause[:300]}  ({per_chip})")
        if len(summary[outcome]) > limit:
            print(f"  ... {len(summary[outcome]) - limit} more (results.json)")


def parse_arguments():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("library")
    parser.add_argument("--preset", action="append")
    parser.add_argument("--iree-src", default=os.path.join(ROOT, "target/iree-cts/src"))
    parser.add_argument("--tools", default=os.path.join(ROOT, "target/iree-cts"))
    parser.add_argument("--iree-compile")
    parser.add_argument("--work", default=os.path.join(ROOT, "target/iree-e2e"))
    parser.add_argument("--suite", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--compile-timeout", type=float, default=900)
    parser.add_argument("--json")
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--generated", action="store_true")
    options = parser.parse_args()
    options.library = os.path.realpath(options.library)
    if not os.path.isfile(options.library):
        parser.error(f"no library at {options.library}")
    options.presets = [p.split("=", 1) for p in options.preset or DEFAULT_PRESETS]
    if any(len(p) != 2 for p in options.presets):
        parser.error("--preset takes MACHINE=CHIP")
    options.e2e = os.path.join(options.iree_src, "tests", "e2e")
    if not os.path.isdir(options.e2e):
        parser.error(f"no {options.e2e} (run scripts/iree-cts/build.sh, or give --iree-src)")
    runners = ["iree-check-module"] + (GENERATED_RUNNERS if options.generated else [])
    for runner in runners if not options.compile_only else []:
        if not os.access(os.path.join(options.tools, runner), os.X_OK):
            parser.error(f"no {runner} in {options.tools} (scripts/iree-cts/build.sh)")
    return options


def main():
    options = parse_arguments()
    compiler = Compiler(options.iree_compile or default_iree_compile(), os.path.join(options.work, "modules"),
                        options.compile_timeout)
    runner = Runner(os.path.realpath(options.tools), options.library,
                    os.path.join(options.work, "runs"), options.timeout)
    generated_dir = os.path.join(options.work, "generated")
    tests, timings, declared = [], {}, {}
    for machine, chip in options.presets:
        declarations = cmake_suites.read(options.e2e, chip, generated_dir)
        declared[chip] = declarations
        mine = tests_for(declarations, chip, machine, options)
        generate_sources(declarations.genrules,
                         {p for t in mine for p in t["_paths"] if p in declarations.genrules})
        start = time.monotonic()
        prepare_generated(mine, options.iree_src, os.path.join(generated_dir, chip), options.jobs)
        compile_s = time.monotonic() - start + compile_phase(compiler, mine, chip, options.jobs)
        if options.compile_only:
            for test in mine:
                test.setdefault("outcome", "compiled-only")
        run_s = 0.0 if options.compile_only else run_phase(runner, mine, machine, options.jobs)
        compiled = [c for t in mine for c in t.get("compile", []) if not c["cached"]]
        timings[chip] = {"machine": machine, "compile_s": round(compile_s, 1),
                         "run_s": round(run_s, 1), "compiles": len(compiled),
                         "compile_cpu_s": round(sum(c["seconds"] for c in compiled), 1),
                         "runs": len({t["log"] for t in mine if "log" in t})}
        print(f"{machine}={chip}: compile {compile_s:.0f} s ({len(compiled)} compiled, "
              f"rest cached), run {run_s:.0f} s ({timings[chip]['runs']} processes)", flush=True)
        tests += mine
    print()
    print_table(tests, options.presets)
    print_respelled(tests)
    print_kernel_counts(tests, options.presets)
    summary = causes(tests)
    print_causes(summary)
    write_results(options, compiler, tests, timings, declared, summary)


def write_results(options, compiler, tests, timings, declared, summary):
    """WORK/results.json."""
    document = {
        "library": options.library, "compiler": compiler.version,
        "tools": os.path.realpath(options.tools),
        "presets": [f"{m}={c}" for m, c in options.presets], "timings": timings,
        "tests": [{k: v for k, v in t.items() if not k.startswith("_")} for t in tests],
        "causes": summary,
        "suites": {chip: [suite_record(s) for s in d.suites] for chip, d in declared.items()},
        "generated_suites": {chip: [suite_record(s) for s in d.generated]
                             for chip, d in declared.items()},
        "sources_of_other_backends_only": not_listed_for_rocm(next(iter(declared.values()))),
    }
    path = options.json or os.path.join(options.work, "results.json")
    with open(path, "w") as f:
        json.dump(document, f, indent=1)
    print(f"\nresults: {path}")


def suite_record(suite):
    """A suite as results.json describes it."""
    return {"suite": suite.key(), "line": suite.line, "driver": suite.driver,
            "generator": suite.generator,
            "sources": [os.path.basename(s) for s in suite.srcs],
            "compiler_flags": suite.compiler_flags, "runner_args": suite.runner_args,
            "labels": suite.labels, "timeout": suite.timeout, "enabled": suite.enabled,
            "gate": suite.gate, "excluded": suite.excluded}


def not_listed_for_rocm(declarations):
    """Per directory, the sources other backends' suites test and no rocm
    suite lists."""
    rocm = collections.defaultdict(set)
    for suite in declarations.suites:
        rocm[suite.directory].update(os.path.basename(s) for s in suite.srcs)
        rocm[suite.directory].update(s for s, _ in suite.excluded)
    return {d: sorted(s - rocm[d]) for d, s in sorted(declarations.other_sources.items())
            if s - rocm[d]}


if __name__ == "__main__":
    sys.exit(main())
