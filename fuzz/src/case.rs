//! The byte format of a `differential` input: secrets, options, a chunking
//! with idle calls, and an input built from literal bytes and pieces of the
//! secrets' own patterns (so encoded and wrapped matches are common).
//!
//! ```text
//! flags      1 byte   bit 0: sameLength; (flags >> 1) % 5 = number of secrets n
//! plan_len   1 byte   K = plan_len % 32
//! plan       K bytes  one step each, used in a cycle until the input is pushed:
//!                     size = b & 0x3f, times 16 when bit 7 is set;
//!                     bit 6: call idle() after this push
//! secret i (n times, named S0, S1, ...):
//!   len      1 byte   L = 8 + len % 73 (8..=80)
//!   value    L bytes  (fewer if the data ends: compile may then reject it)
//!   ph       1 byte   >= 0xC0: a placeholder of (ph & 0x3f) bytes follows
//!   placeholder
//! program    the rest, until the input is 4096 bytes long:
//!   0xFE 0x00             a literal 0xFE
//!   0xFE s p w t (s != 0) pattern p % count of secret (s - 1) % n, from
//!                         `slicc_scrub::patterns(value)`; t != 0 cuts
//!                         (t & 0x7f) % (len + 1) bytes off its end, or off
//!                         its start when bit 7 is set; w != 0 inserts a line
//!                         break every (w & 0x3f) + 1 bytes, the break being
//!                         LF, CR LF, CR or LF LF by w >> 6
//!   any other byte        itself (0xFE too when there are no secrets or the
//!                         data ends)
//! ```
//!
//! Missing bytes read as 0, so every byte string is a valid case.

use slicc_scrub::{RULES_VERSION, Secret, patterns};

/// Longest input a case builds.
pub const MAX_INPUT: usize = 4096;

/// One step of the chunking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub size: usize,
    pub idle_after: bool,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub secrets: Vec<Secret>,
    pub same_length: bool,
    /// Never empty; used in a cycle.
    pub plan: Vec<Step>,
    pub input: Vec<u8>,
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    fn take(&mut self, n: usize) -> Vec<u8> {
        let start = self.pos.min(self.data.len());
        let end = (self.pos + n).min(self.data.len());
        self.pos += n;
        self.data[start..end].to_vec()
    }

    fn left(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }
}

impl Case {
    pub fn decode(data: &[u8]) -> Case {
        let mut r = Reader { data, pos: 0 };
        let flags = r.byte();
        let same_length = flags & 1 != 0;
        let n = usize::from(flags >> 1) % 5;
        let plan_len = usize::from(r.byte()) % 32;
        let mut plan: Vec<Step> = (0..plan_len)
            .map(|_| {
                let b = r.byte();
                let size = usize::from(b & 0x3f) * if b & 0x80 != 0 { 16 } else { 1 };
                Step {
                    size,
                    idle_after: b & 0x40 != 0,
                }
            })
            .collect();
        if plan.iter().all(|s| s.size == 0) {
            // No progress possible: push everything at once (after any
            // empty pushes and idle calls the plan asked for).
            plan.push(Step {
                size: MAX_INPUT,
                idle_after: false,
            });
        }
        let secrets: Vec<Secret> = (0..n)
            .map(|i| {
                let len = 8 + usize::from(r.byte()) % 73;
                let value = r.take(len);
                let ph = r.byte();
                let mut secret = Secret::new(format!("S{i}"), value);
                if ph >= 0xC0 {
                    secret.placeholder = Some(r.take(usize::from(ph & 0x3f)));
                }
                secret
            })
            .collect();
        let pieces: Vec<Vec<Vec<u8>>> = secrets
            .iter()
            .map(|s| {
                let list = patterns(&s.value).into_iter();
                list.map(|mut p| std::mem::take(&mut p.bytes)).collect()
            })
            .collect();
        let mut input = Vec::new();
        while r.left() > 0 && input.len() < MAX_INPUT {
            let b = r.byte();
            if b != 0xFE || n == 0 || r.left() == 0 {
                input.push(b);
                continue;
            }
            let s = r.byte();
            if s == 0 {
                input.push(0xFE);
                continue;
            }
            let (p, w, t) = (r.byte(), r.byte(), r.byte());
            let list = &pieces[usize::from(s - 1) % n];
            if list.is_empty() {
                continue;
            }
            let mut piece: &[u8] = &list[usize::from(p) % list.len()];
            if t != 0 {
                let cut = usize::from(t & 0x7f) % (piece.len() + 1);
                piece = if t & 0x80 != 0 {
                    &piece[cut..]
                } else {
                    &piece[..piece.len() - cut]
                };
            }
            wrap_into(piece, w, &mut input);
        }
        input.truncate(MAX_INPUT);
        Case {
            secrets,
            same_length,
            plan,
            input,
        }
    }

    /// The pushes of the plan over the whole input, in a cycle: (range,
    /// idle after). Ends with the last byte pushed; a plan of empty steps
    /// around one full push is taken once.
    pub fn steps(&self) -> Vec<(std::ops::Range<usize>, bool)> {
        let mut steps = Vec::new();
        let mut at = 0;
        for step in self.plan.iter().cycle() {
            let end = (at + step.size).min(self.input.len());
            steps.push((at..end, step.idle_after));
            at = end;
            if at == self.input.len() && steps.len() >= self.plan.len() {
                break;
            }
        }
        steps
    }
}

/// Appends `piece`, with a line break every `(w & 0x3f) + 1` bytes when
/// `w` is not 0.
fn wrap_into(piece: &[u8], w: u8, out: &mut Vec<u8>) {
    if w == 0 {
        out.extend_from_slice(piece);
        return;
    }
    let line = usize::from(w & 0x3f) + 1;
    let brk: &[u8] = match w >> 6 {
        0 => b"\n",
        1 => b"\r\n",
        2 => b"\r",
        _ => b"\n\n",
    };
    for (i, chunk) in piece.chunks(line).enumerate() {
        if i > 0 {
            out.extend_from_slice(brk);
        }
        out.extend_from_slice(chunk);
    }
}

/// The value the rules match: from version 4 on, trimmed of leading and
/// trailing CR and LF (SPEC §1).
pub fn rules_value(value: &[u8]) -> Vec<u8> {
    if RULES_VERSION < 4 {
        return value.to_vec();
    }
    let start = value
        .iter()
        .position(|&b| !is_crlf(b))
        .unwrap_or(value.len());
    let end = value
        .iter()
        .rposition(|&b| !is_crlf(b))
        .map_or(start, |i| i + 1);
    value[start..end].to_vec()
}

pub fn is_crlf(b: u8) -> bool {
    b == b'\r' || b == b'\n'
}
