//! How faithfully each operation is executed: the class every [`Op`] the
//! tables give a mnemonic falls in, and the per-dispatch count of
//! wave-instructions by class (the fidelity account of docs/ISA.md).
//!
//! | class | operations | why |
//! |---|---|---|
//! | [`Fidelity::Exact`] | everything not below: integer, bit, f16/f32/f64 arithmetic IEEE defines (add, fma, min/max, conversions, ...), integer MFMA/WMMA, memory, LDS, atomics, branches, barriers, `s_getpc`/`s_setpc`, `s_round_mode` (only to nearest even runs), `v_illegal`; scheduling hints (`s_nop`, `s_waitcnt*`, `s_delay_alu`, `s_clause`, `s_sleep`, `s_setprio`, prefetch), whose only effect on hardware is timing, and a wave here issues in order and its accesses complete at once; GFX11's `s_sendmsg` of `MSG_DEALLOC_VGPRS`, which frees registers of a wave that is ending | the result is the one the ISA defines |
//! | [`Fidelity::Approximate`] | the transcendentals (`v_exp`, `v_log`, `v_rcp`, `v_rcp_iflag`, `v_rsq`, `v_sqrt`, `v_sin`, `v_cos`: f16, f32 and f64); `v_div_scale_f32/f64`; float `v_mfma_*`/`v_smfmac_*` and `v_wmma_*` | correctly rounded here where hardware approximates within about 1 ulp; the division's scaling not applied (VCC clear, the sequence's quotient still IEEE's); float matrix sums accumulated in f64 in K order, an order no source states |
//! | [`Fidelity::Unmodelled`] | cache write-backs and invalidations (`buffer_wbl2`, `buffer_inv`, `buffer_wbinvl1*`, `buffer_gl*_inv`, `s_dcache_*`, `s_icache_inv`, `s_gl1_inv`); messages (`s_sendmsg` but the above, `s_sethalt`, `s_ttracedata`); MODE's denormal control (`s_setreg_b32`, `s_setreg_imm32_b32`, `s_denorm_mode`) | executed with no effect where hardware has one: there are no caches, nothing receives a message, denormals are always kept |

use crate::arch::Family;
use crate::op::{MatrixType, Op, Salu, Valu, Wmma};

/// How faithfully an instruction is executed (the module's table).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fidelity {
    /// The result the ISA defines.
    #[default]
    Exact,
    /// A result that may differ from a GPU's in the last bits.
    Approximate,
    /// Executed with no effect where hardware has one.
    Unmodelled,
}

impl Fidelity {
    /// Every class, in [`FidelityCounts`]' order.
    pub const ALL: [Fidelity; 3] = [Fidelity::Exact, Fidelity::Approximate, Fidelity::Unmodelled];
}

/// GFX11's `MSG_DEALLOC_VGPRS` (LLVM's `ID_DEALLOC_VGPRS_GFX11Plus`).
const MSG_DEALLOC_VGPRS: i32 = 3;

impl Op {
    /// The operation's class (the module's table). `s_sendmsg` is
    /// [`Fidelity::Unmodelled`] here; a decoded GFX11 `s_sendmsg` of
    /// `MSG_DEALLOC_VGPRS` is counted [`Fidelity::Exact`].
    pub fn fidelity(self) -> Fidelity {
        match self {
            Op::V(valu) => valu_fidelity(valu),
            Op::Mfma(shape) if shape.a != MatrixType::I8 => Fidelity::Approximate,
            Op::Wmma(kind) if !matches!(kind, Wmma::I32Iu8 | Wmma::I32Iu4) => Fidelity::Approximate,
            Op::CacheControl | Op::Message | Op::Setreg | Op::DenormMode => Fidelity::Unmodelled,
            // GFX12's scalar transcendentals, as their per-lane forms.
            Op::S(
                Salu::RcpF32
                | Salu::RsqF32
                | Salu::SqrtF32
                | Salu::ExpF32
                | Salu::LogF32
                | Salu::RcpF16
                | Salu::RsqF16
                | Salu::SqrtF16
                | Salu::ExpF16
                | Salu::LogF16,
                _,
            ) => Fidelity::Approximate,
            Op::S(..)
            | Op::SCmp(..)
            | Op::SBitcmp(..)
            | Op::Branch(_)
            | Op::SLoad(..)
            | Op::SLoadNarrow(..)
            | Op::Endpgm
            | Op::Barrier
            | Op::Nop
            | Op::Illegal
            | Op::Getpc
            | Op::Setpc
            | Op::Swappc
            | Op::RoundMode
            | Op::VCmp(..)
            | Op::VCmpClass(..)
            | Op::Mfma(_)
            | Op::MfmaLdScale
            | Op::Wmma(_)
            | Op::Load(_)
            | Op::Store(_)
            | Op::Atomic(..)
            | Op::Lds(_) => Fidelity::Exact,
        }
    }
}

fn valu_fidelity(valu: Valu) -> Fidelity {
    use Valu::*;
    match valu {
        ExpF32 | LogF32 | RcpF32 | RcpIflagF32 | RsqF32 | SqrtF32 | SinF32 | CosF32 | ExpF16
        | LogF16 | RcpF16 | RsqF16 | SqrtF16 | SinF16 | CosF16 | RcpF64 | RsqF64 | SqrtF64
        | DivScaleF32 | DivScaleF64 => Fidelity::Approximate,
        _ => Fidelity::Exact,
    }
}

/// The class of a decoded instruction of `family` (its operation,
/// mnemonic and immediate): its operation's, but for GFX11's `s_sendmsg`
/// of `MSG_DEALLOC_VGPRS`, which LLVM puts before `s_endpgm` and which
/// frees registers of a wave that is ending.
pub(crate) fn of(op: Op, mnemonic: &str, imm: i32, family: Family) -> Fidelity {
    if op == Op::Message
        && family.rdna()
        && mnemonic == "s_sendmsg"
        && imm & 0xff == MSG_DEALLOC_VGPRS
    {
        return Fidelity::Exact;
    }
    op.fidelity()
}

/// Wave-instructions executed, by class: a VOPD pair counts once, in the
/// less faithful of its halves' classes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FidelityCounts {
    /// Indexed by `Fidelity as usize`.
    counts: [u64; 3],
}

impl FidelityCounts {
    /// Counts one wave-instruction of `class`.
    #[inline]
    pub fn add(&mut self, class: Fidelity) {
        self.counts[class as usize] += 1;
    }

    /// Wave-instructions of `class`.
    pub fn get(&self, class: Fidelity) -> u64 {
        self.counts[class as usize]
    }

    /// Every wave-instruction counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &FidelityCounts) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{GFX9, GFX11, gfx9, gfx950};

    /// Every mnemonic the tables give an operation, with that operation.
    fn rows() -> Vec<(&'static str, Op)> {
        let overrides = gfx9::GFX90A_OVERRIDES
            .iter()
            .chain(gfx950::GFX950_OVERRIDES)
            .filter_map(|&(_, _, m, op)| Some((m, op?)));
        GFX9.iter()
            .chain(&GFX11)
            .flat_map(|(_, t)| t.iter().filter_map(|&(_, m, op)| Some((m, op?))))
            .chain(overrides)
            .collect()
    }

    /// The class docs/ISA.md's fidelity section gives a mnemonic, from its
    /// name alone.
    fn documented(mnemonic: &str) -> Fidelity {
        // A VOPD half runs as the VOP2/VOP1 operation of its name.
        let owned = mnemonic.replacen("v_dual_", "v_", 1);
        let m = owned.as_str();
        const TRANSCENDENTALS: [&str; 8] = [
            "exp",
            "log",
            "rcp",
            "rcp_iflag",
            "rsq",
            "sqrt",
            "sin",
            "cos",
        ];
        let transcendental = TRANSCENDENTALS.iter().any(|t| {
            ["f16", "f32", "f64"]
                .iter()
                .any(|ty| m == format!("v_{t}_{ty}"))
        });
        let float_matrix = m.starts_with("v_mfma_f")
            || m.starts_with("v_smfmac_f")
            || ["v_wmma_f32_", "v_wmma_f16_", "v_wmma_bf16_"]
                .iter()
                .any(|p| m.starts_with(p));
        if transcendental || float_matrix || m == "v_div_scale_f32" || m == "v_div_scale_f64" {
            return Fidelity::Approximate;
        }
        const UNMODELLED: [&str; 17] = [
            "buffer_gl0_inv",
            "buffer_gl1_inv",
            "buffer_inv",
            "buffer_invl2",
            "buffer_wbinvl1",
            "buffer_wbinvl1_vol",
            "buffer_wbl2",
            "s_dcache_inv",
            "s_dcache_wb",
            "s_icache_inv",
            "s_gl1_inv",
            "s_sendmsg",
            "s_sethalt",
            "s_ttracedata",
            "s_setreg_b32",
            "s_setreg_imm32_b32",
            "s_denorm_mode",
        ];
        if UNMODELLED.contains(&m) {
            return Fidelity::Unmodelled;
        }
        Fidelity::Exact
    }

    #[test]
    fn every_operation_of_the_tables_is_in_its_documented_class() {
        let rows = rows();
        assert!(rows.len() > 2_000, "{} rows", rows.len());
        let wrong: Vec<String> = rows
            .iter()
            .filter(|(m, op)| op.fidelity() != documented(m))
            .map(|(m, op)| format!("{m}: {:?}, documented {:?}", op.fidelity(), documented(m)))
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn known_instructions_land_in_their_classes() {
        let class = |wanted: &str| {
            rows()
                .into_iter()
                .find(|&(m, _)| m == wanted)
                .map(|(_, op)| op.fidelity())
        };
        for (mnemonic, expected) in [
            ("v_exp_f32", Fidelity::Approximate),
            ("v_sin_f16", Fidelity::Approximate),
            ("v_rsq_f64", Fidelity::Approximate),
            ("v_mfma_f32_32x32x8_f16", Fidelity::Approximate),
            ("v_mfma_i32_32x32x16_i8", Fidelity::Exact),
            ("v_wmma_i32_16x16x16_iu8", Fidelity::Exact),
            ("v_fma_f32", Fidelity::Exact),
            ("v_add_u32", Fidelity::Exact),
            ("global_load_dwordx4", Fidelity::Exact),
            ("s_waitcnt", Fidelity::Exact),
            ("s_sleep", Fidelity::Exact),
            ("buffer_wbl2", Fidelity::Unmodelled),
            ("buffer_gl0_inv", Fidelity::Unmodelled),
            ("s_sethalt", Fidelity::Unmodelled),
        ] {
            assert_eq!(class(mnemonic), Some(expected), "{mnemonic}");
        }
    }

    /// GFX11's `s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)` (0xbfb60003, as
    /// LLVM ends gfx1100 kernels) counts exact, another message not.
    #[test]
    fn only_the_end_of_wave_message_is_exact() {
        use crate::arch::Chip;
        use crate::program::Program;
        let classes = |word: u32| {
            let mut code = word.to_le_bytes().to_vec();
            code.extend(0xbfb0_0000u32.to_le_bytes()); // s_endpgm
            let program = Program::decode(Chip::Gfx1100, &code).expect("decodes");
            program
                .instructions()
                .iter()
                .map(|i| i.fidelity)
                .collect::<Vec<_>>()
        };
        assert_eq!(classes(0xbfb6_0003), [Fidelity::Exact, Fidelity::Exact]);
        // sendmsg(MSG_INTERRUPT).
        assert_eq!(
            classes(0xbfb6_0001),
            [Fidelity::Unmodelled, Fidelity::Exact]
        );
    }
}
