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
    // At most 6 bytes per input byte (`\u00xx` for a control byte; a
    // surrogate pair is 12 bytes for a 4-byte scalar): the buffer never
    // grows, so no freed copy of a partial encoding is left behind.
    let mut out = super::buffer(6 * text.len());
    for c in text.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            '\r' => out.extend_from_slice(b"\\r"),
            c if (c as u32) < 0x20 => unicode_escape(&mut out, c),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if style == Style::HtmlSafe => {
                unicode_escape(&mut out, c)
            }
            '/' if style == Style::Php => out.extend_from_slice(b"\\/"),
            '\u{7f}' if style == Style::Ascii => unicode_escape(&mut out, c),
            c if !c.is_ascii() && matches!(style, Style::Ascii | Style::Php) => {
                unicode_escape(&mut out, c)
            }
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    super::exact(out)
}

/// `\uxxxx` in lowercase hex, as a UTF-16 surrogate pair above U+FFFF.
fn unicode_escape(out: &mut Vec<u8>, c: char) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut units = [0u16; 2];
    for &mut unit in c.encode_utf16(&mut units) {
        out.extend_from_slice(b"\\u");
        for shift in [12, 8, 4, 0] {
            out.push(DIGITS[usize::from(unit >> shift & 15)]);
        }
    }
}
