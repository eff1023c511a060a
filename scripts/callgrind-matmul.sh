#!/usr/bin/env bash
# The instruction counts behind the interpreter's speed-ups in
# docs/PERFORMANCE.md ("What each speed-only construct buys"): an N x N x N
# f16 matmul with f32 results (default N = 256), the program and inputs of
# scripts/bench-matmul.py (multiples of 1/2 in [-2, 2], numpy seed 52),
# compiled by IREE 3.13 for gfx942 (mi300x-8, MFMA) and gfx1100 (w7900,
# WMMA), run once per chip by `iree-run-module` on LIB under callgrind
# (scripts/callgrind-iree.sh) with AMDGPU_SIM_THREADS=1.
#
#   scripts/callgrind-matmul.sh LIB [OUTDIR]
#
# Prints, per chip, the whole process's instructions and the kernels' own
# (`GroupRunner::run`, inclusive). The program and inputs are made once
# into OUTDIR (default target/callgrind-matmul); N=... sets the size,
# CHIPS="gfx942 gfx1100" the chips. Needs valgrind, numpy and the pip
# packages iree-base-compiler and iree-base-runtime 3.13.0.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
lib=$(realpath "${1:?usage: callgrind-matmul.sh LIB [OUTDIR]}")
n=${N:-256}
out=${2:-$ROOT/target/callgrind-matmul}
mkdir -p "$out"
declare -A machine=([gfx942]=mi300x-8 [gfx1100]=w7900)
if [ ! -f "$out/mm$n.b.npy" ]; then
  cat >"$out/mm$n.mlir" <<EOF
func.func @main(%a: tensor<${n}x${n}xf16>, %b: tensor<${n}x${n}xf16>) -> tensor<${n}x${n}xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<${n}x${n}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<${n}x${n}xf16>, tensor<${n}x${n}xf16>)
                     outs(%acc : tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  return %r : tensor<${n}x${n}xf32>
}
EOF
  python3 - "$out" "$n" <<'EOF'
import sys
import numpy as np
out, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(52)
for name in "ab":
    np.save(f"{out}/mm{n}.{name}.npy", (rng.integers(-4, 5, (n, n)) / 2).astype(np.float16))
EOF
fi
for chip in ${CHIPS:-gfx942 gfx1100}; do
  vmfb=$out/mm$n.$chip.vmfb
  [ -f "$vmfb" ] || iree-compile "$out/mm$n.mlir" --iree-hal-target-device=hip \
    --iree-rocm-target="$chip" -o "$vmfb"
  cg=$out/callgrind.$chip.out
  AMDGPU_SIM_THREADS=1 "$ROOT/scripts/callgrind-iree.sh" "$lib" "$cg" "${machine[$chip]}" \
    --device=hip --module="$vmfb" --function=main --input=@"$out/mm$n.a.npy" --input=@"$out/mm$n.b.npy" \
    >/dev/null
  total=$(callgrind_annotate "$cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
  kernels=$(callgrind_annotate --inclusive=yes "$cg" 2>/dev/null |
    awk '!done && /GroupRunner.*::run[^_a-z]/ { gsub(",", "", $1); print $1; done = 1 }')
  echo "$chip total $total kernels ${kernels:-?}"
done
