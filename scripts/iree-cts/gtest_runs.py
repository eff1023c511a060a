"""Runs gtest binaries one process at a time and records every test's
outcome, for run.py (IREE's HIP CTS) and run_amdgpu.py (IREE's AMDGPU
driver): a test silent for too long is killed and recorded as hung, a
process that dies as crashed, and the binary is run again without them.

A process that dies in gtest's global tear-down, after every test it ran
ended, is run once more (EXIT_CRASH_RERUNS): IREE's host_queue_staging_test
does so now and then under load, and the cause — the simulator or the
test's own exit — is not yet known. Each such death is said on stderr and
kept in the binary's log; a second one is recorded as the crash it is.
"""
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import time

OUTCOMES = ["passed", "failed", "skipped", "hung", "crashed"]
# Most bytes of a failure message kept per test.
MESSAGE_BYTES = 4000
RUN_LINE = re.compile(r"^\[ RUN      \] (\S+)")
# gtest's line before its global tear-down: every test has ended.
TEAR_DOWN_LINE = "[----------] Global test environment tear-down"
# Reruns of a binary that died in its global tear-down.
EXIT_CRASH_RERUNS = 1
END_LINE = re.compile(r"^\[ +(?:OK|FAILED|SKIPPED) +\] (\S+)")


def gtest_json(path):
    """{test: (outcome, message)} from gtest's JSON output."""
    out = {}
    with open(path) as f:
        document = json.load(f)
    for suite in document.get("testsuites", []):
        for test in suite.get("testsuite", []):
            name = f"{suite['name']}.{test['name']}"
            if test.get("result") == "SKIPPED" or test.get("status") == "NOTRUN":
                skipped = test.get("skipped") or [{}]
                out[name] = ("skipped", skipped[0].get("message", ""))
            elif test.get("failures"):
                message = "\n".join(f.get("failure", "") for f in test["failures"])
                out[name] = ("failed", message)
            else:
                out[name] = ("passed", "")
    return out


def run_process(command, env, log_path, hang_after):
    """Runs `command`, killing it after `hang_after` s without output.
    Returns (returncode or None if killed, the test running when it ended
    or None, last output lines)."""
    with open(log_path, "ab") as log:
        log.write(("$ " + " ".join(command) + "\n").encode())
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
            start_new_session=True,
        )
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ)
        current, last_output, pending, tail = None, time.monotonic(), b"", []
        killed = False
        while True:
            if selector.select(timeout=1.0):
                chunk = os.read(process.stdout.fileno(), 65536)
                if not chunk:
                    break
                log.write(chunk)
                last_output = time.monotonic()
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for raw in lines:
                    line = raw.decode("utf-8", "replace")
                    tail = (tail + [line])[-40:]
                    if m := RUN_LINE.match(line):
                        current = m.group(1)
                    elif (m := END_LINE.match(line)) and m.group(1) == current:
                        current = None
            elif time.monotonic() - last_output > hang_after:
                os.killpg(process.pid, signal.SIGKILL)
                killed = True
                break
        process.wait()
        selector.close()
        return (None if killed else process.returncode), current, "\n".join(tail)


def run_binary(binary, args, gtest_filter, env, out_dir, stem, hang_after):
    """Runs a binary until every test it selects has an outcome."""
    results, excluded, attempt, exit_crashes = {}, [], 0, 0
    while True:
        attempt += 1
        json_path = os.path.join(out_dir, f"{stem}.{attempt}.json")
        log_path = os.path.join(out_dir, f"{stem}.log")
        negative = ":".join(excluded)
        filt = gtest_filter or ""
        if negative:
            filt = (filt + (":" if "-" in filt else "-") + negative) if filt else "-" + negative
        command = [binary, f"--gtest_output=json:{json_path}", *args]
        if filt:
            command.append(f"--gtest_filter={filt}")
        code, current, tail = run_process(command, env, log_path, hang_after)
        if code in (0, 1) and os.path.isfile(json_path):
            results.update(gtest_json(json_path))
            return results
        outcome = "hung" if code is None else "crashed"
        name = current or "<outside a test>"
        if code is not None and current is None and TEAR_DOWN_LINE in tail \
                and exit_crashes < EXIT_CRASH_RERUNS:
            exit_crashes += 1
            print(f"gtest_runs: {os.path.basename(binary)} ({stem}) died (exit {code}) in gtest's "
                  f"global tear-down after its tests ended; running it again (log: {log_path})",
                  file=sys.stderr)
            continue
        results[name] = (outcome, f"exit {code}\n{tail}")
        if current is None or name in excluded:
            return results
        excluded.append(name)


def list_tests(binary, args, gtest_filter, env):
    command = [binary, "--gtest_list_tests", *args]
    if gtest_filter:
        command.append(f"--gtest_filter={gtest_filter}")
    text = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120).stdout
    tests, suite = [], None
    for line in text.splitlines():
        if not line.strip() or line.startswith("amdgpu-sim"):
            continue
        name = line.split("#")[0].strip()
        if not line.startswith(" "):
            suite = name
        else:
            tests.append(suite + name)
    return tests
