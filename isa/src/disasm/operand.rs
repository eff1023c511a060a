//! An operand's text as LLVM spells it: VGPRs, AGPRs and SGPRs and their
//! tuples (`v[0:1]`), the named scalar registers (`vcc`, `exec_lo`, `m0`,
//! ...), inline constants and literals, each printed according to the
//! operand's type (an integer, an f32 name such as `0.5`, the high half of
//! an f64, 16-bit halves), and offsets in hex.

use super::kind::{Imm, Kind};
use crate::arch::Family;
use crate::inst::{EXEC, M0, Operand, VCC};

/// An operand as LLVM spells it.
pub(super) fn operand(op: Operand, kind: Kind, family: Family) -> String {
    match op {
        Operand::None => String::new(),
        Operand::Sreg(r) => sreg(r, kind.regs, family),
        Operand::Vgpr(r) => range("v", u32::from(r), kind.regs),
        Operand::Agpr(r) => range("a", u32::from(r), kind.regs),
        Operand::Inline(code) => inline(code, kind.imm),
        Operand::Literal(value) => literal(value, kind.imm),
        Operand::Scc => "src_scc".to_string(),
        Operand::Vccz => "src_vccz".to_string(),
        Operand::Execz => "src_execz".to_string(),
        Operand::Null => "null".to_string(),
    }
}

/// `{prefix}N` or `{prefix}[N:M]`.
fn range(prefix: &str, first: u32, n: u8) -> String {
    if n <= 1 {
        format!("{prefix}{first}")
    } else {
        format!("{prefix}[{first}:{}]", first + u32::from(n) - 1)
    }
}

/// A scalar register (in [`Operand::Sreg`]'s numbering) of `n` dwords.
/// LLVM reads an SGPR or trap-temporary tuple from the register number
/// with its low bits cleared (pairs even, larger tuples a multiple of
/// four), as the hardware aligns it.
pub(super) fn sreg(r: u8, n: u8, family: Family) -> String {
    let pair = n == 2;
    let gfx9 = family == Family::Gfx9;
    let align = |first: u8| match n {
        0 | 1 => first,
        2 => first & !1,
        _ => first & !3,
    };
    let name = match r {
        VCC if pair => "vcc",
        VCC => "vcc_lo",
        107 => "vcc_hi",
        EXEC if pair => "exec",
        EXEC => "exec_lo",
        127 => "exec_hi",
        M0 => "m0",
        102 if gfx9 && pair => "flat_scratch",
        102 if gfx9 => "flat_scratch_lo",
        103 if gfx9 => "flat_scratch_hi",
        104 if gfx9 && pair => "xnack_mask",
        104 if gfx9 => "xnack_mask_lo",
        105 if gfx9 => "xnack_mask_hi",
        108..=123 => return range("ttmp", u32::from(align(r - 108)), n),
        _ => return range("s", u32::from(align(r)), n),
    };
    name.to_string()
}

/// `0x..` in lowercase hex.
pub(super) fn hex(value: u64) -> String {
    format!("{value:#x}")
}

/// A signed offset in hex (`-0x10`).
pub(super) fn signed_hex(value: i64) -> String {
    if value < 0 {
        format!("-{:#x}", value.unsigned_abs())
    } else {
        format!("{value:#x}")
    }
}

/// The f16 bits of inline constants 240-248.
const F16_INLINE: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];
/// How LLVM spells inline constants 240-248 (as f32 and f16).
const FLOAT_NAMES: [&str; 9] = [
    "0.5",
    "-0.5",
    "1.0",
    "-1.0",
    "2.0",
    "-2.0",
    "4.0",
    "-4.0",
    "0.15915494",
];
/// 1/(2π) at 64 bits, as LLVM prints it.
const INV_2PI_F64: &str = "0.15915494309189532";

/// An inline constant (source codes 128-208 and 240-248).
fn inline(code: u8, imm: Imm) -> String {
    match code {
        128..=192 => (i32::from(code) - 128).to_string(),
        193..=208 => (192 - i32::from(code)).to_string(),
        240..=248 => {
            let i = usize::from(code - 240);
            match imm {
                // LLVM reads a float constant in a 16-bit integer operand
                // as its f16 bits, and prints those.
                Imm::I16 => F16_INLINE
                    .get(i)
                    .map_or(String::new(), |&h| hex(u64::from(h))),
                Imm::B64 | Imm::F64 if code == 248 => INV_2PI_F64.to_string(),
                _ => FLOAT_NAMES.get(i).map_or(String::new(), |s| s.to_string()),
            }
        }
        _ => format!("/* inline constant {code} */"),
    }
}

/// The f32 constants LLVM prints by value.
fn float32_name(value: u32) -> Option<&'static str> {
    let bits: [u32; 9] = [
        0x3f00_0000,
        0xbf00_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0xc000_0000,
        0x4080_0000,
        0xc080_0000,
        0x3e22_f983,
    ];
    bits.iter()
        .position(|&b| b == value)
        .and_then(|i| FLOAT_NAMES.get(i).copied())
}

/// The f16 constants LLVM prints by value.
fn float16_name(value: u16) -> Option<&'static str> {
    F16_INLINE
        .iter()
        .position(|&b| b == value)
        .and_then(|i| FLOAT_NAMES.get(i).copied())
}

/// A literal: LLVM prints the value it decodes, so a literal that equals
/// an inline constant prints as that constant.
fn literal(value: u32, imm: Imm) -> String {
    let small = |v: i64| (-16..=64).contains(&v);
    match imm {
        Imm::K => hex(u64::from(value)),
        Imm::B32 => {
            if small(i64::from(value as i32)) {
                (value as i32).to_string()
            } else if let Some(name) = float32_name(value) {
                name.to_string()
            } else {
                hex(u64::from(value))
            }
        }
        Imm::B64 if value <= 64 => value.to_string(),
        Imm::B64 => hex(u64::from(value)),
        // The literal is the high half of the double.
        Imm::F64 => {
            let names: [(u32, &str); 8] = [
                (0x3fe0_0000, "0.5"),
                (0xbfe0_0000, "-0.5"),
                (0x3ff0_0000, "1.0"),
                (0xbff0_0000, "-1.0"),
                (0x4000_0000, "2.0"),
                (0xc000_0000, "-2.0"),
                (0x4010_0000, "4.0"),
                (0xc010_0000, "-4.0"),
            ];
            if value == 0 {
                "0".to_string()
            } else if let Some(&(_, name)) = names.iter().find(|&&(b, _)| b == value) {
                name.to_string()
            } else {
                hex(u64::from(value))
            }
        }
        // LLVM reads a 16-bit integer literal as 32 bits (a small value,
        // an f32 constant) but prints its low half in hex; a 16-bit float
        // one as 16 bits.
        Imm::I16 if small(i64::from(value as i32)) => (value as i32).to_string(),
        Imm::I16 => {
            float32_name(value).map_or_else(|| hex(u64::from(value as u16)), str::to_string)
        }
        Imm::F16 => {
            let half = value as u16;
            if small(i64::from(half as i16)) {
                (half as i16).to_string()
            } else if let Some(name) = float16_name(half) {
                name.to_string()
            } else {
                hex(u64::from(half))
            }
        }
        Imm::V2I16 | Imm::V2F16 => {
            if small(i64::from(value as i32)) {
                (value as i32).to_string()
            } else if let (Imm::V2I16, Some(name)) = (imm, float32_name(value)) {
                name.to_string()
            } else if let (Imm::V2F16, Ok(half)) = (imm, u16::try_from(value))
                && let Some(name) = float16_name(half)
            {
                name.to_string()
            } else {
                hex(u64::from(value))
            }
        }
    }
}
