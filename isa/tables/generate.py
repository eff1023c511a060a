#!/usr/bin/env python3
"""Generate the AMDGPU opcode tables in `isa/src/tables/` from LLVM's disassembler.

For each instruction encoding of two instruction-set families -- GFX9
(`-mcpu=gfx942`, cross-checked against `-mcpu=gfx90a`) and GFX11
(`-mcpu=gfx1100`) -- this script builds one machine instruction for every
possible value of the encoding's opcode field, with simple operand fields
(register 0 / inline constant 0, no literal), feeds them all to

    llvm-mc-19 --disassemble -arch=amdgcn -mcpu=CPU

in a single invocation per encoding and CPU, and records the mnemonic LLVM
prints for each opcode value (its first token, with the `_e32`, `_e64`,
`_sdwa` and `_dpp` suffixes stripped). Values the disassembler rejects are
left out.

LLVM's decoder checks the operand fields an instruction does not use (they
must be zero), and some opcodes need particular operand values (e.g. a FLAT
segment instruction needs `saddr` = off), so each encoding is tried with a
short, ordered list of operand variants; an opcode's mnemonic is taken from
the first variant that decodes. The script fails if two variants of one
opcode decode to different mnemonics.

Each opcode's mnemonic is then given the operation the interpreter runs for
it, from `isa/tables/operations.txt` (one line per full mnemonic: the
mnemonic, then the `Op` as a Rust expression); a mnemonic the file does not
list is an instruction the interpreter lacks (`None`). A VOPD half,
`v_dual_X`, is the operation of `v_X`. Every line of the file must name a
mnemonic of some table.

Outputs (Rust, `pub(crate)` constants of `(opcode, mnemonic, operation)`
rows sorted by opcode, each documented with the encoding's bit layout):

* `isa/src/tables/gfx9.rs`  -- gfx942 tables, plus `GFX90A_OVERRIDES` and
  `GFX942_ONLY` describing where gfx90a differs;
* `isa/src/tables/gfx11.rs` -- gfx1100 tables.

Before writing, the script assembles a list of known instructions with
`llvm-mc-19 -show-encoding` and checks that the opcode field of each encoding
maps back to the same mnemonic through the generated tables.

Usage (from the repository root or anywhere else):

    python3 isa/tables/generate.py           # write the tables
    python3 isa/tables/generate.py --check   # exit 1 if they differ from the files
    python3 isa/tables/generate.py [--check] --only llvm19   # gfx9.rs, gfx11.rs, gfx12.rs
    python3 isa/tables/generate.py [--check] --only gfx950   # gfx950.rs

gfx950 (CDNA4), which LLVM 19 does not know, is enumerated as GFX9 with
`llvm-mc-22` and written to `isa/src/tables/gfx950.rs` as its differences
from the gfx942 tables (`GFX950_OVERRIDES`, `GFX950_REMOVED`), so the
LLVM 19 tables stay as LLVM 19 makes them.

Needs `llvm-mc-19` on PATH (Debian/Ubuntu package `llvm-19`), and for
gfx950 `llvm-mc-22` (package `llvm-22`); set the environment variable
`LLVM_MC` (`LLVM_MC_GFX950`) to use another binary. No network access;
runs in a few seconds. The output is deterministic for a given llvm-mc
build. Set `GENERATE_VERBOSE=1` to list the opcodes that needed a non-default
operand variant or take a trailing literal.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-19")
# gfx950 (CDNA4) is unknown to LLVM 19; LLVM 22 (Debian package `llvm-22`)
# decodes it. Only gfx950's rows come from this binary.
LLVM_MC_GFX950 = os.environ.get("LLVM_MC_GFX950", "llvm-mc-22")


def mc_for(cpu: str) -> str:
    """The llvm-mc binary that is `cpu`'s oracle."""
    return LLVM_MC_GFX950 if cpu == "gfx950" else LLVM_MC

ROOT = Path(__file__).resolve().parent.parent  # .../isa
OUT_DIR = ROOT / "src" / "tables"
OPERATIONS = ROOT / "tables" / "operations.txt"

# Marker instructions placed after every candidate: `s_nop 5`, `s_nop 6` and
# `s_nop 7` (SOPP op 0; same encoding on GFX9 and GFX11), cycling from one
# candidate to the next, N_MARKERS copies each. They delimit what llvm-mc
# prints for each candidate and absorb a mandatory trailing literal (e.g. the
# K of v_fmamk_f32 or the value of s_setreg_imm32_b32).
MARKER_IMMS = (5, 6, 7)
N_MARKERS = 3

SUFFIXES = ("_e32", "_e64", "_sdwa", "_dpp")

Words = list[int]


# --------------------------------------------------------------------------
# Running the disassembler
# --------------------------------------------------------------------------

@dataclass
class Decoded:
    text: str  # the instruction as printed, without the encoding comment
    size: Optional[int]  # bytes consumed (None if it could not be determined)


INSN_RE = re.compile(r"^\s*(\S.*?)\s*; encoding: \[([0-9a-fx,]+)\]\s*$")
DIAG_RE = re.compile(r"^<stdin>:(\d+):(\d+): (warning|error): (.*)$")
MARKER_RE = re.compile(r"^s_nop ([0-9]+)$")


def words_to_bytes(words: Sequence[int]) -> bytes:
    return b"".join((w & 0xFFFFFFFF).to_bytes(4, "little") for w in words)


def run_llvm_mc(cpu: str, candidates: Sequence[Words]) -> list[Optional[Decoded]]:
    """Disassemble every candidate; None where LLVM rejects it.

    All candidates go through one llvm-mc process, one per input line, each
    followed by a line of marker instructions. llvm-mc disassembles the whole
    input as one byte stream; on a rejected instruction it warns "invalid
    instruction encoding" with the line and column of the rejected bytes and
    skips 4 bytes (so the rest of a rejected 8-byte candidate is decoded as
    something else). A candidate is accepted iff no warning points at its
    first byte; its text is the first instruction printed after the previous
    candidate's markers. (`-show-encoding` is not used: what it prints is a
    re-encoding of the decoded instruction, not the input, and re-encoding
    some odd instructions crashes llvm-mc 19.)
    If the markers do not come out as expected (an instruction swallowed a
    whole group of them), the batch is split in two and each half retried.
    """
    if not candidates:
        return []
    for cand in candidates:
        if any((0xBF800000 | imm) in cand for imm in MARKER_IMMS):
            raise ValueError(f"candidate {cand} contains a marker instruction")
    lines = []
    starts: set[tuple[int, int]] = set()  # (line, column) of every candidate
    for i, cand in enumerate(candidates):
        starts.add((len(lines) + 1, 1))
        lines.append(" ".join("0x%02x" % b for b in words_to_bytes(cand)))
        marker = 0xBF800000 | MARKER_IMMS[i % len(MARKER_IMMS)]
        lines.append(" ".join("0x%02x" % b for b in words_to_bytes([marker] * N_MARKERS)))

    proc = subprocess.run(
        [mc_for(cpu), "--disassemble", "-arch=amdgcn", "-mcpu=" + cpu],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"llvm-mc failed (exit status {proc.returncode}):\n"
                           + proc.stderr[-2000:])

    rejected: set[int] = set()  # candidate indices
    for line in proc.stderr.splitlines():
        m = DIAG_RE.match(line)
        if not m:
            continue
        if m.group(4) != "invalid instruction encoding":
            raise RuntimeError(f"unexpected llvm-mc diagnostic: {line}")
        where = (int(m.group(1)), int(m.group(2)))
        if where in starts:
            rejected.add((where[0] - 1) // 2)

    # Split the printed instructions into groups, one per candidate: each
    # group ends with a run of that candidate's marker.
    groups: list[tuple[list[str], int]] = []  # (instructions, markers printed)
    run_imms: list[int] = []
    cur: list[str] = []
    run_imm: Optional[int] = None
    run_len = 0
    for line in proc.stdout.splitlines():
        text = line.strip()
        if not text or text == ".text":
            continue
        mm = MARKER_RE.match(text)
        imm = int(mm.group(1)) if mm and int(mm.group(1)) in MARKER_IMMS else None
        if run_imm is not None and imm != run_imm:
            groups.append((cur, run_len))
            run_imms.append(run_imm)
            cur, run_imm, run_len = [], None, 0
        if imm is None:
            cur.append(text)
        else:
            run_imm = imm
            run_len += 1
    if run_imm is not None:
        groups.append((cur, run_len))
        run_imms.append(run_imm)
        cur = []

    expected = [MARKER_IMMS[i % len(MARKER_IMMS)] for i in range(len(candidates))]
    if cur or run_imms != expected:
        if len(candidates) == 1:
            raise RuntimeError(f"cannot delimit the llvm-mc output for {candidates[0]}")
        mid = len(candidates) // 2
        return run_llvm_mc(cpu, candidates[:mid]) + run_llvm_mc(cpu, candidates[mid:])

    results: list[Optional[Decoded]] = []
    for i, (cand, (texts, n_markers)) in enumerate(zip(candidates, groups)):
        if i in rejected:
            results.append(None)
            continue
        if not texts:
            raise RuntimeError(f"llvm-mc accepted {cand} but printed nothing for it")
        # With exactly one instruction printed, the candidate consumed its own
        # words plus whatever markers are missing from its run.
        size = 4 * len(cand) + 4 * (N_MARKERS - n_markers) if len(texts) == 1 else None
        results.append(Decoded(texts[0], size))
    return results


def llvm_mc_version(mc: str = LLVM_MC) -> str:
    out = subprocess.run([mc, "--version"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if "LLVM version" in line:
            return line.strip()
    raise RuntimeError("cannot find the LLVM version in `llvm-mc --version`")


# --------------------------------------------------------------------------
# Encodings
# --------------------------------------------------------------------------

def strip_suffix(mnemonic: str) -> str:
    changed = True
    while changed:
        changed = False
        for suf in SUFFIXES:
            if mnemonic.endswith(suf):
                mnemonic = mnemonic[: -len(suf)]
                changed = True
    return mnemonic


def first_mnemonic(text: str) -> str:
    return strip_suffix(text.split()[0])


def vopd_y_mnemonic(text: str) -> str:
    _, y = text.split("::", 1)
    return strip_suffix(y.split()[0])


@dataclass
class Encoding:
    name: str
    doc: str
    ops: Sequence[int]
    size: int  # instruction length in bytes without a literal
    # One builder per operand variant, in order of preference.
    variants: Sequence[Callable[[int], Words]]
    mnemonic: Callable[[str], str] = first_mnemonic


def v(*words: int) -> Words:
    return list(words)


# 9-bit VALU source operand values.
S0 = 0  # s0
V0 = 256  # v0
ZERO = 128  # inline constant 0


def sop_encodings() -> list[Encoding]:
    """SOP2/SOPK/SOP1/SOPC/SOPP: identical layouts on GFX9 and GFX11."""
    return [
        Encoding(
            "SOP2",
            "SOP2: `[31:30] = 0b10`, op `[29:23]` (7 bits), sdst `[22:16]`, ssrc1 `[15:8]`, "
            "ssrc0 `[7:0]`. 4 bytes, plus a 4-byte literal when ssrc0 or ssrc1 is 0xFF. "
            "Op values 0x60-0x7F are not SOP2 (`[31:28] = 0b1011` is SOPK, `[31:23]` = "
            "0x17D/0x17E/0x17F is SOP1/SOPC/SOPP), so only 0-0x5F were enumerated.",
            range(0x00, 0x60), 4,
            [lambda op: v(0x80000000 | op << 23),
             lambda op: v(0x80000000 | op << 23 | ZERO << 8 | ZERO)],
        ),
        Encoding(
            "SOPK",
            "SOPK: `[31:28] = 0b1011`, op `[27:23]` (5 bits), sdst `[22:16]`, simm16 `[15:0]`. "
            "4 bytes; `s_setreg_imm32_b32` is followed by a 4-byte literal. Op values "
            "0x1D-0x1F are SOP1/SOPC/SOPP, so only 0-0x1C were enumerated.",
            range(0x00, 0x1D), 4,
            [lambda op: v(0xB0000000 | op << 23),
             lambda op: v(0xB0000000 | op << 23 | 1)],
        ),
        Encoding(
            "SOP1",
            "SOP1: `[31:23] = 0b1_0111_1101` (0x17D), sdst `[22:16]`, op `[15:8]` (8 bits), "
            "ssrc0 `[7:0]`. 4 bytes, plus a 4-byte literal when ssrc0 is 0xFF.",
            range(0x00, 0x100), 4,
            [lambda op: v(0xBE800000 | op << 8),
             lambda op: v(0xBE800000 | op << 8 | ZERO)],
        ),
        Encoding(
            "SOPC",
            "SOPC: `[31:23] = 0b1_0111_1110` (0x17E), op `[22:16]` (7 bits), ssrc1 `[15:8]`, "
            "ssrc0 `[7:0]`. 4 bytes, plus a 4-byte literal when ssrc0 or ssrc1 is 0xFF.",
            range(0x00, 0x80), 4,
            [lambda op: v(0xBF000000 | op << 16),
             lambda op: v(0xBF000000 | op << 16 | ZERO << 8 | ZERO)],
        ),
        Encoding(
            "SOPP",
            "SOPP: `[31:23] = 0b1_0111_1111` (0x17F), op `[22:16]` (7 bits), simm16 `[15:0]`. "
            "4 bytes.",
            range(0x00, 0x80), 4,
            [lambda op: v(0xBF800000 | op << 16),
             lambda op: v(0xBF800000 | op << 16 | 1)],
        ),
    ]


SRC0_GFX9 = ("src0 `[8:0]` (0-255: SGPR/special register/inline constant, 0xFF = a 4-byte "
             "literal follows, 0xF9 = SDWA and 0xFA = DPP: an SDWA/DPP control dword follows "
             "and the real src0 VGPR is in it; 256-511 = v0-v255)")
SRC0_GFX11 = ("src0 `[8:0]` (0-255: SGPR/special register/inline constant, 0xFF = a 4-byte "
              "literal follows, 0xFA = DPP16 and 0xE9 = DPP8: a DPP control dword follows and "
              "the real src0 VGPR is in it; 256-511 = v0-v255)")


def vop_short_encodings(src0: str, ext: str, vop1_note: str, vop2_note: str,
                        vopc_note: str) -> list[Encoding]:
    """VOP1/VOP2/VOPC: the same field layout on GFX9 and GFX11; `ext` names the
    src0 values that add a dword."""
    return [
        Encoding(
            "VOP1",
            f"VOP1: `[31:25] = 0b0111111`, vdst `[24:17]`, op `[16:9]` (8 bits), {src0}. "
            f"4 bytes without {ext} (8 with). {vop1_note}",
            range(0x00, 0x100), 4,
            [lambda op: v(0x7E000000 | op << 9 | S0),
             lambda op: v(0x7E000000 | op << 9 | V0),
             lambda op: v(0x7E000000 | op << 9 | ZERO)],
        ),
        Encoding(
            "VOP2",
            f"VOP2: `[31] = 0`, op `[30:25]` (6 bits), vdst `[24:17]`, vsrc1 `[16:9]` (VGPR), "
            f"{src0}. 4 bytes without {ext} (8 with); the `*madmk*`/`*madak*`/"
            f"`*fmamk*`/`*fmaak*` ops "
            f"always carry a 4-byte literal K. Op values 0x3E/0x3F are VOPC/VOP1, so only "
            f"0-0x3D were enumerated. {vop2_note}",
            range(0x00, 0x3E), 4,
            [lambda op: v(op << 25 | S0),
             lambda op: v(op << 25 | V0),
             lambda op: v(op << 25 | ZERO)],
        ),
        Encoding(
            "VOPC",
            f"VOPC: `[31:25] = 0b0111110`, op `[24:17]` (8 bits), vsrc1 `[16:9]` (VGPR), "
            f"{src0}. 4 bytes without {ext} (8 with). {vopc_note}",
            range(0x00, 0x100), 4,
            [lambda op: v(0x7C000000 | op << 17 | S0),
             lambda op: v(0x7C000000 | op << 17 | V0),
             lambda op: v(0x7C000000 | op << 17 | ZERO)],
        ),
    ]


def vop3_variants(prefix: int) -> list[Callable[[int], Words]]:
    """Operand variants for VOP3/VOP3P-style 8-byte encodings (op at [25:16] or
    [22:16]); sources go to dword 1 as src2 [26:18], src1 [17:9], src0 [8:0]."""
    srcs = [
        (S0, S0, S0),
        (V0, V0, V0),
        (V0, V0, S0),
        (V0, S0, S0),
        (ZERO, ZERO, ZERO),
        (V0, V0, ZERO),
    ]
    out = []
    for s0, s1, s2 in srcs:
        out.append(lambda op, s0=s0, s1=s1, s2=s2: v(prefix | op << 16, s2 << 18 | s1 << 9 | s0))
    return out


VOP3_DST_DOC = ("op_sel `[14:11]` (bit 11 = src0, bit 14 = dst), abs `[10:8]` (bit 8 = "
                "src0), vdst `[7:0]` (for the VOPC compares: the SGPR mask destination). VOP3B "
                "ops (`v_add_co_u32`, `v_addc_co_u32`, `v_sub*_co_u32`, `v_div_scale_f32/f64`, "
                "`v_mad_u64_u32`, `v_mad_i64_i32`) have sdst `[14:8]` in place of op_sel and "
                "abs. ")

VOP3_SRC_DOC = ("Dword 1: neg `[31:29]` (bit 29 = src0), omod `[28:27]`, src2 `[26:18]`, "
                "src1 `[17:9]`, src0 `[8:0]` (9-bit sources as in VOP1; 0xFF = a 4-byte "
                "literal follows).")

VOP3P_DOC = ("`op_sel_hi[2]` `[14]`, op_sel `[13:11]` (bit 11 = src0), neg_hi `[10:8]` "
             "(bit 8 = src0), vdst `[7:0]`. Dword 1: neg_lo `[31:29]` (bit 29 = src0), "
             "`op_sel_hi[1:0]` `[28:27]` (bit 27 = src0), src2 `[26:18]`, src1 `[17:9]`, "
             "src0 `[8:0]`.")


def gfx9_encodings() -> list[Encoding]:
    encs = sop_encodings()
    encs.append(Encoding(
        "SMEM",
        "SMEM: 8 bytes. Dword 0: `[31:26] = 0b110000`, op `[25:18]` (8 bits), imm `[17]`, "
        "glc `[16]`, nv `[15]` and `[13]` (both ignored by LLVM's gfx90a/gfx942 decoder), "
        "soe `[14]`, sdata `[12:6]`, sbase `[5:0]` (an SGPR pair: first register = 2 * sbase). "
        "Dword 1: soffset `[31:25]` (an SGPR, added when soe = 1), `[24:21]` ignored, "
        "offset `[20:0]` (imm = 1: signed 21-bit byte offset; imm = 0 and soe = 0: the SGPR "
        "number holding the offset). `s_dcache_*`, `s_memtime` and `s_memrealtime` decode "
        "only with imm = 0.",
        range(0x00, 0x100), 8,
        [lambda op: v(0xC0000000 | op << 18 | 1 << 17, 0),
         lambda op: v(0xC0000000 | op << 18, 0)],
    ))
    encs += vop_short_encodings(
        SRC0_GFX9, "literal/SDWA/DPP",
        "The VOP3 forms of these ops are VOP3 opcodes 0x140 + op.",
        "The VOP3 forms of these ops are VOP3 opcodes 0x100 + op.",
        "The VOP3 forms of these ops are VOP3 opcodes 0x000 + op.",
    )
    encs.append(Encoding(
        "VOP3",
        "VOP3: 8 bytes. Dword 0: `[31:26] = 0b110100`, op `[25:16]` (10 bits), clamp `[15]`, "
        + VOP3_DST_DOC + VOP3_SRC_DOC +
        " Op values 0x380-0x3FF (`[25:23] = 0b111`) are the VOP3P encoding, so only "
        "0-0x37F were enumerated. The space holds VOPC ops at 0x000-0x0FF (VOPC op + 0), "
        "VOP2 ops at 0x100-0x13F (VOP2 op + 0x100), VOP1 ops at 0x140-0x1BF (VOP1 op + 0x140) "
        "and VOP3-only ops from 0x1C0; the `_e64` forms are recorded here under their base "
        "mnemonic.",
        range(0x000, 0x380), 8,
        vop3_variants(0xD0000000),
    ))
    encs.append(Encoding(
        "VOP3P",
        "VOP3P: 8 bytes. Dword 0: `[31:23] = 0b1_1010_0111` (0x1A7), op `[22:16]` (7 bits), "
        "clamp `[15]`, " + VOP3P_DOC +
        " The MFMA/SMFMAC ops (`v_mfma_*`, `v_smfmac_*`, all at op >= 0x3E) use the MAI "
        "layout of the same two dwords: acc_cd `[15]` (vdst and src2 are AGPRs), abid "
        "`[14:11]`, cbsz `[10:8]`, vdst `[7:0]`; dword 1: blgp `[31:29]`, acc `[28:27]` "
        "(bit 27: src0 is an AGPR, bit 28: src1 is an AGPR), src2 `[26:18]`, src1 `[17:9]`, "
        "src0 `[8:0]` (for SMFMAC, src2 is the VGPR holding the sparsity index).",
        range(0x00, 0x80), 8,
        vop3_variants(0xD3800000),
    ))
    encs.append(Encoding(
        "DS",
        "DS: 8 bytes. Dword 0: `[31:26] = 0b110110`, acc `[25]` (data/vdst registers are "
        "AGPRs), op `[24:17]` (8 bits), gds `[16]` (the `ds_gws_*` ops decode only with "
        "gds = 1; LLVM's gfx90a/gfx942 decoder ignores it for all other ops), "
        "offset1 `[15:8]`, offset0 `[7:0]` (single-offset ops: a 16-bit offset `[15:0]`). "
        "Dword 1: vdst `[31:24]`, data1 `[23:16]`, data0 `[15:8]`, addr `[7:0]`; operand "
        "fields an op does not use must be zero.",
        range(0x00, 0x100), 8,
        [lambda op: v(0xD8000000 | op << 17, 0),
         lambda op: v(0xD8000000 | op << 17 | 1 << 16, 0)],
    ))
    encs.append(Encoding(
        "MUBUF",
        "MUBUF: 8 bytes. Dword 0: `[31:26] = 0b111000`, `[25]` ignored, op `[24:18]` (7 bits), "
        "slc (gfx942: nt) `[17]`, lds `[16]` (`buffer_store_lds_dword` decodes only with "
        "lds = 1; on loads it adds an `lds` modifier, same mnemonic), "
        "scc (gfx942: sc1) `[15]`, glc (gfx942: sc0) `[14]`, idxen `[13]`, offen `[12]`, "
        "offset `[11:0]` (unsigned). Dword 1: soffset `[31:24]`, acc `[23]` (vdata is an "
        "AGPR), `[22:21]` ignored, srsrc `[20:16]` (an SGPR quad: first register = "
        "4 * srsrc), vdata `[15:8]`, vaddr `[7:0]`.",
        range(0x00, 0x80), 8,
        [lambda op: v(0xE0000000 | op << 18, 0),
         lambda op: v(0xE0000000 | op << 18 | 1 << 12, 0),
         lambda op: v(0xE0000000 | op << 18 | 1 << 16, 0)],
    ))
    encs.append(Encoding(
        "MTBUF",
        "MTBUF: 8 bytes. Dword 0: `[31:26] = 0b111010`, nfmt `[25:23]`, dfmt `[22:19]`, op "
        "`[18:15]` (4 bits), glc (gfx942: sc0) `[14]`, idxen `[13]`, offen `[12]`, offset "
        "`[11:0]`. Dword 1: soffset `[31:24]`, acc `[23]` (vdata is an AGPR), slc (gfx942: "
        "nt) `[22]`, scc (gfx942: sc1) `[21]`, srsrc `[20:16]` (first SGPR = 4 * srsrc), "
        "vdata `[15:8]`, vaddr `[7:0]`.",
        range(0x00, 0x10), 8,
        [lambda op: v(0xE8000000 | 7 << 23 | 4 << 19 | op << 15, 0),
         lambda op: v(0xE8000000 | op << 15, 0)],
    ))
    flat_doc = (
        "8 bytes. Dword 0: `[31:26] = 0b110111`, scc (gfx942: sc1) `[25]`, op `[24:18]` "
        "(7 bits), slc (gfx942: nt) `[17]`, glc (gfx942: sc0) `[16]`, seg `[15:14]` "
        "(0 = FLAT, 1 = SCRATCH, 2 = GLOBAL, 3 = invalid), lds/sve `[13]` (per segment, see "
        "below), offset `[12:0]` "
        "(SCRATCH/GLOBAL: signed 13-bit; FLAT: unsigned). Dword 1: vdst `[31:24]`, acc "
        "`[23]` (data/vdst are AGPRs), saddr `[22:16]` (0x7F = off), data `[15:8]`, addr "
        "`[7:0]` (a VGPR pair for FLAT and for GLOBAL with saddr = off, else one VGPR). ")
    encs.append(Encoding(
        "FLAT",
        "FLAT (seg = 0): " + flat_doc +
        "The FLAT segment requires saddr = 0 and `[13]` = 0.",
        range(0x00, 0x80), 8,
        [lambda op: v(0xDC000000 | op << 18, 0),
         lambda op: v(0xDC000000 | op << 18, 0x7F << 16)],
    ))
    encs.append(Encoding(
        "SCRATCH",
        "SCRATCH (seg = 1): " + flat_doc +
        "`[13]` is sve on gfx942 (a VGPR address is present; its LDS loads are the separate "
        "`scratch_load_lds_*` opcodes) and lds on gfx90a (same mnemonic, printed with an "
        "`lds` modifier). Scratch addresses come from saddr (an SGPR; 0x7F = none) and/or "
        "addr (one VGPR).",
        range(0x00, 0x80), 8,
        [lambda op: v(0xDC000000 | op << 18 | 1 << 14, 0),
         lambda op: v(0xDC000000 | op << 18 | 1 << 14, 0x7F << 16),
         lambda op: v(0xDC000000 | op << 18 | 1 << 14 | 1 << 13, 0x7F << 16)],
    ))
    encs.append(Encoding(
        "GLOBAL",
        "GLOBAL (seg = 2): " + flat_doc +
        "`[13]` must be 0 on gfx942 (its LDS loads are the separate `global_load_lds_*` "
        "opcodes) and is lds on gfx90a (same mnemonic, printed with an `lds` modifier). With "
        "saddr != off, addr is a 32-bit VGPR offset added to the SGPR-pair base.",
        range(0x00, 0x80), 8,
        [lambda op: v(0xDC000000 | op << 18 | 2 << 14, 0),
         lambda op: v(0xDC000000 | op << 18 | 2 << 14, 0x7F << 16)],
    ))
    return encs


def gfx11_encodings() -> list[Encoding]:
    encs = sop_encodings()
    encs.append(Encoding(
        "SMEM",
        "SMEM: 8 bytes. Dword 0: `[31:26] = 0b111101`, op `[25:18]` (8 bits), `[17:15]` "
        "ignored, glc `[14]`, dlc `[13]`, sdata `[12:6]`, sbase `[5:0]` (an SGPR pair: first "
        "register = 2 * sbase). Dword 1: soffset `[31:25]` (an SGPR added to the offset; "
        "0x7C = null, i.e. none), `[24:21]` ignored, offset `[20:0]` (signed 21-bit byte "
        "offset).",
        range(0x00, 0x100), 8,
        [lambda op: v(0xF4000000 | op << 18, 0x7C << 25),
         lambda op: v(0xF4000000 | op << 18, 0)],
    ))
    encs += vop_short_encodings(
        SRC0_GFX11, "literal/DPP",
        "The VOP3 forms of these ops are VOP3 opcodes 0x180 + op. In LLVM's true16 "
        "instructions (e.g. `v_mov_b16`), bit 7 of the vdst or src0 VGPR number selects "
        "the high half (`.h`) of the register.",
        "The VOP3 forms of these ops are VOP3 opcodes 0x100 + op. Op 0 is LLVM's "
        "`v_illegal`, which decodes only from the all-zero dword.",
        "The VOP3 forms of these ops are VOP3 opcodes 0x000 + op; `v_cmpx_*` write EXEC "
        "(VOPC ops 0x80-0xFF).",
    )
    encs.append(Encoding(
        "VOP3",
        "VOP3: 8 bytes. Dword 0: `[31:26] = 0b110101`, op `[25:16]` (10 bits), clamp `[15]`, "
        + VOP3_DST_DOC + VOP3_SRC_DOC +
        " The space holds VOPC ops at 0x000-0x0FF (VOPC op + 0), VOP2 ops at 0x100-0x13F "
        "(VOP2 op + 0x100), VOP1 ops at 0x180-0x1FF (VOP1 op + 0x180) and VOP3-only ops "
        "from 0x200; the `_e64` forms are recorded here under their base mnemonic. src0 = "
        "0xFA/0xE9 selects the VOP3 DPP16/DPP8 form: a DPP control dword follows (12 bytes "
        "in all) and holds the real src0 VGPR.",
        range(0x000, 0x400), 8,
        vop3_variants(0xD4000000),
    ))
    encs.append(Encoding(
        "VOP3_DPP",
        "VOP3 DPP16 (src0 = 0xFA; DPP8, src0 = 0xE9/0xEA, is accepted for the same ops): the "
        "VOP3 ops LLVM has a `_e64_dpp` form of. 12 bytes: the two VOP3 dwords, then the DPP "
        "dword: row_mask `[31:28]`, bank_mask `[27:24]`, `[23:20]` ignored (VOP3 keeps neg "
        "and abs in its own fields), bound_ctrl `[19]`, fi `[18]`, dpp_ctrl `[16:8]`, src0 "
        "VGPR `[7:0]`. DPP8's dword: the eight 3-bit lane selects `[31:8]`, src0 VGPR "
        "`[7:0]`. Absent: ops with a 64-bit operand, and a few others LLVM gives no DPP "
        "form (`v_mul_lo_u32`, `v_div_*`, `v_readlane_b32`, ...).",
        range(0x000, 0x400), 12,
        [lambda op, s1=s1, s2=s2: v(0xD4000000 | op << 16, s2 << 18 | s1 << 9 | 0xFA,
                                    0xFF00E400)
         for s1, s2 in ((V0, V0), (V0, S0), (S0, S0), (V0, ZERO), (ZERO, ZERO))],
    ))
    encs.append(Encoding(
        "VOP3P",
        "VOP3P: 8 bytes. Dword 0: `[31:23] = 0b1_1001_1000` (0x198, i.e. `[31:24]` = 0xCC "
        "and `[23]` = 0), op `[22:16]` (7 bits), clamp `[15]`, " + VOP3P_DOC +
        " The WMMA ops (`v_wmma_*`, op 0x40-0x45) use the same layout (src0/src1/src2 and "
        "vdst are the first VGPRs of the A/B/C/D register blocks). Operand fields an op "
        "does not use (e.g. src2, `op_sel[2]`, `neg[2]` of a two-source op) must be zero.",
        range(0x00, 0x80), 8,
        vop3_variants(0xCC000000),
    ))
    vopd_doc = (
        "8 bytes. Dword 0: `[31:26] = 0b110010`, opx `[25:22]` (4 bits), opy `[21:17]` "
        "(5 bits), vsrc1x `[16:9]` (VGPR), src0x `[8:0]` (9-bit source as in VOP1). "
        "Dword 1: vdstx `[31:24]`, vdsty `[23:17]` (vdsty register = (field << 1) | "
        "((vdstx & 1) ^ 1), i.e. the two destinations have opposite parity), vsrc1y "
        "`[16:9]` (VGPR), src0y `[8:0]`. A single 4-byte literal follows when either half "
        "has a literal source or is a `fmaak`/`fmamk` op (the K constant); both halves "
        "share it. Unused operand fields (e.g. vsrc1 of `v_dual_mov_b32`) must be zero. ")
    mov_x = 8  # v_dual_mov_b32 as X
    mov_y = 8  # v_dual_mov_b32 as Y
    add_x = 4  # v_dual_add_f32 as X
    add_y = 4  # v_dual_add_f32 as Y
    encs.append(Encoding(
        "VOPD_X",
        "VOPD, X half (`opx`): " + vopd_doc +
        "Enumerated with Y = v_dual_mov_b32.",
        range(0x00, 0x10), 8,
        [lambda op: v(0xC8000000 | op << 22 | mov_y << 17, 0),
         lambda op: v(0xC8000000 | op << 22 | add_y << 17, 0)],
    ))
    encs.append(Encoding(
        "VOPD_Y",
        "VOPD, Y half (`opy`): " + vopd_doc +
        "Enumerated with X = v_dual_mov_b32.",
        range(0x00, 0x20), 8,
        [lambda op: v(0xC8000000 | mov_x << 22 | op << 17, 0),
         lambda op: v(0xC8000000 | add_x << 22 | op << 17, 0)],
        mnemonic=vopd_y_mnemonic,
    ))
    encs.append(Encoding(
        "DS",
        "DS: 8 bytes. Dword 0: `[31:26] = 0b110110`, op `[25:18]` (8 bits), gds `[17]` (the "
        "`ds_gws_*`, `ds_ordered_count` and `ds_*_gs_reg_rtn` ops decode only with gds = 1), "
        "`[16]` ignored, offset1 `[15:8]`, offset0 `[7:0]` (single-offset ops: a 16-bit "
        "offset `[15:0]`). Dword 1: vdst `[31:24]`, data1 `[23:16]`, data0 `[15:8]`, "
        "addr `[7:0]`; operand fields an op does not use must be zero.",
        range(0x00, 0x100), 8,
        [lambda op: v(0xD8000000 | op << 18, 0),
         lambda op: v(0xD8000000 | op << 18 | 1 << 17, 0)],
    ))
    encs.append(Encoding(
        "MUBUF",
        "MUBUF: 8 bytes. Dword 0: `[31:26] = 0b111000`, op `[25:18]` (8 bits), `[17:15]` "
        "ignored, glc `[14]`, dlc `[13]`, slc `[12]`, offset `[11:0]` (unsigned). Dword 1: "
        "soffset `[31:24]`, idxen `[23]`, offen `[22]`, tfe `[21]`, srsrc `[20:16]` (an "
        "SGPR quad: first register = 4 * srsrc), vdata `[15:8]`, vaddr `[7:0]`. LDS loads "
        "are separate opcodes (`buffer_load_lds_*`).",
        range(0x00, 0x100), 8,
        [lambda op: v(0xE0000000 | op << 18, 0),
         lambda op: v(0xE0000000 | op << 18, 1 << 22)],
    ))
    encs.append(Encoding(
        "MTBUF",
        "MTBUF: 8 bytes. Dword 0: `[31:26] = 0b111010`, format `[25:19]` (7-bit unified "
        "buffer format), op `[18:15]` (4 bits), glc `[14]`, dlc `[13]`, slc `[12]`, offset "
        "`[11:0]`. Dword 1: as MUBUF (soffset `[31:24]`, idxen `[23]`, offen `[22]`, tfe "
        "`[21]`, srsrc `[20:16]`, vdata `[15:8]`, vaddr `[7:0]`).",
        range(0x00, 0x10), 8,
        [lambda op: v(0xE8000000 | 22 << 19 | op << 15, 0),
         lambda op: v(0xE8000000 | op << 15, 0)],
    ))
    flat_doc = (
        "8 bytes. Dword 0: `[31:26] = 0b110111`, `[25]` ignored, op `[24:18]` (7 bits), seg "
        "`[17:16]` (0 = FLAT, 1 = SCRATCH, 2 = GLOBAL, 3 = invalid), slc `[15]`, glc `[14]`, "
        "dlc `[13]`, offset `[12:0]` (SCRATCH/GLOBAL: signed 13-bit; FLAT: unsigned). "
        "Dword 1: vdst `[31:24]`, sve `[23]`, saddr `[22:16]` (0x7C = null/off), data "
        "`[15:8]`, addr `[7:0]` (a VGPR pair for FLAT and for GLOBAL with saddr = off, else "
        "one VGPR). ")
    encs.append(Encoding(
        "FLAT",
        "FLAT (seg = 0): " + flat_doc + "The FLAT segment requires saddr = 0x7C and sve = 0.",
        range(0x00, 0x80), 8,
        [lambda op: v(0xDC000000 | op << 18, 0x7C << 16)],
    ))
    encs.append(Encoding(
        "SCRATCH",
        "SCRATCH (seg = 1): " + flat_doc +
        "sve = 1 means a VGPR address (addr) is present; saddr = 0x7C means no SGPR base.",
        range(0x00, 0x80), 8,
        [lambda op: v(0xDC000000 | op << 18 | 1 << 16, 0),
         lambda op: v(0xDC000000 | op << 18 | 1 << 16, 1 << 23 | 0x7C << 16)],
    ))
    encs.append(Encoding(
        "GLOBAL",
        "GLOBAL (seg = 2): " + flat_doc +
        "With saddr != 0x7C, addr is a 32-bit VGPR offset added to the SGPR-pair base.",
        range(0x00, 0x80), 8,
        [lambda op: v(0xDC000000 | op << 18 | 2 << 16, 0),
         lambda op: v(0xDC000000 | op << 18 | 2 << 16, 0x7C << 16)],
    ))
    return encs


# --------------------------------------------------------------------------
# Enumeration
# --------------------------------------------------------------------------

Table = dict[int, str]


def enumerate_encoding(cpu: str, enc: Encoding, notes: list[str]) -> Table:
    cands: list[Words] = []
    keys: list[tuple[int, int]] = []
    for op in enc.ops:
        for vi, build in enumerate(enc.variants):
            cands.append(build(op))
            keys.append((op, vi))
    results = run_llvm_mc(cpu, cands)

    per_op: dict[int, list[tuple[int, str, int]]] = {}
    for (op, vi), res in zip(keys, results):
        if res is None:
            continue
        if res.size not in (enc.size, enc.size + 4):
            raise RuntimeError(f"{cpu} {enc.name} op {op:#x}: decoded {res.size} bytes: {res.text}")
        per_op.setdefault(op, []).append((vi, enc.mnemonic(res.text), res.size))

    table: Table = {}
    for op, hits in sorted(per_op.items()):
        names = sorted({name for _, name, _ in hits})
        if len(names) != 1:
            raise RuntimeError(f"{cpu} {enc.name} op {op:#x}: variants disagree: {hits}")
        table[op] = names[0]
        first_vi = min(vi for vi, _, _ in hits)
        if first_vi != 0:
            notes.append(f"{cpu} {enc.name} {op:#x} {names[0]}: decodes only with operand "
                         f"variant {first_vi}")
        if any(size != enc.size for _, _, size in hits):
            notes.append(f"{cpu} {enc.name} {op:#x} {names[0]}: takes a trailing literal")
    return table


# --------------------------------------------------------------------------
# Spot checks: assemble known instructions and look their opcodes up
# --------------------------------------------------------------------------

def field(words: Words, word: int, hi: int, lo: int) -> int:
    return (words[word] >> lo) & ((1 << (hi - lo + 1)) - 1)


def classify_gfx9(w: Words) -> tuple[str, int]:
    w0 = w[0]
    if w0 >> 23 == 0x17D:
        return "SOP1", field(w, 0, 15, 8)
    if w0 >> 23 == 0x17E:
        return "SOPC", field(w, 0, 22, 16)
    if w0 >> 23 == 0x17F:
        return "SOPP", field(w, 0, 22, 16)
    if w0 >> 28 == 0xB:
        return "SOPK", field(w, 0, 27, 23)
    if w0 >> 30 == 0b10:
        return "SOP2", field(w, 0, 29, 23)
    if w0 >> 25 == 0x3F:
        return "VOP1", field(w, 0, 16, 9)
    if w0 >> 25 == 0x3E:
        return "VOPC", field(w, 0, 24, 17)
    if w0 >> 31 == 0:
        return "VOP2", field(w, 0, 30, 25)
    if w0 >> 23 == 0x1A7:
        return "VOP3P", field(w, 0, 22, 16)
    top = w0 >> 26
    if top == 0b110100:
        return "VOP3", field(w, 0, 25, 16)
    if top == 0b110000:
        return "SMEM", field(w, 0, 25, 18)
    if top == 0b110110:
        return "DS", field(w, 0, 24, 17)
    if top == 0b111000:
        return "MUBUF", field(w, 0, 24, 18)
    if top == 0b111010:
        return "MTBUF", field(w, 0, 18, 15)
    if top == 0b110111:
        seg = field(w, 0, 15, 14)
        return ("FLAT", "SCRATCH", "GLOBAL")[seg], field(w, 0, 24, 18)
    raise ValueError(f"unknown GFX9 encoding {w0:#010x}")


def classify_gfx11(w: Words) -> tuple[str, int]:
    w0 = w[0]
    if w0 >> 23 == 0x17D:
        return "SOP1", field(w, 0, 15, 8)
    if w0 >> 23 == 0x17E:
        return "SOPC", field(w, 0, 22, 16)
    if w0 >> 23 == 0x17F:
        return "SOPP", field(w, 0, 22, 16)
    if w0 >> 28 == 0xB:
        return "SOPK", field(w, 0, 27, 23)
    if w0 >> 30 == 0b10:
        return "SOP2", field(w, 0, 29, 23)
    if w0 >> 25 == 0x3F:
        return "VOP1", field(w, 0, 16, 9)
    if w0 >> 25 == 0x3E:
        return "VOPC", field(w, 0, 24, 17)
    if w0 >> 31 == 0:
        return "VOP2", field(w, 0, 30, 25)
    if w0 >> 23 == 0x198:
        return "VOP3P", field(w, 0, 22, 16)
    top = w0 >> 26
    if top == 0b110101:
        return "VOP3", field(w, 0, 25, 16)
    if top == 0b111101:
        return "SMEM", field(w, 0, 25, 18)
    if top == 0b110110:
        return "DS", field(w, 0, 25, 18)
    if top == 0b111000:
        return "MUBUF", field(w, 0, 25, 18)
    if top == 0b111010:
        return "MTBUF", field(w, 0, 18, 15)
    if top == 0b110111:
        seg = field(w, 0, 17, 16)
        return ("FLAT", "SCRATCH", "GLOBAL")[seg], field(w, 0, 24, 18)
    raise ValueError(f"unknown GFX11 encoding {w0:#010x}")


SPOT_GFX942 = """
s_add_u32 s0, s1, s2
s_movk_i32 s0, 0x1
s_mov_b32 s0, s1
s_cmp_eq_u32 s0, s1
s_cbranch_execz 0
s_load_dwordx2 s[0:1], s[2:3], 0x0
s_buffer_load_dwordx4 s[4:7], s[8:11], 0x10
v_add_f32 v0, v1, v2
v_add_f32_e64 v0, v1, v2
v_mov_b32 v0, v1
v_cmp_eq_f32 vcc, v0, v1
v_cmp_eq_f32_e64 s[0:1], v0, v1
v_fma_f32 v0, v1, v2, v3
v_add_co_u32_e64 v0, s[2:3], v1, v2
v_mad_u64_u32 v[0:1], s[2:3], v1, v2, v[4:5]
v_pk_add_f32 v[0:1], v[2:3], v[4:5]
v_pk_fma_f16 v0, v1, v2, v3
v_mfma_f32_16x16x4_f32 a[0:3], v0, v1, a[0:3]
v_mfma_f64_16x16x4_f64 v[0:7], v[0:1], v[2:3], v[0:7]
v_accvgpr_read_b32 v1, a2
ds_read2_b32 v[0:1], v2 offset1:1
ds_write_b32 v0, v1
buffer_load_dwordx4 v[0:3], off, s[0:3], 0
buffer_store_dword v0, v1, s[4:7], 0 offen
tbuffer_load_format_x v0, off, s[0:3], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]
flat_load_dword v0, v[0:1]
global_store_dword v[0:1], v2, off
global_load_dwordx2 v[0:1], v2, s[4:5]
scratch_load_dword v0, off, s0
scratch_store_dword v1, v2, off
"""

SPOT_GFX90A = """
v_mfma_f32_16x16x4f32 a[0:3], v0, v1, a[0:3]
v_mfma_f32_32x32x8bf16_1k v[0:15], v[0:1], v[2:3], v[0:15]
buffer_load_dword v0, off, s[0:3], 0
scratch_load_dword v0, v1, off
"""

SPOT_GFX950 = """
v_mfma_f32_16x16x32_f16 a[0:3], v[0:3], v[4:7], a[0:3]
v_mfma_f32_32x32x16_bf16 v[0:15], v[0:3], v[4:7], v[0:15]
v_cvt_pk_f16_f32 v0, v1, v2
v_bitop3_b32 v0, v1, v2, v3 bitop3:0x96
v_permlane32_swap_b32 v0, v1
v_prng_b32 v0, v1
ds_read_b64_tr_b16 v[0:1], v2
v_add_f32 v0, v1, v2
global_load_dword v0, v[0:1], off
"""

SPOT_GFX1100 = """
s_add_u32 s0, s1, s2
s_movk_i32 s0, 0x1
s_mov_b32 s0, s1
s_cmp_eq_u32 s0, s1
s_cbranch_execz 0
s_load_b64 s[0:1], s[2:3], 0x0
s_buffer_load_b128 s[4:7], s[8:11], 0x10
v_add_f32 v0, v1, v2
v_add_f32_e64 v0, v1, v2
v_mov_b32 v0, v1
v_cmp_eq_f32 vcc_lo, v0, v1
v_cmpx_eq_f32 v0, v1
v_fma_f32 v0, v1, v2, v3
v_add_co_u32 v0, s2, v1, v2
v_pk_add_f16 v0, v1, v2
v_pk_fma_f16 v0, v1, v2, v3
v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]
v_dual_fmac_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4
v_dual_mul_f32 v0, v1, v2 :: v_dual_add_nc_u32 v3, v4, v5
ds_load_2addr_b32 v[0:1], v2 offset1:1
ds_store_b32 v0, v1
buffer_load_b128 v[0:3], off, s[0:3], 0
buffer_store_b32 v0, v1, s[4:7], 0 offen
tbuffer_load_format_x v0, off, s[0:3], 0 format:[BUF_FMT_32_FLOAT]
flat_load_b32 v0, v[0:1]
global_store_b32 v[0:1], v2, off
global_load_b64 v[0:1], v2, s[4:5]
scratch_load_b32 v0, off, s0
scratch_store_b32 v1, v2, off
"""


def assemble(cpu: str, src: str) -> list[tuple[str, Words]]:
    proc = subprocess.run(
        [mc_for(cpu), "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding"],
        input=src, capture_output=True, text=True, check=False,
    )
    if proc.returncode != 0 or "error" in proc.stderr:
        raise RuntimeError(f"assembling spot checks for {cpu} failed:\n{proc.stderr}")
    out = []
    for line in proc.stdout.splitlines():
        m = INSN_RE.match(line)
        if m:
            enc = bytes(int(x, 16) for x in m.group(2).split(","))
            words = [int.from_bytes(enc[i:i + 4], "little") for i in range(0, len(enc), 4)]
            out.append((m.group(1), words))
    return out


def spot_check(cpu: str, src: str, classify, tables: dict[str, Table]) -> int:
    n = 0
    for text, words in assemble(cpu, src):
        if words[0] >> 26 == 0b110010:  # VOPD
            checks = [("VOPD_X", field(words, 0, 25, 22), first_mnemonic(text)),
                      ("VOPD_Y", field(words, 0, 21, 17), vopd_y_mnemonic(text))]
        else:
            name, op = classify(words)
            checks = [(name, op, first_mnemonic(text))]
        for name, op, want in checks:
            got = tables[name].get(op)
            if got != want:
                raise RuntimeError(f"spot check {cpu}: `{text}` is {name} op {op:#x}; "
                                   f"table says {got!r}, expected {want!r}")
            n += 1
    return n


# --------------------------------------------------------------------------
# Rust output
# --------------------------------------------------------------------------

def rust_str(s: str) -> str:
    assert re.fullmatch(r"[A-Za-z0-9_.]+", s), s
    return '"' + s + '"'


def doc_lines(text: str, prefix: str) -> list[str]:
    """Wrap `text` into `prefix`-led comment lines of at most 100 columns."""
    width = 100 - len(prefix) - 1
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split(" ")
        cur = ""
        for word in words:
            if cur and len(cur) + 1 + len(word) > width:
                lines.append(cur)
                cur = word
            else:
                cur = word if not cur else cur + " " + word
        lines.append(cur)
    return [(prefix + " " + line).rstrip() for line in lines]


def read_operations() -> dict[str, str]:
    """`operations.txt`: full mnemonic -> the `Op` it runs as (a Rust expression)."""
    ops: dict[str, str] = {}
    for number, line in enumerate(OPERATIONS.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        mnemonic, _, expr = line.partition(" ")
        if not re.fullmatch(r"[a-z0-9_]+", mnemonic) or not expr.startswith("Op::"):
            raise RuntimeError(f"{OPERATIONS.name}:{number}: not `mnemonic Op::...`: {line}")
        if mnemonic in ops:
            raise RuntimeError(f"{OPERATIONS.name}:{number}: {mnemonic} listed twice")
        ops[mnemonic] = expr
    return ops


class Operations:
    """The operation of each mnemonic, and which lines of the file were used."""

    def __init__(self, ops: dict[str, str]):
        self.ops = ops
        self.used: set[str] = set()

    def of(self, mnemonic: str) -> str:
        name = "v_" + mnemonic[len("v_dual_"):] if mnemonic.startswith("v_dual_") else mnemonic
        expr = self.ops.get(name)
        if expr is None:
            return "None"
        self.used.add(name)
        return f"Some({expr})"

    def check_all_used(self) -> None:
        unused = sorted(set(self.ops) - self.used)
        if unused:
            raise RuntimeError(f"{OPERATIONS.name} names mnemonics no table has: {unused}")


# Where each kind of operation executes (`isa/src/exec/mod.rs`'s `step`):
# written after each row, so that one grep of a mnemonic finds its row, its
# operation and the function that runs it.
EXECUTED_BY = {
    "S": "exec::scalar::alu", "SCmp": "exec::scalar::compare",
    "SBitcmp": "exec::scalar::bitcmp", "Branch": "exec::branch", "SLoad": "exec::scalar::load",
    "SLoadNarrow": "exec::scalar::load_narrow",
    "Endpgm": "exec::step", "Barrier": "exec::step", "Nop": "exec::step", "CacheControl": "exec::step",
    "Message": "exec::step",
    "Illegal": "exec::step", "Getpc": "exec::step", "Setpc": "exec::indirect",
    "Swappc": "exec::indirect", "Setreg": "exec::mode::setreg",
    "RoundMode": "exec::mode::round_mode", "DenormMode": "exec::mode::denorm_mode",
    "V": "exec::vector::alu", "VCmp": "exec::compare::vector", "VCmpClass": "exec::compare::class",
    "Mfma": "exec::mfma::run", "MfmaLdScale": "exec::mfma::scaled::load_scales", "Wmma": "exec::mfma::wmma", "Load": "exec::memory::load",
    "Store": "exec::memory::store", "Atomic": "exec::memory::atomic", "Lds": "exec::lds::run",
}


def executed_by(op: str) -> str:
    """` // exec::...` for a row whose operation is `Some(Op::KIND...)`, else nothing."""
    m = re.match(r"Some\(Op::([A-Za-z]+)", op)
    return f" // {EXECUTED_BY[m.group(1)]}" if m else ""


OP_TYPES = ("Atomic", "Branch", "Cmp", "Lds", "MatrixType", "Mem", "Mfma", "Narrow", "Op",
            "Salu", "ScaledCvt", "Segment", "Ty", "Valu", "Wide", "Wmma")


def op_imports(out: list[str]) -> list[str]:
    """The `use` of the `crate::op` types the rows of `out` name."""
    text = "\n".join(line.split(" // ")[0] for line in out
                     if not line.startswith(("//", "///")))
    used = [t for t in OP_TYPES if re.search(r"\b" + t + r"(::| \{)", text)]
    return [f"use crate::op::{{{', '.join(used)}}};", ""]


def emit_table(out: list[str], enc: Encoding, table: Table, ops: Operations) -> None:
    out.extend(doc_lines(enc.doc + f" {len(table)} opcodes.", "///"))
    out.append(f"pub(crate) const {enc.name}: &[(u16, &str, Option<Op>)] = &[")
    for op in sorted(table):
        operation = ops.of(table[op])
        out.append(f"    ({op}, {rust_str(table[op])}, {operation}),{executed_by(operation)}")
    out.append("];")
    out.append("")


def emit_overrides(out: list[str], name: str, doc: str, rows: list[tuple[str, int, str]],
                   ops: Operations) -> None:
    out.extend(doc_lines(doc, "///"))
    out.append(f"pub(crate) const {name}: &[(&str, u16, &str, Option<Op>)] = &[")
    for enc_name, op, mn in rows:
        operation = ops.of(mn)
        out.append(f"    ({rust_str(enc_name)}, {op}, {rust_str(mn)}, {operation}),"
                   f"{executed_by(operation)}")
    out.append("];")
    out.append("")


def emit_triples(out: list[str], name: str, doc: str, rows: list[tuple[str, int, str]]) -> None:
    out.extend(doc_lines(doc, "///"))
    if not rows:
        out.append(f"pub(crate) const {name}: &[(&str, u16, &str)] = &[];")
    else:
        out.append(f"pub(crate) const {name}: &[(&str, u16, &str)] = &[")
        for enc_name, op, mn in rows:
            out.append(f"    ({rust_str(enc_name)}, {op}, {rust_str(mn)}),")
        out.append("];")
    out.append("")


def header(version: str, title: str, cpus: str, extra: str,
           mc: str = "llvm-mc-19") -> list[str]:
    text = (
        f"{title}, generated by `isa/tables/generate.py` from LLVM's disassembler ({version}, "
        f"`{mc} --disassemble -arch=amdgcn {cpus}`). Do not edit by hand; rerun "
        "`python3 isa/tables/generate.py`.\n"
        "\n"
        "For every value of an encoding's opcode field the script disassembled instructions "
        "with simple operand fields (register 0 or inline constant 0, no literal; a few "
        "operand variants per encoding, see the script) and recorded the mnemonic LLVM "
        "printed, minus any `_e32`, `_e64`, `_sdwa` or `_dpp` suffix; opcode values LLVM "
        "rejects are absent. Each table is sorted by opcode. Beside each mnemonic is the "
        "operation the interpreter runs for it (`isa/tables/operations.txt`; `None`: an "
        "instruction it lacks, refused when a kernel is decoded), and after it the function "
        "that executes it.\n"
        "\n"
        "Field positions in the comments are bit ranges `[hi:lo]` of little-endian 32-bit "
        "dwords (dword 0 first in memory). The layouts were verified against `" + mc + " "
        "-show-encoding` output and by disassembling encodings with single bits flipped; "
        "\"ignored\" means LLVM's decoder does not look at the bit, \"must be 0\" means it "
        "rejects the instruction otherwise. Each run of the script re-checks the opcode "
        "fields by assembling known instructions and looking them up in the new tables."
        + extra
    )
    return doc_lines(text, "//!") + [""]


def with_imports(out: list[str]) -> str:
    """`out` (a header then the tables) with the `use` of the types its rows name."""
    end = out.index("")
    lines = out[:end + 1] + op_imports(out) + out[end + 1:]
    return "\n".join(lines).rstrip("\n") + "\n"


def apply_gfx90a(t942: dict[str, Table], overrides: list[tuple[str, int, str]],
                 only942: list[tuple[str, int, str]]) -> dict[str, Table]:
    """The gfx90a tables: gfx942's minus GFX942_ONLY, plus GFX90A_OVERRIDES."""
    out = {name: dict(table) for name, table in t942.items()}
    for name, op, _ in only942:
        del out[name][op]
    for name, op, mnemonic in overrides:
        out[name][op] = mnemonic
    return out


def apply_gfx950(t942: dict[str, Table], overrides: list[tuple[str, int, str]],
                 removed: list[tuple[str, int, str]]) -> dict[str, Table]:
    """The gfx950 tables: gfx942's minus GFX950_REMOVED, plus GFX950_OVERRIDES."""
    return apply_gfx90a(t942, overrides, removed)


def gfx950_differences(t942: dict[str, Table], t950: dict[str, Table]
                       ) -> tuple[list[tuple[str, int, str]], list[tuple[str, int, str]]]:
    """(GFX950_OVERRIDES, GFX950_REMOVED): where LLVM 22's gfx950 decoder
    differs from LLVM 19's gfx942 tables."""
    overrides: list[tuple[str, int, str]] = []
    removed: list[tuple[str, int, str]] = []
    for name in t942:
        a, b = t950[name], t942[name]
        for op in sorted(set(a) | set(b)):
            if op in a and a[op] != b.get(op):
                overrides.append((name, op, a[op]))
            elif op not in a:
                removed.append((name, op, b[op]))
    return overrides, removed


def gfx950_file(t942: dict[str, Table], ops: "Operations", notes: list[str]) -> str:
    """`gfx950.rs`: gfx950's differences from the gfx942 tables, from LLVM 22."""
    g9 = gfx9_encodings()
    t950 = {e.name: enumerate_encoding("gfx950", e, notes) for e in g9}
    overrides, removed = gfx950_differences(t942, t950)
    if apply_gfx950(t942, overrides, removed) != t950:
        raise RuntimeError("GFX950_OVERRIDES/GFX950_REMOVED do not reproduce the gfx950 tables")
    n = spot_check("gfx950", SPOT_GFX950, classify_gfx9, t950)
    out = header(
        llvm_mc_version(LLVM_MC_GFX950),
        "gfx950 (CDNA4) opcode differences from the GFX9 tables", "-mcpu=gfx950",
        "\n\nLLVM 19, which made the GFX9 tables (`gfx9.rs`), does not know gfx950, so "
        "its rows come from LLVM 22 and are kept apart: the gfx950 opcode set is each "
        "gfx942 table of `gfx9.rs`, minus the entries listed in `GFX950_REMOVED`, with the "
        "entries of `GFX950_OVERRIDES` added or replacing the entry with the same opcode. "
        "The encodings are GFX9's (see `gfx9.rs` for their layouts). "
        f"{n} instructions assembled by `{LLVM_MC_GFX950} -mcpu=gfx950` were looked up.",
        mc=LLVM_MC_GFX950)
    emit_overrides(
        out, "GFX950_OVERRIDES",
        "gfx950 entries `(encoding, opcode, mnemonic, operation)` that differ from the gfx942 "
        "tables of `gfx9.rs`: the opcode decodes on gfx950 (LLVM 22) with this mnemonic but, "
        "on gfx942 (LLVM 19), with another mnemonic or not at all. The encoding is the name "
        "of the table constant.",
        overrides, ops)
    emit_triples(
        out, "GFX950_REMOVED",
        "Entries `(encoding, opcode, mnemonic)` of the gfx942 tables of `gfx9.rs` that LLVM "
        "22's gfx950 disassembler rejects (and that `GFX950_OVERRIDES` does not replace).",
        removed)
    print(f"gfx950: GFX950_OVERRIDES {len(overrides)}, GFX950_REMOVED {len(removed)}, "
          f"spot checks passed: {n}", file=sys.stderr)
    return with_imports(out)


USAGE_ONLY = ("llvm19", "gfx950")


def main() -> int:
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    # `--only llvm19`: just the tables LLVM 19 makes (gfx9.rs, gfx11.rs, gfx12.rs);
    # `--only gfx950`: just gfx950.rs (which still needs LLVM 19's gfx942).
    only = None
    if len(args) == 2 and args[0] == "--only" and args[1] in USAGE_ONLY:
        only = args[1]
    elif args:
        print(__doc__, file=sys.stderr)
        return 2
    ops = Operations(read_operations())
    version = llvm_mc_version()
    notes: list[str] = []

    # GFX9: gfx942 is the base, gfx90a the cross-check.
    g9 = gfx9_encodings()
    t942 = {e.name: enumerate_encoding("gfx942", e, notes) for e in g9}
    t90a = {e.name: enumerate_encoding("gfx90a", e, notes) for e in g9}
    overrides: list[tuple[str, int, str]] = []
    only942: list[tuple[str, int, str]] = []
    for e in g9:
        a, b = t90a[e.name], t942[e.name]
        for op in sorted(set(a) | set(b)):
            if op in a and a[op] != b.get(op):
                overrides.append((e.name, op, a[op]))
            elif op not in a:
                only942.append((e.name, op, b[op]))

    # GFX11.
    g11 = gfx11_encodings()
    t1100 = {e.name: enumerate_encoding("gfx1100", e, notes) for e in g11}

    # GFX12 (isa/tables/gfx12.py).
    from gfx12 import SPOT_GFX1201, classify_gfx12, gfx12_encodings
    g12 = gfx12_encodings()
    t1201 = {e.name: enumerate_encoding("gfx1201", e, notes) for e in g12}

    # The documented way of deriving gfx90a from the gfx942 tables must give
    # exactly what the gfx90a disassembler accepts.
    if apply_gfx90a(t942, overrides, only942) != t90a:
        raise RuntimeError("GFX90A_OVERRIDES/GFX942_ONLY do not reproduce the gfx90a tables")

    # Spot checks against the assembler.
    n = spot_check("gfx942", SPOT_GFX942, classify_gfx9, t942)
    n += spot_check("gfx90a", SPOT_GFX90A, classify_gfx9, t90a)
    n += spot_check("gfx1100", SPOT_GFX1100, classify_gfx11, t1100)
    n += spot_check("gfx1201", SPOT_GFX1201, classify_gfx12, t1201)

    # gfx9.rs
    out = header(
        version, "GFX9 opcode tables (gfx942, with the gfx90a differences)",
        "-mcpu=gfx942` and `-mcpu=gfx90a",
        "\n\nThe encoding tables are those of gfx942. The gfx90a opcode set is: each "
        "table, minus the entries listed in `GFX942_ONLY`, with the entries of "
        "`GFX90A_OVERRIDES` added or replacing the entry with the same opcode.")
    for e in g9:
        emit_table(out, e, t942[e.name], ops)
    emit_overrides(
        out, "GFX90A_OVERRIDES",
        "gfx90a entries `(encoding, opcode, mnemonic, operation)` that differ from the gfx942 "
        "tables above: the opcode decodes on gfx90a with this mnemonic but, on gfx942, either "
        "with another mnemonic or not at all. The encoding is the name of the table constant.",
        overrides, ops)
    emit_triples(
        out, "GFX942_ONLY",
        "Entries `(encoding, opcode, mnemonic)` of the gfx942 tables above that LLVM's "
        "gfx90a disassembler rejects (and that `GFX90A_OVERRIDES` does not replace).",
        only942)
    files = {"gfx9.rs": with_imports(out)}

    # gfx11.rs
    out = header(version, "GFX11 opcode tables (gfx1100)", "-mcpu=gfx1100", "")
    for e in g11:
        emit_table(out, e, t1100[e.name], ops)
    files["gfx11.rs"] = with_imports(out)

    # gfx12.rs
    out = header(version, "GFX12 opcode tables (gfx1201)", "-mcpu=gfx1201", "")
    for e in g12:
        emit_table(out, e, t1201[e.name], ops)
    files["gfx12.rs"] = with_imports(out)
    if only != "llvm19":
        files["gfx950.rs"] = gfx950_file(t942, ops, notes)
    if only == "gfx950":
        del files["gfx9.rs"], files["gfx11.rs"], files["gfx12.rs"]
    if only is None:
        ops.check_all_used()

    if check:
        stale = [name for name, text in files.items()
                 if (OUT_DIR / name).read_text() != text]
        for name in stale:
            print(f"isa/src/tables/{name} differs from what the script writes; rerun "
                  "`python3 isa/tables/generate.py`", file=sys.stderr)
        return 1 if stale else 0
    for name, text in files.items():
        (OUT_DIR / name).write_text(text)

    for e in g9:
        print(f"gfx942  {e.name:8} {len(t942[e.name]):4}   gfx90a {len(t90a[e.name]):4}",
              file=sys.stderr)
    for e in g11:
        print(f"gfx1100 {e.name:8} {len(t1100[e.name]):4}", file=sys.stderr)
    for e in g12:
        print(f"gfx1201 {e.name:8} {len(t1201[e.name]):4}", file=sys.stderr)
    print(f"GFX90A_OVERRIDES {len(overrides)}, GFX942_ONLY {len(only942)}, "
          f"spot checks passed: {n}", file=sys.stderr)
    if os.environ.get("GENERATE_VERBOSE"):
        for note in notes:
            print("note:", note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
