#!/usr/bin/env python3
"""Write isa/tests/encodings/rows.txt: instructions of every encoding, as
`llvm-mc-19 -show-encoding` assembles and prints them, for the table-driven
test isa/tests/encodings.rs (the interpreter must decode each row's bytes
and print the same text; the rows that read v2-v4 and write v6 are also
run, their results against values the test computes).

One row a line: `CHIP|ENCODING|BYTES (hex)|TEXT`. Rerun after editing
SOURCES: python3 isa/tests/encodings/generate.py
"""
import re
import subprocess
from pathlib import Path

SOURCES = {
    "gfx942": {
        "SOP1": ["s_mov_b32 s2, s3", "s_not_b64 s[2:3], s[4:5]"],
        "SOP2": ["s_add_u32 s0, s1, s2", "s_lshl_b64 s[0:1], s[2:3], 4"],
        "SOPC": ["s_cmp_lt_i32 s0, s1", "s_bitcmp1_b32 s2, 3"],
        "SOPK": ["s_movk_i32 s0, 0x1234", "s_cmpk_eq_u32 s1, 0x10"],
        "SOPP": ["s_endpgm", "s_waitcnt vmcnt(0)"],
        "SMEM": ["s_load_dwordx2 s[0:1], s[4:5], 0x10", "s_buffer_load_dword s0, s[8:11], 0x4"],
        "VOP1": ["v_mov_b32_e32 v0, v1", "v_cvt_f32_i32_e32 v2, v3", "v_cvt_f32_i32_e32 v6, v2"],
        "VOP2": ["v_add_f32_e32 v0, v1, v2", "v_lshlrev_b32_e32 v1, 2, v0",
                 "v_add_f32_e32 v6, v2, v3", "v_lshlrev_b32_e32 v6, v2, v3"],
        "VOPC": ["v_cmp_lt_f32_e32 vcc, v0, v1", "v_cmpx_eq_u32_e32 vcc, 0, v2"],
        "VOP3": ["v_fma_f32 v0, v1, v2, v3", "v_mad_u64_u32 v[0:1], s[2:3], v2, v3, v[4:5]",
                 "v_fma_f32 v6, v2, v3, v4", "v_mad_u32_u24 v6, v2, v3, v4"],
        "VOP3P": ["v_pk_fma_f16 v0, v1, v2, v3", "v_pk_add_f32 v[0:1], v[2:3], v[4:5]",
                  "v_pk_add_u16 v6, v2, v3"],
        "MFMA": ["v_mfma_f32_32x32x2_f32 a[0:15], v0, v1, a[0:15]",
                 "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]"],
        "DS": ["ds_write_b32 v0, v1", "ds_read2_b32 v[0:1], v2 offset1:1"],
        "MUBUF": ["buffer_load_dword v0, v1, s[4:7], 0 offen",
                  "buffer_store_dwordx2 v[0:1], off, s[4:7], s8 offset:16"],
        "FLAT": ["flat_load_dword v0, v[2:3]", "flat_store_dwordx2 v[2:3], v[4:5]"],
        "GLOBAL": ["global_load_dword v0, v1, s[0:1]", "global_atomic_add v0, v1, s[2:3]"],
        "SCRATCH": ["scratch_load_dword v0, v1, off", "scratch_store_dword off, v1, s2 offset:8"],
    },
    "gfx1100": {
        "SOP1": ["s_mov_b32 s2, s3", "s_not_b64 s[2:3], s[4:5]"],
        "SOP2": ["s_add_u32 s0, s1, s2", "s_and_not1_b32 s0, s1, s2"],
        "SOPC": ["s_cmp_lt_i32 s0, s1", "s_bitcmp1_b32 s2, 3"],
        "SOPK": ["s_movk_i32 s0, 0x1234", "s_cmpk_eq_u32 s1, 0x10"],
        "SOPP": ["s_endpgm", "s_delay_alu instid0(VALU_DEP_1)"],
        "SMEM": ["s_load_b64 s[0:1], s[4:5], 0x10", "s_buffer_load_b32 s0, s[8:11], 0x4"],
        "VOP1": ["v_mov_b32_e32 v0, v1", "v_cvt_f32_i32_e32 v2, v3", "v_cvt_f32_i32_e32 v6, v2"],
        "VOP2": ["v_add_f32_e32 v0, v1, v2", "v_lshlrev_b32_e32 v1, 2, v0",
                 "v_add_f32_e32 v6, v2, v3", "v_lshlrev_b32_e32 v6, v2, v3"],
        "VOPC": ["v_cmp_lt_f32_e32 vcc_lo, v0, v1", "v_cmpx_eq_u32_e32 0, v2"],
        "VOP3": ["v_fma_f32 v0, v1, v2, v3", "v_add_co_u32 v0, s0, v1, v2",
                 "v_fma_f32 v6, v2, v3, v4", "v_mad_u32_u24 v6, v2, v3, v4"],
        "VOP3P": ["v_pk_fma_f16 v0, v1, v2, v3", "v_dot2_f32_f16 v0, v1, v2, v3",
                  "v_pk_add_u16 v6, v2, v3"],
        "VOPD": ["v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5"],
        "WMMA": ["v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]"],
        "DS": ["ds_store_b32 v0, v1", "ds_load_2addr_b32 v[0:1], v2 offset1:1"],
        "MUBUF": ["buffer_load_b32 v0, v1, s[4:7], 0 offen",
                  "buffer_store_b64 v[0:1], off, s[4:7], s8 offset:16"],
        "FLAT": ["flat_load_b32 v0, v[2:3]", "flat_store_b64 v[2:3], v[4:5]"],
        "GLOBAL": ["global_load_b32 v0, v1, s[0:1]", "global_atomic_add_u32 v0, v1, s[2:3]"],
        "SCRATCH": ["scratch_load_b32 v0, v1, off", "scratch_store_b32 off, v1, s2 offset:8"],
    },
}

ENCODED = re.compile(r"^\s*(\S.*?)\s*; encoding: \[([0-9a-fx,]+)\]")


def main() -> None:
    rows = []
    for chip, encodings in SOURCES.items():
        for encoding, lines in encodings.items():
            out = subprocess.run(
                ["llvm-mc-19", "-arch=amdgcn", f"-mcpu={chip}", "-show-encoding"],
                input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
            got = [ENCODED.match(line) for line in out.stdout.splitlines()]
            got = [m for m in got if m]
            if len(got) != len(lines):
                raise SystemExit(f"{chip} {encoding}: {out.stderr}")
            for m in got:
                data = "".join(f"{int(b, 16):02x}" for b in m.group(2).split(","))
                text = re.sub(r"\s+", " ", m.group(1))
                rows.append(f"{chip}|{encoding}|{data}|{text}")
    Path(__file__).with_name("rows.txt").write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
