#!/usr/bin/env bash
# Mutation testing (cargo-mutants) of the modules whose answers users rely
# on, each against the few test suites that check that module (modules of
# the integration-test binary tests/it/, chosen by test-name filter; for a
# module of another workspace package, its tests chosen by one name filter),
# so one run stays within minutes on a small machine (a full-suite run per
# mutant is far too slow). Figures and the equivalent survivors:
# docs/TESTING.md.
#
#   scripts/mutants.sh MODULE [CARGO-MUTANTS ARGS...]   one module (no `--`)
#   scripts/mutants.sh all [CARGO-MUTANTS ARGS...]      every module in turn
#   scripts/mutants.sh --list                           the modules
#
# Needs `cargo install cargo-mutants --locked`. Mutants are applied in place
# (`--in-place`, `--profile mutants`: the tree's own incremental build without
# debug info is reused instead of a fresh build per copy), so do not edit or
# build the tree while it runs. Results: target/mutation/MODULE/mutants.out/
# (caught.txt, missed.txt, unviable.txt, timeout.txt, outcomes.json).
set -euo pipefail
cd "$(dirname "$0")/.."

# MODULE -> "FILE... | SUITE..." (`lib`: the crate's unit tests; any other
# SUITE is `AREA::NAME`, the suite tests/it/AREA/NAME.rs).
declare -A MODULES=(
    [edge]="src/topology/edge.rs | topology::iree topology::props topology::report"
    [capabilities]="src/topology/capabilities.rs | topology::iree topology::props group::device_group_iree"
    [queue_affinity]="src/amdgpu/queue_affinity.rs | group::queue_affinity_iree executable::props"
    [target_id]="src/codeobj/target_id.rs | codeobj::target_id codeobj::fuzz_corpus"
    [hip_path]="src/hip/path.rs src/hip/uuid.rs src/hip/text.rs | lib hip::path_props hip::driver_mock"
    [kernarg]="src/amdgpu/kernarg.rs | lib executable::fixtures executable::mock"
    [metadata]="src/codeobj/metadata/decode.rs src/codeobj/metadata/export.rs | codeobj::metadata codeobj::notes codeobj::fixtures inputs::memory_bounds"
    [output]="src/escape.rs src/json_writer/mod.rs | lib cli::conventions"
    [inspect]="src/report/inspect/mod.rs src/report/inspect/export.rs src/report/inspect/json.rs | lib wrapped::inspect cli::conventions codeobj::notes inputs::memory_bounds"
    [names]="src/codeobj/metadata/unique.rs src/codeobj/metadata/prehashed.rs src/codeobj/metadata/model.rs | codeobj::unique codeobj::metadata wrapped::inspect"
    [vmfb]="src/wrapped/vmfb.rs src/report/vmfb.rs | lib wrapped::vmfb cli::vmfb"
    [release]="src/input.rs filemap/src/lib.rs | lib inputs::memory_bounds"
)
# Modules of the workspace's other packages: MODULE -> "PACKAGE TEST-PACKAGE
# TARGET[,TARGET] FILTER | FILE...": FILEs of PACKAGE, tested by the TARGETs
# of TEST-PACKAGE (`lib`: its unit tests; `it`: its tests/it binary) whose
# test names contain FILTER (cargo test's own name filter).
declare -A PACKAGE_MODULES=(
    [pm4]="amdgpu-sim amdgpu-sim lib,it pm4 | sim/src/pm4/mod.rs sim/src/pm4/compute.rs sim/src/pm4/commands.rs"
    [vmem]="amdgpu-sim amdgpu-sim-ffi it vmem:: | sim/src/vmem.rs sim/src/state/vmem.rs"
    [kfd]="amdgpu-sim-kfd amdgpu-sim-ffi it kfd:: | sim/kfd/src/ioctl.rs sim/kfd/src/files.rs"
)
ORDER=(edge capabilities queue_affinity target_id hip_path kernarg metadata output inspect names vmfb release pm4 vmem kfd)

usage() {
    echo "usage: $0 MODULE|all|--list [cargo-mutants args...]" >&2
    echo "modules: ${ORDER[*]}" >&2
    exit 2
}

run_module() {
    local module=$1
    shift
    if [[ -n ${PACKAGE_MODULES[$module]:-} ]]; then
        run_package_module "$module" "$@"
        return
    fi
    local spec=${MODULES[$module]:-}
    [[ -n $spec ]] || usage
    local files=${spec%%|*} tests=${spec#*|}
    local args=(mutants --in-place --no-shuffle --minimum-test-timeout 60
        --profile mutants -o "target/mutation/$module")
    local file test suite
    for file in $files; do args+=(-f "$file"); done
    # Target selection goes to cargo itself (`--cargo-arg`: given to both the
    # build and the test phase), so only these binaries are built: the lib's
    # unit tests when listed, and tests/it. The suites are chosen by skipping
    # every other module of tests/it (`--skip MODULE::`, after `-- --`: to the
    # test binaries), which leaves the lib's unit tests, whose names start
    # with the library's own module paths, all selected.
    local suites=() skips=()
    for test in $tests; do
        if [[ $test == lib ]]; then
            args+=(--cargo-arg=--lib)
        else
            [[ -f tests/it/${test//:://}.rs ]] || {
                echo "$0: $test is not a suite of tests/it (tests/it/AREA/NAME.rs)" >&2
                return 2
            }
            suites+=("$test")
        fi
    done
    if ((${#suites[@]})); then
        args+=(--cargo-arg=--test=it)
        # Every suite (tests/it/AREA/NAME.rs of an area main.rs declares) not chosen.
        local area path
        for area in $(sed -n 's/^mod \([a-z_0-9]*\);$/\1/p' tests/it/main.rs); do
            # Areas only: the helper folders (support, sweep, ...) hold no suites.
            [[ -f tests/it/$area/mod.rs && ! $area =~ ^(support|exec_support|sweep|real_support)$ ]] || continue
            for path in tests/it/$area/*.rs; do
                suite=$(basename "$path" .rs)
                [[ $suite != mod ]] || continue
                suite=$area::$suite
                [[ " ${suites[*]} " != *" $suite "* ]] || continue
                # `--skip` matches substrings: it must not hit a chosen suite.
                for test in "${suites[@]}"; do
                    [[ $test:: != *"$suite::"* ]] || {
                        echo "$0: skipping $suite:: would skip $test too" >&2
                        return 2
                    }
                done
                skips+=(--skip "$suite::")
            done
        done
    fi
    args+=("$@" -- -- "${skips[@]}")
    echo "== $module: suites ${suites[*]}: cargo ${args[*]}" >&2
    run_mutants "$module" "${args[@]}"
}

run_package_module() {
    local module=$1
    shift
    local spec=${PACKAGE_MODULES[$module]}
    local files=${spec#*|} package tested targets filter
    read -r package tested targets filter <<<"${spec%%|*}"
    local args=(mutants --in-place --no-shuffle --profile mutants
        -o "target/mutation/$module" -p "$package")
    local file target selection=()
    for file in $files; do args+=(-f "$file"); done
    for target in ${targets//,/ }; do
        case $target in
            lib) selection+=(--lib) ;;
            it) selection+=(--test=it) ;;
            *) echo "$0: $module: target $target is neither lib nor it" >&2; return 2 ;;
        esac
    done
    for target in "${selection[@]}"; do args+=("--cargo-arg=$target"); done
    if [[ $tested == "$package" ]]; then
        args+=(--minimum-test-timeout 60)
    else
        # cargo-mutants 27 runs its baseline with the mutated package's
        # tests, not --test-package's (a target that package may not have):
        # the unmutated tests run here instead, and its baseline is skipped
        # (so its test timeout is set, not measured).
        echo "== $module: baseline: cargo test -p $tested ${selection[*]} $filter" >&2
        cargo test --profile mutants -p "$tested" "${selection[@]}" "$filter" >&2
        args+=(--test-package "$tested" --baseline=skip --timeout 120)
    fi
    args+=("$@" -- "$filter")
    echo "== $module: $tested's tests matching $filter: cargo ${args[*]}" >&2
    run_mutants "$module" "${args[@]}"
}

# `cargo` ARGS (a cargo-mutants run) for MODULE.
run_mutants() {
    local module=$1
    shift
    mkdir -p "target/mutation/$module"
    # cargo-mutants exits 2 when mutants survive, 3 on timeouts: results, not
    # failures of the run; anything else (a failing baseline: 4) stops.
    # proptest records every failure a mutant causes as a regression seed;
    # those seeds describe mutated code, so the files are put back after.
    local saved
    saved=$(mktemp -d)
    seed_files -exec cp --parents {} "$saved" \;
    local rc=0
    cargo "$@" || rc=$?
    seed_files -newer "$saved" -exec rm {} +
    find . \( -name target -o -name .git \) -prune -o -type d -name proptest-regressions -empty -print0 |
        xargs -0r rmdir
    cp -r "$saved/." .
    rm -rf "$saved"
    [[ $rc -eq 0 || $rc -eq 2 || $rc -eq 3 ]] || return "$rc"
}

# The workspace's proptest regression files (each package's tests keep
# theirs in tests/proptest-regressions/, its unit tests in
# proptest-regressions/ beside its Cargo.toml), acted on by find's ARGS.
seed_files() {
    find . \( -name target -o -name .git \) -prune -o -path '*/proptest-regressions/*' -type f "$@"
}

case ${1:-} in
    --list) printf '%s\n' "${ORDER[@]}" ;;
    all)
        shift
        for module in "${ORDER[@]}"; do run_module "$module" "$@"; done
        ;;
    "" | -*) usage ;;
    *) run_module "$@" ;;
esac
