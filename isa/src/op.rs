//! Operations by meaning, one for each family's spellings (`s_load_dwordx2`
//! on GFX9 is `s_load_b64` on GFX11): what the executor matches on. The
//! opcode tables (`crate::tables`, generated from
//! `isa/tables/operations.txt`) give each mnemonic its operation beside its
//! opcode; a mnemonic without one is an instruction the interpreter lacks.

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// Never true (`_f`).
    F,
    /// `<`.
    Lt,
    /// `==`.
    Eq,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `!=` (integers `_ne`/`_lg`; floats `_lg`: ordered and not equal).
    Ne,
    /// `>=`.
    Ge,
    /// Ordered (neither is NaN).
    O,
    /// Unordered (either is NaN).
    U,
    /// Not `>=` (unordered or `<`).
    Nge,
    /// Not `<>` (unordered or `==`).
    Nlg,
    /// Not `>`.
    Ngt,
    /// Not `<=`.
    Nle,
    /// Not `==` (unordered or `!=`).
    Neq,
    /// Not `<`.
    Nlt,
    /// Always true (`_t`/`_tru`).
    T,
}

/// An operand type of a vector compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// 16-bit float.
    F16,
    /// 32-bit float.
    F32,
    /// 64-bit float.
    F64,
    /// 16-bit signed.
    I16,
    /// 16-bit unsigned.
    U16,
    /// 32-bit signed.
    I32,
    /// 32-bit unsigned.
    U32,
    /// 64-bit signed.
    I64,
    /// 64-bit unsigned.
    U64,
}

/// A branch's condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// `s_branch`.
    Always,
    /// `s_cbranch_scc0`.
    Scc0,
    /// `s_cbranch_scc1`.
    Scc1,
    /// `s_cbranch_vccz`.
    Vccz,
    /// `s_cbranch_vccnz`.
    Vccnz,
    /// `s_cbranch_execz`.
    Execz,
    /// `s_cbranch_execnz`.
    Execnz,
}

/// A scalar ALU operation (its width is given beside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Salu {
    /// `s_mov_b32`, `s_movk_i32`, `s_mov_b64`: D = S0.
    Mov,
    /// `s_cmov_b32`, `s_cmovk_i32`, `s_cmov_b64`: if SCC then D = S0.
    Cmov,
    /// `s_not_b32`, `s_not_b64`: D = ~S0; SCC = D != 0.
    Not,
    /// `s_add_u32`: D = S0 + S1; SCC = the carry out.
    AddU32,
    /// `s_sub_u32`: D = S0 - S1; SCC = the borrow.
    SubU32,
    /// `s_addc_u32`: D = S0 + S1 + SCC; SCC = the carry out.
    AddcU32,
    /// `s_subb_u32`: D = S0 - S1 - SCC; SCC = the borrow.
    SubbU32,
    /// `s_add_i32`, `s_addk_i32`: D = S0 + S1; SCC = signed overflow.
    AddI32,
    /// `s_sub_i32`: D = S0 - S1; SCC = signed overflow.
    SubI32,
    /// `s_mul_i32`, `s_mulk_i32`: D = S0 * S1 (the low 32 bits).
    MulI32,
    /// `s_mul_hi_u32`: D = (S0 * S1) >> 32, unsigned.
    MulHiU32,
    /// `s_mul_hi_i32`: D = (S0 * S1) >> 32, signed.
    MulHiI32,
    /// `s_and_b32`, `s_and_b64`: D = S0 & S1; SCC = D != 0.
    And,
    /// `s_or_b32`, `s_or_b64`: D = S0 | S1; SCC = D != 0.
    Or,
    /// `s_xor_b32`, `s_xor_b64`: D = S0 ^ S1; SCC = D != 0.
    Xor,
    /// `s_and_not1_b32`, `s_andn2_b32`, `s_and_not1_b64`, `s_andn2_b64`: D = S0 & ~S1; SCC = D !=
    /// 0.
    AndNot,
    /// `s_or_not1_b32`, `s_orn2_b32`, `s_or_not1_b64`, `s_orn2_b64`: D = S0 | ~S1; SCC = D != 0.
    OrNot,
    /// `s_nand_b32`, `s_nand_b64`: D = ~(S0 & S1); SCC = D != 0.
    Nand,
    /// `s_nor_b32`, `s_nor_b64`: D = ~(S0 | S1); SCC = D != 0.
    Nor,
    /// `s_xnor_b32`, `s_xnor_b64`: D = ~(S0 ^ S1); SCC = D != 0.
    Xnor,
    /// `s_lshl_b32`, `s_lshl_b64`: D = S0 << S1[4:0] (64-bit: S1[5:0]); SCC = D != 0.
    Lshl,
    /// `s_lshr_b32`, `s_lshr_b64`: D = S0 >> S1[4:0] (64-bit: S1[5:0]), logical; SCC = D != 0.
    Lshr,
    /// `s_ashr_i32`, `s_ashr_i64`: D = S0 >> S1[4:0] (64-bit: S1[5:0]), arithmetic; SCC = D != 0.
    Ashr,
    /// `s_bfe_u32`, `s_bfe_u64`: D = (S0 >> S1[4:0]) & ((1 << S1[22:16]) - 1) (64-bit: offset
    /// S1[5:0]); SCC = D != 0.
    BfeU,
    /// `s_bfe_i32`, `s_bfe_i64`: the same field of S0 as `BfeU`, sign-extended; SCC = D != 0.
    BfeI,
    /// `s_bfm_b32`, `s_bfm_b64`: D = ((1 << S0[4:0]) - 1) << S1[4:0] (64-bit: [5:0]).
    Bfm,
    /// `s_min_i32`: D = min(S0, S1), signed; SCC = S0 < S1.
    MinI32,
    /// `s_min_u32`: D = min(S0, S1), unsigned; SCC = S0 < S1.
    MinU32,
    /// `s_max_i32`: D = max(S0, S1), signed; SCC = S0 > S1.
    MaxI32,
    /// `s_max_u32`: D = max(S0, S1), unsigned; SCC = S0 > S1.
    MaxU32,
    /// `s_cselect_b32`, `s_cselect_b64`: D = SCC ? S0 : S1.
    Cselect,
    /// `s_abs_i32`: D = |S0|, signed; SCC = D != 0.
    AbsI32,
    /// `s_sext_i32_i8`: D = S0[7:0] sign-extended.
    SextI8,
    /// `s_sext_i32_i16`: D = S0[15:0] sign-extended.
    SextI16,
    /// `s_and_saveexec_b32`, `s_and_saveexec_b64`: D = EXEC; EXEC = S0 & EXEC; SCC = EXEC != 0.
    AndSaveexec,
    /// `s_or_saveexec_b32`, `s_or_saveexec_b64`: D = EXEC; EXEC = S0 | EXEC; SCC = EXEC != 0.
    OrSaveexec,
    /// `s_xor_saveexec_b32`, `s_xor_saveexec_b64`: D = EXEC; EXEC = S0 ^ EXEC; SCC = EXEC != 0.
    XorSaveexec,
    /// `s_and_not1_saveexec_b32`, `s_and_not1_saveexec_b64`, `s_andn2_saveexec_b64`: D = EXEC; EXEC
    /// = S0 & ~EXEC; SCC = EXEC != 0.
    AndNotSaveexec,
    /// `s_or_not1_saveexec_b32`, `s_or_not1_saveexec_b64`, `s_orn2_saveexec_b64`: D = EXEC; EXEC =
    /// S0 | ~EXEC; SCC = EXEC != 0.
    OrNotSaveexec,
    /// `s_lshlN_add_u32`.
    LshlAdd(u8),
    /// `s_brev_b32`, `s_brev_b64`: D = S0 with its bits reversed.
    Brev,
    /// `s_bitset0`/`s_bitset1`: the destination with bit `S0` cleared or
    /// set.
    Bitset(bool),
    /// `s_bcnt1_i32_b32`, `s_bcnt1_i32_b64`: D = the count of set bits of S0; SCC = D != 0.
    Bcnt1,
    /// `s_ctz_i32_b32`, `s_ff1_i32_b32`, `s_ctz_i32_b64`, `s_ff1_i32_b64`: D = the index of the
    /// lowest set bit of S0, or -1 when S0 = 0.
    Ff1,
    /// `s_clz_i32_u32`, `s_flbit_i32_b32`, `s_clz_i32_u64`, `s_flbit_i32_b64`: D = the count of
    /// zero bits above the highest set bit of S0, or -1 when S0 = 0.
    Flbit,
    /// `s_flbit_i32`/`s_cls_i32` (and the 64-bit forms): where, counted
    /// from the top bit, the first bit that differs from the sign bit is.
    Cls,
    /// `s_absdiff_i32`: D = |S0 - S1|, signed; SCC = D != 0.
    Absdiff,
    /// `s_pack_ll_b32_b16`: D = {S1[15:0], S0[15:0]}.
    PackLl,
    /// `s_pack_lh_b32_b16`: D = {S1[31:16], S0[15:0]}.
    PackLh,
    /// `s_pack_hh_b32_b16`: D = {S1[31:16], S0[31:16]}.
    PackHh,
    /// `s_add_nc_u64` (GFX12): D = S0 + S1, 64-bit, SCC kept.
    AddNcU64,
    /// `s_sub_nc_u64` (GFX12): D = S0 - S1, 64-bit, SCC kept.
    SubNcU64,
    /// `s_mul_u64` (GFX12): D = S0 * S1, the low 64 bits.
    MulU64,
    /// GFX12's scalar float arithmetic, round to nearest even:
    /// `s_add_f32`, `s_sub_f32`, `s_mul_f32`: D = S0 op S1.
    AddF32,
    /// `s_sub_f32`.
    SubF32,
    /// `s_mul_f32`.
    MulF32,
    /// `s_min_num_f32`: the smaller, a NaN operand giving the other
    /// (IEEE minimumNumber; -0 below +0).
    MinNumF32,
    /// `s_max_num_f32`: the larger, as `MinNumF32`.
    MaxNumF32,
    /// `s_fmac_f32`: D = S0 * S1 + D, fused.
    FmacF32,
    /// `s_cvt_f32_i32`: D = S0 as a signed integer, rounded to f32.
    CvtF32I32,
    /// `s_cvt_f32_u32`: D = S0 as an unsigned integer, rounded to f32.
    CvtF32U32,
    /// `s_cvt_i32_f32`: D = S0 truncated toward zero, saturated, NaN 0.
    CvtI32F32,
    /// `s_cvt_u32_f32`: D = S0 truncated toward zero, saturated to
    /// [0, 2^32 - 1], NaN 0.
    CvtU32F32,
    /// `s_trunc_f32`: S0 rounded toward zero.
    TruncF32,
    /// `s_floor_f32`: S0 rounded down.
    FloorF32,
    /// `s_ceil_f32`: S0 rounded up.
    CeilF32,
    /// `s_rndne_f32`: S0 rounded to the nearest integer, ties to even.
    RndneF32,
    /// GFX12's `v_s_rcp_f32` (a VOP3 encoding writing an SGPR): 1 / S0,
    /// as `v_rcp_f32` computes it.
    RcpF32,
    /// `v_s_rsq_f32`: 1 / sqrt(S0), as `v_rsq_f32`.
    RsqF32,
    /// `v_s_sqrt_f32`: sqrt(S0), as `v_sqrt_f32`.
    SqrtF32,
    /// `v_s_exp_f32`: 2^S0, as `v_exp_f32`.
    ExpF32,
    /// `v_s_log_f32`: log2(S0), as `v_log_f32`.
    LogF32,
    /// `s_fmaak_f32`: D = S0 * S1 + K, fused; K the literal the encoding
    /// always carries (source 2).
    FmaakF32,
    /// `s_fmamk_f32`: D = S0 * K + S1, fused (K in source 2).
    FmamkF32,
    /// `s_minimum_f32`: IEEE 754-2019 minimum: a NaN operand gives a
    /// (quiet) NaN; -0 below +0.
    MinimumF32,
    /// `s_maximum_f32`: IEEE 754-2019 maximum, as `MinimumF32`.
    MaximumF32,
    /// `s_cvt_pk_rtz_f16_f32`: D = {S1, S0} each rounded toward zero to
    /// f16.
    CvtPkRtzF16F32,
    /// GFX12's scalar f16 arithmetic (`exec::scalar_half`): the low 16
    /// bits of each source, as the VALU's f16 forms compute them; the
    /// destination's high 16 bits cleared. `s_add_f16`: D = S0 + S1.
    AddF16,
    /// `s_sub_f16`: D = S0 - S1.
    SubF16,
    /// `s_mul_f16`: D = S0 * S1.
    MulF16,
    /// `s_fmac_f16`: D = S0 * S1 + D, fused (rounded once to f16).
    FmacF16,
    /// `s_min_num_f16`: as `MinNumF32`, in f16.
    MinNumF16,
    /// `s_max_num_f16`: as `MaxNumF32`, in f16.
    MaxNumF16,
    /// `s_minimum_f16`: as `MinimumF32`, in f16.
    MinimumF16,
    /// `s_maximum_f16`: as `MaximumF32`, in f16.
    MaximumF16,
    /// `s_cvt_f16_f32`: D = S0 rounded to f16 (nearest even).
    CvtF16F32,
    /// `s_cvt_f32_f16`: D = S0[15:0] as f32 (exact).
    CvtF32F16,
    /// `s_cvt_hi_f32_f16`: D = S0[31:16] as f32 (exact).
    CvtHiF32F16,
    /// `s_ceil_f16`: S0 rounded up.
    CeilF16,
    /// `s_floor_f16`: S0 rounded down.
    FloorF16,
    /// `s_trunc_f16`: S0 rounded toward zero.
    TruncF16,
    /// `s_rndne_f16`: S0 rounded to the nearest integer, ties to even.
    RndneF16,
    /// `s_pack_hl_b32_b16`: D = {S1[15:0], S0[31:16]}.
    PackHl,
    /// GFX12's VOP3-encoded scalar f16 transcendentals (an SGPR result,
    /// its high half cleared), as their per-lane forms compute them:
    /// `v_s_rcp_f16`: 1 / S0.
    RcpF16,
    /// `v_s_rsq_f16`: 1 / sqrt(S0).
    RsqF16,
    /// `v_s_sqrt_f16`: sqrt(S0).
    SqrtF16,
    /// `v_s_exp_f16`: 2^S0.
    ExpF16,
    /// `v_s_log_f16`: log2(S0).
    LogF16,
    /// M0-relative SGPR moves (`exec::relative`), one register or a pair
    /// (the width beside it). `s_movrels_b32`/`_b64`: D = SGPR[S0 + M0].
    Movrels,
    /// `s_movreld_b32`/`_b64`: SGPR[D + M0] = S0.
    Movreld,
    /// `s_movrelsd_2_b32`: SGPR[D + M0[25:16]] = SGPR[S0 + M0[9:0]].
    Movrelsd2,
}

/// A per-lane vector ALU operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valu {
    // Moves and selects.
    /// `v_mov_b32`: D = S0.
    Mov32,
    /// M0-relative VGPR moves in each lane (`exec::relative`; GFX10+).
    /// `v_movrels_b32`: D = VGPR[S0 + M0].
    Movrels,
    /// `v_movreld_b32`: VGPR[D + M0] = S0.
    Movreld,
    /// `v_movrelsd_b32`: VGPR[D + M0] = VGPR[S0 + M0].
    Movrelsd,
    /// `v_movrelsd_2_b32`: VGPR[D + M0[25:16]] = VGPR[S0 + M0[9:0]].
    Movrelsd2,
    /// gfx942's fp8 (E4M3FNUZ) and bf8 (E5M2FNUZ) to f32: byte 0 (SDWA
    /// selects another); the packed forms bytes 0 and 1 into a pair.
    /// `v_cvt_f32_fp8`: D.f32 = S0's byte as fp8 (E4M3FNUZ).
    CvtF32Fp8,
    /// `v_cvt_f32_bf8`: D.f32 = S0's byte as bf8 (E5M2FNUZ).
    CvtF32Bf8,
    /// `v_cvt_pk_f32_fp8`: D[0:1].f32 = S0's bytes 0 and 1 as fp8.
    CvtPkF32Fp8,
    /// `v_cvt_pk_f32_bf8`: D[0:1].f32 = S0's bytes 0 and 1 as bf8.
    CvtPkF32Bf8,
    /// gfx942's f32 to fp8 (E4M3FNUZ) and bf8 (E5M2FNUZ), rounded to
    /// nearest even: two sources into the word `op_sel[3]` picks (the
    /// other word kept).
    /// `v_cvt_pk_fp8_f32`: D.word[op_sel[3]] = {fp8(S1.f32), fp8(S0.f32)}.
    CvtPkFp8F32,
    /// `v_cvt_pk_bf8_f32`: D.word[op_sel[3]] = {bf8(S1.f32), bf8(S0.f32)}, rounded to nearest even.
    CvtPkBf8F32,
    /// gfx942's f32 to fp8/bf8 with stochastic rounding (the second source
    /// the random bits), into the byte `op_sel[3:2]` picks (the others
    /// kept).
    /// `v_cvt_sr_fp8_f32`: D.byte[op_sel[3:2]] = fp8(S0.f32), rounded
    /// stochastically by S1's bits.
    CvtSrFp8F32,
    /// `v_cvt_sr_bf8_f32`: D.byte[op_sel[3:2]] = bf8(S0.f32), rounded stochastically by S1's bits.
    CvtSrBf8F32,
    /// gfx950's packing conversions (`exec::gfx950`), rounded to nearest
    /// even, with VOP3's abs, neg and clamp.
    /// `v_cvt_pk_f16_f32`: D = {f16(S1.f32), f16(S0.f32)}.
    CvtPkF16F32,
    /// `v_cvt_pk_bf16_f32`: D = {bf16(S1.f32), bf16(S0.f32)}.
    CvtPkBf16F32,
    /// gfx950's three-input bitwise function: each result bit is bit
    /// `{S0, S1, S2}` (S0 the high bit) of an 8-bit truth table, which the
    /// decoder keeps in `inst.imm` (`exec::gfx950`).
    /// `v_bitop3_b32`: D.b32 = TTBL[{S0, S1, S2}] bit by bit.
    Bitop3B32,
    /// `v_bitop3_b16`: D.b16 = TTBL[{S0, S1, S2}] bit by bit, on the halves
    /// `op_sel` picks.
    Bitop3B16,
    /// gfx950's lane swaps between two registers, both written
    /// (`exec::gfx950`). `v_permlane16_swap_b32`: the odd rows (16 lanes
    /// each) of VDST with the even rows of SRC0.
    Permlane16Swap,
    /// `v_permlane32_swap_b32`: VDST's lanes 32-63 with SRC0's lanes 0-31.
    Permlane32Swap,
    /// gfx950's scaled conversions between f32, f16 or bf16 and a
    /// microscaling format (`v_cvt_scalef32_*`, `exec::scaled_convert`).
    ScaledCvt(ScaledCvt),
    /// CDNA's moves to, from and between AGPRs (`v_accvgpr_write_b32`,
    /// `_read_b32`, `_mov_b32`): the decoder names the AGPR operands.
    AccvgprWrite,
    /// `v_accvgpr_read_b32`: D.v = S0.a.
    AccvgprRead,
    /// `v_accvgpr_mov_b32`: D.a = S0.a.
    AccvgprMov,
    /// `v_mov_b64`: D.b64 = S0.b64.
    Mov64,
    /// `v_pk_mov_b32`: D.b64 = {S1.b32[op_sel[1]], S0.b32[op_sel[0]]}.
    PkMov32,
    /// `v_cndmask_b32`: D = VCC[lane] ? S1 : S0 (the mask in S2 in VOP3).
    Cndmask,
    // f32 arithmetic.
    /// `v_add_f32`: D.f32 = S0.f32 + S1.f32.
    AddF32,
    /// `v_sub_f32`: D.f32 = S0.f32 - S1.f32.
    SubF32,
    /// `v_subrev_f32`: D.f32 = S1.f32 - S0.f32.
    SubrevF32,
    /// `v_mul_f32`: D.f32 = S0.f32 * S1.f32.
    MulF32,
    /// `v_mul_dx9_zero_f32`, `v_mul_legacy_f32`: D.f32 = S0.f32 * S1.f32, 0 when either is 0 (even
    /// times infinity or NaN).
    MulLegacyF32,
    /// `v_fma_f32`: D.f32 = S0.f32 * S1.f32 + S2.f32, one rounding.
    FmaF32,
    /// `v_fmac_f32`: D.f32 = S0.f32 * S1.f32 + D.f32, one rounding.
    FmacF32,
    /// `v_mac_f32`: D.f32 = S0.f32 * S1.f32 + D.f32, the product rounded first.
    MacF32,
    /// `v_dot2_f32_f16`: two f16 products plus an f32, one rounding.
    Dot2F32F16,
    /// `v_dot2c_f32_f16` (GFX11: `v_dot2acc_f32_f16`): the same, added to
    /// the destination.
    Dot2cF32F16,
    /// `v_dot4_i32_i8`: four signed byte products plus an i32.
    Dot4I32I8,
    /// `v_dot4_u32_u8`: four unsigned byte products plus a u32.
    Dot4U32U8,
    /// `v_dot4c_i32_i8`: `v_dot4_i32_i8` added to the destination.
    Dot4cI32I8,
    /// GFX11's `v_dot4_i32_iu8`: each source's bytes signed where its
    /// `neg_lo` bit is set.
    Dot4I32Iu8,
    /// CDNA's `v_dot2_i32_i16`, `v_dot2_u32_u16`: two 16-bit products
    /// plus a 32-bit integer; `v_dot2c_i32_i16` added to the destination.
    Dot2I32I16,
    /// `v_dot2_u32_u16`: D.u32 = S0.u16[0] * S1.u16[0] + S0.u16[1] * S1.u16[1] + S2.u32.
    Dot2U32U16,
    /// `v_dot2c_i32_i16`: D.i32 = S0.i16[0] * S1.i16[0] + S0.i16[1] * S1.i16[1] + D.i32.
    Dot2cI32I16,
    /// `v_mad_f32`, `v_mad_legacy_f32`: D.f32 = S0.f32 * S1.f32 + S2.f32, the product rounded
    /// first.
    MadF32,
    /// `v_fmamk_f32`: D.f32 = S0.f32 * K + S1.f32, one rounding (K a literal).
    FmamkF32,
    /// `v_fmaak_f32`: D.f32 = S0.f32 * S1.f32 + K, one rounding (K a literal).
    FmaakF32,
    /// GFX11's f16 forms: S0 * K + S1 and S0 * S1 + K, K a 16-bit literal.
    /// `v_fmamk_f16`: D.f16 = S0.f16 * K + S1.f16, one rounding.
    FmamkF16,
    /// `v_fmaak_f16`: D.f16 = S0.f16 * S1.f16 + K, one rounding (K a 16-bit literal).
    FmaakF16,
    /// `v_madmk_f32`: D.f32 = S0.f32 * K + S1.f32, the product rounded first.
    MadmkF32,
    /// `v_madak_f32`: D.f32 = S0.f32 * S1.f32 + K, the product rounded first.
    MadakF32,
    /// `v_min_f32`: D.f32 = min(S0.f32, S1.f32) (-0 below +0; a NaN operand gives the other).
    MinF32,
    /// `v_max_f32`: D.f32 = max(S0.f32, S1.f32) (+0 above -0; a NaN operand gives the other).
    MaxF32,
    /// `v_min3_f32`: D.f32 = min(S0.f32, S1.f32, S2.f32).
    Min3F32,
    /// `v_max3_f32`: D.f32 = max(S0.f32, S1.f32, S2.f32).
    Max3F32,
    /// `v_med3_f32`: D.f32 = the median of S0.f32, S1.f32, S2.f32.
    Med3F32,
    /// `v_exp_f32`: D.f32 = 2 ** S0.f32.
    ExpF32,
    /// `v_log_f32`: D.f32 = log2(S0.f32).
    LogF32,
    /// `v_rcp_f32`: D.f32 = 1 / S0.f32.
    RcpF32,
    /// `v_rcp_iflag_f32`: D.f32 = 1 / S0.f32 (signalling no integer divide-by-zero here).
    RcpIflagF32,
    /// `v_rsq_f32`: D.f32 = 1 / sqrt(S0.f32).
    RsqF32,
    /// `v_sqrt_f32`: D.f32 = sqrt(S0.f32).
    SqrtF32,
    /// `v_sin_f32`: D.f32 = sin(S0.f32 * 2 * PI).
    SinF32,
    /// `v_cos_f32`: D.f32 = cos(S0.f32 * 2 * PI).
    CosF32,
    /// `v_rndne_f32`: D.f32 = S0.f32 rounded to the nearest integer, ties to even.
    RndneF32,
    /// `v_floor_f32`: D.f32 = floor(S0.f32).
    FloorF32,
    /// `v_ceil_f32`: D.f32 = ceil(S0.f32).
    CeilF32,
    /// `v_trunc_f32`: D.f32 = trunc(S0.f32).
    TruncF32,
    /// `v_fract_f32`: D.f32 = S0.f32 - floor(S0.f32), below 1.
    FractF32,
    /// The f16 VOP1s: each result rounded once to f16.
    /// `v_ceil_f16`: D.f16 = ceil(S0.f16).
    CeilF16,
    /// `v_floor_f16`: D.f16 = floor(S0.f16).
    FloorF16,
    /// `v_trunc_f16`: D.f16 = trunc(S0.f16).
    TruncF16,
    /// `v_rndne_f16`: D.f16 = S0.f16 rounded to the nearest integer, ties to even.
    RndneF16,
    /// `v_fract_f16`: D.f16 = S0.f16 - floor(S0.f16), below 1.
    FractF16,
    /// `v_sqrt_f16`: D.f16 = sqrt(S0.f16).
    SqrtF16,
    /// `v_rcp_f16`: D.f16 = 1 / S0.f16.
    RcpF16,
    /// `v_rsq_f16`: D.f16 = 1 / sqrt(S0.f16).
    RsqF16,
    /// `v_exp_f16`: D.f16 = 2 ** S0.f16.
    ExpF16,
    /// `v_log_f16`: D.f16 = log2(S0.f16).
    LogF16,
    /// `v_sin_f16`: D.f16 = sin(S0.f16 * 2 * PI).
    SinF16,
    /// `v_cos_f16`: D.f16 = cos(S0.f16 * 2 * PI).
    CosF16,
    /// `v_ldexp_f32`: D.f32 = S0.f32 * 2 ** S1.i32.
    LdexpF32,
    /// `v_frexp_mant_f32`: D.f32 = the mantissa of S0.f32, in [0.5, 1) with its sign.
    FrexpMantF32,
    /// `v_frexp_exp_i32_f32`: D.i32 = the exponent of S0.f32 (S0 = mantissa * 2 ** D).
    FrexpExpF32,
    /// `v_frexp_mant_f64`: D.f64 = the mantissa of S0.f64, in [0.5, 1) with its sign.
    FrexpMantF64,
    /// `v_frexp_exp_i32_f64`: an f64's exponent as an i32.
    FrexpExpF64,
    /// `v_div_scale_f32`: D.f32 = S0.f32 scaled by 2 ** +-64 where S1 / S2 would lose precision;
    /// VCC = scaled.
    DivScaleF32,
    /// `v_div_fmas_f32`: D.f32 = S0.f32 * S1.f32 + S2.f32, one rounding, scaled by 2 ** 64 back
    /// where VCC says.
    DivFmasF32,
    /// `v_div_fixup_f32`: D.f32 = the quotient S1 / S2's special cases, else S0.f32 with the
    /// quotient's sign.
    DivFixupF32,
    // f64 arithmetic.
    /// `v_add_f64`: D.f64 = S0.f64 + S1.f64.
    AddF64,
    /// `v_mul_f64`: D.f64 = S0.f64 * S1.f64.
    MulF64,
    /// `v_fma_f64`: D.f64 = S0.f64 * S1.f64 + S2.f64, one rounding.
    FmaF64,
    /// `v_fmac_f64`: D.f64 = S0.f64 * S1.f64 + D.f64, one rounding.
    FmacF64,
    /// `v_min_f64`: D.f64 = min(S0.f64, S1.f64).
    MinF64,
    /// `v_max_f64`: D.f64 = max(S0.f64, S1.f64).
    MaxF64,
    /// `v_rcp_f64`: D.f64 = 1 / S0.f64.
    RcpF64,
    /// `v_rsq_f64`: D.f64 = 1 / sqrt(S0.f64).
    RsqF64,
    /// `v_sqrt_f64`: D.f64 = sqrt(S0.f64).
    SqrtF64,
    /// `v_ldexp_f64`: D.f64 = S0.f64 * 2 ** S1.i32.
    LdexpF64,
    /// `v_div_scale_f64`: D.f64 = S0.f64 scaled by 2 ** +-128 where S1 / S2 would lose precision;
    /// VCC = scaled.
    DivScaleF64,
    /// `v_div_fmas_f64`: D.f64 = S0.f64 * S1.f64 + S2.f64, one rounding, scaled by 2 ** 128 back
    /// where VCC says.
    DivFmasF64,
    /// `v_div_fixup_f64`: D.f64 = the quotient S1 / S2's special cases, else S0.f64 with the
    /// quotient's sign.
    DivFixupF64,
    /// `v_fract_f64`: D.f64 = S0.f64 - floor(S0.f64), below 1.
    FractF64,
    /// `v_rndne_f64`: D.f64 = S0.f64 rounded to the nearest integer, ties to even.
    RndneF64,
    /// `v_floor_f64`: D.f64 = floor(S0.f64).
    FloorF64,
    /// `v_ceil_f64`: D.f64 = ceil(S0.f64).
    CeilF64,
    /// `v_trunc_f64`: D.f64 = trunc(S0.f64).
    TruncF64,
    // f16 arithmetic.
    /// `v_add_f16`: D.f16 = S0.f16 + S1.f16.
    AddF16,
    /// `v_sub_f16`: D.f16 = S0.f16 - S1.f16.
    SubF16,
    /// `v_subrev_f16`: D.f16 = S1.f16 - S0.f16.
    SubrevF16,
    /// `v_mul_f16`: D.f16 = S0.f16 * S1.f16.
    MulF16,
    /// `v_fma_f16`: D.f16 = S0.f16 * S1.f16 + S2.f16, one rounding.
    FmaF16,
    /// `v_fmac_f16`: D.f16 = S0.f16 * S1.f16 + D.f16, one rounding.
    FmacF16,
    /// `v_min_f16`: D.f16 = min(S0.f16, S1.f16).
    MinF16,
    /// `v_max_f16`: D.f16 = max(S0.f16, S1.f16).
    MaxF16,
    // Packed.
    /// `v_pk_add_f32`: D.f32[i] = S0.f32[i] + S1.f32[i], i = 0, 1 (register pairs).
    PkAddF32,
    /// `v_pk_mul_f32`: D.f32[i] = S0.f32[i] * S1.f32[i], i = 0, 1.
    PkMulF32,
    /// `v_pk_fma_f32`: D.f32[i] = S0.f32[i] * S1.f32[i] + S2.f32[i], one rounding, i = 0, 1.
    PkFmaF32,
    /// `v_pk_add_f16`: D.f16[i] = S0.f16[i] + S1.f16[i], each half.
    PkAddF16,
    /// `v_pk_mul_f16`: D.f16[i] = S0.f16[i] * S1.f16[i], each half.
    PkMulF16,
    /// `v_pk_fma_f16`: D.f16[i] = S0.f16[i] * S1.f16[i] + S2.f16[i], one rounding, each half.
    PkFmaF16,
    /// `v_pk_min_f16`: D.f16[i] = min(S0.f16[i], S1.f16[i]), each half.
    PkMinF16,
    /// `v_pk_max_f16`: D.f16[i] = max(S0.f16[i], S1.f16[i]), each half.
    PkMaxF16,
    /// `v_fma_mix_f32`: a mixed-precision FMA (each source f32, or an f16
    /// half), an f32 result.
    FmaMixF32,
    /// `v_fma_mixlo_f16`: as `FmaMixF32`, rounded to f16 into the low half.
    FmaMixloF16,
    /// `v_fma_mixhi_f16`: into the high half.
    FmaMixhiF16,
    /// `v_pk_add_u16`: D.u16[i] = S0.u16[i] + S1.u16[i], each half.
    PkAddU16,
    /// `v_pk_add_i16`: D.i16[i] = S0.i16[i] + S1.i16[i], each half.
    PkAddI16,
    /// `v_pk_sub_u16`: D.u16[i] = S0.u16[i] - S1.u16[i], each half.
    PkSubU16,
    /// `v_pk_sub_i16`: D.i16[i] = S0.i16[i] - S1.i16[i], each half.
    PkSubI16,
    /// `v_pk_mul_lo_u16`: D.u16[i] = S0.u16[i] * S1.u16[i] (the low 16 bits), each half.
    PkMulLoU16,
    /// `v_pk_lshlrev_b16`: D.u16[i] = S1.u16[i] << S0[i][3:0], each half.
    PkLshlrevB16,
    /// `v_pk_lshrrev_b16`: D.u16[i] = S1.u16[i] >> S0[i][3:0], logical, each half.
    PkLshrrevB16,
    /// `v_pk_ashrrev_i16`: D.i16[i] = S1.i16[i] >> S0[i][3:0], arithmetic, each half.
    PkAshrrevI16,
    /// `v_pk_min_i16`: D.i16[i] = min(S0.i16[i], S1.i16[i]), each half.
    PkMinI16,
    /// `v_pk_max_i16`: D.i16[i] = max(S0.i16[i], S1.i16[i]), each half.
    PkMaxI16,
    /// `v_pk_min_u16`: D.u16[i] = min(S0.u16[i], S1.u16[i]), each half.
    PkMinU16,
    /// `v_pk_max_u16`: D.u16[i] = max(S0.u16[i], S1.u16[i]), each half.
    PkMaxU16,
    /// `v_pack_b32_f16`: D = {S1.f16, S0.f16}.
    PackB32F16,
    // Conversions.
    /// `v_cvt_i32_f32`: D.i32 = S0.f32 truncated, saturated (NaN: 0).
    CvtI32F32,
    /// `v_cvt_u32_f32`: D.u32 = S0.f32 truncated, saturated (NaN: 0).
    CvtU32F32,
    /// `v_cvt_f32_i32`: D.f32 = S0.i32.
    CvtF32I32,
    /// `v_cvt_f32_u32`: D.f32 = S0.u32.
    CvtF32U32,
    /// `v_cvt_f16_f32`: D.f16 = S0.f32.
    CvtF16F32,
    /// `v_cvt_f32_f16`: D.f32 = S0.f16.
    CvtF32F16,
    /// `v_cvt_f64_f32`: D.f64 = S0.f32.
    CvtF64F32,
    /// `v_cvt_f32_f64`: D.f32 = S0.f64.
    CvtF32F64,
    /// `v_cvt_i32_f64`: D.i32 = S0.f64 truncated, saturated (NaN: 0).
    CvtI32F64,
    /// `v_cvt_u32_f64`: D.u32 = S0.f64 truncated, saturated (NaN: 0).
    CvtU32F64,
    /// `v_cvt_f64_i32`: D.f64 = S0.i32.
    CvtF64I32,
    /// `v_cvt_f64_u32`: D.f64 = S0.u32.
    CvtF64U32,
    /// `v_cvt_pk_rtz_f16_f32`, `v_cvt_pkrtz_f16_f32`: D = {f16(S1.f32), f16(S0.f32)}, each rounded
    /// toward zero.
    CvtPkrtzF16F32,
    /// `v_cvt_f32_ubyte0`, `v_cvt_f32_ubyte1`, `v_cvt_f32_ubyte2`, `v_cvt_f32_ubyte3`: D.f32 = S0's
    /// byte N (`v_cvt_f32_ubyteN`), unsigned.
    CvtF32Ubyte(u8),
    /// `v_cvt_floor_i32_f32`, `v_cvt_flr_i32_f32`: D.i32 = floor(S0.f32).
    CvtFlrI32F32,
    /// `v_cvt_nearest_i32_f32`, `v_cvt_rpi_i32_f32`: D.i32 = floor(S0.f32 + 0.5).
    CvtRpiI32F32,
    /// `v_cvt_i16_f16`: D.i16 = S0.f16 truncated, saturated.
    CvtI16F16,
    /// `v_cvt_u16_f16`: D.u16 = S0.f16 truncated, saturated.
    CvtU16F16,
    /// `v_cvt_f16_i16`: D.f16 = S0.i16.
    CvtF16I16,
    /// `v_cvt_f16_u16`: D.f16 = S0.u16.
    CvtF16U16,
    /// `v_cvt_u32_u16`: D.u32 = S0.u16.
    CvtU32U16,
    /// `v_cvt_i32_i16`: D.i32 = S0.i16.
    CvtI32I16,
    // 32-bit integer.
    /// `v_add_nc_u32`, `v_add_u32`: D.u32 = S0.u32 + S1.u32.
    AddU32,
    /// `v_sub_nc_u32`, `v_sub_u32`: D.u32 = S0.u32 - S1.u32.
    SubU32,
    /// `v_subrev_nc_u32`, `v_subrev_u32`: D.u32 = S1.u32 - S0.u32.
    SubrevU32,
    /// `v_add_co_u32`: D.u32 = S0.u32 + S1.u32; VCC[lane] = the carry out.
    AddCoU32,
    /// `v_sub_co_u32`: D.u32 = S0.u32 - S1.u32; VCC[lane] = the borrow.
    SubCoU32,
    /// `v_subrev_co_u32`: D.u32 = S1.u32 - S0.u32; VCC[lane] = the borrow.
    SubrevCoU32,
    /// `v_add_co_ci_u32`, `v_addc_co_u32`: D.u32 = S0.u32 + S1.u32 + VCC[lane]; VCC[lane] = the
    /// carry out.
    AddcCoU32,
    /// `v_sub_co_ci_u32`, `v_subb_co_u32`: D.u32 = S0.u32 - S1.u32 - VCC[lane]; VCC[lane] = the
    /// borrow.
    SubbCoU32,
    /// `v_subbrev_co_u32`, `v_subrev_co_ci_u32`: D.u32 = S1.u32 - S0.u32 - VCC[lane]; VCC[lane] =
    /// the borrow.
    SubbrevCoU32,
    /// `v_add_i32`, `v_add_nc_i32`: D.i32 = S0.i32 + S1.i32.
    AddI32,
    /// `v_sub_i32`, `v_sub_nc_i32`: D.i32 = S0.i32 - S1.i32.
    SubI32,
    /// `v_mul_lo_u32`: D.u32 = S0.u32 * S1.u32 (the low 32 bits).
    MulLoU32,
    /// `v_mul_hi_u32`: D.u32 = (S0.u32 * S1.u32) >> 32.
    MulHiU32,
    /// `v_mul_hi_i32`: D.i32 = (S0.i32 * S1.i32) >> 32.
    MulHiI32,
    /// `v_mul_u32_u24`: D.u32 = S0.u24 * S1.u24 (the low 32 bits).
    MulU32U24,
    /// `v_mul_i32_i24`: D.i32 = S0.i24 * S1.i24 (the low 32 bits).
    MulI32I24,
    /// `v_mul_hi_u32_u24`: D.u32 = (S0.u24 * S1.u24) >> 32.
    MulHiU32U24,
    /// `v_mul_hi_i32_i24`: D.i32 = (S0.i24 * S1.i24) >> 32.
    MulHiI32I24,
    /// `v_mad_u32_u24`: D.u32 = S0.u24 * S1.u24 + S2.u32.
    MadU32U24,
    /// `v_mad_i32_i24`: D.i32 = S0.i24 * S1.i24 + S2.i32.
    MadI32I24,
    /// `v_mad_u64_u32`: D.u64 = S0.u32 * S1.u32 + S2.u64; SDST[lane] = the carry out.
    MadU64U32,
    /// `v_mad_i64_i32`: D.i64 = S0.i32 * S1.i32 + S2.i64; SDST[lane] = the signed overflow.
    MadI64I32,
    /// `v_lshlrev_b32`: D.u32 = S1.u32 << S0[4:0].
    LshlrevB32,
    /// `v_lshrrev_b32`: D.u32 = S1.u32 >> S0[4:0], logical.
    LshrrevB32,
    /// `v_ashrrev_i32`: D.i32 = S1.i32 >> S0[4:0], arithmetic.
    AshrrevI32,
    /// `v_and_b32`: D = S0 & S1.
    AndB32,
    /// `v_or_b32`: D = S0 | S1.
    OrB32,
    /// `v_xor_b32`: D = S0 ^ S1.
    XorB32,
    /// `v_xnor_b32`: D = ~(S0 ^ S1).
    XnorB32,
    /// `v_not_b32`: D = ~S0.
    NotB32,
    /// `v_bfe_u32`: D.u32 = (S0 >> S1[4:0]) & ((1 << S2[4:0]) - 1).
    BfeU32,
    /// `v_bfe_i32`: the same field of S0 as `BfeU32`, sign-extended.
    BfeI32,
    /// `v_bfi_b32`: D = (S0 & S1) | (~S0 & S2).
    BfiB32,
    /// `v_bfm_b32`: D = ((1 << S0[4:0]) - 1) << S1[4:0].
    BfmB32,
    /// `v_lshl_add_u32`: D.u32 = (S0.u32 << S1[4:0]) + S2.u32.
    LshlAddU32,
    /// `v_lshl_or_b32`: D = (S0 << S1[4:0]) | S2.
    LshlOrB32,
    /// `v_add_lshl_u32`: D.u32 = (S0.u32 + S1.u32) << S2[4:0].
    AddLshlU32,
    /// `v_and_or_b32`: D = (S0 & S1) | S2.
    AndOrB32,
    /// `v_or3_b32`: D = S0 | S1 | S2.
    Or3B32,
    /// `v_xor3_b32`: D = S0 ^ S1 ^ S2.
    Xor3B32,
    /// `v_add3_u32`: D.u32 = S0.u32 + S1.u32 + S2.u32.
    Add3U32,
    /// `v_xad_u32`: D.u32 = (S0 ^ S1) + S2.
    XadU32,
    /// `v_min_i32`: D.i32 = min(S0.i32, S1.i32).
    MinI32,
    /// `v_max_i32`: D.i32 = max(S0.i32, S1.i32).
    MaxI32,
    /// `v_min_u32`: D.u32 = min(S0.u32, S1.u32).
    MinU32,
    /// `v_max_u32`: D.u32 = max(S0.u32, S1.u32).
    MaxU32,
    /// `v_min3_i32`: D.i32 = min(S0.i32, S1.i32, S2.i32).
    Min3I32,
    /// `v_max3_i32`: D.i32 = max(S0.i32, S1.i32, S2.i32).
    Max3I32,
    /// `v_med3_i32`: D.i32 = the median of S0.i32, S1.i32, S2.i32.
    Med3I32,
    /// `v_min3_u32`: D.u32 = min(S0.u32, S1.u32, S2.u32).
    Min3U32,
    /// `v_max3_u32`: D.u32 = max(S0.u32, S1.u32, S2.u32).
    Max3U32,
    /// `v_med3_u32`: D.u32 = the median of S0.u32, S1.u32, S2.u32.
    Med3U32,
    /// GFX11's `v_maxmin_*`: min(max(S0, S1), S2); `v_minmax_*`:
    /// max(min(S0, S1), S2).
    MaxminF32,
    /// `v_minmax_f32`: D.f32 = max(min(S0.f32, S1.f32), S2.f32).
    MinmaxF32,
    /// `v_maxmin_f16`: D.f16 = min(max(S0.f16, S1.f16), S2.f16).
    MaxminF16,
    /// `v_minmax_f16`: D.f16 = max(min(S0.f16, S1.f16), S2.f16).
    MinmaxF16,
    /// `v_maxmin_i32`: D.i32 = min(max(S0.i32, S1.i32), S2.i32).
    MaxminI32,
    /// `v_minmax_i32`: D.i32 = max(min(S0.i32, S1.i32), S2.i32).
    MinmaxI32,
    /// `v_maxmin_u32`: D.u32 = min(max(S0.u32, S1.u32), S2.u32).
    MaxminU32,
    /// `v_minmax_u32`: D.u32 = max(min(S0.u32, S1.u32), S2.u32).
    MinmaxU32,
    /// `v_alignbit_b32`: D = ({S0, S1} >> S2[4:0])[31:0].
    AlignbitB32,
    /// `v_alignbyte_b32`: D = ({S0, S1} >> (8 * S2[1:0]))[31:0].
    AlignbyteB32,
    /// `v_perm_b32`: D.byte[i] = the byte of {S0, S1} (or a constant) that S2.byte[i] selects.
    PermB32,
    /// `v_bcnt_u32_b32`: D.u32 = the count of set bits of S0 + S1.u32.
    BcntU32,
    /// `v_mbcnt_lo_u32_b32`/`_hi`: the set bits of the source below the
    /// lane's own, in the low (`false`) or high (`true`) 32 lanes, plus the
    /// second source.
    Mbcnt(bool),
    /// `v_clz_i32_u32`, `v_ffbh_u32`: D = the count of zero bits above the highest set bit of S0,
    /// or -1 when S0 = 0.
    FfbhU32,
    /// `v_ctz_i32_b32`, `v_ffbl_b32`: D = the index of the lowest set bit of S0, or -1 when S0 = 0.
    FfblB32,
    /// `v_cls_i32`, `v_ffbh_i32`: D = where, counted from the top bit (0), the first bit that
    /// differs from the sign bit is, or -1 when S0 is 0 or -1.
    FfbhI32,
    /// `v_bfrev_b32`: D = S0 with its bits reversed.
    BfrevB32,
    // 16-bit integer.
    /// `v_mov_b16`: D.b16 = S0.b16.
    MovB16,
    /// `v_not_b16`: D.b16 = ~S0.b16.
    NotB16,
    /// GFX11's `v_cndmask_b16`: a 16-bit `Cndmask` (halves by `op_sel`).
    CndmaskB16,
    /// `v_and_b16`: D.b16 = S0.b16 & S1.b16.
    AndB16,
    /// `v_or_b16`: D.b16 = S0.b16 | S1.b16.
    OrB16,
    /// `v_xor_b16`: D.b16 = S0.b16 ^ S1.b16.
    XorB16,
    /// `v_add_nc_u16`, `v_add_u16`: D.u16 = S0.u16 + S1.u16.
    AddU16,
    /// `v_sub_nc_u16`, `v_sub_u16`: D.u16 = S0.u16 - S1.u16.
    SubU16,
    /// `v_subrev_u16`: D.u16 = S1.u16 - S0.u16.
    SubrevU16,
    /// `v_add_i16`/`v_add_nc_i16`: as `AddU16` but for clamp, which
    /// saturates to the signed range.
    AddI16,
    /// `v_sub_i16`, `v_sub_nc_i16`: D.i16 = S0.i16 - S1.i16.
    SubI16,
    /// `v_mul_lo_u16`: D.u16 = S0.u16 * S1.u16 (the low 16 bits).
    MulLoU16,
    /// `v_lshlrev_b16`: D.u16 = S1.u16 << S0[3:0].
    LshlrevB16,
    /// `v_lshrrev_b16`: D.u16 = S1.u16 >> S0[3:0], logical.
    LshrrevB16,
    /// `v_ashrrev_i16`: D.i16 = S1.i16 >> S0[3:0], arithmetic.
    AshrrevI16,
    /// `v_min_i16`: D.i16 = min(S0.i16, S1.i16).
    MinI16,
    /// `v_max_i16`: D.i16 = max(S0.i16, S1.i16).
    MaxI16,
    /// `v_min_u16`: D.u16 = min(S0.u16, S1.u16).
    MinU16,
    /// `v_max_u16`: D.u16 = max(S0.u16, S1.u16).
    MaxU16,
    // 16-bit three-operand VOP3 (`exec/sixteen.rs`).
    /// `v_mad_u16`/`v_mad_i16`: S0 * S1 + S2 in 16 bits, each source's
    /// half and the destination's by `op_sel`, the other half of the
    /// destination kept (GFX9's op_sel forms and GFX11's).
    MadU16,
    /// `v_mad_i16`: D.i16 = S0.i16 * S1.i16 + S2.i16.
    MadI16,
    /// GFX9's `v_mad_legacy_u16`/`_i16` (GFX8's opcodes): as `MadU16`,
    /// but writing the low half zeroes the high one.
    MadLegacyU16,
    /// `v_mad_legacy_i16`: D.i16 = S0.i16 * S1.i16 + S2.i16, the high half zeroed.
    MadLegacyI16,
    /// `v_mad_u32_u16`/`v_mad_i32_i16`: 16-bit S0 * S1 plus a 32-bit S2.
    MadU32U16,
    /// `v_mad_i32_i16`: D.i32 = S0.i16 * S1.i16 + S2.i32.
    MadI32I16,
    /// `v_min3_u16`: D.u16 = min(S0.u16, S1.u16, S2.u16).
    Min3U16,
    /// `v_min3_i16`: D.i16 = min(S0.i16, S1.i16, S2.i16).
    Min3I16,
    /// `v_min3_f16`: D.f16 = min(S0.f16, S1.f16, S2.f16).
    Min3F16,
    /// `v_max3_u16`: D.u16 = max(S0.u16, S1.u16, S2.u16).
    Max3U16,
    /// `v_max3_i16`: D.i16 = max(S0.i16, S1.i16, S2.i16).
    Max3I16,
    /// `v_max3_f16`: D.f16 = max(S0.f16, S1.f16, S2.f16).
    Max3F16,
    /// `v_med3_u16`: D.u16 = the median of S0.u16, S1.u16, S2.u16.
    Med3U16,
    /// `v_med3_i16`: D.i16 = the median of S0.i16, S1.i16, S2.i16.
    Med3I16,
    /// `v_med3_f16`: D.f16 = the median of S0.f16, S1.f16, S2.f16.
    Med3F16,
    /// `v_div_fixup_f16`: the f16 division's special cases, else S0 with
    /// the quotient's sign.
    DivFixupF16,
    /// GFX9's `v_div_fixup_legacy_f16`: the same, zeroing the high half as
    /// `MadLegacyU16` does.
    DivFixupLegacyF16,
    /// `v_pk_fmac_f16` (VOP2): each half's fused S0 * S1 + D, one rounding.
    PkFmacF16,
    /// `v_pk_mad_u16`/`v_pk_mad_i16`: `MadU16` on both halves.
    PkMadU16,
    /// `v_pk_mad_i16`: D.i16[i] = S0.i16[i] * S1.i16[i] + S2.i16[i], each half.
    PkMadI16,
    /// Sums of absolute differences plus S2: `v_sad_u8` (four bytes),
    /// `v_sad_hi_u8` (the same shifted left 16), `v_sad_u16` (two halves),
    /// `v_sad_u32`, `v_msad_u8` (bytes whose S1 byte is zero left out).
    SadU8,
    /// `v_sad_hi_u8`: D.u32 = (sum of |S0.u8[i] - S1.u8[i]|) << 16 + S2.u32.
    SadHiU8,
    /// `v_sad_u16`: D.u32 = |S0.u16[0] - S1.u16[0]| + |S0.u16[1] - S1.u16[1]| + S2.u32.
    SadU16,
    /// `v_sad_u32`: D.u32 = |S0.u32 - S1.u32| + S2.u32.
    SadU32,
    /// `v_msad_u8`: D.u32 = sum of |S0.u8[i] - S1.u8[i]| over the bytes where S1.u8[i] != 0, +
    /// S2.u32.
    MsadU8,
    // 64-bit integer.
    /// `v_lshlrev_b64`: D.u64 = S1.u64 << S0[5:0].
    LshlrevB64,
    /// `v_lshrrev_b64`: D.u64 = S1.u64 >> S0[5:0], logical.
    LshrrevB64,
    /// `v_ashrrev_i64`: D.i64 = S1.i64 >> S0[5:0], arithmetic.
    AshrrevI64,
    /// `v_lshl_add_u64`: D.u64 = (S0.u64 << S1[2:0]) + S2.u64.
    LshlAddU64,
    // Cross-lane.
    /// `v_readlane_b32`: SDST = S0 of lane S1.
    Readlane,
    /// `v_readfirstlane_b32`: SDST = S0 of the lowest active lane (lane 0 if none).
    Readfirstlane,
    /// `v_writelane_b32`: D of lane S1 = S0.
    Writelane,
    /// `v_permlanex16_b32`: D[lane] = S0 of the lane in the other half-row that the selects S1, S2
    /// name.
    Permlanex16,
    /// `v_permlane16_b32`: D[lane] = S0 of the lane in its own row of 16 that the selects S1, S2
    /// name.
    Permlane16,
}

/// Where a load or store goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment {
    /// `buffer_*`: through a buffer resource descriptor, bounds-checked.
    Buffer,
    /// `global_*`: a 64-bit address (VGPR pair, or SGPR base + VGPR offset).
    Global,
    /// `flat_*`: a 64-bit address in any aperture.
    Flat,
    /// `scratch_*`: the work-item's private memory.
    Scratch,
}

/// The data of a load or store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mem {
    /// Where it goes.
    pub segment: Segment,
    /// Bytes per lane (1, 2, 4, 8, 12, 16).
    pub bytes: u8,
    /// A narrow load sign-extends.
    pub signed: bool,
    /// A 16-bit load or store uses the register's high half (`_d16_hi`).
    pub d16_hi: bool,
    /// A narrow load writes only the low 16 bits (`_d16`).
    pub d16: bool,
}

/// A read-modify-write on memory: M is the memory's value, DATA the
/// instruction's; each returns M's old value where it returns one
/// (`_rtn`, GLC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atomic {
    /// `*_swap_*`, `ds_wrxchg_rtn_*`, `ds_storexchg_*`: M = DATA.
    Swap,
    /// `*_cmpswap_*`, `ds_cmpst_*`, `ds_cmpstore_*`: M = M == CMP ? DATA : M.
    CmpSwap,
    /// `*_add_*` (integers): M = M + DATA.
    Add,
    /// `*_sub_*`: M = M - DATA.
    Sub,
    /// `*_smin_*`, `ds_min_i*`: M = min(M, DATA), signed.
    MinI,
    /// `*_smax_*`, `ds_max_i*`: M = max(M, DATA), signed.
    MaxI,
    /// `*_umin_*`, `ds_min_u*`: M = min(M, DATA), unsigned.
    MinU,
    /// `*_umax_*`, `ds_max_u*`: M = max(M, DATA), unsigned.
    MaxU,
    /// `*_and_*`: M = M & DATA.
    And,
    /// `*_or_*`: M = M | DATA.
    Or,
    /// `*_xor_*`: M = M ^ DATA.
    Xor,
    /// `*_inc_*`: M = M >= DATA ? 0 : M + 1.
    Inc,
    /// `*_dec_*`: M = (M == 0 || M > DATA) ? DATA : M - 1.
    Dec,
    /// `*_add_f32`: M.f32 = M.f32 + DATA.f32.
    AddF32,
    /// `*_fmin*`, `*_min_f32`: M.f32 = min(M.f32, DATA.f32).
    MinF32,
    /// `*_fmax*`, `*_max_f32`: M.f32 = max(M.f32, DATA.f32).
    MaxF32,
}

/// An LDS operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lds {
    /// `ds_read*`/`ds_load*`: bytes per address, two addresses, ×64 offsets,
    /// sign-extend; a `_d16` load writes one half of the register.
    Load {
        /// Bytes per address.
        bytes: u8,
        /// Two addresses (`read2`/`2addr`).
        two: bool,
        /// Offsets count 64 elements (`st64`).
        st64: bool,
        /// Sign-extend a narrow load.
        signed: bool,
        /// `_d16`: write the low half, keep the high (0); `_d16_hi`: the
        /// reverse (1); a whole register (2).
        half: u8,
    },
    /// `ds_write*`/`ds_store*`.
    Store {
        /// Bytes per address.
        bytes: u8,
        /// Two addresses.
        two: bool,
        /// Offsets count 64 elements.
        st64: bool,
        /// `_d16_hi`: store the register's high half.
        high: bool,
    },
    /// An LDS atomic (`ds_add_u32`, ...), returning the old value when `rtn`.
    Atomic {
        /// The operation.
        op: Atomic,
        /// 8 for the `_u64`/`_b64` forms.
        bytes: u8,
        /// Returns the old value.
        rtn: bool,
    },
    /// `ds_bpermute_b32`: read a lane's value by byte address.
    Bpermute,
    /// `ds_permute_b32`: write to a lane by byte address.
    Permute,
    /// `ds_swizzle_b32`.
    Swizzle,
    /// gfx950's transposing 64-bit reads of `bits`-bit elements
    /// (`ds_read_b64_tr_b16`: 16, `ds_read_b64_tr_b8`: 8; `exec::gfx950`).
    LoadTransposed {
        /// Bits per element.
        bits: u8,
    },
}

/// A narrow float format of gfx950's scaled conversions and `f8f6f4`
/// MFMA (OCP Microscaling v1.0 element types; `exec::microscaling`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrow {
    /// FP6: E2M3, bias 1, no infinities or NaN.
    Fp6,
    /// BF6: E3M2, bias 3, no infinities or NaN.
    Bf6,
    /// FP4: E2M1, bias 1, no infinities or NaN.
    Fp4,
}

/// The wide side of a scaled conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wide {
    /// IEEE binary32, one a register.
    F32,
    /// IEEE binary16, two a register (element 0 low).
    F16,
    /// bfloat16, two a register (element 0 low).
    Bf16,
}

/// One of gfx950's `v_cvt_scalef32_*` conversions: the narrow format, the
/// wide one, the direction and the rounding (`exec::scaled_convert` gives
/// each form's operands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScaledCvt {
    /// The microscaling format.
    pub narrow: Narrow,
    /// The float format on the other side.
    pub wide: Wide,
    /// Wide to narrow (`_pk_fp4_f32`); else narrow to wide (`_pk_f32_fp4`).
    pub to_narrow: bool,
    /// Rounded stochastically by a source of random bits (`_sr_`), else to
    /// nearest even.
    pub stochastic: bool,
}

/// The element type of a matrix instruction's A or B input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixType {
    /// IEEE binary64 (a register pair per element).
    F64,
    /// IEEE binary32.
    F32,
    /// gfx942's xf32: an f32 register read with its mantissa truncated to
    /// 10 bits.
    Xf32,
    /// IEEE binary16, two per register.
    F16,
    /// bfloat16, two per register.
    Bf16,
    /// Signed 8-bit integers, four per register.
    I8,
    /// gfx942's fp8 (E4M3FNUZ), four per register.
    Fp8,
    /// gfx942's bf8 (E5M2FNUZ), four per register.
    Bf8,
    /// gfx950's and GFX12's fp8, OCP's E4M3FN, four per register.
    OcpFp8,
    /// gfx950's and GFX12's bf8, OCP's E5M2, four per register.
    OcpBf8,
    /// gfx950's `f8f6f4` MFMA in the opcode table: the decoder replaces it
    /// with the format CBSZ (A) or BLGP (B) selects, so it never runs.
    F8f6f4,
    /// A microscaling format (FP6, BF6: 6 bits; FP4: 4 bits), packed
    /// without gaps (an element may span two registers).
    Mx(Narrow),
}

impl MatrixType {
    /// Bits per element in a register.
    pub fn bits(self) -> u8 {
        match self {
            MatrixType::F64 => 64,
            MatrixType::F32 | MatrixType::Xf32 => 32,
            MatrixType::F16 | MatrixType::Bf16 => 16,
            MatrixType::I8
            | MatrixType::Fp8
            | MatrixType::Bf8
            | MatrixType::OcpFp8
            | MatrixType::OcpBf8
            | MatrixType::F8f6f4 => 8,
            MatrixType::Mx(Narrow::Fp6 | Narrow::Bf6) => 6,
            MatrixType::Mx(Narrow::Fp4) => 4,
        }
    }
}

/// A matrix fused multiply-add (CDNA's `v_mfma_*`): `blocks` independent
/// products of an M×K A and a K×N B added to an M×N C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mfma {
    /// Rows of the output block (M).
    pub m: u8,
    /// Columns of the output block (N).
    pub n: u8,
    /// Depth (K) per block.
    pub k: u8,
    /// Independent blocks computed at once.
    pub blocks: u8,
    /// A's element type.
    pub a: MatrixType,
    /// B's element type (A's but for the mixed fp8/bf8 forms).
    pub b: MatrixType,
    /// gfx942's sparse `v_smfmac_*`: A is 4:2 structured-sparse, held
    /// compressed (K/2 elements a row), the third source is the VGPR of
    /// compression indices, and D is accumulated in place (`D += A B`).
    pub sparse: bool,
}

impl Mfma {
    /// C and D hold f64 (`v_mfma_f64_*`).
    pub fn f64_output(&self) -> bool {
        self.a == MatrixType::F64
    }

    /// gfx950's `f8f6f4` MFMA (after decoding: 32 elements of K a lane,
    /// in a float format of at most 8 bits, which no other MFMA has).
    pub fn f8f6f4(&self) -> bool {
        let per_lane = usize::from(self.m) * usize::from(self.k) * usize::from(self.blocks) / 64;
        let narrow_float = |t: MatrixType| {
            matches!(
                t,
                MatrixType::OcpFp8 | MatrixType::OcpBf8 | MatrixType::F8f6f4 | MatrixType::Mx(_)
            )
        };
        per_lane == 32 && !self.sparse && narrow_float(self.a) && narrow_float(self.b)
    }

    /// C and D hold wrapping i32 (`v_mfma_i32_*`).
    pub fn int_output(&self) -> bool {
        self.a == MatrixType::I8
    }

    /// Registers per lane of B (and of a dense A): M x K x blocks elements
    /// over 64 lanes.
    pub fn input_regs(&self) -> usize {
        let elements = usize::from(self.m) * usize::from(self.k) * usize::from(self.blocks);
        (elements * usize::from(self.a.bits())).div_ceil(64 * 32)
    }

    /// Registers per lane of B: [`Mfma::input_regs`] in B's element type.
    pub fn b_regs(&self) -> usize {
        let elements = usize::from(self.n) * usize::from(self.k) * usize::from(self.blocks);
        (elements * usize::from(self.b.bits())).div_ceil(64 * 32)
    }

    /// Registers per lane of A: a sparse A holds half of each row.
    pub fn a_regs(&self) -> usize {
        if self.sparse {
            self.input_regs() / 2
        } else {
            self.input_regs()
        }
    }

    /// Registers per lane of C and D.
    pub fn output_regs(&self) -> usize {
        let elements = usize::from(self.m) * usize::from(self.n) * usize::from(self.blocks);
        let per_lane = elements.div_ceil(64);
        if self.f64_output() {
            2 * per_lane
        } else {
            per_lane
        }
    }
}

/// RDNA3's `v_wmma_*_16x16x16_*`: input and result types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wmma {
    /// `v_wmma_f32_16x16x16_f16`.
    F32F16,
    /// `v_wmma_f32_16x16x16_bf16`.
    F32Bf16,
    /// `v_wmma_f16_16x16x16_f16`: f16 results in one half of each register.
    F16F16,
    /// `v_wmma_bf16_16x16x16_bf16`: bf16 results in one half of each
    /// register.
    Bf16Bf16,
    /// `v_wmma_i32_16x16x16_iu8`: 8-bit integers, each input signed or not
    /// by its `neg_lo` bit.
    I32Iu8,
    /// `v_wmma_i32_16x16x16_iu4`: 4-bit integers, likewise.
    I32Iu4,
    /// GFX12's `v_wmma_f32_16x16x16_fp8_fp8`: A and B in OCP's E4M3FN.
    F32Fp8Fp8,
    /// GFX12's `v_wmma_f32_16x16x16_fp8_bf8`: A in E4M3FN, B in E5M2.
    F32Fp8Bf8,
    /// GFX12's `v_wmma_f32_16x16x16_bf8_fp8`: A in E5M2, B in E4M3FN.
    F32Bf8Fp8,
    /// GFX12's `v_wmma_f32_16x16x16_bf8_bf8`: A and B in E5M2.
    F32Bf8Bf8,
}

impl Wmma {
    /// Bits per element of A and B.
    pub fn input_bits(self) -> u8 {
        match self {
            Wmma::I32Iu8
            | Wmma::F32Fp8Fp8
            | Wmma::F32Fp8Bf8
            | Wmma::F32Bf8Fp8
            | Wmma::F32Bf8Bf8 => 8,
            Wmma::I32Iu4 => 4,
            _ => 16,
        }
    }

    /// Integer inputs and result (i32): signedness by `neg_lo`, clamp
    /// saturates.
    pub fn integer(self) -> bool {
        matches!(self, Wmma::I32Iu8 | Wmma::I32Iu4)
    }

    /// Registers per lane of A (and B): 16 elements of K.
    pub fn input_regs(self) -> u8 {
        self.input_bits() / 2
    }

    /// Results are 16-bit, in the half of each register `op_sel[2]` picks.
    pub fn half_output(self) -> bool {
        matches!(self, Wmma::F16F16 | Wmma::Bf16Bf16)
    }

    /// Registers per lane of A (and B) on GFX12, where a wave32 lane
    /// holds each of its 8 elements of K once (RDNA3 repeats the 16 of
    /// K in both halves of the wave).
    pub fn gfx12_input_regs(self) -> u8 {
        self.input_regs() / 2
    }

    /// Registers per lane of C and D on GFX12: 8 rows, 16-bit results
    /// packed two to a register.
    pub fn gfx12_output_regs(self) -> u8 {
        if self.half_output() { 4 } else { 8 }
    }
}

/// An operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// A scalar ALU operation (`s_add_u32`, `s_and_b64`, ...: `Salu`);
    /// `true` for the 64-bit form.
    S(Salu, bool),
    /// `s_cmp_*`/`s_cmpk_*`: SCC = the comparison.
    SCmp(Cmp, Ty),
    /// `s_bitcmp0/1_b32/b64`: SCC = bit `src1` of `src0` equals the flag.
    SBitcmp(bool, bool),
    /// A branch (`s_branch`, `s_cbranch_*`): PC = PC + 4 + SIMM16 * 4
    /// where the condition holds.
    Branch(Branch),
    /// `s_load_*`/`s_buffer_load_*`: dwords, through a buffer resource.
    SLoad(u8, bool),
    /// GFX12's `s_load_u8`, `s_load_i8`, `s_load_u16`, `s_load_i16` (and
    /// `s_buffer_load_*`): one byte or 16-bit value (the bytes), sign- or
    /// zero-extended (`true`: signed) into one SGPR, through a buffer
    /// resource (the last `bool`).
    SLoadNarrow(u8, bool, bool),
    /// `s_endpgm`: the wave ends.
    Endpgm,
    /// `s_barrier`: the wave waits until every wave of its work-group
    /// reaches a barrier.
    Barrier,
    /// Scheduling hints with no architectural effect (`s_nop`, `s_waitcnt`,
    /// `s_delay_alu`, `s_clause`, `s_sleep`, prefetch, priority, ...): a
    /// wave here issues in order and its memory accesses complete at once.
    Nop,
    /// A cache write-back or invalidation (`buffer_wbl2`, `buffer_inv`,
    /// `buffer_wbinvl1*`, `buffer_gl0_inv`, `s_dcache_inv`,
    /// `s_icache_inv`, ...): memory here has no caches, so it does nothing.
    CacheControl,
    /// A message to hardware outside the wave (`s_sendmsg`, `s_sethalt`,
    /// `s_ttracedata`): nothing here receives it, so it does nothing.
    Message,
    /// GFX11's `v_illegal`: the illegal-instruction trap. It decodes (its
    /// encoding is all zero bits, the padding between kernels in a code
    /// object) and ends the dispatch if a wave executes it.
    Illegal,
    /// `s_getpc_b64`: D.b64 = PC + 4, the next instruction's address.
    Getpc,
    /// `s_setpc_b64`: PC = S0.b64.
    Setpc,
    /// `s_swappc_b64`: D.b64 = PC + 4; PC = S0.b64.
    Swappc,
    /// `s_setreg_b32`, `s_setreg_imm32_b32`: a field of MODE (the only
    /// hardware register that decodes), `imm` its `hwreg` operand (id,
    /// offset, size - 1), `src[0]` the value.
    Setreg,
    /// GFX11's `s_round_mode`: MODE's FP_ROUND (bits 3:0) from `imm`.
    RoundMode,
    /// GFX11's `s_denorm_mode`: MODE's FP_DENORM (bits 7:4) from `imm`.
    DenormMode,
    /// A per-lane vector ALU operation (`v_fma_f32`, `v_add_u32`, ...:
    /// `Valu`).
    V(Valu),
    /// `v_cmp_*`/`v_cmpx_*`: a lane mask; `true` also writes EXEC.
    VCmp(Cmp, Ty, bool),
    /// `v_cmp_class_*`/`v_cmpx_class_*`.
    VCmpClass(Ty, bool),
    /// A matrix fused multiply-add (`v_mfma_*`, `v_smfmac_*`): D = A B + C
    /// for each block.
    Mfma(Mfma),
    /// gfx950's `v_mfma_ld_scale_b32`: the E8M0 scales of A (a byte of
    /// `src[0]`) and B (of `src[1]`) for the `f8f6f4` MFMA that follows it
    /// (`exec::mfma::scaled`).
    MfmaLdScale,
    /// RDNA3's 16×16×16 wave matrix multiply-accumulate (`v_wmma_f32_*`):
    /// f32 results from f16 (`F16`) or bf16 (`U16`) inputs.
    Wmma(Wmma),
    /// A load (`buffer_load_*`, `global_load_*`, `flat_load_*`,
    /// `scratch_load_*`): D = M\[address\].
    Load(Mem),
    /// A store (`buffer_store_*`, `global_store_*`, `flat_store_*`,
    /// `scratch_store_*`): M\[address\] = DATA.
    Store(Mem),
    /// An atomic on global, flat or buffer memory (`buffer_atomic_*`,
    /// `global_atomic_*`, `flat_atomic_*`); bytes per lane.
    Atomic(Segment, Atomic, u8),
    /// An LDS operation (`ds_*`).
    Lds(Lds),
}

impl Valu {
    /// Whether a literal constant K, encoded after the instruction, is one
    /// of its sources (`v_fmamk_*`, `v_fmaak_*`, `v_madmk_f32`,
    /// `v_madak_f32`).
    pub(crate) fn takes_literal_k(self) -> bool {
        matches!(
            self,
            Valu::FmamkF32
                | Valu::FmaakF32
                | Valu::MadmkF32
                | Valu::MadakF32
                | Valu::FmamkF16
                | Valu::FmaakF16
        )
    }

    /// Whether its destination is also its last source: the accumulating
    /// forms (`v_fmac_*`, `v_mac_f32`, `v_dot2c_f32_f16`, `v_dot4c_i32_i8`,
    /// `v_dot2c_i32_i16`, `v_pk_fmac_f16`).
    pub(crate) fn accumulates(self) -> bool {
        matches!(
            self,
            Valu::FmacF32
                | Valu::MacF32
                | Valu::FmacF16
                | Valu::FmacF64
                | Valu::Dot2cF32F16
                | Valu::Dot4cI32I8
                | Valu::Dot2cI32I16
                | Valu::PkFmacF16
        )
    }
}
