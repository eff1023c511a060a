#!/usr/bin/env python3
"""Runs the steps of the CI recipe's composite action
(.github/actions/amdgpu-hal-run/action.yml) as written, the way GitHub
Actions runs a composite action's `run:` steps: each step's `run:` text
with `bash --noprofile --norc -eo pipefail`, its `env:` set with
`${{ inputs.NAME }}` (the inputs given, else the action's defaults) and
`${{ github.action_path }}` filled in, a fresh `RUNNER_TEMP`, and what a
step appends to `$GITHUB_PATH` put first on `PATH` for the next steps.

Then checks what the recipe promises: amdgpu-hal is installed in the
fresh prefix with the C library where the installed CLI finds it, and the
command ran on the simulated node (the report it kept shows HIP calls).

usage: scripts/ci-recipe.py [--keep]   (--keep: leave the prefix behind)
Builds in CARGO_TARGET_DIR (default: the checkout's target/), so a rerun
compiles nothing. .ci/run runs it.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ACTION_DIR = os.path.join(ROOT, ".github", "actions", "amdgpu-hal-run")
# The command the recipe runs here: a HIP client with no package of its
# own (Python's ctypes), which must find the machine's eight GPUs.
CHECK_COMMAND = (
    "python3 -c \"import ctypes; hip = ctypes.CDLL('libamdhip64.so'); "
    "n = ctypes.c_int(); assert hip.hipGetDeviceCount(ctypes.byref(n)) == 0; "
    "assert n.value == 8, n.value; print('GPUs:', n.value)\""
)


def parse_action(text):
    """(input defaults, steps): each step a dict with `name`, `env` (a
    dict) and `run` (the script text), read from the action's YAML. Only
    the shapes action.yml uses: block scalars `run: |`, flat `env:` maps,
    quoted or plain scalars."""
    lines = text.splitlines()
    defaults, steps = {}, []
    section, current_input, step, block, block_indent = None, None, None, None, None

    def scalar(value):
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            return value[1:-1]
        return value

    for line in lines:
        if block is not None:
            indent = len(line) - len(line.lstrip())
            if line.strip() and indent < block_indent:
                step["run"] = "\n".join(block) + "\n"
                block = None
            else:
                block.append(line[block_indent:] if line.strip() else "")
                continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            section = stripped.rstrip(":")
            continue
        if section == "inputs":
            if indent == 2:
                current_input = stripped.rstrip(":")
                defaults[current_input] = ""
            elif stripped.startswith("default:"):
                defaults[current_input] = scalar(stripped[len("default:"):])
        elif section == "runs":
            if stripped.startswith("- name:"):
                step = {"name": scalar(stripped[len("- name:"):]), "env": {}, "run": ""}
                steps.append(step)
                key = None
            elif step is None:
                continue
            elif stripped == "env:":
                key = "env"
            elif stripped.startswith("run: |"):
                block, block_indent = [], indent + 2
            elif stripped.startswith("shell:"):
                if scalar(stripped[len("shell:"):]) != "bash":
                    sys.exit(f"ci-recipe.py: step '{step['name']}' is not a bash step")
            elif key == "env" and ":" in stripped:
                name, value = stripped.split(":", 1)
                step["env"][name.strip()] = scalar(value)
    if block is not None:
        step["run"] = "\n".join(block) + "\n"
    return defaults, steps


def expand(value, inputs):
    """`${{ inputs.NAME }}` and `${{ github.action_path }}` filled in."""
    def one(match):
        expression = match.group(1).strip()
        if expression.startswith("inputs."):
            return inputs[expression[len("inputs."):]]
        if expression == "github.action_path":
            return ACTION_DIR
        sys.exit(f"ci-recipe.py: no value for ${{{{ {expression} }}}}")
    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def main():
    keep = "--keep" in sys.argv[1:]
    with open(os.path.join(ACTION_DIR, "action.yml")) as f:
        defaults, steps = parse_action(f.read())
    if len(steps) != 2 or not all(s["run"] for s in steps):
        sys.exit(f"ci-recipe.py: expected the install and run steps, found {steps}")
    runner_temp = tempfile.mkdtemp(prefix="ci-recipe-")
    prefix = os.path.join(runner_temp, "amdgpu-hal")
    report = os.path.join(runner_temp, "node-report.txt")
    inputs = dict(defaults, command=CHECK_COMMAND, report=report)
    github_path = os.path.join(runner_temp, "github_path")
    open(github_path, "w").close()
    env = dict(os.environ, RUNNER_TEMP=runner_temp, GITHUB_PATH=github_path)
    env.setdefault("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    # The installed CLI must find the library in the prefix, not through
    # a caller's setting.
    env.pop("AMDGPU_SIM_LIB_DIR", None)
    status = 0
    try:
        for step in steps:
            print(f"ci-recipe.py: step '{step['name']}'", file=sys.stderr, flush=True)
            step_env = dict(env, **{k: expand(v, inputs) for k, v in step["env"].items()})
            with open(github_path) as f:
                added = [line.strip() for line in f if line.strip()]
            step_env["PATH"] = os.pathsep.join(list(reversed(added)) + [env["PATH"]])
            result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                     expand(step["run"], inputs)], env=step_env, cwd=ROOT)
            if result.returncode != 0:
                print(f"ci-recipe.py: step '{step['name']}' exited {result.returncode}",
                      file=sys.stderr)
                status = 1
                break
        if status == 0:
            installed = [os.path.join(prefix, "bin", "amdgpu-hal"),
                         os.path.join(prefix, "lib", "amdgpu-hal", "libamdgpu_sim_ffi.so"),
                         os.path.join(prefix, "lib", "amdgpu-hal", "libamdgpu_sim_kfd.so")]
            missing = [p for p in installed if not os.path.isfile(p)]
            with open(report) as f:
                kept = dict(line.split(" ", 1) for line in f.read().splitlines()
                            if " " in line and not line.startswith("injected "))
            if missing or int(kept.get("hip_calls", "0")) == 0:
                print(f"ci-recipe.py: not installed: {missing}; report: {kept}", file=sys.stderr)
                status = 1
            else:
                print(f"ci-recipe.py: the recipe's steps ran as written (prefix {prefix}, "
                      f"{kept['hip_calls'].strip()} HIP calls on the node)", file=sys.stderr)
    finally:
        if not keep:
            shutil.rmtree(runner_temp, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
