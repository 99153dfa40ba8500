//! `cargo bench --bench scrub`: throughput of `Scrubber::bytes` and of
//! streams against three baselines, printed as a markdown table with the
//! performance targets checked from the same run.
//!
//! A plain harness (best of N with `std::time::Instant`) rather than
//! criterion: the ratios must come from one run, the output is one table,
//! and a time budget per measurement keeps the whole run short whatever
//! the engine's speed. `SCRUB_BENCH_QUICK=1` is a smoke run for CI: a small
//! input, one repetition, the same table. `SCRUB_BENCH_DUMP=FILE` also
//! writes the generated input to FILE.

#[path = "scrub/input.rs"]
mod input;

use std::hint::black_box;
use std::time::{Duration, Instant};

use aho_corasick::{AhoCorasick, MatchKind};
use slicc_scrub::{Options, RULES_VERSION, Scrubber, Secret, compile, patterns};

const COUNTS: [usize; 3] = [10, 100, 1_000];
/// The naive baseline runs at these counts only (it is O(input × patterns)).
const NAIVE_COUNTS: [usize; 2] = [10, 100];
const MIB: usize = 1024 * 1024;

struct Plan {
    quick: bool,
    /// Input for `bytes`, the 64 B and 4 KiB streams and the automata.
    input_len: usize,
    /// Prefix pushed one byte at a time.
    byte_push_len: usize,
    /// Prefix the naive baseline scrubs.
    naive_len: usize,
    /// Best of at most this many repetitions...
    reps: usize,
    /// ...stopping early once a measurement has taken this long.
    budget: Duration,
}

impl Plan {
    fn from_env() -> Plan {
        let quick = std::env::var("SCRUB_BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
        if quick {
            Plan {
                quick,
                input_len: MIB,
                byte_push_len: 64 * 1024,
                naive_len: 64 * 1024,
                reps: 1,
                budget: Duration::ZERO,
            }
        } else {
            Plan {
                quick,
                input_len: 16 * MIB,
                byte_push_len: MIB,
                naive_len: MIB / 2,
                reps: 10,
                budget: Duration::from_secs(2),
            }
        }
    }

    /// Runs `f` up to `reps` times (at least once, fewer when over budget)
    /// and returns the best time and the last result.
    fn best<R>(&self, mut f: impl FnMut() -> R) -> (Duration, R) {
        let started = Instant::now();
        let mut best = Duration::MAX;
        let mut last = None;
        for _ in 0..self.reps.max(1) {
            let t = Instant::now();
            let r = f();
            best = best.min(t.elapsed());
            last = Some(r);
            if started.elapsed() >= self.budget {
                break;
            }
        }
        (best, last.expect("at least one repetition"))
    }
}

/// One row of the table.
#[derive(Default)]
struct Row {
    secrets: usize,
    bytes: f64,
    stream_1: f64,
    stream_64: f64,
    stream_4k: f64,
    compile_ms: f64,
    memory_mib: f64,
    raw_only: f64,
    every_pattern: f64,
    naive: Option<f64>,
    every_patterns: usize,
    every_build_ms: f64,
    every_memory_mib: f64,
}

fn mb_per_s(len: usize, time: Duration) -> f64 {
    len as f64 / 1e6 / time.as_secs_f64()
}

fn main() {
    let plan = Plan::from_env();
    let wall = Instant::now();
    let universe = input::secrets(*COUNTS.iter().max().unwrap());
    let input = input::generate(plan.input_len, &universe);
    if let Ok(path) = std::env::var("SCRUB_BENCH_DUMP") {
        std::fs::write(&path, &input.bytes).expect("write SCRUB_BENCH_DUMP");
    }
    eprintln!(
        "scrub bench: {} input, {} plants{}",
        size(plan.input_len),
        input.plants.len(),
        if plan.quick { " (quick)" } else { "" }
    );
    let rows: Vec<Row> = COUNTS
        .iter()
        .map(|&n| {
            let row = measure(&plan, &universe[..n], &input);
            eprintln!("  {n} secrets done at {:.0?}", wall.elapsed());
            row
        })
        .collect();
    print_table(&plan, &input, &rows);
    eprintln!("scrub bench: finished in {:.1?}", wall.elapsed());
}

fn measure(plan: &Plan, secrets: &[Secret], input: &input::Input) -> Row {
    let n = secrets.len();
    let data = &input.bytes[..];
    let options = Options::new(RULES_VERSION);
    let mut row = Row {
        secrets: n,
        ..Row::default()
    };

    let (time, scrubber) = plan.best(|| compile(black_box(secrets), &options).expect("compile"));
    row.compile_ms = time.as_secs_f64() * 1e3;
    row.memory_mib = scrubber.memory_usage() as f64 / MIB as f64;

    // bytes
    let (time, expected) = plan.best(|| scrubber.bytes(black_box(data)));
    row.bytes = mb_per_s(data.len(), time);
    let found: u64 = expected.hits.iter().map(|h| h.count).sum();
    let planted = input.planted(data.len(), n);
    assert!(
        planted > 0 && found >= planted as u64,
        "{n} secrets: bytes found {found} matches, {planted} were planted"
    );
    let expected = expected.output;

    // Streams in chunks of 64 B and 4 KiB over the whole input, 1 B over a
    // prefix; each output must be exactly that of `bytes`.
    let mut out = Vec::with_capacity(data.len() + data.len() / 8);
    for (chunk, slot) in [(64, &mut row.stream_64), (4096, &mut row.stream_4k)] {
        let time = stream(plan, &scrubber, data, chunk, &mut out);
        *slot = mb_per_s(data.len(), time);
        assert!(
            out == expected,
            "{n} secrets: stream output in {chunk}-byte pushes differs from bytes"
        );
    }
    let prefix = &data[..plan.byte_push_len.min(data.len())];
    let time = stream(plan, &scrubber, prefix, 1, &mut out);
    row.stream_1 = mb_per_s(prefix.len(), time);
    assert!(
        out == scrubber.bytes(prefix).output,
        "{n} secrets: stream output in 1-byte pushes differs from bytes"
    );

    // (a) raw-only: one leftmost-longest automaton over the raw values.
    let raw: Vec<&[u8]> = secrets.iter().map(|s| &s.value[..]).collect();
    let redactions: Vec<Vec<u8>> = secrets
        .iter()
        .map(|s| format!("[redacted:{}]", s.name).into_bytes())
        .collect();
    let raw_owner: Vec<usize> = (0..n).collect();
    let ac = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&raw)
        .expect("raw automaton");
    let (time, (_, count)) =
        plan.best(|| replace_with(&ac, black_box(data), &raw_owner, &redactions));
    row.raw_only = mb_per_s(data.len(), time);
    assert!(count > 0, "{n} secrets: raw-only baseline found nothing");
    assert!(
        ac.find(&expected[..]).is_none(),
        "{n} secrets: a raw value is left in the output of bytes"
    );

    // (b) every pattern of every secret (fragments included) in one
    // leftmost-longest automaton, one pass over the input.
    let mut every: Vec<Vec<u8>> = Vec::new();
    let mut every_owner = Vec::new();
    for (i, s) in secrets.iter().enumerate() {
        for p in patterns(&s.value) {
            every.push(p.bytes.clone());
            every_owner.push(i);
        }
    }
    let built = Instant::now();
    let ac = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&every)
        .expect("every-pattern automaton");
    row.every_build_ms = built.elapsed().as_secs_f64() * 1e3;
    row.every_patterns = every.len();
    row.every_memory_mib = ac.memory_usage() as f64 / MIB as f64;
    let (time, (_, count)) =
        plan.best(|| replace_with(&ac, black_box(data), &every_owner, &redactions));
    row.every_pattern = mb_per_s(data.len(), time);
    assert!(
        count > 0,
        "{n} secrets: every-pattern baseline found nothing"
    );
    drop(ac);

    // (c) naive: each pattern of each secret in turn, over the whole buffer.
    if NAIVE_COUNTS.contains(&n) {
        let prefix = &data[..plan.naive_len.min(data.len())];
        let (time, count) = plan.best(|| naive(secrets, &redactions, black_box(prefix)));
        row.naive = Some(mb_per_s(prefix.len(), time));
        assert!(
            count > 0 || input.planted(prefix.len(), n) == 0,
            "{n} secrets: naive baseline found nothing"
        );
    }
    row
}

/// Pushes `data` through a new stream in `chunk`-byte pieces into `out`
/// (cleared, reused), best of the plan's repetitions.
fn stream(
    plan: &Plan,
    scrubber: &Scrubber,
    data: &[u8],
    chunk: usize,
    out: &mut Vec<u8>,
) -> Duration {
    plan.best(|| {
        out.clear();
        let mut stream = scrubber.stream();
        for piece in data.chunks(chunk) {
            stream.push_into(black_box(piece), out).expect("push");
        }
        stream.end_into(out).expect("end");
        black_box(&*out);
    })
    .0
}

/// A find-and-copy pass with `ac`: each match becomes the redaction of the
/// secret that owns its pattern. Returns the output and the match count.
fn replace_with(
    ac: &AhoCorasick,
    data: &[u8],
    owner: &[usize],
    redactions: &[Vec<u8>],
) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(data.len() + data.len() / 64);
    let mut last = 0;
    let mut count = 0;
    for m in ac.find_iter(data) {
        out.extend_from_slice(&data[last..m.start()]);
        out.extend_from_slice(&redactions[owner[m.pattern().as_usize()]]);
        last = m.end();
        count += 1;
    }
    out.extend_from_slice(&data[last..]);
    (black_box(out), count)
}

/// What people write by hand: for each secret, for each of its patterns,
/// replace every occurrence in the whole buffer (a plain window scan, no
/// memchr), then go on with the result.
fn naive(secrets: &[Secret], redactions: &[Vec<u8>], data: &[u8]) -> usize {
    let mut buf = data.to_vec();
    let mut next = Vec::with_capacity(buf.len());
    let mut count = 0;
    for (secret, redaction) in secrets.iter().zip(redactions) {
        for pattern in patterns(&secret.value) {
            let needle = &pattern.bytes[..];
            next.clear();
            let mut at = 0;
            while let Some(found) = buf[at..].windows(needle.len()).position(|w| w == needle) {
                next.extend_from_slice(&buf[at..at + found]);
                next.extend_from_slice(redaction);
                at += found + needle.len();
                count += 1;
            }
            next.extend_from_slice(&buf[at..]);
            std::mem::swap(&mut buf, &mut next);
        }
    }
    black_box(buf);
    count
}

fn size(len: usize) -> String {
    if len >= MIB && len.is_multiple_of(MIB) {
        format!("{} MiB", len / MIB)
    } else {
        format!("{} KiB", len / 1024)
    }
}

fn print_table(plan: &Plan, input: &input::Input, rows: &[Row]) {
    let fmt = |v: f64| {
        if v >= 100.0 {
            format!("{v:.0}")
        } else if v >= 10.0 {
            format!("{v:.1}")
        } else {
            format!("{v:.2}")
        }
    };
    println!();
    let total: usize = input.mix.iter().sum();
    let pct = |i: usize| 100.0 * input.mix[i] as f64 / total as f64;
    println!(
        "Input: {} of mixed text (log lines {:.0}%, JSON {:.0}%, base64 wrapped at 76 {:.0}%, \
         hex dumps {:.0}%, and {} planted values in several forms); 1-byte pushes over the first \
         {}, naive over the first {}. MB = 10^6 bytes; {}{}.",
        size(plan.input_len),
        pct(0),
        pct(1),
        pct(2),
        pct(3),
        input.plants.len(),
        size(plan.byte_push_len),
        size(plan.naive_len),
        if plan.reps == 1 {
            "one run".to_string()
        } else {
            format!("best of up to {} runs", plan.reps)
        },
        if plan.quick {
            " (SCRUB_BENCH_QUICK: smoke run, numbers not meaningful)"
        } else {
            ""
        }
    );
    println!();
    println!(
        "| secrets | bytes MB/s | stream 1 B MB/s | stream 64 B MB/s | stream 4 KiB MB/s | \
         compile ms | memory MiB | raw-only MB/s | every-pattern MB/s | naive MB/s |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.secrets,
            fmt(r.bytes),
            fmt(r.stream_1),
            fmt(r.stream_64),
            fmt(r.stream_4k),
            fmt(r.compile_ms),
            fmt(r.memory_mib),
            fmt(r.raw_only),
            fmt(r.every_pattern),
            r.naive.map_or("-".to_string(), fmt),
        );
    }
    println!();
    println!(
        "raw-only: one `aho_corasick` automaton (LeftmostLongest) over the raw values. \
         every-pattern: one LeftmostLongest automaton over every pattern of \
         `slicc_scrub::patterns` (fragments included, no wrapped view, no fragment \
         extension): {}. naive: each pattern of each secret replaced in turn with a \
         `windows().position()` scan.",
        rows.iter()
            .map(|r| format!(
                "{} patterns at {} secrets, built in {} ms, {} MiB",
                r.every_patterns,
                r.secrets,
                fmt(r.every_build_ms),
                fmt(r.every_memory_mib)
            ))
            .collect::<Vec<_>>()
            .join("; ")
    );
    println!();
    println!("| target | measured | goal | status |");
    println!("|---|---:|---:|---|");
    let target = |what: String, measured: Option<f64>, goal: f64| {
        let (m, status) = match measured {
            Some(m) if m.is_finite() => {
                (format!("{m:.2}×"), if m >= goal { "PASS" } else { "OPEN" })
            }
            _ => ("-".to_string(), "-"),
        };
        println!("| {what} | {m} | ≥ {goal:?}× | {status} |");
    };
    let at = |n: usize| rows.iter().find(|r| r.secrets == n);
    for n in [100, 1_000] {
        target(
            format!("`bytes` / raw-only, {n} secrets"),
            at(n).map(|r| r.bytes / r.raw_only),
            1.0,
        );
    }
    target(
        "`bytes` / every-pattern, 10 secrets".to_string(),
        at(10).map(|r| r.bytes / r.every_pattern),
        2.5,
    );
    for r in rows {
        target(
            format!("4 KiB pushes / `bytes`, {} secrets", r.secrets),
            Some(r.stream_4k / r.bytes),
            0.8,
        );
    }
    for r in rows {
        target(
            format!("1-byte pushes / `bytes`, {} secrets", r.secrets),
            Some(r.stream_1 / r.bytes),
            0.05,
        );
    }
    target(
        "`bytes` / naive, 100 secrets".to_string(),
        at(100).and_then(|r| r.naive.map(|naive| r.bytes / naive)),
        20.0,
    );
}
