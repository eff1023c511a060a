//! "Did you mean": the closest of a list of known names to a name nobody
//! knows (a misspelt preset, `mi300x8`; a fault on `hipMaloc`), so that an
//! error can name it. Case, `-` and `_` are ignored (`W7900` is `w7900`,
//! `mi300x8` is `mi300x-8`); otherwise the nearest name by edit distance,
//! when it is near enough to be a slip rather than another name.

/// Longest name compared; longer inputs get no suggestion (the distance
/// table is quadratic in the length).
pub const MAX_SUGGEST_LEN: usize = 128;

/// `name` without case, `-` or `_`.
fn folded(name: &str) -> Vec<u8> {
    name.bytes()
        .filter(|b| *b != b'-' && *b != b'_')
        .map(|b| b.to_ascii_lowercase())
        .collect()
}

/// Levenshtein distance (insert, delete, substitute: 1 each), one row at a
/// time: `row[j]` is the distance between the prefix of `a` read so far and
/// `b[..j]`.
fn distance(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        // `diagonal`: the previous row's entry left of the one being replaced.
        let mut diagonal = i;
        let mut left = i + 1;
        let mut next = Vec::with_capacity(row.len());
        next.push(left);
        for (cb, above) in b.iter().zip(row.iter().skip(1)) {
            let value = (diagonal + usize::from(ca != cb))
                .min(above + 1)
                .min(left + 1);
            diagonal = *above;
            left = value;
            next.push(value);
        }
        row = next;
    }
    row.last().copied().unwrap_or(0)
}

/// The known name closest to `name`: equal once case, `-` and `_` are
/// ignored, else within an edit distance of a third of its length (at
/// least 1, at most 3); ties go to the first in `known`. `None` when
/// nothing is that close, or `name` is `known` already.
pub fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if name.len() > MAX_SUGGEST_LEN {
        return None;
    }
    let wanted = folded(name);
    let limit = (wanted.len() / 3).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    for candidate in known {
        if candidate == name {
            return None;
        }
        if candidate.len() > MAX_SUGGEST_LEN {
            continue;
        }
        let d = distance(&wanted, &folded(candidate));
        if d <= limit && best.is_none_or(|(best_d, _)| d < best_d) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRESETS: [&str; 5] = ["mi300x-8", "mi250x-4", "w7900", "mixed-isa", "cpu-only"];

    #[test]
    fn distance_is_levenshtein() {
        assert_eq!(distance(b"kitten", b"sitting"), 3);
        assert_eq!(distance(b"", b"abc"), 3);
        assert_eq!(distance(b"abc", b""), 3);
        assert_eq!(distance(b"flaw", b"lawn"), 2);
        assert_eq!(distance(b"same", b"same"), 0);
    }

    #[test]
    fn case_and_separators_are_not_differences() {
        assert_eq!(closest("mi300x8", PRESETS), Some("mi300x-8"));
        assert_eq!(closest("W7900", PRESETS), Some("w7900"));
        assert_eq!(closest("MI250X_4", PRESETS), Some("mi250x-4"));
        assert_eq!(closest("cpu_only", PRESETS), Some("cpu-only"));
    }

    #[test]
    fn slips_are_suggested_and_other_names_are_not() {
        assert_eq!(
            closest("hipMaloc", ["hipFree", "hipMalloc", "hipMallocAsync"]),
            Some("hipMalloc")
        );
        assert_eq!(closest("mi300x-4", PRESETS), Some("mi300x-8"));
        assert_eq!(closest("h100", PRESETS), None);
        assert_eq!(closest("host", PRESETS), None);
        assert_eq!(
            closest("w7900", PRESETS),
            None,
            "a known name needs no suggestion"
        );
        assert_eq!(closest("", PRESETS), None);
        assert_eq!(closest(&"x".repeat(MAX_SUGGEST_LEN + 1), PRESETS), None);
    }
}
