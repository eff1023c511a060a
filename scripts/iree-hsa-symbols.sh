#!/usr/bin/env bash
# The HSA symbols IREE's AMDGPU driver resolves at load: every
# IREE_HAL_AMDGPU_LIBHSA_PFN entry of
# runtime/src/iree/hal/drivers/amdgpu/util/libhsa_tables.h, one name a line,
# in the table's order. sim/ffi's tests check that the C library exports
# each one (sim/ffi/tests/it/iree_hsa_symbols.txt is this script's output at
# the IREE commit the project follows, b48a5955).
#
# Usage: scripts/iree-hsa-symbols.sh [SOURCE]            print the list
#        scripts/iree-hsa-symbols.sh --write [SOURCE]    rewrite the committed list
#   SOURCE: an IREE checkout, or a source archive (.tar.gz) with one top
#   folder; default $IREE_SOURCE_DIR, else ../shared/iree/iree-b48a5955-src.tar.gz
set -euo pipefail
cd "$(dirname "$0")/.."

TABLE=runtime/src/iree/hal/drivers/amdgpu/util/libhsa_tables.h
LIST=sim/ffi/tests/it/iree_hsa_symbols.txt

write=0
if [[ ${1:-} == --write ]]; then
  write=1
  shift
fi
source=${1:-${IREE_SOURCE_DIR:-../shared/iree/iree-b48a5955-src.tar.gz}}

if [[ -d $source ]]; then
  text=$(cat "$source/$TABLE")
elif [[ -f $source ]]; then
  text=$(tar -xzOf "$source" --wildcards "*/$TABLE")
else
  echo "iree-hsa-symbols.sh: no IREE source at '$source'" >&2
  exit 1
fi

# Each entry is IREE_HAL_AMDGPU_LIBHSA_PFN(category, result type, symbol, ...),
# spread over several lines: join the lines, then take the third argument.
symbols=$(tr '\n' ' ' <<<"$text" |
  grep -oE 'IREE_HAL_AMDGPU_LIBHSA_PFN\( *[A-Z_]+ *, *[A-Za-z0-9_]+ *, *[A-Za-z0-9_]+' |
  sed -E 's/.*, *//')

if [[ $write == 1 ]]; then
  printf '%s\n' "$symbols" >"$LIST"
  echo "$LIST: $(wc -l <"$LIST") symbols"
else
  printf '%s\n' "$symbols"
fi
