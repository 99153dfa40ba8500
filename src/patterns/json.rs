//! JSON string bodies (SPEC §2.3): what four common encoders write for a
//! string, without the quotes.

/// The four variants, in order: ECMAScript, ASCII-only (Python), HTML-safe
/// (Go), PHP.
pub(super) fn variants(text: &str) -> [(&'static str, Vec<u8>); 4] {
    [
        ("a", encode(text, Style::Ecma)),
        ("b", encode(text, Style::Ascii)),
        ("c", encode(text, Style::HtmlSafe)),
        ("d", encode(text, Style::Php)),
    ]
}

#[derive(Clone, Copy, PartialEq)]
enum Style {
    Ecma,
    Ascii,
    HtmlSafe,
    Php,
}

fn encode(text: &str, style: Style) -> Vec<u8> {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => unicode_escape(&mut out, c),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if style == Style::HtmlSafe => {
                unicode_escape(&mut out, c)
            }
            '/' if style == Style::Php => out.push_str("\\/"),
            '\u{7f}' if style == Style::Ascii => unicode_escape(&mut out, c),
            c if !c.is_ascii() && matches!(style, Style::Ascii | Style::Php) => {
                unicode_escape(&mut out, c)
            }
            c => out.push(c),
        }
    }
    out.into_bytes()
}

/// `\uxxxx` in lowercase hex, as a UTF-16 surrogate pair above U+FFFF.
fn unicode_escape(out: &mut String, c: char) {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        out.push_str(&format!("\\u{unit:04x}"));
    }
}
