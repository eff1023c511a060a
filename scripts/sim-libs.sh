#!/usr/bin/env bash
# The simulator as a C library under the file names loaders look for.
#
# Builds `libamdgpu_sim_ffi.so` (crate `amdgpu-sim-ffi`) and makes, in
# OUT_DIR (default: <target dir>/sim-lib), relative symbolic links to it
# named as the vendor runtimes:
#
#   libhsa-runtime64.so.1  libhsa-runtime64.so           (ROCr: rocminfo, HSA programs)
#   libamdhip64.so  libamdhip64.so.5  libamdhip64.so.6   (HIP: IREE, HIP programs)
#
# then prints OUT_DIR. Put it first on LD_LIBRARY_PATH and name a machine:
#
#   LD_LIBRARY_PATH=$(scripts/sim-libs.sh) AMDGPU_SIM_MACHINE=w7900 ./my-hip-program
#
# Usage: scripts/sim-libs.sh [--release] [--no-build] [--lib=PATH] [OUT_DIR]
#   --release   link the release build (target/release) instead of target/debug
#   --no-build  do not run cargo; the library must already be built
#   --lib=PATH  link this built library (e.g. the one cargo test builds in
#               target/debug/deps); implies --no-build
set -euo pipefail
cd "$(dirname "$0")/.."

profile=debug
build=1
out=""
lib_arg=""
for arg in "$@"; do
  case "$arg" in
    --release) profile=release ;;
    --no-build) build=0 ;;
    --lib=*) lib_arg="${arg#--lib=}"; build=0 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "sim-libs.sh: unknown option '$arg'" >&2; exit 2 ;;
    *) out="$arg" ;;
  esac
done

target=${CARGO_TARGET_DIR:-target}
if [ "$build" = 1 ]; then
  flags=(-p amdgpu-sim-ffi --quiet)
  [ "$profile" = release ] && flags+=(--release)
  cargo build "${flags[@]}" >&2
fi
lib=${lib_arg:-$target/$profile/libamdgpu_sim_ffi.so}
if [ ! -f "$lib" ]; then
  echo "sim-libs.sh: $lib is not built (cargo build -p amdgpu-sim-ffi)" >&2
  exit 1
fi
out=${out:-$target/sim-lib}
mkdir -p "$out"
lib=$(realpath "$lib")
rel=$(realpath --relative-to="$(realpath "$out")" "$lib")
for name in libhsa-runtime64.so.1 libhsa-runtime64.so \
            libamdhip64.so libamdhip64.so.5 libamdhip64.so.6; do
  ln -sfn "$rel" "$out/$name"
done
realpath "$out"
