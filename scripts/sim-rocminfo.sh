#!/usr/bin/env bash
# Runs Debian's `rocminfo` (package rocminfo) against the simulated node.
#
# rocminfo links libhsa-runtime64.so.1; the loader finds the simulator's
# link of that name first (scripts/sim-libs.sh). Before it calls HSA,
# rocminfo checks the machine itself: `lsmod | grep amdgpu` must print
# something and /dev/kfd must open read-write. This script grants exactly
# that, to rocminfo alone: a stand-in `lsmod` first on PATH, and /dev/kfd
# as /dev/null inside a private mount namespace (`unshare`; as root, or as
# a user where unprivileged user namespaces are allowed). Nothing outside
# the namespace changes.
#
# Usage: scripts/sim-rocminfo.sh MACHINE [ROCMINFO ARGS...]
#   MACHINE: a preset (`amdgpu-hal machines` lists them) or a
#            machine description file (AMDGPU_SIM_MACHINE).
# Environment:
#   AMDGPU_SIM_LIB_DIR  directory holding libhsa-runtime64.so.1 (default:
#                       what scripts/sim-libs.sh makes)
#   ROCMINFO            the rocminfo binary (default: rocminfo on PATH)
# The exit status is rocminfo's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ $# -lt 1 ]; then
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
machine=$1
shift

rocminfo=${ROCMINFO:-$(command -v rocminfo || true)}
if [ -z "$rocminfo" ] || [ ! -x "$rocminfo" ]; then
  echo "sim-rocminfo.sh: rocminfo not found (needs Debian package rocminfo)" >&2
  exit 127
fi
command -v unshare >/dev/null || {
  echo "sim-rocminfo.sh: unshare not found (needs Debian package util-linux)" >&2
  exit 127
}
libdir=${AMDGPU_SIM_LIB_DIR:-$("$here/sim-libs.sh")}
if [ ! -e "$libdir/libhsa-runtime64.so.1" ]; then
  echo "sim-rocminfo.sh: no libhsa-runtime64.so.1 in '$libdir'" >&2
  exit 1
fi
libdir=$(realpath "$libdir")
# A machine file is named relative to the caller's directory.
if [ -f "$machine" ]; then
  machine=$(realpath "$machine")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/hostdev"
cat > "$work/bin/lsmod" <<'LSMOD'
#!/bin/sh
# Stand-in for lsmod: the module rocminfo's preflight greps for.
echo "Module                  Size  Used by"
echo "amdgpu              16384000  0"
LSMOD
chmod +x "$work/bin/lsmod"

if [ "$(id -u)" = 0 ]; then
  ns=(unshare --mount --propagation private)
else
  ns=(unshare --map-root-user --mount --propagation private)
fi

# Inside the namespace: where /dev has no kfd node to bind over, a fresh
# tmpfs /dev holding the host's basic nodes (bound) and an empty kfd file;
# then /dev/null bound over /dev/kfd.
exec "${ns[@]}" /bin/sh -c '
  set -e
  work=$1; libdir=$2; machine=$3; rocminfo=$4; shift 4
  if [ ! -e /dev/kfd ]; then
    mount --rbind /dev "$work/hostdev"
    mount -t tmpfs -o mode=755 sim-dev /dev
    for node in null zero full random urandom tty; do
      if [ -e "$work/hostdev/$node" ]; then
        : > "/dev/$node"
        mount --bind "$work/hostdev/$node" "/dev/$node"
      fi
    done
    ln -s /proc/self/fd /dev/fd
    ln -s /proc/self/fd/0 /dev/stdin
    ln -s /proc/self/fd/1 /dev/stdout
    ln -s /proc/self/fd/2 /dev/stderr
    : > /dev/kfd
  fi
  mount --bind /dev/null /dev/kfd
  PATH="$work/bin:$PATH" \
  LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  AMDGPU_SIM_MACHINE="$machine" \
    "$rocminfo" "$@"
' sim-rocminfo "$work" "$libdir" "$machine" "$rocminfo" "$@"
