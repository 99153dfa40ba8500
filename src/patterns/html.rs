//! HTML escapes (SPEC §2.5): the three common ways to write `'` and `"`.

pub(super) fn variants(value: &[u8]) -> [(&'static str, Vec<u8>); 3] {
    [
        ("a", encode(value, b"&quot;", b"&#39;")),
        // Python html.escape
        ("b", encode(value, b"&quot;", b"&#x27;")),
        // Go html.EscapeString
        ("c", encode(value, b"&#34;", b"&#39;")),
    ]
}

fn encode(value: &[u8], quot: &[u8], apos: &[u8]) -> Vec<u8> {
    // `&quot;` is the longest escape: the buffer never grows.
    let mut out = super::buffer(6 * value.len());
    for &b in value {
        match b {
            b'&' => out.extend_from_slice(b"&amp;"),
            b'<' => out.extend_from_slice(b"&lt;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            b'"' => out.extend_from_slice(quot),
            b'\'' => out.extend_from_slice(apos),
            b => out.push(b),
        }
    }
    super::exact(out)
}
