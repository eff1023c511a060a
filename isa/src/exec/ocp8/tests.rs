//! `ocp8_to_f32` and `f32_to_ocp8` against `ml_dtypes` 0.7: every byte
//! decoded, and rounding to nearest even, saturating and stochastic over
//! the inputs of `isa/tests/ocp8/table.txt` (written by its committed
//! `generate.py`; the saturating lines clip with numpy first, the
//! stochastic ones are the script's exact-fraction rule).

use super::*;

/// The oracle's lines.
const TABLE: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ocp8/table.txt"));

fn format(name: &str) -> Ocp8Format {
    match name {
        "e4m3fn" => Ocp8Format::E4m3fn,
        "e5m2" => Ocp8Format::E5m2,
        _ => panic!("format {name}"),
    }
}

fn hex(field: &str) -> u32 {
    u32::from_str_radix(field, 16).unwrap_or_else(|_| panic!("hex {field}"))
}

/// The table's lines of one kind, split into fields after the kind.
fn lines(kind: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    TABLE.lines().filter_map(move |line| {
        let mut fields = line.split(' ');
        (fields.next() == Some(kind)).then(|| fields.collect())
    })
}

#[test]
fn every_byte_decodes_as_ml_dtypes_reads_it() {
    let mut seen = 0;
    for fields in lines("decode") {
        let (f, byte, want) = (format(fields[0]), hex(fields[1]) as u8, hex(fields[2]));
        let got = ocp8_to_f32(byte, f).to_bits();
        assert_eq!(
            got, want,
            "{f:?} {byte:#04x}: {got:#010x}, ml_dtypes {want:#010x}"
        );
        seen += 1;
    }
    assert_eq!(seen, 512);
}

fn check(kind: &'static str, rounding: impl Fn(&[&str]) -> Rounding, saturate: bool) -> usize {
    let mut seen = 0;
    for fields in lines(kind) {
        let f = format(fields[0]);
        let x = f32::from_bits(hex(fields[1]));
        let want = hex(fields[fields.len() - 1]) as u8;
        let got = f32_to_ocp8(x, f, rounding(&fields), saturate);
        assert_eq!(
            got, want,
            "{kind} {f:?} {x:e} ({}): {got:#04x}, oracle {want:#04x}",
            fields[1]
        );
        seen += 1;
    }
    seen
}

#[test]
fn rounding_to_nearest_even_is_ml_dtypes() {
    assert!(check("rne", |_| Rounding::NearestEven, false) > 2000);
}

#[test]
fn saturation_is_ml_dtypes_after_a_clip() {
    assert!(check("sat", |_| Rounding::NearestEven, true) > 2000);
}

#[test]
fn stochastic_rounding_adds_the_random_words_high_bits() {
    let stochastic = |fields: &[&str]| Rounding::Stochastic(hex(fields[2]));
    assert!(check("sr", stochastic, false) > 2000);
}

#[test]
fn edges() {
    use Ocp8Format::{E4m3fn, E5m2};
    let rne = |x: f32, f| f32_to_ocp8(x, f, Rounding::NearestEven, false);
    // -0 and a negative value rounding to zero keep the sign.
    assert_eq!(rne(-0.0, E4m3fn), 0x80);
    assert_eq!(rne(-1e-9, E5m2), 0x80);
    // 464 is the tie between 448 (0x7e) and 480 (0x7f's place, the NaN):
    // to even, 448; past it, the NaN.
    assert_eq!(rne(464.0, E4m3fn), 0x7e);
    assert_eq!(rne(464.1, E4m3fn), 0x7f);
    assert_eq!(rne(-1e9, E5m2), 0xfc);
    assert_eq!(f32_to_ocp8(-1e9, E4m3fn, Rounding::NearestEven, true), 0xfe);
    assert_eq!(
        f32_to_ocp8(f32::INFINITY, E5m2, Rounding::NearestEven, true),
        0x7b
    );
    assert_eq!(ocp8_to_f32(0x7e, E4m3fn), 448.0);
    assert_eq!(ocp8_to_f32(0x01, E4m3fn), 2f32.powi(-9));
    assert_eq!(ocp8_to_f32(0xfb, E5m2), -57344.0);
    assert!(ocp8_to_f32(0x7d, E5m2).is_nan());
}
