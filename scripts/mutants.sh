#!/usr/bin/env bash
# Mutation testing (cargo-mutants) of the modules whose answers users rely
# on, each against the few test binaries that check that module, so one run
# stays within minutes on a small machine (a full-suite run per mutant is far
# too slow). Figures and the equivalent survivors: docs/TESTING.md.
#
#   scripts/mutants.sh MODULE [CARGO-MUTANTS ARGS...]   one module
#   scripts/mutants.sh all [CARGO-MUTANTS ARGS...]      every module in turn
#   scripts/mutants.sh --list                           the modules
#
# Needs `cargo install cargo-mutants --locked`. Mutants are applied in place
# (`--in-place`, `--profile mutants`: the tree's own incremental build without
# debug info is reused, 5-10 s per mutant on 2 cores instead of a fresh build
# per copy), so do not edit or build the tree while it runs. Results: target/mutation/MODULE/mutants.out/ (caught.txt,
# missed.txt, unviable.txt, timeout.txt, outcomes.json).
set -euo pipefail
cd "$(dirname "$0")/.."

# MODULE -> "FILE... | TEST..." (a test named `lib` is the crate's unit tests).
declare -A MODULES=(
    [edge]="src/topology/edge.rs | topology_iree topology_props topology_report"
    [capabilities]="src/topology/capabilities.rs | topology_iree topology_props device_group_iree"
    [queue_affinity]="src/amdgpu/queue_affinity.rs | queue_affinity_iree executable_props"
    [target_id]="src/codeobj/target_id.rs | codeobj_target_id codeobj_fuzz_corpus"
    [hip_path]="src/hip/path.rs src/hip/uuid.rs src/hip/text.rs | hip_path_props hip_driver_mock"
    [kernarg]="src/amdgpu/kernarg.rs | lib executable_fixtures executable_mock"
    [metadata]="src/codeobj/metadata/decode.rs src/codeobj/metadata/export.rs | codeobj_metadata codeobj_fixtures"
)
ORDER=(edge capabilities queue_affinity target_id hip_path kernarg metadata)

usage() {
    echo "usage: $0 MODULE|all|--list [cargo-mutants args...]" >&2
    echo "modules: ${ORDER[*]}" >&2
    exit 2
}

run_module() {
    local module=$1
    shift
    local spec=${MODULES[$module]:-}
    [[ -n $spec ]] || usage
    local files=${spec%%|*} tests=${spec#*|}
    local args=(mutants --in-place --no-shuffle --minimum-test-timeout 60
        --profile mutants -o "target/mutation/$module")
    local file test
    for file in $files; do args+=(-f "$file"); done
    # Target selection goes to cargo itself (`--cargo-arg`: given to both the
    # build and the test phase), so only these binaries are built.
    for test in $tests; do
        if [[ $test == lib ]]; then
            args+=(--cargo-arg=--lib)
        else
            args+=("--cargo-arg=--test=$test")
        fi
    done
    args+=("$@")
    mkdir -p "target/mutation/$module"
    echo "== $module: cargo ${args[*]}" >&2
    # cargo-mutants exits 2 when mutants survive, 3 on timeouts: results, not
    # failures of the run; anything else (a failing baseline: 4) stops.
    # proptest records every failure a mutant causes as a regression seed;
    # those seeds describe mutated code, so the files are put back after.
    local saved
    saved=$(mktemp -d)
    find tests -name '*.proptest-regressions' -exec cp --parents {} "$saved" \;
    local rc=0
    cargo "${args[@]}" || rc=$?
    find tests -name '*.proptest-regressions' -newer "$saved" -exec rm {} +
    cp -r "$saved/tests" . 2>/dev/null || true
    rm -rf "$saved"
    [[ $rc -eq 0 || $rc -eq 2 || $rc -eq 3 ]] || return "$rc"
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
