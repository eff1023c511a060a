//! The one line a failure prints on stderr: `Error: <Status>`, whatever the
//! status's text holds. Multi-line messages (a TOML parser's source excerpt,
//! the list of library paths tried) are joined with `; `, the excerpt's
//! gutter and caret lines dropped, each echoed source line and the whole
//! line capped, and control characters escaped, so scripts can rely on
//! exactly one line.

use amdgpu_hal::status::Status;

/// The longest error line printed (characters, before `Error: `); longer
/// ones end in `…`.
pub const MAX_ERROR_LINE_CHARS: usize = 2048;

/// The most characters kept of a source line an excerpt echoes (`12 | …`):
/// a line of the user's file can be arbitrarily long.
pub const MAX_ECHOED_LINE_CHARS: usize = 120;

/// `text` cut to `max` characters, with `…` when cut.
fn cap(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text.to_owned(),
    }
}

/// True for a line of a source excerpt that holds no words: a gutter
/// (`  |`) or a caret marker (`  |     ^^^`).
fn is_excerpt_decoration(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '|' | '^' | '~' | '-' | ' '))
}

/// True for a source line an excerpt echoes: `<line number> | <text>`.
fn is_echoed_source(line: &str) -> bool {
    line.split_once(" |")
        .is_some_and(|(number, _)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
}

/// One line of `message`: the lines trimmed, the empty and decoration ones
/// dropped, echoed source lines capped at [`MAX_ECHOED_LINE_CHARS`], joined
/// with `; ` (a space after a line ending in `:`), control characters
/// escaped, capped at [`MAX_ERROR_LINE_CHARS`].
pub fn one_line(message: &str) -> String {
    let mut out = String::new();
    for line in message.lines().map(str::trim) {
        if line.is_empty() || is_excerpt_decoration(line) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(if out.ends_with(':') { " " } else { "; " });
        }
        if is_echoed_source(line) {
            out.push_str(&cap(line, MAX_ECHOED_LINE_CHARS));
        } else {
            out.push_str(line);
        }
    }
    let escaped: String = out
        .chars()
        .flat_map(|c| {
            let text = if c.is_control() {
                c.escape_default().collect::<String>()
            } else {
                c.to_string()
            };
            text.chars().collect::<Vec<_>>()
        })
        .collect();
    cap(&escaped, MAX_ERROR_LINE_CHARS)
}

/// What the CLI prints on stderr for `status` (without the newline).
pub fn error_line(status: &Status) -> String {
    format!("Error: {}", one_line(&status.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toml_excerpt_becomes_one_line() {
        let toml = "machine description 'bad.toml': TOML parse error at line 2, column 5\n  |\n2 | foo bar\n  |     ^\nkey with no value, expected `=`\n";
        assert_eq!(
            one_line(toml),
            "machine description 'bad.toml': TOML parse error at line 2, column 5; 2 | foo bar; key with no value, expected `=`"
        );
    }

    #[test]
    fn a_list_of_paths_tried_becomes_one_line() {
        let text = "library not found: \n  Tried: /a/lib.so.1\n    /a/lib.so.1: cannot open\n  (candidates from VAR); opening backend 'hsa'";
        assert_eq!(
            one_line(text),
            "library not found: Tried: /a/lib.so.1; /a/lib.so.1: cannot open; (candidates from VAR); opening backend 'hsa'"
        );
    }

    #[test]
    fn long_lines_and_control_characters_are_bounded() {
        let echoed = format!("error\n1 | {}\nend", "x".repeat(10_000));
        let line = one_line(&echoed);
        assert!(line.chars().count() < MAX_ECHOED_LINE_CHARS + 20, "{line}");
        assert!(line.ends_with("…; end"), "{line}");
        let plain = "w".repeat(500);
        assert_eq!(one_line(&plain), plain, "a plain long line is not an echo");
        assert_eq!(one_line("a\tb\u{1b}[31m"), "a\\tb\\u{1b}[31m");
        let huge = vec!["word"; 10_000].join("\n");
        assert_eq!(one_line(&huge).chars().count(), MAX_ERROR_LINE_CHARS + 1);
        assert!(!one_line(&huge).contains('\n'));
    }
}
