"""GFX12 (RDNA4, gfx1201) encodings for `generate.py`.

GFX12 keeps GFX11's SOP, VOP1, VOP2, VOPC, VOP3, VOP3P, VOPD and DS
layouts (DS without its `gds` bit) and replaces the memory encodings:
SMEM moves its opcode and gains a 24-bit offset and the `th`/`scope`
cache policy; VBUFFER (12 bytes) replaces MUBUF and MTBUF; VFLAT, VGLOBAL
and VSCRATCH (12 bytes) replace FLAT. The field positions below were read
off `llvm-mc-19 -mcpu=gfx1201 -show-encoding` and checked by the spot
checks at the end of this file, which `generate.py` runs.
"""

from __future__ import annotations

from generate import (  # noqa: E402  (generate.py imports this module lazily)
    Encoding, S0, V0, ZERO, SRC0_GFX11, VOP3_DST_DOC, VOP3_SRC_DOC, VOP3P_DOC, Words, field,
    sop_encodings, v, vop3_variants, vop_short_encodings, vopd_y_mnemonic,
)

CACHE_POLICY_DOC = ("th `[22:20]` (temporal hint), scope `[19:18]` (0 = CU, 1 = SE, 2 = DEV, "
                    "3 = SYS)")


def gfx12_encodings() -> list[Encoding]:
    encs = sop_encodings()
    encs.append(Encoding(
        "SMEM",
        "SMEM: 8 bytes. Dword 0: `[31:26] = 0b111101`, th `[24:23]`, scope `[22:21]`, op "
        "`[18:13]` (6 bits), sdata `[12:6]`, sbase `[5:0]` (an SGPR pair or quad: first "
        "register = 2 * sbase). Dword 1: soffset `[31:25]` (an SGPR added to the offset; "
        "0x7C = null, i.e. none), offset `[23:0]` (signed 24-bit byte offset).",
        range(0x00, 0x40), 8,
        [lambda op: v(0xF4000000 | op << 13, 0x7C << 25),
         lambda op: v(0xF4000000 | op << 13, 0)],
    ))
    encs += vop_short_encodings(
        SRC0_GFX11, "literal/DPP",
        "The VOP3 forms of these ops are VOP3 opcodes 0x180 + op. In LLVM's true16 "
        "instructions, bit 7 of the vdst or src0 VGPR number selects the high half (`.h`).",
        "The VOP3 forms of these ops are VOP3 opcodes 0x100 + op.",
        "The VOP3 forms of these ops are VOP3 opcodes 0x000 + op; `v_cmpx_*` write EXEC "
        "(VOPC ops 0x80-0xFF).",
    )
    encs.append(Encoding(
        "VOP3",
        "VOP3: 8 bytes, as on GFX11. Dword 0: `[31:26] = 0b110101`, op `[25:16]` (10 bits), "
        "clamp `[15]`, " + VOP3_DST_DOC + VOP3_SRC_DOC +
        " VOPC ops at 0x000-0x0FF, VOP2 ops at 0x100-0x13F, VOP1 ops at 0x180-0x1FF, "
        "VOP3-only ops from 0x200. src0 = 0xFA/0xE9 selects the VOP3 DPP16/DPP8 form.",
        range(0x000, 0x400), 8,
        vop3_variants(0xD4000000),
    ))
    encs.append(Encoding(
        "VOP3_DPP",
        "VOP3 DPP16 (src0 = 0xFA; DPP8, src0 = 0xE9/0xEA, is accepted for the same ops): the "
        "VOP3 ops LLVM has a `_e64_dpp` form of, laid out as on GFX11 (12 bytes).",
        range(0x000, 0x400), 12,
        [lambda op, s1=s1, s2=s2: v(0xD4000000 | op << 16, s2 << 18 | s1 << 9 | 0xFA,
                                    0xFF00E400)
         for s1, s2 in ((V0, V0), (V0, S0), (S0, S0), (V0, ZERO), (ZERO, ZERO))],
    ))
    encs.append(Encoding(
        "VOP3P",
        "VOP3P: 8 bytes, as on GFX11. Dword 0: `[31:24]` = 0xCC, op `[22:16]` (7 bits), "
        "clamp `[15]`, " + VOP3P_DOC +
        " The WMMA ops (`v_wmma_*`, op 0x40-0x4A) and sparse SWMMAC ops (`v_swmmac_*`) use "
        "the same layout; GFX12's A and B blocks hold each element once (no duplicated "
        "halves, unlike GFX11).",
        range(0x00, 0x80), 8,
        # LLVM decodes GFX12's WMMA only with every `op_sel_hi` bit set.
        vop3_variants(0xCC000000)
        + [lambda op, s1=s1: v(0xCC004000 | op << 16, 3 << 27 | s1 << 18 | V0 << 9 | V0)
           for s1 in (V0, ZERO)],
    ))
    vopd_doc = ("8 bytes, as on GFX11: dword 0 `[31:26] = 0b110010`, opx `[25:22]`, opy "
                "`[21:17]`, vsrc1x `[16:9]`, src0x `[8:0]`; dword 1 vdstx `[31:24]`, vdsty "
                "`[23:17]`, vsrc1y `[16:9]`, src0y `[8:0]`; one shared literal may follow. ")
    mov = 8  # v_dual_mov_b32, as X and as Y
    encs.append(Encoding(
        "VOPD_X",
        "VOPD, X half (`opx`): " + vopd_doc + "Enumerated with Y = v_dual_mov_b32.",
        range(0x00, 0x10), 8,
        [lambda op: v(0xC8000000 | op << 22 | mov << 17, 0)],
    ))
    encs.append(Encoding(
        "VOPD_Y",
        "VOPD, Y half (`opy`): " + vopd_doc + "Enumerated with X = v_dual_mov_b32.",
        range(0x00, 0x20), 8,
        [lambda op: v(0xC8000000 | mov << 22 | op << 17, 0)],
        mnemonic=vopd_y_mnemonic,
    ))
    encs.append(Encoding(
        "DS",
        "DS (LLVM's VDS): 8 bytes. Dword 0: `[31:26] = 0b110110`, op `[25:18]` (8 bits), "
        "offset1 `[15:8]`, offset0 `[7:0]` (single-offset ops: a 16-bit offset `[15:0]`). "
        "Dword 1: vdst `[31:24]`, data1 `[23:16]`, data0 `[15:8]`, addr `[7:0]`.",
        range(0x00, 0x100), 8,
        [lambda op: v(0xD8000000 | op << 18, 0)],
    ))
    buffer_doc = (
        "12 bytes. Dword 0: `[31:26] = 0b110001`, tfe `[22]`, soffset `[6:0]` (an SGPR; "
        "0x7C = null). Dword 1: idxen `[31]`, offen `[30]`, format `[29:23]`, "
        + CACHE_POLICY_DOC + ", rsrc `[15:9]` (first SGPR of the descriptor quad), vdata "
        "`[7:0]`. Dword 2: offset `[31:8]` (unsigned 24-bit), vaddr `[7:0]`. ")
    encs.append(Encoding(
        "VBUFFER",
        "VBUFFER, untyped (MUBUF's ops): " + buffer_doc + "op `[21:14]` (8 bits); op values "
        "with `[21:18] = 0b1000` are the typed ops, so 0x80-0x8F were not enumerated.",
        [op for op in range(0x00, 0x100) if op >> 4 != 0x8], 12,
        [lambda op: v(0xC4000000 | op << 14 | 0x7C, 1 << 23, 0),
         lambda op: v(0xC4000000 | op << 14 | 0x7C, 1 << 23 | 1 << 30, 0),
         lambda op: v(0xC4000000 | op << 14 | 0x7C, 0, 0)],
    ))
    encs.append(Encoding(
        "VBUFFER_TYPED",
        "VBUFFER, typed (MTBUF's ops): " + buffer_doc + "`[21:18] = 0b1000`, op `[17:14]` "
        "(4 bits); format is the unified buffer format.",
        range(0x00, 0x10), 12,
        [lambda op: v(0xC4000000 | 0b1000 << 18 | op << 14 | 0x7C, 22 << 23, 0),
         lambda op: v(0xC4000000 | 0b1000 << 18 | op << 14 | 0x7C, 1 << 23, 0)],
    ))
    flat_doc = (
        "12 bytes. Dword 0: `[31:26] = 0b111011`, seg `[25:24]` (0 = FLAT, 1 = SCRATCH, "
        "2 = GLOBAL), op `[21:14]` (8 bits), saddr `[6:0]` (0x7C = off). Dword 1: vsrc "
        "(store and atomic data) `[30:23]`, " + CACHE_POLICY_DOC + ", sve `[17]` "
        "(SCRATCH: a VGPR address is present), vdst `[7:0]`. Dword 2: offset `[31:8]` "
        "(signed 24-bit), vaddr `[7:0]` (a VGPR pair for VFLAT and for VGLOBAL with "
        "saddr = off, else one VGPR). ")
    encs.append(Encoding(
        "FLAT",
        "VFLAT (seg = 0): " + flat_doc,
        range(0x00, 0x100), 12,
        [lambda op: v(0xEC000000 | op << 14 | 0x7C, 0, 0)],
    ))
    encs.append(Encoding(
        "SCRATCH",
        "VSCRATCH (seg = 1): " + flat_doc,
        range(0x00, 0x100), 12,
        [lambda op: v(0xED000000 | op << 14, 0, 0),
         lambda op: v(0xED000000 | op << 14 | 0x7C, 1 << 17, 0),
         lambda op: v(0xED000000 | op << 14 | 0x7C, 0, 0)],
    ))
    encs.append(Encoding(
        "GLOBAL",
        "VGLOBAL (seg = 2): " + flat_doc + "With saddr != off, vaddr is a 32-bit VGPR offset "
        "added to the SGPR-pair base.",
        range(0x00, 0x100), 12,
        [lambda op: v(0xEE000000 | op << 14, 0, 0),
         lambda op: v(0xEE000000 | op << 14 | 0x7C, 0, 0)],
    ))
    return encs


def classify_gfx12(w: Words) -> tuple[str, int]:
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
    if w0 >> 24 == 0xCC:
        return "VOP3P", field(w, 0, 22, 16)
    top = w0 >> 26
    if top == 0b110101:
        return "VOP3", field(w, 0, 25, 16)
    if top == 0b111101:
        return "SMEM", field(w, 0, 18, 13)
    if top == 0b110110:
        return "DS", field(w, 0, 25, 18)
    if top == 0b110001:
        if field(w, 0, 21, 18) == 0b1000:
            return "VBUFFER_TYPED", field(w, 0, 17, 14)
        return "VBUFFER", field(w, 0, 21, 14)
    if top == 0b111011:
        return ("FLAT", "SCRATCH", "GLOBAL")[field(w, 0, 25, 24)], field(w, 0, 21, 14)
    raise ValueError(f"unknown GFX12 encoding {w0:#010x}")


SPOT_GFX1201 = """
s_add_co_u32 s0, s1, s2
s_movk_i32 s0, 0x1
s_mov_b32 s0, s1
s_cmp_eq_u32 s0, s1
s_cbranch_execz 0
s_wait_loadcnt 0x0
s_wait_kmcnt 0x0
s_load_b64 s[0:1], s[2:3], 0x0
s_load_b32 s1, s[2:3], s4 offset:0x10
s_buffer_load_b128 s[4:7], s[8:11], 0x10
v_add_f32 v0, v1, v2
v_max_num_f32 v0, v1, v2
v_cvt_f32_fp8 v1, v2
v_cmpx_eq_f32 v0, v1
v_fma_f32 v0, v1, v2, v3
v_permlane16_var_b32 v1, v2, v3
v_pk_fma_f16 v0, v1, v2, v3
v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[12:15], v[0:7]
v_wmma_i32_16x16x16_iu8 v[0:7], v[8:9], v[12:13], v[0:7]
v_dual_fmac_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4
v_dual_max_num_f32 v0, v1, v2 :: v_dual_add_nc_u32 v3, v4, v5
ds_load_2addr_b32 v[0:1], v2 offset1:1
ds_store_b32 v0, v1
buffer_load_b128 v[0:3], off, s[0:3], null
buffer_store_b32 v0, v1, s[4:7], s2 offen offset:16
buffer_atomic_add_u32 v1, v2, s[4:7], null offen th:TH_ATOMIC_RETURN
tbuffer_load_format_x v0, off, s[0:3], null format:[BUF_FMT_32_FLOAT]
flat_load_b32 v0, v[0:1]
global_store_b32 v[0:1], v2, off
global_load_b64 v[0:1], v2, s[4:5] offset:-16
global_atomic_add_u32 v1, v[2:3], v4, off th:TH_ATOMIC_RETURN
scratch_load_b32 v0, off, s0
scratch_store_b32 v1, v2, off
"""
