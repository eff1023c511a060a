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
    /// `s_mov_b32`, `s_movk_i32`, `s_mov_b64`.
    Mov,
    /// `s_cmov_b32`, `s_cmovk_i32`, `s_cmov_b64`.
    Cmov,
    /// `s_not_b32`, `s_not_b64`.
    Not,
    /// `s_add_u32`.
    AddU32,
    /// `s_sub_u32`.
    SubU32,
    /// `s_addc_u32`.
    AddcU32,
    /// `s_subb_u32`.
    SubbU32,
    /// `s_add_i32`, `s_addk_i32`.
    AddI32,
    /// `s_sub_i32`.
    SubI32,
    /// `s_mul_i32`, `s_mulk_i32`.
    MulI32,
    /// `s_mul_hi_u32`.
    MulHiU32,
    /// `s_mul_hi_i32`.
    MulHiI32,
    /// `s_and_b32`, `s_and_b64`.
    And,
    /// `s_or_b32`, `s_or_b64`.
    Or,
    /// `s_xor_b32`, `s_xor_b64`.
    Xor,
    /// `s_and_not1_b32`, `s_andn2_b32`, `s_and_not1_b64`, `s_andn2_b64`.
    AndNot,
    /// `s_or_not1_b32`, `s_orn2_b32`, `s_or_not1_b64`, `s_orn2_b64`.
    OrNot,
    /// `s_nand_b32`, `s_nand_b64`.
    Nand,
    /// `s_nor_b32`, `s_nor_b64`.
    Nor,
    /// `s_xnor_b32`, `s_xnor_b64`.
    Xnor,
    /// `s_lshl_b32`, `s_lshl_b64`.
    Lshl,
    /// `s_lshr_b32`, `s_lshr_b64`.
    Lshr,
    /// `s_ashr_i32`, `s_ashr_i64`.
    Ashr,
    /// `s_bfe_u32`, `s_bfe_u64`.
    BfeU,
    /// `s_bfe_i32`, `s_bfe_i64`.
    BfeI,
    /// `s_bfm_b32`, `s_bfm_b64`.
    Bfm,
    /// `s_min_i32`.
    MinI32,
    /// `s_min_u32`.
    MinU32,
    /// `s_max_i32`.
    MaxI32,
    /// `s_max_u32`.
    MaxU32,
    /// `s_cselect_b32`, `s_cselect_b64`.
    Cselect,
    /// `s_abs_i32`.
    AbsI32,
    /// `s_sext_i32_i8`.
    SextI8,
    /// `s_sext_i32_i16`.
    SextI16,
    /// `s_and_saveexec_b32`, `s_and_saveexec_b64`.
    AndSaveexec,
    /// `s_or_saveexec_b32`, `s_or_saveexec_b64`.
    OrSaveexec,
    /// `s_xor_saveexec_b32`, `s_xor_saveexec_b64`.
    XorSaveexec,
    /// `s_and_not1_saveexec_b32`, `s_and_not1_saveexec_b64`, `s_andn2_saveexec_b64`.
    AndNotSaveexec,
    /// `s_or_not1_saveexec_b32`, `s_or_not1_saveexec_b64`, `s_orn2_saveexec_b64`.
    OrNotSaveexec,
    /// `s_lshlN_add_u32`.
    LshlAdd(u8),
    /// `s_brev_b32`, `s_brev_b64`.
    Brev,
    /// `s_bitset0`/`s_bitset1`: the destination with bit `S0` cleared or
    /// set.
    Bitset(bool),
    /// `s_bcnt1_i32_b32`, `s_bcnt1_i32_b64`.
    Bcnt1,
    /// `s_ctz_i32_b32`, `s_ff1_i32_b32`, `s_ctz_i32_b64`, `s_ff1_i32_b64`.
    Ff1,
    /// `s_clz_i32_u32`, `s_flbit_i32_b32`, `s_clz_i32_u64`, `s_flbit_i32_b64`.
    Flbit,
    /// `s_flbit_i32`/`s_cls_i32` (and the 64-bit forms): where, counted
    /// from the top bit, the first bit that differs from the sign bit is.
    Cls,
    /// `s_absdiff_i32`.
    Absdiff,
    /// `s_pack_ll_b32_b16`.
    PackLl,
    /// `s_pack_lh_b32_b16`.
    PackLh,
    /// `s_pack_hh_b32_b16`.
    PackHh,
}

/// A per-lane vector ALU operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valu {
    // Moves and selects.
    /// `v_mov_b32`.
    Mov32,
    /// gfx942's fp8 (E4M3FNUZ) and bf8 (E5M2FNUZ) to f32: byte 0 (SDWA
    /// selects another); the packed forms bytes 0 and 1 into a pair.
    CvtF32Fp8,
    /// `v_cvt_f32_bf8`.
    CvtF32Bf8,
    /// `v_cvt_pk_f32_fp8`.
    CvtPkF32Fp8,
    /// `v_cvt_pk_f32_bf8`.
    CvtPkF32Bf8,
    /// gfx942's f32 to fp8 (E4M3FNUZ) and bf8 (E5M2FNUZ), rounded to
    /// nearest even: two sources into the word `op_sel[3]` picks (the
    /// other word kept).
    CvtPkFp8F32,
    /// `v_cvt_pk_bf8_f32`.
    CvtPkBf8F32,
    /// gfx942's f32 to fp8/bf8 with stochastic rounding (the second source
    /// the random bits), into the byte `op_sel[3:2]` picks (the others
    /// kept).
    CvtSrFp8F32,
    /// `v_cvt_sr_bf8_f32`.
    CvtSrBf8F32,
    /// CDNA's moves to, from and between AGPRs (`v_accvgpr_write_b32`,
    /// `_read_b32`, `_mov_b32`): the decoder names the AGPR operands.
    AccvgprWrite,
    /// `v_accvgpr_read_b32`.
    AccvgprRead,
    /// `v_accvgpr_mov_b32`.
    AccvgprMov,
    /// `v_mov_b64`.
    Mov64,
    /// `v_pk_mov_b32`.
    PkMov32,
    /// `v_cndmask_b32`.
    Cndmask,
    // f32 arithmetic.
    /// `v_add_f32`.
    AddF32,
    /// `v_sub_f32`.
    SubF32,
    /// `v_subrev_f32`.
    SubrevF32,
    /// `v_mul_f32`.
    MulF32,
    /// `v_mul_dx9_zero_f32`, `v_mul_legacy_f32`.
    MulLegacyF32,
    /// `v_fma_f32`.
    FmaF32,
    /// `v_fmac_f32`.
    FmacF32,
    /// `v_mac_f32`.
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
    /// `v_dot2_u32_u16`.
    Dot2U32U16,
    /// `v_dot2c_i32_i16`.
    Dot2cI32I16,
    /// `v_mad_f32`, `v_mad_legacy_f32`.
    MadF32,
    /// `v_fmamk_f32`.
    FmamkF32,
    /// `v_fmaak_f32`.
    FmaakF32,
    /// GFX11's f16 forms: S0 * K + S1 and S0 * S1 + K, K a 16-bit literal.
    FmamkF16,
    /// `v_fmaak_f16`.
    FmaakF16,
    /// `v_madmk_f32`.
    MadmkF32,
    /// `v_madak_f32`.
    MadakF32,
    /// `v_min_f32`.
    MinF32,
    /// `v_max_f32`.
    MaxF32,
    /// `v_min3_f32`.
    Min3F32,
    /// `v_max3_f32`.
    Max3F32,
    /// `v_med3_f32`.
    Med3F32,
    /// `v_exp_f32`.
    ExpF32,
    /// `v_log_f32`.
    LogF32,
    /// `v_rcp_f32`.
    RcpF32,
    /// `v_rcp_iflag_f32`.
    RcpIflagF32,
    /// `v_rsq_f32`.
    RsqF32,
    /// `v_sqrt_f32`.
    SqrtF32,
    /// `v_sin_f32`.
    SinF32,
    /// `v_cos_f32`.
    CosF32,
    /// `v_rndne_f32`.
    RndneF32,
    /// `v_floor_f32`.
    FloorF32,
    /// `v_ceil_f32`.
    CeilF32,
    /// `v_trunc_f32`.
    TruncF32,
    /// `v_fract_f32`.
    FractF32,
    /// The f16 VOP1s: each result rounded once to f16.
    CeilF16,
    /// `v_floor_f16`.
    FloorF16,
    /// `v_trunc_f16`.
    TruncF16,
    /// `v_rndne_f16`.
    RndneF16,
    /// `v_fract_f16`.
    FractF16,
    /// `v_sqrt_f16`.
    SqrtF16,
    /// `v_rcp_f16`.
    RcpF16,
    /// `v_rsq_f16`.
    RsqF16,
    /// `v_exp_f16`.
    ExpF16,
    /// `v_log_f16`.
    LogF16,
    /// `v_sin_f16`.
    SinF16,
    /// `v_cos_f16`.
    CosF16,
    /// `v_ldexp_f32`.
    LdexpF32,
    /// `v_frexp_mant_f32`.
    FrexpMantF32,
    /// `v_frexp_exp_i32_f32`.
    FrexpExpF32,
    /// `v_frexp_mant_f64`.
    FrexpMantF64,
    /// `v_frexp_exp_i32_f64`: an f64's exponent as an i32.
    FrexpExpF64,
    /// `v_div_scale_f32`.
    DivScaleF32,
    /// `v_div_fmas_f32`.
    DivFmasF32,
    /// `v_div_fixup_f32`.
    DivFixupF32,
    // f64 arithmetic.
    /// `v_add_f64`.
    AddF64,
    /// `v_mul_f64`.
    MulF64,
    /// `v_fma_f64`.
    FmaF64,
    /// `v_fmac_f64`.
    FmacF64,
    /// `v_min_f64`.
    MinF64,
    /// `v_max_f64`.
    MaxF64,
    /// `v_rcp_f64`.
    RcpF64,
    /// `v_rsq_f64`.
    RsqF64,
    /// `v_sqrt_f64`.
    SqrtF64,
    /// `v_ldexp_f64`.
    LdexpF64,
    /// `v_div_scale_f64`.
    DivScaleF64,
    /// `v_div_fmas_f64`.
    DivFmasF64,
    /// `v_div_fixup_f64`.
    DivFixupF64,
    /// `v_fract_f64`.
    FractF64,
    /// `v_rndne_f64`.
    RndneF64,
    /// `v_floor_f64`.
    FloorF64,
    /// `v_ceil_f64`.
    CeilF64,
    /// `v_trunc_f64`.
    TruncF64,
    // f16 arithmetic.
    /// `v_add_f16`.
    AddF16,
    /// `v_sub_f16`.
    SubF16,
    /// `v_subrev_f16`.
    SubrevF16,
    /// `v_mul_f16`.
    MulF16,
    /// `v_fma_f16`.
    FmaF16,
    /// `v_fmac_f16`.
    FmacF16,
    /// `v_min_f16`.
    MinF16,
    /// `v_max_f16`.
    MaxF16,
    // Packed.
    /// `v_pk_add_f32`.
    PkAddF32,
    /// `v_pk_mul_f32`.
    PkMulF32,
    /// `v_pk_fma_f32`.
    PkFmaF32,
    /// `v_pk_add_f16`.
    PkAddF16,
    /// `v_pk_mul_f16`.
    PkMulF16,
    /// `v_pk_fma_f16`.
    PkFmaF16,
    /// `v_pk_min_f16`.
    PkMinF16,
    /// `v_pk_max_f16`.
    PkMaxF16,
    /// `v_fma_mix_f32`: a mixed-precision FMA (each source f32, or an f16
    /// half), an f32 result.
    FmaMixF32,
    /// `v_fma_mixlo_f16`: as `FmaMixF32`, rounded to f16 into the low half.
    FmaMixloF16,
    /// `v_fma_mixhi_f16`: into the high half.
    FmaMixhiF16,
    /// `v_pk_add_u16`.
    PkAddU16,
    /// `v_pk_add_i16`.
    PkAddI16,
    /// `v_pk_sub_u16`.
    PkSubU16,
    /// `v_pk_sub_i16`.
    PkSubI16,
    /// `v_pk_mul_lo_u16`.
    PkMulLoU16,
    /// `v_pk_lshlrev_b16`.
    PkLshlrevB16,
    /// `v_pk_lshrrev_b16`.
    PkLshrrevB16,
    /// `v_pk_ashrrev_i16`.
    PkAshrrevI16,
    /// `v_pk_min_i16`.
    PkMinI16,
    /// `v_pk_max_i16`.
    PkMaxI16,
    /// `v_pk_min_u16`.
    PkMinU16,
    /// `v_pk_max_u16`.
    PkMaxU16,
    /// `v_pack_b32_f16`.
    PackB32F16,
    // Conversions.
    /// `v_cvt_i32_f32`.
    CvtI32F32,
    /// `v_cvt_u32_f32`.
    CvtU32F32,
    /// `v_cvt_f32_i32`.
    CvtF32I32,
    /// `v_cvt_f32_u32`.
    CvtF32U32,
    /// `v_cvt_f16_f32`.
    CvtF16F32,
    /// `v_cvt_f32_f16`.
    CvtF32F16,
    /// `v_cvt_f64_f32`.
    CvtF64F32,
    /// `v_cvt_f32_f64`.
    CvtF32F64,
    /// `v_cvt_i32_f64`.
    CvtI32F64,
    /// `v_cvt_u32_f64`.
    CvtU32F64,
    /// `v_cvt_f64_i32`.
    CvtF64I32,
    /// `v_cvt_f64_u32`.
    CvtF64U32,
    /// `v_cvt_pk_rtz_f16_f32`, `v_cvt_pkrtz_f16_f32`.
    CvtPkrtzF16F32,
    /// `v_cvt_f32_ubyte0`, `v_cvt_f32_ubyte1`, `v_cvt_f32_ubyte2`, `v_cvt_f32_ubyte3`.
    CvtF32Ubyte(u8),
    /// `v_cvt_floor_i32_f32`, `v_cvt_flr_i32_f32`.
    CvtFlrI32F32,
    /// `v_cvt_nearest_i32_f32`, `v_cvt_rpi_i32_f32`.
    CvtRpiI32F32,
    /// `v_cvt_i16_f16`.
    CvtI16F16,
    /// `v_cvt_u16_f16`.
    CvtU16F16,
    /// `v_cvt_f16_i16`.
    CvtF16I16,
    /// `v_cvt_f16_u16`.
    CvtF16U16,
    /// `v_cvt_u32_u16`.
    CvtU32U16,
    /// `v_cvt_i32_i16`.
    CvtI32I16,
    // 32-bit integer.
    /// `v_add_nc_u32`, `v_add_u32`.
    AddU32,
    /// `v_sub_nc_u32`, `v_sub_u32`.
    SubU32,
    /// `v_subrev_nc_u32`, `v_subrev_u32`.
    SubrevU32,
    /// `v_add_co_u32`.
    AddCoU32,
    /// `v_sub_co_u32`.
    SubCoU32,
    /// `v_subrev_co_u32`.
    SubrevCoU32,
    /// `v_add_co_ci_u32`, `v_addc_co_u32`.
    AddcCoU32,
    /// `v_sub_co_ci_u32`, `v_subb_co_u32`.
    SubbCoU32,
    /// `v_subbrev_co_u32`, `v_subrev_co_ci_u32`.
    SubbrevCoU32,
    /// `v_add_i32`, `v_add_nc_i32`.
    AddI32,
    /// `v_sub_i32`, `v_sub_nc_i32`.
    SubI32,
    /// `v_mul_lo_u32`.
    MulLoU32,
    /// `v_mul_hi_u32`.
    MulHiU32,
    /// `v_mul_hi_i32`.
    MulHiI32,
    /// `v_mul_u32_u24`.
    MulU32U24,
    /// `v_mul_i32_i24`.
    MulI32I24,
    /// `v_mul_hi_u32_u24`.
    MulHiU32U24,
    /// `v_mul_hi_i32_i24`.
    MulHiI32I24,
    /// `v_mad_u32_u24`.
    MadU32U24,
    /// `v_mad_i32_i24`.
    MadI32I24,
    /// `v_mad_u64_u32`.
    MadU64U32,
    /// `v_mad_i64_i32`.
    MadI64I32,
    /// `v_lshlrev_b32`.
    LshlrevB32,
    /// `v_lshrrev_b32`.
    LshrrevB32,
    /// `v_ashrrev_i32`.
    AshrrevI32,
    /// `v_and_b32`.
    AndB32,
    /// `v_or_b32`.
    OrB32,
    /// `v_xor_b32`.
    XorB32,
    /// `v_xnor_b32`.
    XnorB32,
    /// `v_not_b32`.
    NotB32,
    /// `v_bfe_u32`.
    BfeU32,
    /// `v_bfe_i32`.
    BfeI32,
    /// `v_bfi_b32`.
    BfiB32,
    /// `v_bfm_b32`.
    BfmB32,
    /// `v_lshl_add_u32`.
    LshlAddU32,
    /// `v_lshl_or_b32`.
    LshlOrB32,
    /// `v_add_lshl_u32`.
    AddLshlU32,
    /// `v_and_or_b32`.
    AndOrB32,
    /// `v_or3_b32`.
    Or3B32,
    /// `v_xor3_b32`.
    Xor3B32,
    /// `v_add3_u32`.
    Add3U32,
    /// `v_xad_u32`.
    XadU32,
    /// `v_min_i32`.
    MinI32,
    /// `v_max_i32`.
    MaxI32,
    /// `v_min_u32`.
    MinU32,
    /// `v_max_u32`.
    MaxU32,
    /// `v_min3_i32`.
    Min3I32,
    /// `v_max3_i32`.
    Max3I32,
    /// `v_med3_i32`.
    Med3I32,
    /// `v_min3_u32`.
    Min3U32,
    /// `v_max3_u32`.
    Max3U32,
    /// `v_med3_u32`.
    Med3U32,
    /// GFX11's `v_maxmin_*`: min(max(S0, S1), S2); `v_minmax_*`:
    /// max(min(S0, S1), S2).
    MaxminF32,
    /// `v_minmax_f32`.
    MinmaxF32,
    /// `v_maxmin_f16`.
    MaxminF16,
    /// `v_minmax_f16`.
    MinmaxF16,
    /// `v_maxmin_i32`.
    MaxminI32,
    /// `v_minmax_i32`.
    MinmaxI32,
    /// `v_maxmin_u32`.
    MaxminU32,
    /// `v_minmax_u32`.
    MinmaxU32,
    /// `v_alignbit_b32`.
    AlignbitB32,
    /// `v_alignbyte_b32`.
    AlignbyteB32,
    /// `v_perm_b32`.
    PermB32,
    /// `v_bcnt_u32_b32`.
    BcntU32,
    /// `v_mbcnt_lo_u32_b32`/`_hi`: the set bits of the source below the
    /// lane's own, in the low (`false`) or high (`true`) 32 lanes, plus the
    /// second source.
    Mbcnt(bool),
    /// `v_clz_i32_u32`, `v_ffbh_u32`.
    FfbhU32,
    /// `v_ctz_i32_b32`, `v_ffbl_b32`.
    FfblB32,
    /// `v_cls_i32`, `v_ffbh_i32`.
    FfbhI32,
    /// `v_bfrev_b32`.
    BfrevB32,
    // 16-bit integer.
    /// `v_mov_b16`.
    MovB16,
    /// `v_not_b16`.
    NotB16,
    /// GFX11's `v_cndmask_b16`: a 16-bit `Cndmask` (halves by `op_sel`).
    CndmaskB16,
    /// `v_and_b16`.
    AndB16,
    /// `v_or_b16`.
    OrB16,
    /// `v_xor_b16`.
    XorB16,
    /// `v_add_nc_u16`, `v_add_u16`.
    AddU16,
    /// `v_sub_nc_u16`, `v_sub_u16`.
    SubU16,
    /// `v_subrev_u16`.
    SubrevU16,
    /// `v_add_i16`/`v_add_nc_i16`: as `AddU16` but for clamp, which
    /// saturates to the signed range.
    AddI16,
    /// `v_sub_i16`, `v_sub_nc_i16`.
    SubI16,
    /// `v_mul_lo_u16`.
    MulLoU16,
    /// `v_lshlrev_b16`.
    LshlrevB16,
    /// `v_lshrrev_b16`.
    LshrrevB16,
    /// `v_ashrrev_i16`.
    AshrrevI16,
    /// `v_min_i16`.
    MinI16,
    /// `v_max_i16`.
    MaxI16,
    /// `v_min_u16`.
    MinU16,
    /// `v_max_u16`.
    MaxU16,
    // 16-bit three-operand VOP3 (`exec/sixteen.rs`).
    /// `v_mad_u16`/`v_mad_i16`: S0 * S1 + S2 in 16 bits, each source's
    /// half and the destination's by `op_sel`, the other half of the
    /// destination kept (GFX9's op_sel forms and GFX11's).
    MadU16,
    /// `v_mad_i16`.
    MadI16,
    /// GFX9's `v_mad_legacy_u16`/`_i16` (GFX8's opcodes): as `MadU16`,
    /// but writing the low half zeroes the high one.
    MadLegacyU16,
    /// `v_mad_legacy_i16`.
    MadLegacyI16,
    /// `v_mad_u32_u16`/`v_mad_i32_i16`: 16-bit S0 * S1 plus a 32-bit S2.
    MadU32U16,
    /// `v_mad_i32_i16`.
    MadI32I16,
    /// `v_min3_u16`.
    Min3U16,
    /// `v_min3_i16`.
    Min3I16,
    /// `v_min3_f16`.
    Min3F16,
    /// `v_max3_u16`.
    Max3U16,
    /// `v_max3_i16`.
    Max3I16,
    /// `v_max3_f16`.
    Max3F16,
    /// `v_med3_u16`.
    Med3U16,
    /// `v_med3_i16`.
    Med3I16,
    /// `v_med3_f16`.
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
    /// `v_pk_mad_i16`.
    PkMadI16,
    /// Sums of absolute differences plus S2: `v_sad_u8` (four bytes),
    /// `v_sad_hi_u8` (the same shifted left 16), `v_sad_u16` (two halves),
    /// `v_sad_u32`, `v_msad_u8` (bytes whose S1 byte is zero left out).
    SadU8,
    /// `v_sad_hi_u8`.
    SadHiU8,
    /// `v_sad_u16`.
    SadU16,
    /// `v_sad_u32`.
    SadU32,
    /// `v_msad_u8`.
    MsadU8,
    // 64-bit integer.
    /// `v_lshlrev_b64`.
    LshlrevB64,
    /// `v_lshrrev_b64`.
    LshrrevB64,
    /// `v_ashrrev_i64`.
    AshrrevI64,
    /// `v_lshl_add_u64`.
    LshlAddU64,
    // Cross-lane.
    /// `v_readlane_b32`.
    Readlane,
    /// `v_readfirstlane_b32`.
    Readfirstlane,
    /// `v_writelane_b32`.
    Writelane,
    /// `v_permlanex16_b32`.
    Permlanex16,
    /// `v_permlane16_b32`.
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

/// A read-modify-write on memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Atomic {
    Swap,
    CmpSwap,
    Add,
    Sub,
    MinI,
    MaxI,
    MinU,
    MaxU,
    And,
    Or,
    Xor,
    Inc,
    Dec,
    AddF32,
    MinF32,
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
}

impl MatrixType {
    /// Bits per element in a register.
    pub fn bits(self) -> u8 {
        match self {
            MatrixType::F64 => 64,
            MatrixType::F32 | MatrixType::Xf32 => 32,
            MatrixType::F16 | MatrixType::Bf16 => 16,
            MatrixType::I8 | MatrixType::Fp8 | MatrixType::Bf8 => 8,
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
}

impl Wmma {
    /// Bits per element of A and B.
    pub fn input_bits(self) -> u8 {
        match self {
            Wmma::I32Iu8 => 8,
            Wmma::I32Iu4 => 4,
            _ => 16,
        }
    }

    /// Registers per lane of A (and B): 16 elements of K.
    pub fn input_regs(self) -> u8 {
        self.input_bits() / 2
    }

    /// Results are 16-bit, in the half of each register `op_sel[2]` picks.
    pub fn half_output(self) -> bool {
        matches!(self, Wmma::F16F16 | Wmma::Bf16Bf16)
    }
}

/// An operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// A scalar ALU operation; `true` for the 64-bit form.
    S(Salu, bool),
    /// `s_cmp_*`/`s_cmpk_*`: SCC = the comparison.
    SCmp(Cmp, Ty),
    /// `s_bitcmp0/1_b32/b64`: SCC = bit `src1` of `src0` equals the flag.
    SBitcmp(bool, bool),
    /// A branch.
    Branch(Branch),
    /// `s_load_*`/`s_buffer_load_*`: dwords, through a buffer resource.
    SLoad(u8, bool),
    /// `s_endpgm`.
    Endpgm,
    /// `s_barrier`.
    Barrier,
    /// Scheduling hints with no architectural effect (`s_nop`, `s_waitcnt`,
    /// `s_delay_alu`, `s_clause`, prefetch, priority, `s_sendmsg` of
    /// `MSG_DEALLOC_VGPRS`, ...).
    Nop,
    /// GFX11's `v_illegal`: the illegal-instruction trap. It decodes (its
    /// encoding is all zero bits, the padding between kernels in a code
    /// object) and ends the dispatch if a wave executes it.
    Illegal,
    /// `s_getpc_b64`.
    Getpc,
    /// `s_setpc_b64`.
    Setpc,
    /// `s_swappc_b64`.
    Swappc,
    /// `s_setreg_b32`, `s_setreg_imm32_b32`: a field of MODE (the only
    /// hardware register that decodes), `imm` its `hwreg` operand (id,
    /// offset, size - 1), `src[0]` the value.
    Setreg,
    /// GFX11's `s_round_mode`: MODE's FP_ROUND (bits 3:0) from `imm`.
    RoundMode,
    /// GFX11's `s_denorm_mode`: MODE's FP_DENORM (bits 7:4) from `imm`.
    DenormMode,
    /// A per-lane vector ALU operation.
    V(Valu),
    /// `v_cmp_*`/`v_cmpx_*`: a lane mask; `true` also writes EXEC.
    VCmp(Cmp, Ty, bool),
    /// `v_cmp_class_*`/`v_cmpx_class_*`.
    VCmpClass(Ty, bool),
    /// A matrix fused multiply-add.
    Mfma(Mfma),
    /// RDNA3's 16×16×16 wave matrix multiply-accumulate (`v_wmma_f32_*`):
    /// f32 results from f16 (`F16`) or bf16 (`U16`) inputs.
    Wmma(Wmma),
    /// A load.
    Load(Mem),
    /// A store.
    Store(Mem),
    /// An atomic on global, flat or buffer memory; bytes per lane.
    Atomic(Segment, Atomic, u8),
    /// An LDS operation.
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
