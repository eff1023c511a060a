#!/usr/bin/env bash
# Runs every cargo-fuzz target for SECONDS each, one after the other (one
# core: the machine is shared). Usage: scripts/fuzz.sh SECONDS [TARGET...]
#
# New inputs go to fuzz/work/TARGET (ignored by git); the committed corpus
# fuzz/corpus/TARGET and the fixtures are read-only seeds. Crashes land in
# fuzz/artifacts/TARGET; copy each into fuzz/regressions/TARGET/ once fixed
# (tests/it/inputs/fuzz_replay.rs replays it under plain `cargo test`).
set -euo pipefail
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}
shift
cd "$(dirname "$0")/../fuzz"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(codeobj_elf codeobj_metadata target_id wrapped hip_path machine wrapped_build isa_program pm4)
fi
export RUSTC_BOOTSTRAP=1
# cargo-fuzz is a cargo subcommand of its own; without it cargo says only
# "no such command: fuzz".
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "scripts/fuzz.sh: cargo-fuzz is not installed; install it first:" >&2
  echo "  cargo install cargo-fuzz --locked" >&2
  exit 2
fi
# Release code with debug assertions and overflow checks (`-a`), so integer
# overflow aborts like a panic. FUZZ_FLAGS=-O skips the checks (faster).
read -r -a flags <<<"${FUZZ_FLAGS:--O -a}"
cargo fuzz build "${flags[@]}"
status=0
for target in "${targets[@]}"; do
  seeds=(corpus/"$target")
  dict=()
  max_len=65536
  case $target in
    codeobj_elf) seeds+=(../fixtures/hsaco ../fixtures/iree); dict=(-dict=dict/metadata.dict); max_len=131072 ;;
    codeobj_metadata) dict=(-dict=dict/metadata.dict) ;;
    target_id) dict=(-dict=dict/target_id.dict); max_len=512 ;;
    wrapped) seeds+=(../fixtures/iree); dict=(-dict=dict/wrapped.dict); max_len=131072 ;;
    hip_path) dict=(-dict=dict/hip_path.dict); max_len=4096 ;;
    machine) dict=(-dict=dict/machine.dict); max_len=65536 ;;
    wrapped_build) max_len=4096 ;;
    isa_program) max_len=8192 ;;
    pm4) dict=(-dict=dict/pm4.dict); max_len=16385 ;;
  esac
  mkdir -p work/"$target" artifacts/"$target"
  for dir in "${seeds[@]}"; do mkdir -p "$dir"; done
  echo "== $target: ${seconds}s"
  if ! cargo fuzz run "${flags[@]}" "$target" work/"$target" "${seeds[@]}" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -max_len="$max_len" -timeout=10 -print_final_stats=1 \
    -artifact_prefix=artifacts/"$target"/ "${dict[@]}" >work/"$target".log 2>&1; then
    echo "!! $target failed; see fuzz/work/$target.log and fuzz/artifacts/$target/"
    tail -40 work/"$target".log
    status=1
  fi
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^#[0-9]+ +DONE' work/"$target".log || true
done
exit $status
