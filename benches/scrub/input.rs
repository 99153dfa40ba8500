//! Deterministic secrets and input text for the `scrub` benchmark.
//!
//! Everything here comes from one SplitMix64 stream per purpose, so every
//! run, on every machine, measures the same bytes.

use slicc_scrub::Secret;

/// SplitMix64: small, fast, and good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0; the bias is negligible for small n).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn chars(&mut self, alphabet: &[u8], n: usize) -> Vec<u8> {
        (0..n).map(|_| *self.pick(alphabet)).collect()
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const AWS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+";

/// `count` secrets of 40 bytes, cycling through three kinds: a GitHub token
/// (`ghp_` + 36 alphanumerics), an OpenAI-style key (`sk-proj-` + 32) and an
/// AWS secret access key (40 of `A-Za-z0-9/+`, with at least one `/`, so its
/// JSON and URL encodings differ from the raw value). The first `n` secrets
/// are the same for every `count >= n`.
pub fn secrets(count: usize) -> Vec<Secret> {
    let mut rng = Rng::new(0x5ec2_e75c_2b00_0001);
    (0..count)
        .map(|i| {
            let (name, value) = match i % 3 {
                0 => {
                    let mut v = b"ghp_".to_vec();
                    v.extend(rng.chars(ALNUM, 36));
                    (format!("GH_TOKEN_{i:04}"), v)
                }
                1 => {
                    let mut v = b"sk-proj-".to_vec();
                    v.extend(rng.chars(ALNUM, 32));
                    (format!("OPENAI_KEY_{i:04}"), v)
                }
                _ => {
                    let mut v = rng.chars(AWS, 40);
                    if !v.contains(&b'/') {
                        let at = 1 + rng.below(38);
                        v[at] = b'/';
                    }
                    (format!("AWS_SECRET_{i:04}"), v)
                }
            };
            Secret::new(name, value)
        })
        .collect()
}

/// `count` multi-line values of `len` bytes, like PEM keys and certificate
/// bundles: a header, lines of 64 base64 characters, a footer. All share
/// their first 28 bytes, as real keys do.
pub fn long_secrets(count: usize, len: usize) -> Vec<Secret> {
    let mut rng = Rng::new(0x5ec2_e75c_2b00_0002 ^ len as u64);
    let head = b"-----BEGIN PRIVATE KEY-----\n";
    let foot = b"\n-----END PRIVATE KEY-----";
    (0..count)
        .map(|i| {
            let mut v = head.to_vec();
            let body = len - head.len() - foot.len();
            for j in 0..body {
                let newline = j % 65 == 64 && j + 1 < body;
                v.push(if newline { b'\n' } else { *rng.pick(STD) });
            }
            v.extend_from_slice(foot);
            Secret::new(format!("KEY_{i:04}"), v)
        })
        .collect()
}

/// The benchmark input and where secrets were planted in it.
pub struct Input {
    pub bytes: Vec<u8>,
    /// For each planted value: (end offset in `bytes`, secret index).
    pub plants: Vec<(usize, usize)>,
    /// Bytes generated of each kind: log lines, JSON bodies, base64 blobs,
    /// hex dumps, lines with a planted value.
    pub mix: [usize; 5],
}

impl Input {
    /// How many plants lie wholly within `bytes[..len]` and belong to one
    /// of the first `secrets` secrets: the least number of matches a
    /// correct scrubber finds there.
    pub fn planted(&self, len: usize, secrets: usize) -> usize {
        self.plants
            .iter()
            .filter(|&&(end, index)| end <= len && index < secrets)
            .count()
    }
}

/// `len` bytes of mixed text: log lines with timestamps and paths, JSON
/// bodies, base64 blobs wrapped at 76 columns
/// (PEM with LF, MIME with CR LF), hex dumps (`xxd` style and wrapped runs
/// of hex digits), and, about every `spacing` bytes, one planted value of one of the
/// first `universe` secrets, raw, inside base64 (inline or wrapped), JSON
/// escaped inside a JSON string, percent-encoded in a URL, or in hex. Every
/// other plant is of one of the first 10 secrets, so every secret count
/// has matches.
pub fn generate(len: usize, universe: &[Secret], spacing: usize) -> Input {
    let mut rng = Rng::new(0x1a9d_7e57_0000_0002);
    let mut out = Vec::with_capacity(len + 8192);
    let mut plants = Vec::new();
    let mut next_plant = 16 * 1024;
    let mut plant_no = 0usize;
    let mut mix = [0usize; 5];
    while out.len() < len {
        if out.len() >= next_plant {
            let index = if plant_no.is_multiple_of(2) {
                rng.below(universe.len().min(10))
            } else {
                rng.below(universe.len())
            };
            let before = out.len();
            plant(
                &mut rng,
                &mut out,
                &universe[index].value,
                (plant_no / 2) % 6,
            );
            mix[4] += out.len() - before;
            plants.push((out.len(), index));
            plant_no += 1;
            next_plant += spacing;
            continue;
        }
        let before = out.len();
        let kind = match rng.below(100) {
            0..60 => {
                log_line(&mut rng, &mut out);
                0
            }
            60..88 => {
                json_body(&mut rng, &mut out);
                1
            }
            88..94 => {
                base64_blob(&mut rng, &mut out);
                2
            }
            _ => {
                hex_dump(&mut rng, &mut out);
                3
            }
        };
        mix[kind] += out.len() - before;
    }
    out.truncate(len);
    Input {
        bytes: out,
        plants,
        mix,
    }
}

const LEVELS: &[&str] = &["INFO ", "DEBUG", "WARN ", "ERROR", "TRACE"];
const THREADS: &[&str] = &[
    "http-worker",
    "scheduler",
    "db-pool",
    "main",
    "gc",
    "tokio-rt",
];
const METHODS: &[&str] = &["GET", "POST", "PUT", "DELETE", "PATCH"];
const WORDS: &[&str] = &[
    "api", "v1", "v2", "users", "repos", "acme", "widgets", "pulls", "files", "orders", "items",
    "search", "health", "metrics", "session", "cache", "assets", "build", "release", "config",
];
const DIRS: &[&str] = &[
    "/var/log/app",
    "/srv/app/releases/20250314/lib",
    "/home/deploy/.cache/pip",
    "/usr/local/lib/python3.12/site-packages",
    "/opt/service/bin",
    "/tmp/build-7f3a",
    "C:\\Users\\runner\\work\\proj\\src",
];
const EXTS: &[&str] = &["rb", "py", "rs", "go", "ts", "json", "log", "so"];
const MESSAGES: &[&str] = &[
    "request completed",
    "cache miss, fetching from origin",
    "connection reset by peer; retrying",
    "slow query detected",
    "user authenticated via oauth",
    "rate limit window rolled over",
    "spawned child process",
    "config reloaded from disk",
];

fn timestamp(rng: &mut Rng, out: &mut Vec<u8>) {
    let line = format!(
        "2025-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        1 + rng.below(12),
        1 + rng.below(28),
        rng.below(24),
        rng.below(60),
        rng.below(60),
        rng.below(1000)
    );
    out.extend_from_slice(line.as_bytes());
}

fn url_path(rng: &mut Rng) -> String {
    let mut path = String::new();
    for _ in 0..2 + rng.below(5) {
        path.push('/');
        if rng.below(4) == 0 {
            path.push_str(&rng.below(100_000).to_string());
        } else {
            let word = *rng.pick(WORDS);
            path.push_str(word);
        }
    }
    if rng.below(2) == 0 {
        path.push_str(&format!("?page={}&per_page=100", rng.below(50)));
    }
    path
}

fn file_path(rng: &mut Rng) -> String {
    format!(
        "{}/{}_{}.{}:{}",
        rng.pick(DIRS),
        rng.pick(WORDS),
        rng.pick(WORDS),
        rng.pick(EXTS),
        1 + rng.below(2000)
    )
}

fn log_line(rng: &mut Rng, out: &mut Vec<u8>) {
    timestamp(rng, out);
    let line = match rng.below(3) {
        0 => format!(
            " {} [{}-{}] {} {} {} {}ms ua=\"curl/8.{}.0\" at {}\n",
            rng.pick(LEVELS),
            rng.pick(THREADS),
            rng.below(16),
            rng.pick(METHODS),
            url_path(rng),
            [200, 201, 204, 301, 404, 500][rng.below(6)],
            rng.below(2000),
            rng.below(10),
            file_path(rng)
        ),
        1 => format!(
            " {} [{}-{}] {} pid={} elapsed={}.{:03}s file={}\n",
            rng.pick(LEVELS),
            rng.pick(THREADS),
            rng.below(16),
            rng.pick(MESSAGES),
            1000 + rng.below(60_000),
            rng.below(30),
            rng.below(1000),
            file_path(rng)
        ),
        _ => format!(
            " {} trace_id={:016x}{:016x} span={:08x} {}\n",
            rng.pick(LEVELS),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64() as u32,
            rng.pick(MESSAGES)
        ),
    };
    out.extend_from_slice(line.as_bytes());
}

fn json_body(rng: &mut Rng, out: &mut Vec<u8>) {
    let login = format!("{}{}", rng.pick(WORDS), rng.below(1000));
    let mut tags = Vec::new();
    for _ in 0..rng.below(5) {
        tags.push(format!("\"{}\"", rng.pick(WORDS)));
    }
    let body = format!(
        "{{\"id\":{},\"login\":\"{login}\",\"node_id\":\"{}\",\"url\":\"https://api.example.com{}\",\
         \"html_url\":\"https://example.com/{login}\",\"created_at\":\"2024-{:02}-{:02}T{:02}:00:00Z\",\
         \"tags\":[{}],\"score\":0.{:04},\"site_admin\":{},\"bio\":\"{}\\n{}\",\"path\":\"{}\"}}\n",
        rng.below(10_000_000),
        String::from_utf8(base64(&rng.bytes(12), STD, true)).unwrap(),
        url_path(rng),
        1 + rng.below(12),
        1 + rng.below(28),
        rng.below(24),
        tags.join(","),
        rng.below(10_000),
        rng.below(2) == 0,
        rng.pick(MESSAGES),
        rng.pick(MESSAGES),
        file_path(rng).replace('\\', "\\\\"),
    );
    out.extend_from_slice(body.as_bytes());
}

/// A PEM (LF) or MIME (CR LF) body of random bytes, wrapped at 76 columns.
fn base64_blob(rng: &mut Rng, out: &mut Vec<u8>) {
    let n = 200 + rng.below(1300);
    let data = rng.bytes(n);
    wrapped_base64(rng, out, &data);
}

fn wrapped_base64(rng: &mut Rng, out: &mut Vec<u8>, data: &[u8]) {
    let encoded = base64(data, STD, true);
    if rng.below(2) == 0 {
        out.extend_from_slice(b"-----BEGIN CERTIFICATE-----\n");
        wrap(out, &encoded, 76, b"\n");
        out.extend_from_slice(b"-----END CERTIFICATE-----\n");
    } else {
        out.extend_from_slice(
            b"Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n",
        );
        wrap(out, &encoded, 76, b"\r\n");
        out.extend_from_slice(b"\r\n");
    }
}

/// An `xxd`-style dump of mostly-text bytes, or a run of hex digits
/// wrapped at 64 columns.
fn hex_dump(rng: &mut Rng, out: &mut Vec<u8>) {
    let n = 64 + rng.below(448);
    let data: Vec<u8> = (0..n)
        .map(|_| {
            if rng.below(4) == 0 {
                rng.next_u64() as u8
            } else {
                *rng.pick(b"abcdefghijklmnopqrstuvwxyz ,.:/=")
            }
        })
        .collect();
    if rng.below(2) == 0 {
        for (row, chunk) in data.chunks(16).enumerate() {
            let mut line = format!("{:08x}: ", row * 16);
            for pair in chunk.chunks(2) {
                for b in pair {
                    line.push_str(&format!("{b:02x}"));
                }
                line.push(' ');
            }
            line.push(' ');
            for &b in chunk {
                line.push(if b.is_ascii_graphic() || b == b' ' {
                    b as char
                } else {
                    '.'
                });
            }
            line.push('\n');
            out.extend_from_slice(line.as_bytes());
        }
    } else {
        out.extend_from_slice(b"payload (hex):\n");
        wrap(out, &hex(&data), 64, b"\n");
    }
}

/// One planted value, in the form `kind` (0..6).
fn plant(rng: &mut Rng, out: &mut Vec<u8>, value: &[u8], kind: usize) {
    let value_str = String::from_utf8(value.to_vec()).expect("benchmark values are ASCII");
    timestamp(rng, out);
    match kind {
        0 => {
            out.extend_from_slice(b" DEBUG [http-worker-2] sending Authorization: Bearer ");
            out.extend_from_slice(value);
            out.extend_from_slice(b" to upstream\n");
        }
        1 => {
            // Inline base64 of a small JSON document holding the value.
            let doc = format!(
                "{{\"user\":\"{}\",\"token\":\"{value_str}\"}}",
                rng.below(1000)
            );
            out.extend_from_slice(b" INFO  [auth] session cookie=");
            out.extend_from_slice(&base64(doc.as_bytes(), STD, true));
            out.push(b'\n');
        }
        2 => {
            // The value inside a MIME or PEM body, wrapped at 76 columns.
            let n = 100 + rng.below(400);
            let mut data = rng.bytes(n);
            let at = rng.below(data.len());
            data.splice(at..at, value.iter().copied());
            out.extend_from_slice(b" INFO  [mail] attachment follows\n");
            wrapped_base64(rng, out, &data);
        }
        3 => {
            // JSON inside a JSON string, with PHP's `\/`.
            let inner = format!(
                "{{\\\"api_key\\\":\\\"{}\\\"}}",
                value_str.replace('/', "\\/")
            );
            let line =
                format!(" INFO  [webhook] body={{\"payload\":\"{inner}\",\"retry\":false}}\n");
            out.extend_from_slice(line.as_bytes());
        }
        4 => {
            let line = format!(
                " INFO  [oauth] GET /callback?state={:x}&code={}&scope=repo HTTP/1.1\n",
                rng.next_u64(),
                percent(value)
            );
            out.extend_from_slice(line.as_bytes());
        }
        _ => {
            out.extend_from_slice(b" TRACE [kms] decrypted key bytes=");
            out.extend_from_slice(&hex(value));
            out.push(b'\n');
        }
    }
}

pub const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64(data: &[u8], alphabet: &[u8; 64], pad: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let keep = chunk.len() + 1;
        for i in 0..4 {
            if i < keep {
                out.push(alphabet[(n >> (18 - 6 * i)) as usize & 63]);
            } else if pad {
                out.push(b'=');
            }
        }
    }
    out
}

pub fn hex(data: &[u8]) -> Vec<u8> {
    data.iter()
        .flat_map(|b| format!("{b:02x}").into_bytes())
        .collect()
}

/// RFC 3986 percent-encoding, uppercase hex.
fn percent(data: &[u8]) -> String {
    let mut s = String::new();
    for &b in data {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

fn wrap(out: &mut Vec<u8>, text: &[u8], width: usize, eol: &[u8]) {
    for line in text.chunks(width) {
        out.extend_from_slice(line);
        out.extend_from_slice(eol);
    }
}
