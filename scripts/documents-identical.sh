#!/usr/bin/env bash
# Shows that two builds of the CLI print the same documents: `inspect` and
# `load`, text and `--json`, on every code object under fixtures/ (raw
# HSACOs, AMD1, HIP1 and relocatable objects) and on the generated
# 1,000- and 10,000-kernel objects (fixtures/large/generate.sh). Each
# document is compared byte for byte with its exit status and stderr.
#
#   scripts/documents-identical.sh REV     # REV's CLI against the work tree's
#
# REV is built in a worktree under target/documents-base (its own target
# directory, kept, so a second run builds only what changed). Exits 1 and
# names every document that differs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:?usage: scripts/documents-identical.sh REV}
base=$ROOT/target/documents-base
out=$ROOT/target/documents
mkdir -p "$base"
# Seeded from the work tree's build: only the workspace's crates recompile.
[ -d "$base/target/release" ] || { mkdir -p "$base/target" && cp -a "$ROOT/target/release" "$base/target/"; }

tree=$base/tree
git -C "$ROOT" worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
git -C "$ROOT" worktree add --quiet --detach "$tree" "$rev"
(cd "$tree" && CARGO_TARGET_DIR=$base/target cargo build --release --quiet --bin amdgpu-hal)
cp "$base/target/release/amdgpu-hal" "$base/amdgpu-hal"
git -C "$ROOT" worktree remove --force "$tree"
(cd "$ROOT" && cargo build --release --quiet --bin amdgpu-hal)
"$ROOT/fixtures/large/generate.sh" 1000 10000 >&2

inputs=()
while IFS= read -r file; do inputs+=("$file"); done < <(
  cd "$ROOT" && find fixtures -type f \( -name '*.hsaco' -o -name '*.amd1' -o -name '*.hip1' -o -name '*.o' \) | sort)
for large in "$ROOT"/target/large-fixtures/kernels_{1000,10000}.gfx942.{hsaco,amd1}; do
  [ -f "$large" ] && inputs+=("$large")
done

# documents CLI DIR: every document of every input, one file each.
documents() {
  local cli=$1 dir=$2 n=0
  rm -rf "$dir" && mkdir -p "$dir"
  for input in "${inputs[@]}"; do
    for command in "inspect" "inspect --json" "load" "load --json"; do
      n=$((n + 1))
      # shellcheck disable=SC2086 # the command's words split on purpose
      (cd "$ROOT" && "$cli" $command "$input" >"$dir/$n.out" 2>"$dir/$n.err"; echo $? >"$dir/$n.rc") || true
      echo "$command $input" >"$dir/$n.name"
    done
  done
}
documents "$base/amdgpu-hal" "$out/base"
documents "$ROOT/target/release/amdgpu-hal" "$out/head"

differ=0 total=0
for name in "$out"/base/*.name; do
  n=$(basename "$name" .name)
  total=$((total + 1))
  for part in out err rc; do
    if ! cmp -s "$out/base/$n.$part" "$out/head/$n.$part"; then
      echo "differs ($part): $(cat "$name")"
      differ=$((differ + 1))
      break
    fi
  done
done
echo "$total documents of ${#inputs[@]} inputs compared: $differ differ ($rev against the work tree)"
[ "$differ" -eq 0 ]
