#!/usr/bin/env bash
# The Python wheel (packaging/wheel/pyproject.toml, built by maturin): the
# `amdgpu-hal` CLI as its script, and the C library with the /dev/kfd
# stand-in as data that pip installs into the environment's lib/amdgpu-hal/,
# where the CLI looks beside itself. Built into target/wheels, then checked
# as a user meets it: a fresh venv, `pip install` of the wheel and of IREE's
# runtime, and IREE's Python API on the HIP driver under `amdgpu-hal run`,
# its result against numpy's. `.ci/run` runs it.
#
#   scripts/wheel.sh            build, then check in a fresh venv
#   scripts/wheel.sh --build    build only (prints the wheel's path)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

if ! command -v maturin >/dev/null; then
  python3 -m pip install -q "maturin>=1.9,<2" 2>/dev/null ||
    python3 -m pip install -q --break-system-packages "maturin>=1.9,<2"
fi

# The two libraries, stripped, where pyproject.toml's `data` names them.
cargo build --release --quiet -p amdgpu-sim-ffi -p amdgpu-sim-kfd
data=packaging/wheel/amdgpu_hal.data
rm -rf "$data"
mkdir -p "$data/data/lib/amdgpu-hal"
for lib in libamdgpu_sim_ffi.so libamdgpu_sim_kfd.so; do
  strip -o "$data/data/lib/amdgpu-hal/$lib" "target/release/$lib"
done
rm -f target/wheels/amdgpu_hal-*.whl
(cd packaging/wheel && maturin build --release --quiet --out "$ROOT/target/wheels")
rm -rf "$data"
wheel=$(ls target/wheels/amdgpu_hal-*.whl)
echo "wheel.sh: built $wheel ($(du -h "$wheel" | cut -f1))"
[ "${1:-}" = --build ] && exit 0

work=$(mktemp -d /tmp/amdgpu-hal-wheel.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$wheel" iree-base-runtime==3.13.0 numpy
cat >"$work/check.py" <<PY
import numpy as np
import iree.runtime as rt

config = rt.Config("hip")
context = rt.SystemContext(config=config)
context.add_vm_module(rt.VmModule.mmap(
    config.vm_instance, "$ROOT/fixtures/iree/vmfb/elementwise.gfx942.vmfb"))
a = np.arange(4096, dtype=np.float32) / 8
b = np.full(4096, 3, dtype=np.float32)
result = context.modules.module.elementwise(a, b).to_host()
# The program is c = a * b + a; numpy computes it on the host.
np.testing.assert_array_equal(result, a * b + a)
print("elementwise: 4096 results equal numpy's")
PY
# Nothing of this checkout on the way: the installed CLI finds its
# libraries beside itself, in the venv.
env -u AMDGPU_SIM_LIB_DIR -u LD_LIBRARY_PATH -u LD_PRELOAD \
  "$work/venv/bin/amdgpu-hal" run --machine mi300x-8 --report "$work/report.txt" -- \
  "$work/venv/bin/python" "$work/check.py"
grep -qx "launches_executed 1" "$work/report.txt" || {
  echo "wheel.sh: the report does not count the kernel:" >&2
  cat "$work/report.txt" >&2
  exit 1
}
echo "wheel.sh: the wheel runs IREE's Python API on the simulated node from a fresh venv"
