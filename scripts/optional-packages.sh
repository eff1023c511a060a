#!/usr/bin/env bash
# The README's promise, checked one package at a time: with any optional
# package missing, the tests that use one still pass (each asks for exactly
# what it uses and skips the rest with one line). For each package that
# `scripts/without-packages.sh --list` names, this hides that package alone
# and runs the suites that use optional packages -- not the whole workspace
# again: CI has just run everything with every package present.
#
# Usage: scripts/optional-packages.sh [PACKAGE...]   (default: every one)
# Needs root (scripts/without-packages.sh). `.ci/run` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

# tests/it suites (AREA::SUITE::) that use an optional package and run in
# seconds (tests/it/inputs/optional_packages.rs checks this list against the
# sources).
quick=(cli::devices:: cli::hip:: cli::run:: codeobj::fixtures:: codeobj::truncation:: executable::fixtures:: executable::sim::
    inputs::requires_contract:: real::backend:: real::cli:: real::cuda:: real::hip::
    real::hsa:: real::nccl:: real::nvml:: wrapped::inspect:: wrapped::vmfb::)
# Suites that take minutes when their packages are there: run only with one
# of their own packages hidden, where they skip at once.
heavy_for() {
    case $1 in
    pip:iree-base-runtime) echo sim::iree_client:: sim::kernels_corpus:: sim::iree_diff:: sim::thread_counts:: ;;
    pip:numpy) echo sim::triton_corpus:: sim::thread_counts:: ;;
    pip:iree-base-compiler | pip:cmake | pip:ninja | clang-19)
        echo sim::iree_cts:: sim::iree_amdgpu:: sim::iree_amdgpu_faults:: sim::iree_seed_port:: \
            sim::iree_amdgpu_run:: sim::iree_e2e:: sim::iree_diff:: ;;
    graphviz | rocminfo) echo cli::readme_walkthrough::every_sh_block_runs ;;
    esac
}

packages=("$@")
if [ "${#packages[@]}" -eq 0 ]; then
    mapfile -t packages < <(scripts/without-packages.sh --list)
fi
# Build once with everything present; the runs below only execute.
cargo test --workspace --features real --no-run -q

status=0
for p in "${packages[@]}"; do
    suites=("${quick[@]}")
    read -r -a heavy <<<"$(heavy_for "$p")"
    suites+=("${heavy[@]}")
    filters=("${suites[@]}")
    echo "== without $p"
    # A skip is the expected outcome here, not a failure.
    if ! scripts/without-packages.sh "$p" -- env -u AMDGPU_HAL_REQUIRE_ALL \
        cargo test -q --features real --test it -- "${filters[@]}" 2>&1 | tail -n 25; then
        echo "!! the suites that use optional packages fail without $p"
        status=1
    fi
    # The other crates' suites that use one.
    case $p in
    libhsa-runtime-dev | libamdhip64-dev) extra=(-p amdgpu-sys --test headers) ;;
    rocminfo) extra=(-p amdgpu-sim-ffi --test it -- rocminfo::) ;;
    pip:iree-base-runtime) extra=(-p amdgpu-sim-ffi --test it -- timeline::iree::) ;;
    pip:holistictraceanalysis) extra=(-p amdgpu-sim-ffi --test it -- timeline::consumer::) ;;
    pip:triton | pip:numpy) extra=(-p amdgpu-sim-ffi --test it -- triton_launcher::) ;;
    pip:hip-python) extra=(-p amdgpu-sim-ffi --test it -- hip_python::) ;;
    librocrand1 | libhiprand1 | librocsparse0) extra=(-p amdgpu-sim-ffi --test it -- rocm_libraries::) ;;
    llvm-19) extra=(-p amdgpu-isa --test llvm_oracle --test generated_tables) ;;
    llvm-22) extra=(-p amdgpu-isa --test generated_tables --test llvm_oracle) ;;
    *) extra=() ;;
    esac
    if [ "${#extra[@]}" -gt 0 ] && ! scripts/without-packages.sh "$p" -- env -u AMDGPU_HAL_REQUIRE_ALL \
        cargo test -q "${extra[@]}" 2>&1 | tail -n 5; then
        echo "!! ${extra[*]} fails without $p"
        status=1
    fi
done
exit $status
