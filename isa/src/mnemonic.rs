//! Mnemonics to operations: GFX9's spellings and GFX11's, as LLVM's
//! disassembler prints them (without the `_e32`/`_e64`/`_dpp` suffix the
//! opcode tables drop).

use crate::op::{
    Atomic, Branch, Cmp, Lds, MatrixType, Mem, Mfma, Op, Salu, Segment, Ty, Valu, Wmma,
};

impl Op {
    /// The operation `mnemonic` names, or `None` for one the interpreter
    /// lacks.
    pub fn from_mnemonic(mnemonic: &str) -> Option<Op> {
        if let Some(rest) = mnemonic.strip_prefix("v_cmpx_") {
            return vector_compare(rest, true);
        }
        if let Some(rest) = mnemonic.strip_prefix("v_cmp_") {
            return vector_compare(rest, false);
        }
        if let Some(rest) = mnemonic.strip_prefix("s_cmpk_") {
            return scalar_compare(rest);
        }
        if let Some(rest) = mnemonic.strip_prefix("s_cmp_") {
            return scalar_compare(rest);
        }
        if let Some(rest) = mnemonic.strip_prefix("v_mfma_") {
            return mfma(rest);
        }
        if let Some(rest) = mnemonic.strip_prefix("v_smfmac_") {
            // gfx942's sparse forms: one block each, the shapes and types
            // of the dense ones (K counts A's uncompressed columns).
            return match mfma(rest)? {
                Op::Mfma(shape)
                    if shape.blocks == 1 && shape.a != MatrixType::F64 && shape.k % 4 == 0 =>
                {
                    Some(Op::Mfma(Mfma {
                        sparse: true,
                        ..shape
                    }))
                }
                _ => None,
            };
        }
        match mnemonic {
            "v_illegal" => return Some(Op::Illegal),
            "v_wmma_f32_16x16x16_f16" => return Some(Op::Wmma(Wmma::F32F16)),
            "v_wmma_f32_16x16x16_bf16" => return Some(Op::Wmma(Wmma::F32Bf16)),
            "v_wmma_f16_16x16x16_f16" => return Some(Op::Wmma(Wmma::F16F16)),
            "v_wmma_bf16_16x16x16_bf16" => return Some(Op::Wmma(Wmma::Bf16Bf16)),
            "v_wmma_i32_16x16x16_iu8" => return Some(Op::Wmma(Wmma::I32Iu8)),
            "v_wmma_i32_16x16x16_iu4" => return Some(Op::Wmma(Wmma::I32Iu4)),
            _ => {}
        }
        if let Some(rest) = mnemonic.strip_prefix("ds_") {
            return lds(rest).map(Op::Lds);
        }
        // Cache write-backs and invalidations: memory here has no caches
        // (a work-group's stores are in memory before the next one runs),
        // so there is nothing to write back or drop.
        if matches!(
            mnemonic,
            "buffer_wbl2"
                | "buffer_inv"
                | "buffer_invl2"
                | "buffer_wbinvl1"
                | "buffer_wbinvl1_vol"
                | "buffer_gl0_inv"
                | "buffer_gl1_inv"
        ) {
            return Some(Op::Nop);
        }
        for (prefix, segment) in [
            ("buffer_", Segment::Buffer),
            ("global_", Segment::Global),
            ("flat_", Segment::Flat),
            ("scratch_", Segment::Scratch),
        ] {
            if let Some(rest) = mnemonic.strip_prefix(prefix) {
                return memory(rest, segment);
            }
        }
        if let Some(rest) = mnemonic.strip_prefix("s_") {
            return scalar(rest);
        }
        mnemonic.strip_prefix("v_").and_then(vector).map(Op::V)
    }
}

fn scalar(m: &str) -> Option<Op> {
    use Salu::*;
    let branch = |b| Some(Op::Branch(b));
    let op = match m {
        "endpgm" => return Some(Op::Endpgm),
        "barrier" => return Some(Op::Barrier),
        "nop"
        | "waitcnt"
        | "waitcnt_vscnt"
        | "waitcnt_vmcnt"
        | "waitcnt_expcnt"
        | "waitcnt_lgkmcnt"
        | "waitcnt_depctr"
        | "delay_alu"
        | "clause"
        | "code_end"
        | "set_inst_prefetch_distance"
        | "inst_prefetch"
        | "setprio"
        | "sendmsg"
        | "sleep"
        | "icache_inv"
        | "dcache_inv"
        | "gl1_inv"
        | "dcache_wb"
        | "ttracedata"
        | "sethalt" => {
            return Some(Op::Nop);
        }
        "branch" => return branch(Branch::Always),
        "cbranch_scc0" => return branch(Branch::Scc0),
        "cbranch_scc1" => return branch(Branch::Scc1),
        "cbranch_vccz" => return branch(Branch::Vccz),
        "cbranch_vccnz" => return branch(Branch::Vccnz),
        "cbranch_execz" => return branch(Branch::Execz),
        "cbranch_execnz" => return branch(Branch::Execnz),
        "getpc_b64" => return Some(Op::Getpc),
        "setpc_b64" => return Some(Op::Setpc),
        "swappc_b64" => return Some(Op::Swappc),
        "setreg_b32" | "setreg_imm32_b32" => return Some(Op::Setreg),
        "round_mode" => return Some(Op::RoundMode),
        "denorm_mode" => return Some(Op::DenormMode),
        "bitcmp0_b32" => return Some(Op::SBitcmp(false, false)),
        "bitcmp1_b32" => return Some(Op::SBitcmp(true, false)),
        "bitcmp0_b64" => return Some(Op::SBitcmp(false, true)),
        "bitcmp1_b64" => return Some(Op::SBitcmp(true, true)),
        "load_dword" | "load_b32" => return Some(Op::SLoad(1, false)),
        "load_dwordx2" | "load_b64" => return Some(Op::SLoad(2, false)),
        "load_dwordx4" | "load_b128" => return Some(Op::SLoad(4, false)),
        "load_dwordx8" | "load_b256" => return Some(Op::SLoad(8, false)),
        "load_dwordx16" | "load_b512" => return Some(Op::SLoad(16, false)),
        "buffer_load_dword" | "buffer_load_b32" => return Some(Op::SLoad(1, true)),
        "buffer_load_dwordx2" | "buffer_load_b64" => return Some(Op::SLoad(2, true)),
        "buffer_load_dwordx4" | "buffer_load_b128" => return Some(Op::SLoad(4, true)),
        "buffer_load_dwordx8" | "buffer_load_b256" => return Some(Op::SLoad(8, true)),
        "buffer_load_dwordx16" | "buffer_load_b512" => return Some(Op::SLoad(16, true)),
        "movk_i32" => (Mov, false),
        "cmovk_i32" => (Cmov, false),
        "addk_i32" => (AddI32, false),
        "mulk_i32" => (MulI32, false),
        "mov_b32" => (Mov, false),
        "mov_b64" => (Mov, true),
        "cmov_b32" => (Cmov, false),
        "cmov_b64" => (Cmov, true),
        "not_b32" => (Not, false),
        "not_b64" => (Not, true),
        "add_u32" => (AddU32, false),
        "sub_u32" => (SubU32, false),
        "addc_u32" => (AddcU32, false),
        "subb_u32" => (SubbU32, false),
        "add_i32" => (AddI32, false),
        "sub_i32" => (SubI32, false),
        "mul_i32" => (MulI32, false),
        "mul_hi_u32" => (MulHiU32, false),
        "mul_hi_i32" => (MulHiI32, false),
        "and_b32" => (And, false),
        "and_b64" => (And, true),
        "or_b32" => (Or, false),
        "or_b64" => (Or, true),
        "xor_b32" => (Xor, false),
        "xor_b64" => (Xor, true),
        "andn2_b32" | "and_not1_b32" => (AndNot, false),
        "andn2_b64" | "and_not1_b64" => (AndNot, true),
        "orn2_b32" | "or_not1_b32" => (OrNot, false),
        "orn2_b64" | "or_not1_b64" => (OrNot, true),
        "nand_b32" => (Nand, false),
        "nand_b64" => (Nand, true),
        "nor_b32" => (Nor, false),
        "nor_b64" => (Nor, true),
        "xnor_b32" => (Xnor, false),
        "xnor_b64" => (Xnor, true),
        "lshl_b32" => (Lshl, false),
        "lshl_b64" => (Lshl, true),
        "lshr_b32" => (Lshr, false),
        "lshr_b64" => (Lshr, true),
        "ashr_i32" => (Ashr, false),
        "ashr_i64" => (Ashr, true),
        "bfe_u32" => (BfeU, false),
        "bfe_i32" => (BfeI, false),
        "bfe_u64" => (BfeU, true),
        "bfe_i64" => (BfeI, true),
        "bfm_b32" => (Bfm, false),
        "bfm_b64" => (Bfm, true),
        "min_i32" => (MinI32, false),
        "min_u32" => (MinU32, false),
        "max_i32" => (MaxI32, false),
        "max_u32" => (MaxU32, false),
        "cselect_b32" => (Cselect, false),
        "cselect_b64" => (Cselect, true),
        "abs_i32" => (AbsI32, false),
        "absdiff_i32" => (Absdiff, false),
        "sext_i32_i8" => (SextI8, false),
        "sext_i32_i16" => (SextI16, false),
        "and_saveexec_b32" => (AndSaveexec, false),
        "and_saveexec_b64" => (AndSaveexec, true),
        "or_saveexec_b32" => (OrSaveexec, false),
        "or_saveexec_b64" => (OrSaveexec, true),
        "xor_saveexec_b32" => (XorSaveexec, false),
        "xor_saveexec_b64" => (XorSaveexec, true),
        "andn2_saveexec_b32" | "and_not1_saveexec_b32" => (AndNotSaveexec, false),
        "andn2_saveexec_b64" | "and_not1_saveexec_b64" => (AndNotSaveexec, true),
        "orn2_saveexec_b32" | "or_not1_saveexec_b32" => (OrNotSaveexec, false),
        "orn2_saveexec_b64" | "or_not1_saveexec_b64" => (OrNotSaveexec, true),
        "lshl1_add_u32" => (LshlAdd(1), false),
        "lshl2_add_u32" => (LshlAdd(2), false),
        "lshl3_add_u32" => (LshlAdd(3), false),
        "lshl4_add_u32" => (LshlAdd(4), false),
        "brev_b32" => (Brev, false),
        "brev_b64" => (Brev, true),
        "bitset0_b32" => (Bitset(false), false),
        "bitset0_b64" => (Bitset(false), true),
        "bitset1_b32" => (Bitset(true), false),
        "bitset1_b64" => (Bitset(true), true),
        "bcnt1_i32_b32" => (Bcnt1, false),
        "bcnt1_i32_b64" => (Bcnt1, true),
        "ff1_i32_b32" | "ctz_i32_b32" => (Ff1, false),
        "ff1_i32_b64" | "ctz_i32_b64" => (Ff1, true),
        "flbit_i32_b32" | "clz_i32_u32" => (Flbit, false),
        "flbit_i32_b64" | "clz_i32_u64" => (Flbit, true),
        "flbit_i32" | "cls_i32" => (Cls, false),
        "flbit_i32_i64" | "cls_i32_i64" => (Cls, true),
        "pack_ll_b32_b16" => (PackLl, false),
        "pack_lh_b32_b16" => (PackLh, false),
        "pack_hh_b32_b16" => (PackHh, false),
        _ => return None,
    };
    Some(Op::S(op.0, op.1))
}

fn condition(name: &str) -> Option<Cmp> {
    Some(match name {
        "f" => Cmp::F,
        "lt" => Cmp::Lt,
        "eq" => Cmp::Eq,
        "le" => Cmp::Le,
        "gt" => Cmp::Gt,
        "lg" | "ne" => Cmp::Ne,
        "ge" => Cmp::Ge,
        "o" => Cmp::O,
        "u" => Cmp::U,
        "nge" => Cmp::Nge,
        "nlg" => Cmp::Nlg,
        "ngt" => Cmp::Ngt,
        "nle" => Cmp::Nle,
        "neq" => Cmp::Neq,
        "nlt" => Cmp::Nlt,
        "t" | "tru" => Cmp::T,
        _ => return None,
    })
}

fn ty(name: &str) -> Option<Ty> {
    Some(match name {
        "f16" => Ty::F16,
        "f32" => Ty::F32,
        "f64" => Ty::F64,
        "i16" => Ty::I16,
        "u16" => Ty::U16,
        "i32" => Ty::I32,
        "u32" => Ty::U32,
        "i64" => Ty::I64,
        "u64" => Ty::U64,
        _ => return None,
    })
}

fn scalar_compare(rest: &str) -> Option<Op> {
    let (cond, t) = rest.split_once('_')?;
    Some(Op::SCmp(condition(cond)?, ty(t)?))
}

fn vector_compare(rest: &str, exec: bool) -> Option<Op> {
    let (cond, t) = rest.split_once('_')?;
    if cond == "class" {
        return Some(Op::VCmpClass(ty(t)?, exec));
    }
    Some(Op::VCmp(condition(cond)?, ty(t)?, exec))
}

fn mfma(rest: &str) -> Option<Op> {
    // gfx942 spells `f32_16x16x4_f32`, `f32_32x32x1_2b_f32`,
    // `f32_16x16x32_fp8_bf8`; gfx90a `f32_16x16x4f32`, `f32_32x32x1f32`
    // (2 blocks, unmarked), `f32_32x32x4bf16_1k`. The element types, shapes
    // and block counts are those of AMD's matrix instruction calculator
    // (ROCm/amd_matrix_instruction_calculator) for CDNA2 and CDNA3.
    let (output, rest) = rest.split_once('_')?;
    let dims_end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == 'x'))
        .unwrap_or(rest.len());
    let (shape, tail) = rest.split_at(dims_end);
    let mut dims = shape.split('x').map(|d| d.parse::<u8>().ok());
    let (m, n, k) = (dims.next()??, dims.next()??, dims.next()??);
    if dims.next().is_some() || m != n || m == 0 || k == 0 {
        return None;
    }
    let mut blocks = None;
    let mut types = Vec::new();
    let mut k1 = false;
    for token in tail.split('_').filter(|t| !t.is_empty()) {
        let ty = match token {
            "f64" => MatrixType::F64,
            "f32" => MatrixType::F32,
            "xf32" => MatrixType::Xf32,
            "f16" => MatrixType::F16,
            "bf16" => MatrixType::Bf16,
            "i8" => MatrixType::I8,
            "fp8" => MatrixType::Fp8,
            "bf8" => MatrixType::Bf8,
            "1k" => {
                k1 = true;
                continue;
            }
            _ => {
                blocks = Some(token.strip_suffix('b')?.parse::<u8>().ok()?);
                continue;
            }
        };
        types.push(ty);
    }
    let (a, b) = match types[..] {
        [a] => (a, a),
        [a, b]
            if matches!(a, MatrixType::Fp8 | MatrixType::Bf8)
                && matches!(b, MatrixType::Fp8 | MatrixType::Bf8) =>
        {
            (a, b)
        }
        _ => return None,
    };
    let expected_output = match a {
        MatrixType::F64 => "f64",
        MatrixType::I8 => "i32",
        _ => "f32",
    };
    if output != expected_output {
        return None;
    }
    // gfx90a's names leave the blocks unmarked: 4x4 shapes are 16 blocks
    // (f64: 4), and the 32x32 and 16x16 shapes of the smallest K of their
    // type 2 and 4 (`32x32x1f32`, `16x16x4f16`, `32x32x4i8`,
    // `32x32x4bf16_1k`, `32x32x2bf16`).
    let blocks = match blocks {
        Some(blocks) => blocks,
        None => {
            let multi_k = match a {
                MatrixType::F32 => 1,
                MatrixType::F16 | MatrixType::I8 => 4,
                MatrixType::Bf16 if k1 => 4,
                MatrixType::Bf16 => 2,
                _ => 0,
            };
            match (m, a) {
                (4, MatrixType::F64) => 4,
                (4, _) => 16,
                (32, _) if k == multi_k => 2,
                (16, _) if k == multi_k => 4,
                _ => 1,
            }
        }
    };
    // Every lane holds whole elements of A and B, and the blocks fill the
    // 64 lanes.
    let lanes = u32::from(m) * u32::from(blocks);
    if blocks == 0 || lanes > 64 || 64 % lanes != 0 || !(u32::from(k) * lanes).is_multiple_of(64) {
        return None;
    }
    Some(Op::Mfma(Mfma {
        m,
        n,
        k,
        blocks,
        a,
        b,
        sparse: false,
    }))
}

fn width(name: &str) -> Option<(u8, bool)> {
    Some(match name {
        "dword" | "b32" => (4, false),
        "dwordx2" | "b64" => (8, false),
        "dwordx3" | "b96" => (12, false),
        "dwordx4" | "b128" => (16, false),
        "ubyte" | "u8" | "byte" | "b8" => (1, false),
        "sbyte" | "i8" => (1, true),
        "ushort" | "u16" | "short" | "b16" => (2, false),
        "sshort" | "i16" => (2, true),
        _ => return None,
    })
}

fn memory(rest: &str, segment: Segment) -> Option<Op> {
    if let Some(kind) = rest.strip_prefix("atomic_") {
        return memory_atomic(kind, segment);
    }
    let (load, rest) = if let Some(r) = rest.strip_prefix("load_") {
        (true, r)
    } else {
        (false, rest.strip_prefix("store_")?)
    };
    // GFX9 spells the half-register forms as a suffix (`ubyte_d16_hi`),
    // GFX11 as a prefix (`d16_hi_u8`).
    let (rest, d16_hi) = match rest
        .strip_suffix("_d16_hi")
        .or_else(|| rest.strip_prefix("d16_hi_"))
    {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (rest, d16) = match rest
        .strip_suffix("_d16")
        .or_else(|| rest.strip_prefix("d16_"))
    {
        Some(r) => (r, true),
        None => (rest, d16_hi),
    };
    let (bytes, signed) = width(rest)?;
    let mem = Mem {
        segment,
        bytes,
        signed,
        d16_hi,
        d16,
    };
    Some(if load { Op::Load(mem) } else { Op::Store(mem) })
}

fn atomic_kind(name: &str) -> Option<(Atomic, u8)> {
    let (base, x2) = match name.strip_suffix("_x2") {
        Some(base) => (base, true),
        None => (name, false),
    };
    let (op, t) = match base.rsplit_once('_') {
        Some((op, t @ ("u32" | "i32" | "b32" | "f32" | "u64" | "i64" | "b64"))) => (op, t),
        _ => (base, ""),
    };
    let wide = x2 || t.ends_with("64");
    let signed = t.starts_with('i');
    let float = t == "f32";
    let atomic = match op {
        "add" if float => Atomic::AddF32,
        "min" | "fmin" if float || op == "fmin" => Atomic::MinF32,
        "max" | "fmax" if float || op == "fmax" => Atomic::MaxF32,
        "swap" | "wrxchg" | "storexchg" => Atomic::Swap,
        "cmpswap" | "cmpst" | "cmpstore" => Atomic::CmpSwap,
        "add" => Atomic::Add,
        "sub" => Atomic::Sub,
        "smin" => Atomic::MinI,
        "umin" => Atomic::MinU,
        "smax" => Atomic::MaxI,
        "umax" => Atomic::MaxU,
        "min" if signed => Atomic::MinI,
        "min" => Atomic::MinU,
        "max" if signed => Atomic::MaxI,
        "max" => Atomic::MaxU,
        "and" => Atomic::And,
        "or" => Atomic::Or,
        "xor" => Atomic::Xor,
        "inc" => Atomic::Inc,
        "dec" => Atomic::Dec,
        _ => return None,
    };
    Some((atomic, if wide { 8 } else { 4 }))
}

fn memory_atomic(kind: &str, segment: Segment) -> Option<Op> {
    let (atomic, bytes) = atomic_kind(kind)?;
    Some(Op::Atomic(segment, atomic, bytes))
}

/// GFX11's `2addr`/`2addr_stride64` prefixes of an LDS load or store.
fn two_addr(r: &str) -> Option<(&str, bool, bool)> {
    if let Some(r) = r.strip_prefix("2addr_stride64_") {
        return Some((r, true, true));
    }
    if let Some(r) = r.strip_prefix("2addr_") {
        return Some((r, true, false));
    }
    Some((r, false, false))
}

fn lds(m: &str) -> Option<Lds> {
    let (m, half) = match m.strip_suffix("_d16_hi") {
        Some(m) => (m, 1),
        None => match m.strip_suffix("_d16") {
            Some(m) => (m, 0),
            None => (m, 2),
        },
    };
    let high = half == 1;
    if let Some(r) = m
        .strip_prefix("read2st64_")
        .or_else(|| m.strip_prefix("load_2addr_stride64_"))
    {
        let (bytes, signed) = width(r)?;
        return Some(Lds::Load {
            bytes,
            two: true,
            st64: true,
            signed,
            half,
        });
    }
    if let Some(r) = m.strip_prefix("read2_") {
        let (bytes, signed) = width(r)?;
        return Some(Lds::Load {
            bytes,
            two: true,
            st64: false,
            signed,
            half,
        });
    }
    if let Some(r) = m.strip_prefix("write2st64_") {
        let (bytes, _) = width(r)?;
        return Some(Lds::Store {
            bytes,
            two: true,
            st64: true,
            high,
        });
    }
    if let Some(r) = m.strip_prefix("write2_") {
        let (bytes, _) = width(r)?;
        return Some(Lds::Store {
            bytes,
            two: true,
            st64: false,
            high,
        });
    }
    if let Some(r) = m.strip_prefix("read_").or_else(|| m.strip_prefix("load_")) {
        let (r, two, st64) = two_addr(r)?;
        let (bytes, signed) = width(r)?;
        return Some(Lds::Load {
            bytes,
            two,
            st64,
            signed,
            half,
        });
    }
    if let Some(r) = m
        .strip_prefix("write_")
        .or_else(|| m.strip_prefix("store_"))
    {
        let (r, two, st64) = two_addr(r)?;
        let (bytes, _) = width(r)?;
        return Some(Lds::Store {
            bytes,
            two,
            st64,
            high,
        });
    }
    match m {
        "bpermute_b32" => return Some(Lds::Bpermute),
        "permute_b32" => return Some(Lds::Permute),
        "swizzle_b32" => return Some(Lds::Swizzle),
        _ => {}
    }
    let (rest, rtn) = match m.split_once("_rtn_") {
        Some((op, t)) => (format!("{op}_{t}"), true),
        None => (m.to_string(), false),
    };
    let (op, bytes) = atomic_kind(&rest)?;
    Some(Lds::Atomic { op, bytes, rtn })
}

fn vector(m: &str) -> Option<Valu> {
    use Valu::*;
    Some(match m {
        "mov_b32" => Mov32,
        "cvt_f32_fp8" => CvtF32Fp8,
        "cvt_f32_bf8" => CvtF32Bf8,
        "cvt_pk_f32_fp8" => CvtPkF32Fp8,
        "cvt_pk_f32_bf8" => CvtPkF32Bf8,
        "cvt_pk_fp8_f32" => CvtPkFp8F32,
        "cvt_pk_bf8_f32" => CvtPkBf8F32,
        "cvt_sr_fp8_f32" => CvtSrFp8F32,
        "cvt_sr_bf8_f32" => CvtSrBf8F32,
        "accvgpr_write_b32" | "accvgpr_write" => AccvgprWrite,
        "accvgpr_read_b32" | "accvgpr_read" => AccvgprRead,
        "accvgpr_mov_b32" => AccvgprMov,
        "mov_b64" => Mov64,
        "pk_mov_b32" => PkMov32,
        "cndmask_b32" => Cndmask,
        "cndmask_b16" => CndmaskB16,
        "add_f32" => AddF32,
        "sub_f32" => SubF32,
        "subrev_f32" => SubrevF32,
        "mul_f32" => MulF32,
        "mul_legacy_f32" | "mul_dx9_zero_f32" => MulLegacyF32,
        "fma_f32" => FmaF32,
        "fmac_f32" => FmacF32,
        "mac_f32" => MacF32,
        "dot2_f32_f16" => Dot2F32F16,
        "dot2c_f32_f16" | "dot2acc_f32_f16" => Dot2cF32F16,
        "dot4_i32_i8" => Dot4I32I8,
        "dot4_u32_u8" => Dot4U32U8,
        "dot4c_i32_i8" => Dot4cI32I8,
        "dot4_i32_iu8" => Dot4I32Iu8,
        "dot2_i32_i16" => Dot2I32I16,
        "dot2_u32_u16" => Dot2U32U16,
        "dot2c_i32_i16" => Dot2cI32I16,
        "mad_f32" | "mad_legacy_f32" => MadF32,
        "fmamk_f32" => FmamkF32,
        "fmaak_f32" => FmaakF32,
        "fmamk_f16" => FmamkF16,
        "fmaak_f16" => FmaakF16,
        "madmk_f32" => MadmkF32,
        "madak_f32" => MadakF32,
        "min_f32" => MinF32,
        "max_f32" => MaxF32,
        "min3_f32" => Min3F32,
        "max3_f32" => Max3F32,
        "med3_f32" => Med3F32,
        "exp_f32" => ExpF32,
        "log_f32" => LogF32,
        "rcp_f32" => RcpF32,
        "rcp_iflag_f32" => RcpIflagF32,
        "rsq_f32" => RsqF32,
        "sqrt_f32" => SqrtF32,
        "sin_f32" => SinF32,
        "cos_f32" => CosF32,
        "rndne_f32" => RndneF32,
        "floor_f32" => FloorF32,
        "ceil_f32" => CeilF32,
        "trunc_f32" => TruncF32,
        "fract_f32" => FractF32,
        "ceil_f16" => CeilF16,
        "floor_f16" => FloorF16,
        "trunc_f16" => TruncF16,
        "rndne_f16" => RndneF16,
        "fract_f16" => FractF16,
        "sqrt_f16" => SqrtF16,
        "rcp_f16" => RcpF16,
        "rsq_f16" => RsqF16,
        "exp_f16" => ExpF16,
        "log_f16" => LogF16,
        "sin_f16" => SinF16,
        "cos_f16" => CosF16,
        "ldexp_f32" => LdexpF32,
        "frexp_mant_f32" => FrexpMantF32,
        "frexp_exp_i32_f32" => FrexpExpF32,
        "frexp_mant_f64" => FrexpMantF64,
        "frexp_exp_i32_f64" => FrexpExpF64,
        "div_scale_f32" => DivScaleF32,
        "div_fmas_f32" => DivFmasF32,
        "div_fixup_f32" => DivFixupF32,
        "add_f64" => AddF64,
        "mul_f64" => MulF64,
        "fma_f64" => FmaF64,
        "fmac_f64" => FmacF64,
        "min_f64" => MinF64,
        "max_f64" => MaxF64,
        "rcp_f64" => RcpF64,
        "rsq_f64" => RsqF64,
        "sqrt_f64" => SqrtF64,
        "ldexp_f64" => LdexpF64,
        "div_scale_f64" => DivScaleF64,
        "div_fmas_f64" => DivFmasF64,
        "div_fixup_f64" => DivFixupF64,
        "fract_f64" => FractF64,
        "rndne_f64" => RndneF64,
        "floor_f64" => FloorF64,
        "ceil_f64" => CeilF64,
        "trunc_f64" => TruncF64,
        "add_f16" => AddF16,
        "sub_f16" => SubF16,
        "subrev_f16" => SubrevF16,
        "mul_f16" => MulF16,
        "fma_f16" => FmaF16,
        "fmac_f16" => FmacF16,
        "min_f16" => MinF16,
        "max_f16" => MaxF16,
        "pk_add_f32" => PkAddF32,
        "pk_mul_f32" => PkMulF32,
        "pk_fma_f32" => PkFmaF32,
        "pk_add_f16" => PkAddF16,
        "pk_mul_f16" => PkMulF16,
        "pk_fma_f16" => PkFmaF16,
        "pk_min_f16" => PkMinF16,
        "pk_max_f16" => PkMaxF16,
        "fma_mix_f32" => FmaMixF32,
        "fma_mixlo_f16" => FmaMixloF16,
        "fma_mixhi_f16" => FmaMixhiF16,
        "pk_add_u16" => PkAddU16,
        "pk_add_i16" => PkAddI16,
        "pk_sub_u16" => PkSubU16,
        "pk_sub_i16" => PkSubI16,
        "pk_mul_lo_u16" => PkMulLoU16,
        "pk_lshlrev_b16" => PkLshlrevB16,
        "pk_lshrrev_b16" => PkLshrrevB16,
        "pk_ashrrev_i16" => PkAshrrevI16,
        "pk_min_i16" => PkMinI16,
        "pk_max_i16" => PkMaxI16,
        "pk_min_u16" => PkMinU16,
        "pk_max_u16" => PkMaxU16,
        "pack_b32_f16" => PackB32F16,
        "cvt_i32_f32" => CvtI32F32,
        "cvt_u32_f32" => CvtU32F32,
        "cvt_f32_i32" => CvtF32I32,
        "cvt_f32_u32" => CvtF32U32,
        "cvt_f16_f32" => CvtF16F32,
        "cvt_f32_f16" => CvtF32F16,
        "cvt_f64_f32" => CvtF64F32,
        "cvt_f32_f64" => CvtF32F64,
        "cvt_i32_f64" => CvtI32F64,
        "cvt_u32_f64" => CvtU32F64,
        "cvt_f64_i32" => CvtF64I32,
        "cvt_f64_u32" => CvtF64U32,
        "cvt_pkrtz_f16_f32" | "cvt_pk_rtz_f16_f32" => CvtPkrtzF16F32,
        "cvt_f32_ubyte0" => CvtF32Ubyte(0),
        "cvt_f32_ubyte1" => CvtF32Ubyte(1),
        "cvt_f32_ubyte2" => CvtF32Ubyte(2),
        "cvt_f32_ubyte3" => CvtF32Ubyte(3),
        "cvt_flr_i32_f32" | "cvt_floor_i32_f32" => CvtFlrI32F32,
        "cvt_rpi_i32_f32" | "cvt_nearest_i32_f32" => CvtRpiI32F32,
        "cvt_i16_f16" => CvtI16F16,
        "cvt_u16_f16" => CvtU16F16,
        "cvt_f16_i16" => CvtF16I16,
        "cvt_f16_u16" => CvtF16U16,
        "cvt_u32_u16" => CvtU32U16,
        "cvt_i32_i16" => CvtI32I16,
        "add_u32" | "add_nc_u32" => AddU32,
        "sub_u32" | "sub_nc_u32" => SubU32,
        "subrev_u32" | "subrev_nc_u32" => SubrevU32,
        "add_co_u32" => AddCoU32,
        "sub_co_u32" => SubCoU32,
        "subrev_co_u32" => SubrevCoU32,
        "addc_co_u32" | "add_co_ci_u32" => AddcCoU32,
        "subb_co_u32" | "sub_co_ci_u32" => SubbCoU32,
        "subbrev_co_u32" | "subrev_co_ci_u32" => SubbrevCoU32,
        "add_i32" | "add_nc_i32" => AddI32,
        "sub_i32" | "sub_nc_i32" => SubI32,
        "mul_lo_u32" => MulLoU32,
        "mul_hi_u32" => MulHiU32,
        "mul_hi_i32" => MulHiI32,
        "mul_u32_u24" => MulU32U24,
        "mul_i32_i24" => MulI32I24,
        "mul_hi_u32_u24" => MulHiU32U24,
        "mul_hi_i32_i24" => MulHiI32I24,
        "mad_u32_u24" => MadU32U24,
        "mad_i32_i24" => MadI32I24,
        "mad_u64_u32" => MadU64U32,
        "mad_i64_i32" => MadI64I32,
        "lshlrev_b32" => LshlrevB32,
        "lshrrev_b32" => LshrrevB32,
        "ashrrev_i32" => AshrrevI32,
        "and_b32" => AndB32,
        "or_b32" => OrB32,
        "xor_b32" => XorB32,
        "xnor_b32" => XnorB32,
        "not_b32" => NotB32,
        "bfe_u32" => BfeU32,
        "bfe_i32" => BfeI32,
        "bfi_b32" => BfiB32,
        "bfm_b32" => BfmB32,
        "lshl_add_u32" => LshlAddU32,
        "lshl_or_b32" => LshlOrB32,
        "add_lshl_u32" => AddLshlU32,
        "and_or_b32" => AndOrB32,
        "or3_b32" => Or3B32,
        "xor3_b32" => Xor3B32,
        "add3_u32" => Add3U32,
        "xad_u32" => XadU32,
        "min_i32" => MinI32,
        "max_i32" => MaxI32,
        "min_u32" => MinU32,
        "max_u32" => MaxU32,
        "min3_i32" => Min3I32,
        "max3_i32" => Max3I32,
        "med3_i32" => Med3I32,
        "min3_u32" => Min3U32,
        "max3_u32" => Max3U32,
        "med3_u32" => Med3U32,
        "maxmin_f32" => MaxminF32,
        "minmax_f32" => MinmaxF32,
        "maxmin_f16" => MaxminF16,
        "minmax_f16" => MinmaxF16,
        "maxmin_i32" => MaxminI32,
        "minmax_i32" => MinmaxI32,
        "maxmin_u32" => MaxminU32,
        "minmax_u32" => MinmaxU32,
        "alignbit_b32" => AlignbitB32,
        "alignbyte_b32" => AlignbyteB32,
        "perm_b32" => PermB32,
        "bcnt_u32_b32" => BcntU32,
        "mbcnt_lo_u32_b32" => Mbcnt(false),
        "mbcnt_hi_u32_b32" => Mbcnt(true),
        "ffbh_u32" | "clz_i32_u32" => FfbhU32,
        "ffbl_b32" | "ctz_i32_b32" => FfblB32,
        "ffbh_i32" | "cls_i32" => FfbhI32,
        "bfrev_b32" => BfrevB32,
        "mov_b16" => MovB16,
        "not_b16" => NotB16,
        "and_b16" => AndB16,
        "or_b16" => OrB16,
        "xor_b16" => XorB16,
        "add_u16" | "add_nc_u16" => AddU16,
        "sub_u16" | "sub_nc_u16" => SubU16,
        "subrev_u16" => SubrevU16,
        "add_i16" | "add_nc_i16" => AddI16,
        "sub_i16" | "sub_nc_i16" => SubI16,
        "mul_lo_u16" => MulLoU16,
        "lshlrev_b16" => LshlrevB16,
        "lshrrev_b16" => LshrrevB16,
        "ashrrev_i16" => AshrrevI16,
        "min_i16" => MinI16,
        "max_i16" => MaxI16,
        "min_u16" => MinU16,
        "max_u16" => MaxU16,
        "mad_u16" => MadU16,
        "mad_i16" => MadI16,
        "mad_legacy_u16" => MadLegacyU16,
        "mad_legacy_i16" => MadLegacyI16,
        "mad_u32_u16" => MadU32U16,
        "mad_i32_i16" => MadI32I16,
        "min3_u16" => Min3U16,
        "min3_i16" => Min3I16,
        "min3_f16" => Min3F16,
        "max3_u16" => Max3U16,
        "max3_i16" => Max3I16,
        "max3_f16" => Max3F16,
        "med3_u16" => Med3U16,
        "med3_i16" => Med3I16,
        "med3_f16" => Med3F16,
        "div_fixup_f16" => DivFixupF16,
        "div_fixup_legacy_f16" => DivFixupLegacyF16,
        "pk_fmac_f16" => PkFmacF16,
        "pk_mad_u16" => PkMadU16,
        "pk_mad_i16" => PkMadI16,
        "sad_u8" => SadU8,
        "sad_hi_u8" => SadHiU8,
        "sad_u16" => SadU16,
        "sad_u32" => SadU32,
        "msad_u8" => MsadU8,
        "lshlrev_b64" => LshlrevB64,
        "lshrrev_b64" => LshrrevB64,
        "ashrrev_i64" => AshrrevI64,
        "lshl_add_u64" => LshlAddU64,
        "readlane_b32" => Readlane,
        "readfirstlane_b32" => Readfirstlane,
        "writelane_b32" => Writelane,
        "permlanex16_b32" => Permlanex16,
        "permlane16_b32" => Permlane16,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GFX11's names of the half-register loads and stores are GFX9's
    /// renamed: LLVM 19's assembler takes each GFX9 spelling on gfx1100 and
    /// prints the GFX11 one (`llvm-mc-19 -mcpu=gfx1100 -show-encoding`:
    /// `global_load_ubyte_d16` is `global_load_d16_u8`, `_sbyte_d16_hi`
    /// is `_d16_hi_i8`, `_short_d16` is `_d16_b16`, `store_byte_d16_hi` is
    /// `store_d16_hi_b8`), so both name one operation.
    #[test]
    fn gfx11_half_register_names_are_gfx9_s_operations() {
        for segment in ["global", "flat", "scratch", "buffer"] {
            for (gfx11, gfx9) in [
                ("load_d16_u8", "load_ubyte_d16"),
                ("load_d16_i8", "load_sbyte_d16"),
                ("load_d16_b16", "load_short_d16"),
                ("load_d16_hi_u8", "load_ubyte_d16_hi"),
                ("load_d16_hi_i8", "load_sbyte_d16_hi"),
                ("load_d16_hi_b16", "load_short_d16_hi"),
                ("store_d16_hi_b8", "store_byte_d16_hi"),
                ("store_d16_hi_b16", "store_short_d16_hi"),
            ] {
                let (new, old) = (format!("{segment}_{gfx11}"), format!("{segment}_{gfx9}"));
                let op = Op::from_mnemonic(&new);
                assert!(op.is_some(), "{new}");
                assert_eq!(op, Op::from_mnemonic(&old), "{new} and {old}");
            }
        }
        // The packed-format forms stay unsupported under either spelling.
        assert_eq!(Op::from_mnemonic("buffer_load_d16_format_x"), None);
        assert_eq!(Op::from_mnemonic("buffer_load_format_d16_x"), None);
    }

    /// Cache write-backs and invalidations of every chip modelled (LLVM's
    /// names on gfx90a, gfx940 and gfx1100) run as no-ops.
    #[test]
    fn cache_maintenance_is_a_no_op() {
        for name in [
            "buffer_wbl2",
            "buffer_inv",
            "buffer_wbinvl1",
            "buffer_wbinvl1_vol",
            "buffer_gl0_inv",
            "buffer_gl1_inv",
        ] {
            assert_eq!(Op::from_mnemonic(name), Some(Op::Nop), "{name}");
        }
        assert_eq!(Op::from_mnemonic("v_illegal"), Some(Op::Illegal));
    }
}
