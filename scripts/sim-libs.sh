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
# and a link to the /dev/kfd stand-in, a test harness (crate
# `amdgpu-sim-kfd`, docs/SIMULATOR.md "The /dev/kfd stand-in"):
#
#   libamdgpu_sim_kfd.so   (LD_PRELOAD it into clients that open /dev/kfd
#                           themselves, as IREE's AMDGPU driver does)
#
# then prints OUT_DIR. Put it first on LD_LIBRARY_PATH and name a machine:
#
#   LD_LIBRARY_PATH=$(scripts/sim-libs.sh) AMDGPU_SIM_MACHINE=w7900 ./my-hip-program
#   out=$(scripts/sim-libs.sh); AMDGPU_SIM_MACHINE=mi300x-8 \
#     IREE_HAL_AMDGPU_LIBHSA_PATH=$out LD_PRELOAD=$out/libamdgpu_sim_kfd.so ./iree-test
#
# Usage: scripts/sim-libs.sh [--release] [--no-build] [--lib=PATH] [--kfd=PATH] [OUT_DIR]
#   --release   link the release build (target/release) instead of target/debug
#   --no-build  do not run cargo; the libraries must already be built
#   --lib=PATH  link this built library (e.g. the one cargo test builds in
#               target/debug/deps); implies --no-build. The stand-in is
#               linked when libamdgpu_sim_kfd.so is built beside it.
#   --kfd=PATH  link this built stand-in; implies --no-build
set -euo pipefail
cd "$(dirname "$0")/.."

profile=debug
build=1
out=""
lib_arg=""
kfd_arg=""
for arg in "$@"; do
  case "$arg" in
    --release) profile=release ;;
    --no-build) build=0 ;;
    --lib=*) lib_arg="${arg#--lib=}"; build=0 ;;
    --kfd=*) kfd_arg="${arg#--kfd=}"; build=0 ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "sim-libs.sh: unknown option '$arg'" >&2; exit 2 ;;
    *) out="$arg" ;;
  esac
done

target=${CARGO_TARGET_DIR:-target}
if [ "$build" = 1 ]; then
  flags=(-p amdgpu-sim-ffi -p amdgpu-sim-kfd --quiet)
  [ "$profile" = release ] && flags+=(--release)
  cargo build "${flags[@]}" >&2
fi
lib=${lib_arg:-$target/$profile/libamdgpu_sim_ffi.so}
if [ ! -f "$lib" ]; then
  echo "sim-libs.sh: $lib is not built (cargo build -p amdgpu-sim-ffi)" >&2
  exit 1
fi
# The stand-in: given, else beside an explicit library (optional there),
# else cargo's build (required).
if [ -n "$kfd_arg" ]; then
  kfd=$kfd_arg
  kfd_required=1
elif [ -n "$lib_arg" ]; then
  kfd=$(dirname "$lib")/libamdgpu_sim_kfd.so
  kfd_required=0
else
  kfd=$target/$profile/libamdgpu_sim_kfd.so
  kfd_required=1
fi
if [ ! -f "$kfd" ]; then
  if [ "$kfd_required" = 1 ]; then
    echo "sim-libs.sh: $kfd is not built (cargo build -p amdgpu-sim-kfd)" >&2
    exit 1
  fi
  kfd=""
fi
out=${out:-$target/sim-lib}
mkdir -p "$out"
lib=$(realpath "$lib")
rel=$(realpath --relative-to="$(realpath "$out")" "$lib")
for name in libhsa-runtime64.so.1 libhsa-runtime64.so \
            libamdhip64.so libamdhip64.so.5 libamdhip64.so.6; do
  ln -sfn "$rel" "$out/$name"
done
if [ -n "$kfd" ]; then
  kfd=$(realpath "$kfd")
  ln -sfn "$(realpath --relative-to="$(realpath "$out")" "$kfd")" "$out/libamdgpu_sim_kfd.so"
fi
realpath "$out"
