#!/usr/bin/env python3
"""Lays out the IREE source tree the HIP CTS build reads, with the
project's additions, and never writes into the source it was given.

usage: prepare.py (--tarball FILE | --checkout DIR) DEST CHIP...

--tarball   an IREE source archive holding one top-level directory (CI's
            ../shared/iree/iree-b48a5955-src.tar.gz), unpacked into DEST;
--checkout  a user's own IREE checkout with its submodules: the parts a
            runtime-only build reads (PARTS) are copied into DEST.

Then, in DEST only:
1. the CTS testdata's `} attributes {workgroup_size = ...}` is rewritten as
   `} <workgroup_size = ...>`, the properties form iree-compile 3.13 reads
   (it rejects the other: "cannot be parsed from attr-dict when strict
   properties");
2. runtime/src/iree/hal/drivers/hip/cts/amdgpu_hal/ is added (IREE's
   iree_add_all_subdirs() picks it up): `backends_all.cc`, IREE's own
   `backends.cc` with both of its lists (unsupported tests, expected
   failures) emptied, and the test binaries, for each list variant:
     shipped_<category>_tests        IREE's lists as IREE ships them
     all_<category>_tests            every test
   for the categories that load no executable, and the same three
   executable categories (dispatch, executable, queue_dispatch) once per
   chip, in amdgpu_hal/<chip>/, each linked with testdata compiled for it;
3. runtime/src/iree/hal/drivers/amdgpu/cts/amdgpu_hal/ is added: the AMDGPU
   driver's executable categories, with IREE's own registration, once per
   chip in <chip>/ (IREE builds them for IREE_ROCM_TEST_TARGET_CHIP only),
   with host_queue_command_buffer_test, which embeds that testdata too,
   and executable_probe (executable_probe.c: what the driver registers for
   an executable, for the seed-against-port comparison).

DEST keeps a stamp naming its source; an unchanged source is not laid out
again, so a rebuild reuses the objects of the last one.
"""
import hashlib
import os
import re
import shutil
import sys
import tarfile

# What a runtime-only build of the CTS reads (IREE's top-level CMakeLists
# includes these; the third_party entries are the submodules it needs).
PARTS = [
    "CMakeLists.txt",
    "build_tools",
    "runtime",
    "tools",
    "tests",
    "compiler/CMakeLists.txt",
    "compiler/bindings/c",
    "third_party/flatcc",
    "third_party/googletest",
    "third_party/benchmark",
    "third_party/hsa-runtime-headers",
    "third_party/hip-build-deps",
    "third_party/rccl",
    "third_party/nccl",
]

CTS_DIR = "runtime/src/iree/hal/drivers/hip/cts"
AMDGPU_CTS_DIR = "runtime/src/iree/hal/drivers/amdgpu/cts"
# Bumped whenever what add_suites writes changes, so that a laid-out tree
# from an older harness is laid out again.
LAYOUT = 4
TESTDATA_DIR = "runtime/src/iree/hal/cts/testdata"
# The categories IREE's iree_hal_cts_test_suite builds, split as it splits them.
PLAIN_CATEGORIES = ["buffer", "command_buffer", "core", "file", "queue"]
EXECUTABLE_CATEGORIES = [
    ("dispatch", "iree::hal::cts::command_buffer::all_dispatch_tests"),
    ("executable", "iree::hal::cts::core::all_executable_tests"),
    ("queue_dispatch", "iree::hal::cts::queue::queue_dispatch_test"),
]
# (variant, backend library): IREE's own registration, and ours without lists.
VARIANTS = [
    ("shipped", "iree::hal::drivers::hip::cts::backends"),
    ("all", "iree::hal::drivers::hip::cts::amdgpu_hal::backends_all"),
]
CHIP = re.compile(r"^gfx[0-9a-f]{3,4}$")


def fail(message):
    sys.exit(f"prepare.py: {message}")


def source_stamp(kind, path):
    """Names the source: an archive by its digest, a checkout by its path
    and the commit its .git names (a checkout changes under one name)."""
    if kind == "tarball":
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return f"tarball {digest.hexdigest()}"
    head = os.path.join(path, ".git", "HEAD")
    commit = open(head).read().strip() if os.path.isfile(head) else "unknown"
    return f"checkout {os.path.realpath(path)} {commit}"


def unpack(tarball, dest):
    with tarfile.open(tarball) as archive:
        members = archive.getmembers()
        tops = {m.name.split("/", 1)[0] for m in members}
        if len(tops) != 1:
            fail(f"{tarball}: expected one top-level directory, found {len(tops)}")
        top = tops.pop()
        for m in members:
            m.name = m.name[len(top) :].lstrip("/")
        archive.extractall(dest, members=[m for m in members if m.name], filter="data")


def copy_checkout(checkout, dest):
    for part in PARTS:
        src = os.path.join(checkout, part)
        if not os.path.exists(src):
            fail(f"{checkout} has no {part} (a checkout with its submodules is needed)")
        target = os.path.join(dest, part)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isdir(src):
            shutil.copytree(src, target, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        else:
            shutil.copy2(src, target)


def fix_testdata(dest):
    pattern = re.compile(r"^(\s*)\} attributes \{workgroup_size = (.*)\}$", re.M)
    directory = os.path.join(dest, TESTDATA_DIR)
    for name in sorted(os.listdir(directory)):
        if name.endswith(".mlir"):
            path = os.path.join(directory, name)
            text = open(path).read()
            fixed = pattern.sub(r"\1} <workgroup_size = \2>", text)
            if fixed != text:
                open(path, "w").write(fixed)


def braced_end(text, start):
    """The index just past the brace group that opens at `text[start]`,
    skipping braces inside C string literals."""
    depth, i, in_string = 0, start, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    fail("unbalanced braces in backends.cc")


def empty_lists(backends_cc):
    """IREE's HIP CTS registration with its two lists emptied."""
    text = backends_cc
    for marker in ("/*unsupported_tests=*/", "/*expected_failures=*/"):
        at = text.find(marker)
        if at < 0:
            fail(f"backends.cc has no {marker} (IREE's registration changed shape)")
        brace = text.index("{", at)
        text = text[:brace] + "{}" + text[braced_end(text, brace) :]
    return (
        "// Generated by amdgpu-hal's scripts/iree-cts/prepare.py from this\n"
        "// directory's ../backends.cc: the same registration with both lists\n"
        "// (unsupported tests, expected failures) emptied, so every test runs.\n"
        + text
    )


def test_rule(name, deps, driver="hip"):
    lines = [
        "iree_cc_test(",
        f'  NAME "{name}"',
        '  SRCS "${PROJECT_SOURCE_DIR}/runtime/src/iree/hal/cts/util/test_main.cc"',
        "  DEPS",
    ]
    lines += [f"    {d}" for d in deps]
    lines += [f'  LABELS "driver={driver}"', ")", ""]
    return "\n".join(lines)


COMMON_DEPS = [
    "iree::hal::cts::util::registry",
    "iree::hal::cts::util::test_base",
    "iree::testing::gtest",
]


def cmake_top(chips):
    out = [
        "# Generated by amdgpu-hal's scripts/iree-cts/prepare.py.",
        "iree_add_all_subdirs()",
        "",
        "iree_cc_library(",
        "  NAME backends_all",
        '  SRCS "backends_all.cc"',
        "  DEPS",
        "    iree::async::util::proactor_pool",
        "    iree::base::threading",
        "    iree::hal",
        "    iree::hal::cts::util::registry",
        "    iree::hal::drivers::hip::registration",
        "  TESTONLY",
        "  ALWAYSLINK",
        "  PUBLIC",
        ")",
        "",
    ]
    for variant, backends in VARIANTS:
        for category in PLAIN_CATEGORIES:
            out.append(
                test_rule(
                    f"{variant}_{category}_tests",
                    [backends, *COMMON_DEPS, f"iree::hal::cts::{category}::all_tests"],
                )
            )
    return "\n".join(out)


def cmake_chip(chip):
    out = [
        f"# Generated by amdgpu-hal's scripts/iree-cts/prepare.py: the CTS testdata for {chip}.",
        "iree_hal_cts_testdata(",
        "  FORMAT_NAME hip",
        '  TARGET_DEVICE "hip"',
        f'  IDENTIFIER "iree_cts_testdata_hip_{chip}"',
        '  BACKEND_NAME "hip"',
        '  FORMAT_STRING [=["HSACO"]=]',
        '  TESTDATA_DIR "${PROJECT_SOURCE_DIR}/runtime/src/iree/hal/cts/testdata"',
        f'  FLAGS "--iree-rocm-target={chip}"',
        ")",
        "",
    ]
    for variant, backends in VARIANTS:
        for category, library in EXECUTABLE_CATEGORIES:
            out.append(
                test_rule(
                    f"{variant}_{category}_tests",
                    [backends, *COMMON_DEPS, "::testdata_hip_lib", library],
                )
            )
    return "\n".join(out)


# IREE's AMDGPU test that embeds the CTS testdata by its header path, built
# again per chip against that chip's testdata (IREE builds it for
# IREE_ROCM_TEST_TARGET_CHIP only).
AMDGPU_CHIP_TESTS = ["host_queue_command_buffer_test"]
AMDGPU_TESTDATA_INCLUDE = '#include "runtime/src/iree/hal/drivers/amdgpu/cts/testdata_amdgpu.h"'


def amdgpu_chip_test_source(dest, name, chip):
    """IREE's `name`.cc reading `chip`'s testdata instead of the default."""
    source = open(os.path.join(dest, "runtime/src/iree/hal/drivers/amdgpu", name + ".cc")).read()
    if AMDGPU_TESTDATA_INCLUDE not in source or "iree_cts_testdata_amdgpu_create()" not in source:
        fail(f"{name}.cc no longer reads the CTS testdata as this script expects")
    header = f"runtime/src/iree/hal/drivers/amdgpu/cts/amdgpu_hal/{chip}/testdata_amdgpu.h"
    source = source.replace(AMDGPU_TESTDATA_INCLUDE, f'#include "{header}"')
    source = source.replace("iree_cts_testdata_amdgpu_create()", f"iree_cts_testdata_amdgpu_{chip}_create()")
    return (
        f"// Generated by amdgpu-hal's scripts/iree-cts/prepare.py: IREE's {name}.cc\n"
        f"// reading the CTS testdata compiled for {chip}.\n" + source
    )


def cmake_amdgpu_chip(chip):
    out = [
        f"# Generated by amdgpu-hal's scripts/iree-cts/prepare.py: IREE's AMDGPU CTS on {chip}.",
        "iree_hal_cts_testdata(",
        "  FORMAT_NAME amdgpu",
        '  TARGET_DEVICE "amdgpu"',
        f'  IDENTIFIER "iree_cts_testdata_amdgpu_{chip}"',
        '  BACKEND_NAME "amdgpu"',
        f'  FORMAT_STRING [=["amdgcn-amd-amdhsa--{chip}"]=]',
        '  TESTDATA_DIR "${PROJECT_SOURCE_DIR}/runtime/src/iree/hal/cts/testdata"',
        f'  FLAGS "--iree-rocm-target={chip}"',
        ")",
        "",
    ]
    for category, library in EXECUTABLE_CATEGORIES:
        deps = ["iree::hal::drivers::amdgpu::cts::backends", *COMMON_DEPS]
        deps += ["::testdata_amdgpu_lib", library]
        out.append(test_rule(f"{category}_tests", deps, driver="amdgpu"))
    for name in AMDGPU_CHIP_TESTS:
        out += [
            "iree_cc_test(",
            f'  NAME "{name}"',
            f'  SRCS "{name}.cc"',
            "  DEPS",
            "    ::testdata_amdgpu",
            "    iree::base",
            "    iree::hal",
            "    iree::hal::cts::util::test_base",
            "    iree::hal::drivers::amdgpu",
            "    iree::hal::drivers::amdgpu::headers",
            "    iree::hal::drivers::amdgpu::queue_affinity",
            "    iree::hal::drivers::amdgpu::util::packet",
            "    iree::testing::gtest",
            "    iree::testing::gtest_main",
            '  LABELS "driver=amdgpu"',
            ")",
            "",
        ]
    return "\n".join(out)


PROBE_CMAKE = """# Generated by amdgpu-hal's scripts/iree-cts/prepare.py.
iree_add_all_subdirs()

iree_cc_binary(
  NAME executable_probe
  SRCS "executable_probe.c"
  DEPS
    iree::async
    iree::async::util::proactor_pool
    iree::base
    iree::base::threading
    iree::hal
    iree::hal::drivers::amdgpu
    iree::hal::drivers::amdgpu::registration
    iree::io::file_handle
    hsa_runtime::headers
  TESTONLY
)
"""


def add_amdgpu_suites(dest, chips):
    ours = os.path.join(dest, AMDGPU_CTS_DIR, "amdgpu_hal")
    if os.path.isdir(ours):
        shutil.rmtree(ours)
    os.makedirs(ours)
    open(os.path.join(ours, "CMakeLists.txt"), "w").write(PROBE_CMAKE)
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.copy2(os.path.join(here, "executable_probe.c"), ours)
    for chip in chips:
        os.makedirs(os.path.join(ours, chip))
        open(os.path.join(ours, chip, "CMakeLists.txt"), "w").write(cmake_amdgpu_chip(chip))
        for name in AMDGPU_CHIP_TESTS:
            with open(os.path.join(ours, chip, name + ".cc"), "w") as f:
                f.write(amdgpu_chip_test_source(dest, name, chip))


def add_suites(dest, chips):
    cts = os.path.join(dest, CTS_DIR)
    ours = os.path.join(cts, "amdgpu_hal")
    if os.path.isdir(ours):
        shutil.rmtree(ours)
    os.makedirs(ours)
    backends = open(os.path.join(cts, "backends.cc")).read()
    open(os.path.join(ours, "backends_all.cc"), "w").write(empty_lists(backends))
    open(os.path.join(ours, "CMakeLists.txt"), "w").write(cmake_top(chips))
    for chip in chips:
        os.makedirs(os.path.join(ours, chip))
        open(os.path.join(ours, chip, "CMakeLists.txt"), "w").write(cmake_chip(chip))


def main(argv):
    if len(argv) < 5 or argv[1] not in ("--tarball", "--checkout"):
        sys.exit(__doc__)
    kind, source, dest, chips = argv[1][2:], argv[2], argv[3], argv[4:]
    for chip in chips:
        if not CHIP.match(chip):
            fail(f"{chip!r} is not a gfx processor name")
    stamp_path = os.path.join(dest, ".amdgpu-hal-source")
    stamp = f"{source_stamp(kind, source)}\nchips {' '.join(chips)}\nlayout {LAYOUT}\n"
    if os.path.isfile(stamp_path) and open(stamp_path).read() == stamp:
        return
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    if kind == "tarball":
        unpack(source, dest)
    else:
        copy_checkout(source, dest)
    fix_testdata(dest)
    add_suites(dest, chips)
    add_amdgpu_suites(dest, chips)
    open(stamp_path, "w").write(stamp)


if __name__ == "__main__":
    main(sys.argv)
