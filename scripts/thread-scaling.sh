#!/usr/bin/env bash
# Thread scaling of one kernel-heavy IREE program on the simulated node:
# a 1024x1024x1024 f16 matmul with f32 results (128 work-groups of 256
# work-items on gfx942), run by IREE's `iree-run-module --device=hip` on
# mi300x-8 with AMDGPU_SIM_THREADS=1, 2, 4, ... (docs/PERFORMANCE.md,
# "Kernel threads"), and the kernels' share of the host's FMA rate.
#
#   scripts/thread-scaling.sh prepare DIR   builds the release C library,
#       compiles the matmul and an identity function of the same inputs
#       (pip iree-base-compiler), builds scripts/host-fma.rs for
#       x86-64-v3 and copies the library, IREE's iree-run-module (pip
#       iree-base-runtime) and this script into DIR: a folder that runs on
#       a machine with no Rust and no IREE (another machine's cores: carry
#       DIR there).
#   DIR/thread-scaling.sh run [COUNTS]      times REPS (default 3) whole
#       processes per thread count (default "1 2 4 8 16"), checks each
#       result (every element 1024 * 1 * 0.5 = 512), and prints one line
#       per run: threads, repetition, wall seconds, and the wall seconds of
#       the same run with AMDGPU_SIM_KERNELS=skip (the kernels' time is
#       the difference).
#   DIR/thread-scaling.sh share [ROUNDS] [LIBDIR...]   one thread pinned to
#       core CORE (default 2): per round (default 15) and library (a
#       folder holding libamdhip64.so; default DIR), the host's FMA rate
#       on that core, then the CPU seconds of the whole run and of the
#       skipped one; the kernels' share is 1024^3 / (whole - skip) / rate.
#   DIR/thread-scaling.sh serial [REPS]     what no kernel thread shortens:
#       the identity function on IREE's CPU device and on the node, and
#       the matmul with its kernels skipped, wall seconds (REPS, default 9).
#
# The inputs are splats given as text (`--input=1024x1024xf16=1`), or with
# INPUTS=npy the same values read from the .npy files prepare wrote (numpy):
# IREE's tool parses a text input element by element (2 M elements, about
# 85 % of the instructions of the run without its kernels,
# docs/PERFORMANCE.md "Serial start-up"), a part of the run no kernel
# thread shortens. `share` and `serial` read the .npy files.
set -euo pipefail

MATMUL_MLIR='func.func @mm(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}'

# The same inputs, returned: IREE's tool with no kernel to run.
IDENTITY_MLIR='func.func @mm(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf16> {
  return %a : tensor<1024x1024xf16>
}'

prepare() {
  local dir=$1 root
  root=$(cd "$(dirname "$0")/.." && pwd)
  mkdir -p "$dir"
  (cd "$root" && cargo build -q --release -p amdgpu-sim-ffi)
  local target=${CARGO_TARGET_DIR:-$root/target}
  strip -o "$dir/libamdgpu_sim_ffi.so" "$target/release/libamdgpu_sim_ffi.so"
  ln -sf libamdgpu_sim_ffi.so "$dir/libamdhip64.so"
  local iree
  iree=$(python3 -c 'import iree._runtime_libs as m, os; print(os.path.dirname(m.__file__))')
  cp "$iree/iree-run-module" "$dir/"
  printf '%s\n' "$MATMUL_MLIR" >"$dir/mm.mlir"
  python3 -c 'import numpy as np, sys
np.save(sys.argv[1], np.full((1024, 1024), 1.0, np.float16))
np.save(sys.argv[2], np.full((1024, 1024), 0.5, np.float16))' "$dir/mm-a.npy" "$dir/mm-b.npy"
  iree-compile --iree-hal-target-device=hip --iree-rocm-target=gfx942 "$dir/mm.mlir" \
    -o "$dir/mm.gfx942.vmfb"
  printf '%s\n' "$IDENTITY_MLIR" >"$dir/id.mlir"
  iree-compile --iree-hal-target-device=hip --iree-rocm-target=gfx942 "$dir/id.mlir" \
    -o "$dir/id.gfx942.vmfb"
  iree-compile --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu \
    --iree-llvmcpu-target-cpu=generic "$dir/id.mlir" -o "$dir/id.cpu.vmfb"
  rustc -O -C target-cpu=x86-64-v3 "$root/scripts/host-fma.rs" -o "$dir/host-fma"
  cp "$0" "$dir/thread-scaling.sh"
  echo "$dir"
}

run() {
  local dir
  dir=$(cd "$(dirname "$0")" && pwd)
  export LD_LIBRARY_PATH=$dir AMDGPU_SIM_MACHINE=mi300x-8
  echo "cores $(nproc)"
  # Physical cores or hardware threads: what 16 threads can get from 16 CPUs.
  lscpu 2>/dev/null | grep -E '^(Model name|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)):' || true
  local inputs=(--input=1024x1024xf16=1 --input=1024x1024xf16=0.5)
  if [ "${INPUTS:-text}" = npy ]; then
    inputs=(--input=@"$dir/mm-a.npy" --input=@"$dir/mm-b.npy")
  fi
  echo "inputs ${INPUTS:-text}"
  for threads in ${1:-1 2 4 8 16}; do
    for rep in $(seq 1 "${REPS:-3}"); do
      local start end out
      start=$(date +%s.%N)
      out=$(AMDGPU_SIM_THREADS=$threads "$dir/iree-run-module" --device=hip \
        --module="$dir/mm.gfx942.vmfb" --function=mm "${inputs[@]}")
      end=$(date +%s.%N)
      # Every element of the result is 512: anything else is a wrong answer.
      if ! grep -q '^1024x1024xf32=\[512 512' <<<"$out" || grep -Eo '[-+]?[0-9][0-9.e+-]*' <<<"${out#*=}" | grep -qv '^512$'; then
        echo "threads $threads: wrong result" >&2
        exit 1
      fi
      local skip
      skip=$(AMDGPU_SIM_KERNELS=skip AMDGPU_SIM_THREADS=$threads wall "$dir/iree-run-module" \
        --device=hip --module="$dir/mm.gfx942.vmfb" --function=mm "${inputs[@]}")
      awk -v t="$threads" -v r="$rep" -v s="$start" -v e="$end" -v k="$skip" \
        'BEGIN { printf "threads %s rep %s wall %.3f skip %s\n", t, r, e - s, k }'
    done
  done
}

# Wall seconds of a command (its output dropped).
wall() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }'
}

# User + system seconds of a command (bash's own clock).
cpu_seconds() {
  local TIMEFORMAT='%3U %3S' times
  times=$({ time "$@" >/dev/null 2>&1; } 2>&1)
  awk '{ print $1 + $2 }' <<<"$times"
}

share() {
  local dir core=${CORE:-2} rounds=${1:-15}
  dir=$(cd "$(dirname "$0")" && pwd)
  shift || true
  local libs=("$@")
  [ ${#libs[@]} -gt 0 ] || libs=("$dir")
  local inputs=(--input=@"$dir/mm-a.npy" --input=@"$dir/mm-b.npy")
  for round in $(seq 1 "$rounds"); do
    for lib in "${libs[@]}"; do
      local fma whole skip
      fma=$(taskset -c "$core" "$dir/host-fma")
      whole=$(LD_LIBRARY_PATH=$lib AMDGPU_SIM_MACHINE=mi300x-8 AMDGPU_SIM_THREADS=1 cpu_seconds \
        taskset -c "$core" "$dir/iree-run-module" --device=hip --module="$dir/mm.gfx942.vmfb" \
        --function=mm "${inputs[@]}")
      skip=$(LD_LIBRARY_PATH=$lib AMDGPU_SIM_MACHINE=mi300x-8 AMDGPU_SIM_THREADS=1 \
        AMDGPU_SIM_KERNELS=skip cpu_seconds taskset -c "$core" "$dir/iree-run-module" \
        --device=hip --module="$dir/mm.gfx942.vmfb" --function=mm "${inputs[@]}")
      awk -v r="$round" -v l="$lib" -v f="$fma" -v w="$whole" -v s="$skip" 'BEGIN {
        printf "round %s lib %s fma %s whole %s skip %s share %.2f%%\n", r, l, f, w, s,
          100 * 1073741824 / (w - s) / f }'
    done
  done
}

serial() {
  local dir
  dir=$(cd "$(dirname "$0")" && pwd)
  export LD_LIBRARY_PATH=$dir AMDGPU_SIM_MACHINE=mi300x-8
  local inputs=(--input=@"$dir/mm-a.npy" --input=@"$dir/mm-b.npy")
  for rep in $(seq 1 "${1:-9}"); do
    local cpu node skip
    cpu=$(wall "$dir/iree-run-module" --device=local-sync --module="$dir/id.cpu.vmfb" \
      --function=mm "${inputs[@]}")
    node=$(wall "$dir/iree-run-module" --device=hip --module="$dir/id.gfx942.vmfb" \
      --function=mm "${inputs[@]}")
    skip=$(AMDGPU_SIM_KERNELS=skip wall "$dir/iree-run-module" --device=hip \
      --module="$dir/mm.gfx942.vmfb" --function=mm "${inputs[@]}")
    echo "rep $rep identity-cpu $cpu identity-node $node matmul-skipped $skip"
  done
}

case ${1:-} in
prepare) prepare "${2:?prepare DIR}" ;;
run) run "${2:-}" ;;
share) shift && share "$@" ;;
serial) serial "${2:-}" ;;
*)
  echo "usage: $0 prepare DIR | $0 run [COUNTS] | $0 share [ROUNDS] [LIBDIR...] | $0 serial [REPS]" >&2
  exit 2
  ;;
esac
