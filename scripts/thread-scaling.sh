#!/usr/bin/env bash
# Thread scaling of one kernel-heavy IREE program on the simulated node:
# a 1024x1024x1024 f16 matmul with f32 results (128 work-groups of 256
# work-items on gfx942), run by IREE's `iree-run-module --device=hip` on
# mi300x-8 with AMDGPU_SIM_THREADS=1, 2, 4, ... (docs/PERFORMANCE.md,
# "Kernel threads").
#
#   scripts/thread-scaling.sh prepare DIR   builds the release C library,
#       compiles the matmul (pip iree-base-compiler) and copies the library,
#       IREE's iree-run-module (pip iree-base-runtime) and this script into
#       DIR: a folder that runs on a machine with no Rust and no IREE
#       (another machine's cores: carry DIR there).
#   DIR/thread-scaling.sh run [COUNTS]      times REPS (default 3) whole
#       processes per thread count (default "1 2 4 8 16"), checks each
#       result (every element 1024 * 1 * 0.5 = 512), and prints one line
#       per run: threads, repetition, wall seconds.
#
# The inputs are splats given as text (`--input=1024x1024xf16=1`), or with
# INPUTS=npy the same values read from the .npy files prepare wrote (numpy):
# IREE's tool parses a text input element by element (2 M elements, about
# 85 % of the instructions of the run without its kernels,
# docs/PERFORMANCE.md "Serial start-up"), a part of the run no kernel
# thread shortens.
set -euo pipefail

MATMUL_MLIR='func.func @mm(%a: tensor<1024x1024xf16>, %b: tensor<1024x1024xf16>) -> tensor<1024x1024xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf16>, tensor<1024x1024xf16>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
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
      awk -v t="$threads" -v r="$rep" -v s="$start" -v e="$end" \
        'BEGIN { printf "threads %s rep %s wall %.3f\n", t, r, e - s }'
    done
  done
}

case ${1:-} in
prepare) prepare "${2:?prepare DIR}" ;;
run) run "${2:-}" ;;
*)
  echo "usage: $0 prepare DIR | $0 run [COUNTS]" >&2
  exit 2
  ;;
esac
