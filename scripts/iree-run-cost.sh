#!/usr/bin/env bash
# An IREE run's own cost on the simulated node, side by side with IREE's CPU
# device: the same program (a 1,024-element f32 add) run by IREE's own
# `iree-run-module` (PyPI iree-base-runtime) once on `--device=hip` against
# the C library (release build) on each MACHINE, and once on
# `--device=local-task`. The figures are whole processes, as every
# one-process-per-test CTS run and every fault run pays them:
#
#   - wall: one interleaved run of the pair (scripts/interleaved.py: the two
#     commands alternate round by round, RUNS rounds after one warm-up; the
#     ratio is the median of the per-round ratios);
#   - peak resident memory: the median of RUNS runs of /usr/bin/time -v each.
#
# Prints a Markdown table; the goal is both ratios at most 2.
#
#   scripts/iree-run-cost.sh [MACHINE...]     # default mi300x-8; RUNS=15
#
# Needs python3 with iree-base-runtime and iree-base-compiler 3.13.0
# (pip install iree-base-runtime==3.13.0 iree-base-compiler==3.13.0).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${PERF_OUT:-$ROOT/target/perf}/iree-run-cost
runs=${RUNS:-15}
machines=("$@")
[ ${#machines[@]} -gt 0 ] || machines=(mi300x-8)
mkdir -p "$OUT"

command -v iree-compile >/dev/null ||
  { echo "iree-run-cost.sh: iree-compile not found (pip install iree-base-compiler==3.13.0)" >&2; exit 1; }
run_module=$(python3 -c 'import os, iree._runtime_libs as m; print(os.path.join(os.path.dirname(m.__file__), "iree-run-module"))' 2>/dev/null) ||
  { echo "iree-run-cost.sh: iree-run-module not found (pip install iree-base-runtime==3.13.0)" >&2; exit 1; }
if [ ! -x /usr/bin/time ]; then
  echo "installing GNU time (apt-get install time) for peak-memory figures" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time
fi
lib=$("$ROOT/scripts/sim-libs.sh" --release "$OUT/lib")/libamdhip64.so

# The program, compiled for IREE's CPU device and for each machine's GPU.
source=$ROOT/fixtures/iree/src/add.mlir
iree-compile "$source" --iree-hal-target-device=local \
  --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=generic \
  -o "$OUT/add.cpu.vmfb"
inputs=(--function=add --input=1024xf32=1 --input=1024xf32=2)
cpu=("$run_module" --device=local-task "--module=$OUT/add.cpu.vmfb" "${inputs[@]}")

# median_peak_kb CMD...: the median peak resident set of RUNS runs, in KiB.
median_peak_kb() {
  for _ in $(seq "$runs"); do
    /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident set size/ {print $2}'
  done | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
cpu_peak=$(median_peak_kb "${cpu[@]}")

echo "# iree-run-module, 1,024-element add: simulated node vs local-task ($(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs)"
echo
echo "| machine | local-task wall (ms) | simulated wall (ms) | wall ratio | local-task peak (MB) | simulated peak (MB) | peak ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for machine in "${machines[@]}"; do
  chip=$(python3 - "$ROOT/fixtures/machines/$machine.toml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
print(re.search(r'^name = "(gfx[0-9a-f]+)"', text, re.M).group(1))
PY
  )
  vmfb=$OUT/add.$chip.vmfb
  [ -f "$vmfb" ] || iree-compile "$source" --iree-hal-target-device=hip "--iree-rocm-target=$chip" -o "$vmfb"
  sim=(env "AMDGPU_SIM_MACHINE=$machine" "$run_module" --device=hip "--hip_dylib_path=file:$lib"
       "--module=$vmfb" "${inputs[@]}")
  json=$OUT/wall.$machine.json
  python3 "$ROOT/scripts/interleaved.py" --runs "$runs" --warmup 1 -- "${cpu[@]}" -- "${sim[@]}" >"$json"
  sim_peak=$(median_peak_kb "${sim[@]}")
  python3 - "$json" "$machine" "$cpu_peak" "$sim_peak" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
machine, cpu_kb, sim_kb = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
cpu_ms = result["commands"][0]["median_s"] * 1e3
sim_ms = result["commands"][1]["median_s"] * 1e3
print(f"| {machine} | {cpu_ms:.1f} | {sim_ms:.1f} | {result['ratios']['1/0']:.2f} "
      f"| {cpu_kb / 1024:.1f} | {sim_kb / 1024:.1f} | {sim_kb / cpu_kb:.2f} |")
PY
done
