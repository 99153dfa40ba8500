//! Percent encodings (SPEC §2.4): four kept sets, each in uppercase and then
//! lowercase hex.

struct Style {
    variant: &'static str,
    /// Bytes written as themselves, besides `A-Z a-z 0-9`.
    kept: &'static [u8],
    space_as_plus: bool,
}

const STYLES: [Style; 4] = [
    // encodeURIComponent
    Style {
        variant: "a",
        kept: b"-_.!~*'()",
        space_as_plus: false,
    },
    // RFC 3986, Python quote(v, safe='')
    Style {
        variant: "b",
        kept: b"-_.~",
        space_as_plus: false,
    },
    // form encoding: Python quote_plus, Go url.QueryEscape
    Style {
        variant: "c",
        kept: b"-_.~",
        space_as_plus: true,
    },
    // WHATWG URLSearchParams
    Style {
        variant: "d",
        kept: b"*-._",
        space_as_plus: true,
    },
];

pub(super) fn variants(value: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::with_capacity(8);
    for (case, digits) in [
        ("upper", b"0123456789ABCDEF"),
        ("lower", b"0123456789abcdef"),
    ] {
        for style in &STYLES {
            out.push((
                format!("{}-{case}", style.variant),
                encode(value, style, digits),
            ));
        }
    }
    out
}

fn encode(value: &[u8], style: &Style, digits: &[u8; 16]) -> Vec<u8> {
    let mut out = super::buffer(value.len() * 3);
    for &b in value {
        if b.is_ascii_alphanumeric() || style.kept.contains(&b) {
            out.push(b);
        } else if b == b' ' && style.space_as_plus {
            out.push(b'+');
        } else {
            out.extend_from_slice(&[
                b'%',
                digits[usize::from(b >> 4)],
                digits[usize::from(b & 15)],
            ]);
        }
    }
    super::exact(out)
}
