#!/usr/bin/env python3
"""Write isa/tests/encodings/rows.txt: instructions of every encoding,
assembled by `llvm-mc-19 -show-encoding` and printed by its disassembler
(`llvm-mc-19 --disassemble` of those bytes), for the table-driven
test isa/tests/encodings.rs (the interpreter must decode each row's bytes
and print the same text; the rows that read v2-v4 and write v6 are also
run, their results against values the test computes).

One row a line: `CHIP|ENCODING|BYTES (hex)|TEXT`. Rerun after editing
SOURCES: python3 isa/tests/encodings/generate.py; with --check it writes
nothing and exits 1 if rows.txt is not what it would write (run by
isa/tests/generated_tables.rs).
"""
import re
import sys
import subprocess
from pathlib import Path

SOURCES = {
    "gfx942": {
        "SOP1": ["s_mov_b32 s2, s3", "s_not_b64 s[2:3], s[4:5]", "s_movrels_b32 s0, s1",
                 "s_movreld_b64 s[0:1], s[2:3]"],
        "SOP2": ["s_add_u32 s0, s1, s2", "s_lshl_b64 s[0:1], s[2:3], 4",
                 "s_cselect_b64 s[0:1], -1, 0"],
        "SOPC": ["s_cmp_lt_i32 s0, s1", "s_bitcmp1_b32 s2, 3"],
        "SOPK": ["s_movk_i32 s0, 0x1234", "s_cmpk_eq_u32 s1, 0x10"],
        "SOPP": ["s_endpgm", "s_waitcnt vmcnt(0)", "s_cbranch_scc0 4", "s_nop 3"],
        "SMEM": ["s_load_dwordx2 s[0:1], s[4:5], 0x10", "s_buffer_load_dword s0, s[8:11], 0x4",
                 "s_load_dword s0, s[2:3], s4"],
        "VOP1": ["v_mov_b32_e32 v0, v1", "v_cvt_f32_i32_e32 v2, v3", "v_cvt_f32_i32_e32 v6, v2"],
        "VOP2": ["v_add_f32_e32 v0, v1, v2", "v_lshlrev_b32_e32 v1, 2, v0",
                 "v_add_f32_e32 v6, v2, v3", "v_lshlrev_b32_e32 v6, v2, v3",
                 "v_add_f32_e32 v0, 0x40490fdb, v1"],
        "VOPC": ["v_cmp_lt_f32_e32 vcc, v0, v1", "v_cmpx_eq_u32_e32 vcc, 0, v2",
                 "v_cmp_class_f32_e64 s[0:1], v1, v2"],
        "VOP3": ["v_fma_f32 v0, v1, v2, v3", "v_mad_u64_u32 v[0:1], s[2:3], v2, v3, v[4:5]",
                 "v_fma_f32 v6, v2, v3, v4", "v_mad_u32_u24 v6, v2, v3, v4",
                 "v_fma_f32 v0, -v1, |v2|, v3 clamp", "v_add_f32_e64 v0, v1, v2 mul:2",
                 "v_med3_f32 v0, s1, 1.0, v2", "v_cndmask_b32_e64 v0, v1, v2, s[4:5]",
                 "v_add_co_u32_e64 v0, s[0:1], v1, v2", "v_readlane_b32 s0, v1, 5",
                 "v_lshl_add_u32 v0, v1, 2, v2", "v_cvt_pk_fp8_f32 v0, v1, v2"],
        "VOP3P": ["v_pk_fma_f16 v0, v1, v2, v3", "v_pk_add_f32 v[0:1], v[2:3], v[4:5]",
                  "v_pk_add_u16 v6, v2, v3",
                  "v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]",
                  "v_pk_fma_f16 v0, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,1,0]",
                  "v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]"],
        "MFMA": ["v_mfma_f32_32x32x2_f32 a[0:15], v0, v1, a[0:15]",
                 "v_mfma_f32_16x16x16_f16 v[0:3], v[4:5], v[6:7], v[0:3]",
                 "v_mfma_i32_16x16x32_i8 v[0:3], v[4:5], v[6:7], v[0:3]"],
        "DS": ["ds_write_b32 v0, v1", "ds_read2_b32 v[0:1], v2 offset1:1",
               "ds_add_u32 v0, v1 offset:16", "ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,16)",
               "ds_bpermute_b32 v0, v1, v2"],
        "MUBUF": ["buffer_load_dword v0, v1, s[4:7], 0 offen",
                  "buffer_store_dwordx2 v[0:1], off, s[4:7], s8 offset:16",
                  "buffer_load_dword v0, v1, s[4:7], 0 idxen offset:4 sc0",
                  "buffer_atomic_add v0, v1, s[4:7], 0 offen sc0"],
        "FLAT": ["flat_load_dword v0, v[2:3]", "flat_store_dwordx2 v[2:3], v[4:5]"],
        "GLOBAL": ["global_load_dword v0, v1, s[0:1]", "global_atomic_add v0, v1, s[2:3]",
                   "global_load_dword v0, v[2:3], off offset:-8",
                   "global_store_short_d16_hi v[0:1], v2, off"],
        "SCRATCH": ["scratch_load_dword v0, v1, off", "scratch_store_dword off, v1, s2 offset:8"],
        "SDWA": ["v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_0"],
        "DPP": ["v_add_f32_dpp v0, v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"],
    },
    "gfx90a": {
        "SOP1": ["s_mov_b32 s2, s3"],
        "SOP2": ["s_lshl_b64 s[0:1], s[2:3], 4"],
        "SOPC": ["s_cmp_lt_i32 s0, s1"],
        "SOPK": ["s_movk_i32 s0, 0x1234"],
        "SOPP": ["s_waitcnt vmcnt(0) lgkmcnt(0)"],
        "SMEM": ["s_load_dwordx4 s[0:3], s[4:5], 0x10"],
        "VOP1": ["v_cvt_f32_i32_e32 v6, v2"],
        "VOP2": ["v_add_f32_e32 v6, v2, v3"],
        "VOPC": ["v_cmp_lt_f32_e32 vcc, v0, v1"],
        "VOP3": ["v_fma_f32 v6, v2, v3, v4", "v_fma_f64 v[0:1], v[2:3], v[4:5], v[6:7]"],
        "VOP3P": ["v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]",
                  "v_pk_mul_f32 v[0:1], v[2:3], v[4:5] op_sel_hi:[0,1]",
                  "v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]", "v_accvgpr_read_b32 v0, a1"],
        "MFMA": ["v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]",
                 "v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7]"],
        "DS": ["ds_read_b64 v[0:1], v2 offset:8"],
        "MUBUF": ["buffer_load_dword v0, v1, s[4:7], 0 offen glc"],
        "FLAT": ["flat_load_dwordx2 v[0:1], v[2:3]"],
        "GLOBAL": ["global_atomic_add_f32 v0, v1, s[2:3]"],
        "SCRATCH": ["scratch_load_dword v0, off, s2 offset:4"],
        "DPP": ["v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1"],
    },
    "gfx1100": {
        "SOP1": ["s_mov_b32 s2, s3", "s_not_b64 s[2:3], s[4:5]", "s_and_saveexec_b32 s0, s1",
                 "s_movrelsd_2_b32 s0, s1"],
        "SOP2": ["s_add_u32 s0, s1, s2", "s_and_not1_b32 s0, s1, s2"],
        "SOPC": ["s_cmp_lt_i32 s0, s1", "s_bitcmp1_b32 s2, 3"],
        "SOPK": ["s_movk_i32 s0, 0x1234", "s_cmpk_eq_u32 s1, 0x10"],
        "SOPP": ["s_endpgm", "s_delay_alu instid0(VALU_DEP_1)", "s_waitcnt vmcnt(0) lgkmcnt(0)",
                 "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)"],
        "SMEM": ["s_load_b64 s[0:1], s[4:5], 0x10", "s_buffer_load_b32 s0, s[8:11], 0x4",
                 "s_load_b128 s[0:3], s[4:5], 0x0"],
        "VOP1": ["v_mov_b32_e32 v0, v1", "v_cvt_f32_i32_e32 v2, v3", "v_cvt_f32_i32_e32 v6, v2",
                 "v_movrelsd_2_b32_e32 v0, v1", "v_movreld_b32_e32 v0, s1"],
        "VOP2": ["v_add_f32_e32 v0, v1, v2", "v_lshlrev_b32_e32 v1, 2, v0",
                 "v_add_f32_e32 v6, v2, v3", "v_lshlrev_b32_e32 v6, v2, v3"],
        "VOPC": ["v_cmp_lt_f32_e32 vcc_lo, v0, v1", "v_cmpx_eq_u32_e32 0, v2",
                 "v_cmp_class_f32_e64 s0, v1, v2"],
        "VOP3": ["v_fma_f32 v0, v1, v2, v3", "v_add_co_u32 v0, s0, v1, v2",
                 "v_fma_f32 v6, v2, v3, v4", "v_mad_u32_u24 v6, v2, v3, v4",
                 "v_fma_f32 v0, v1, 0x40490fdb, v2", "v_add_f32_e64 v0, -v1, |v2| clamp",
                 "v_cndmask_b32_e64 v0, v1, v2, s0", "v_permlane16_b32 v0, v1, s0, s1",
                 "v_lshlrev_b16 v0, 1, v1", "v_mad_u64_u32 v[0:1], null, v1, v2, v[3:4]"],
        "VOP3P": ["v_pk_fma_f16 v0, v1, v2, v3", "v_dot2_f32_f16 v0, v1, v2, v3",
                  "v_pk_add_u16 v6, v2, v3",
                  "v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]",
                  "v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]"],
        "VOPD": ["v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5",
                 "v_dual_fmac_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4"],
        "WMMA": ["v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]",
                 "v_wmma_i32_16x16x16_iu8 v[0:7], v[8:11], v[12:15], v[0:7] neg_lo:[1,1,0]"],
        "DS": ["ds_store_b32 v0, v1", "ds_load_2addr_b32 v[0:1], v2 offset1:1",
               'ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM,"00p11")'],
        "MUBUF": ["buffer_load_b32 v0, v1, s[4:7], 0 offen",
                  "buffer_store_b64 v[0:1], off, s[4:7], s8 offset:16",
                  "buffer_atomic_cmpswap_b32 v[0:1], v2, s[4:7], 0 offen glc"],
        "FLAT": ["flat_load_b32 v0, v[2:3]", "flat_store_b64 v[2:3], v[4:5]"],
        "GLOBAL": ["global_load_b32 v0, v1, s[0:1]", "global_atomic_add_u32 v0, v1, s[2:3]",
                   "global_load_d16_hi_b16 v0, v1, s[0:1] offset:4"],
        "SCRATCH": ["scratch_load_b32 v0, v1, off", "scratch_store_b32 off, v1, s2 offset:8"],
        "VOP3_DPP": ["v_add_f32_e64_dpp v0, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"],
        "DPP8": ["v_mov_b32_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0]"],
        "DPP": ["v_add_f32_dpp v0, v1, v2 row_xmask:1 row_mask:0xf bank_mask:0xf"],
    },
    "gfx1201": {
        "SOP1": ["s_mov_b32 s2, s3", "s_and_saveexec_b32 s0, s1", "s_barrier_signal -1",
                 "s_cvt_hi_f32_f16 s0, s1", "s_rndne_f16 s0, 0x3c00", "s_movrels_b64 s[0:1], s[2:3]"],
        "SOP2": ["s_add_co_u32 s0, s1, s2", "s_add_nc_u64 s[0:1], s[2:3], s[4:5]",
                 "s_mul_u64 s[0:1], s[2:3], 5", "s_add_f32 s0, s1, 1.0",
                 "s_fmaak_f32 s0, s1, s2, 0x41200000", "s_fmamk_f32 s0, s1, 0x41200000, s2",
                 "s_fmaak_f32 s0, 0x41200000, s2, 0x41200000", "s_add_f16 s0, s1, 0x1234",
                 "s_fmac_f16 s0, s1, 0.5", "s_cvt_pk_rtz_f16_f32 s0, s1, s2",
                 "s_maximum_f32 s0, s1, s2", "s_pack_hl_b32_b16 s0, s1, s2"],
        "SOPC": ["s_cmp_lt_i32 s0, s1", "s_cmp_eq_u64 s[0:1], s[2:3]"],
        "SOPK": ["s_movk_i32 s0, 0x1234", "s_mulk_i32 s1, 0x10"],
        "SOPP": ["s_endpgm", "s_delay_alu instid0(VALU_DEP_1)", "s_wait_loadcnt 0x3f",
                 "s_wait_kmcnt 0x0", "s_wait_dscnt 0x1", "s_wait_storecnt 0x0",
                 "s_wait_loadcnt_dscnt 0x0", "s_wait_alu depctr_sa_sdst(0)",
                 "s_barrier_wait 0xffff"],
        "SMEM": ["s_load_b64 s[0:1], s[4:5], 0x10", "s_buffer_load_b32 s0, s[8:11], 0x4",
                 "s_load_b128 s[0:3], s[4:5], -0x100", "s_load_b32 s1, s[2:3], s4 offset:0x10",
                 "s_load_b32 s1, s[2:3], 0x0 th:TH_LOAD_NT scope:SCOPE_SYS"],
        "VOP1": ["v_mov_b32_e32 v0, v1", "v_cvt_f32_i32_e32 v6, v2", "v_movrels_b32_e32 v0, v1",
                 "v_movrelsd_b32_e32 v0, v1"],
        "VOP2": ["v_add_f32_e32 v6, v2, v3", "v_lshlrev_b32_e32 v6, v2, v3",
                 "v_max_num_f32_e32 v0, v1, v2"],
        "VOPC": ["v_cmp_lt_f32_e32 vcc_lo, v0, v1", "v_cmpx_eq_u32_e32 0, v2"],
        "VOP3": ["v_fma_f32 v6, v2, v3, v4", "v_mad_u32_u24 v6, v2, v3, v4",
                 "v_mad_co_u64_u32 v[0:1], null, v1, v2, v[3:4]", "v_max3_num_f32 v0, v1, v2, v3",
                 "v_add_f32_e64 v0, -v1, |v2| clamp", "v_s_rcp_f32 s0, s1",
                 "v_movreld_b32_e64 v0, v1", "v_s_sqrt_f16 s0, s1"],
        "VOP3P": ["v_pk_fma_f16 v0, v1, v2, v3", "v_pk_add_u16 v6, v2, v3"],
        "VOPD": ["v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5",
                 "v_dual_max_num_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4"],
        "WMMA": ["v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[12:15], v[0:7]",
                 "v_wmma_f16_16x16x16_f16 v[0:3], v[8:11], v[12:15], v[0:3]",
                 "v_wmma_i32_16x16x16_iu8 v[0:7], v[8:9], v[12:13], v[0:7] neg_lo:[1,1,0]"],
        "DS": ["ds_store_b32 v0, v1", "ds_load_2addr_b32 v[0:1], v2 offset1:1",
               "ds_max_num_f32 v0, v1 offset:8"],
        "VBUFFER": ["buffer_load_b32 v0, v1, s[4:7], null offen",
                    "buffer_store_b64 v[0:1], off, s[4:7], s8 offset:16",
                    "buffer_load_b128 v[0:3], v1, s[4:7], s3 idxen offset:8388607",
                    "buffer_load_b32 v0, v1, s[4:7], null offen th:TH_LOAD_NT scope:SCOPE_SYS",
                    "buffer_atomic_cmpswap_b32 v[0:1], v2, s[4:7], null offen th:TH_ATOMIC_RETURN",
                    "buffer_atomic_add_u32 v0, v1, s[8:11], null offen"],
        "VFLAT": ["flat_load_b32 v0, v[2:3]", "flat_store_b64 v[2:3], v[4:5] offset:-16"],
        "VGLOBAL": ["global_load_b32 v0, v1, s[0:1]", "global_load_b32 v1, v[2:3], off offset:-8388608",
                    "global_atomic_add_u32 v0, v1, v2, s[2:3] th:TH_ATOMIC_RETURN",
                    "global_store_b32 v[2:3], v1, off scope:SCOPE_DEV",
                    "global_load_b32 v1, v2, s[4:5] offset:100 th:TH_LOAD_HT scope:SCOPE_SE"],
        "VSCRATCH": ["scratch_load_b32 v0, v1, off", "scratch_store_b32 off, v1, s2 offset:8",
                     "scratch_load_b32 v1, v2, s3 offset:16"],
        "VOP3_DPP": ["v_add_f32_e64_dpp v0, v1, v2 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf"],
        "DPP8": ["v_mov_b32_dpp v0, v1 dpp8:[7,6,5,4,3,2,1,0]"],
    },
}

ENCODED = re.compile(r"^\s*(\S.*?)\s*; encoding: \[([0-9a-fx,]+)\]")


def assemble(chip: str, encoding: str, lines: list) -> list:
    """Each line's bytes, as `llvm-mc-19 -show-encoding` assembles it."""
    out = subprocess.run(
        ["llvm-mc-19", "-arch=amdgcn", f"-mcpu={chip}", "-show-encoding"],
        input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    got = [m for m in map(ENCODED.match, out.stdout.splitlines()) if m]
    if len(got) != len(lines):
        raise SystemExit(f"{chip} {encoding}: {out.stderr}")
    return [[int(b, 16) for b in m.group(2).split(",")] for m in got]


def disassemble(chip: str, encoded: list) -> list:
    """What LLVM's disassembler prints for each instruction's bytes (the
    oracle for a decoder: the assembler's echo of its input can differ,
    e.g. GFX11 SMEM's `null` offset register)."""
    text = "\n".join(",".join(f"{b:#04x}" for b in data) for data in encoded) + "\n"
    out = subprocess.run(
        ["llvm-mc-19", "-arch=amdgcn", f"-mcpu={chip}", "--disassemble"],
        input=text, capture_output=True, text=True, check=True)
    printed = [re.sub(r"\s+", " ", line.split("//")[0]).strip()
               for line in out.stdout.splitlines()
               if line.strip() and not line.strip().startswith(".")]
    if len(printed) != len(encoded) or out.stderr:
        raise SystemExit(f"{chip}: llvm-mc-19 --disassemble: {out.stderr}")
    return printed


def main() -> None:
    rows = []
    for chip, encodings in SOURCES.items():
        labelled = [(encoding, data) for encoding, lines in encodings.items()
                    for data in assemble(chip, encoding, lines)]
        texts = disassemble(chip, [data for _, data in labelled])
        for (encoding, data), text in zip(labelled, texts):
            rows.append(f"{chip}|{encoding}|{bytes(data).hex()}|{text}")
    text = "\n".join(rows) + "\n"
    path = Path(__file__).with_name("rows.txt")
    if "--check" in sys.argv[1:]:
        if path.read_text() != text:
            raise SystemExit(f"{path} is not what generate.py writes: rerun it")
        return
    path.write_text(text)


if __name__ == "__main__":
    main()
