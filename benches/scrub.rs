//! `cargo bench --bench scrub`: throughput of `Scrubber::bytes` and of
//! streams against three baselines, printed as a markdown table with the
//! performance targets checked from the same run.
//!
//! A plain harness (best of N with `std::time::Instant`) rather than
//! criterion: the ratios must come from one run, the output is one table,
//! and a time budget per measurement keeps the whole run short whatever
//! the engine's speed. `SCRUB_BENCH_QUICK=1` is a smoke run for CI: a small
//! input, one repetition, the same table (also what `cargo test
//! --all-targets` runs). `SCRUB_BENCH_DUMP=FILE` also
//! writes the generated input to FILE; `SCRUB_BENCH_SHAPES=0,4` measures
//! only those shapes; `SCRUB_BENCH_ROUNDS=N` runs up to N rounds where the
//! full run has [`ROUNDS`].

#[path = "scrub/input.rs"]
mod input;

use std::hint::black_box;
use std::time::{Duration, Instant};

use aho_corasick::{AhoCorasick, MatchKind};
use slicc_scrub::{Options, RULES_VERSION, Scrubber, Secret, compile, patterns};

/// The shapes users have: many short tokens, PEM-sized multi-line keys,
/// and the longest values allowed.
const SHAPES: [Shape; 6] = [
    Shape::tokens(10),
    Shape::tokens(100),
    Shape::tokens(1_000),
    Shape::tokens(10_000),
    Shape::long(100, 4_096),
    Shape::long(10, 65_536),
];
/// The every-pattern automaton is built at these token counts only (its
/// build is slow and huge beyond).
const EVERY_COUNTS: [usize; 3] = [10, 100, 1_000];
/// The naive baseline runs at these counts only (it is O(input × patterns)).
const NAIVE_COUNTS: [usize; 2] = [10, 100];
/// Push sizes measured over the whole input (1-byte pushes run over a
/// prefix).
const PUSHES: [usize; 3] = [64, 4096, 65_536];
/// Where the output of pushes into a reused buffer is written: so many
/// bytes after the input's place in a page (see [`reused_timed`]).
const REUSED_AFTER: [usize; 2] = [8, 2048];
const MIB: usize = 1024 * 1024;
/// Rounds of a shape's measurements in a full run, at most (fewer once its
/// time budget is spent).
const ROUNDS: usize = 10;

#[derive(Clone, Copy)]
struct Shape {
    secrets: usize,
    /// Value length; 40 for the tokens (which vary a little).
    len: usize,
    tokens: bool,
}

impl Shape {
    const fn tokens(secrets: usize) -> Shape {
        Shape {
            secrets,
            len: 40,
            tokens: true,
        }
    }

    const fn long(secrets: usize, len: usize) -> Shape {
        Shape {
            secrets,
            len,
            tokens: false,
        }
    }

    fn name(&self) -> String {
        if self.tokens {
            format!("{} × 40 B", self.secrets)
        } else {
            format!("{} × {}", self.secrets, size(self.len))
        }
    }
}

struct Plan {
    quick: bool,
    /// Input for `bytes`, the streams and the baselines.
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
        // `cargo bench` passes `--bench`; `cargo test --all-targets` runs
        // this binary without it (and unoptimised): a smoke run then.
        let under_bench = std::env::args().any(|a| a == "--bench");
        let quick = !under_bench
            || std::env::var("SCRUB_BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
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
                reps: std::env::var("SCRUB_BENCH_ROUNDS").map_or(ROUNDS, |n| {
                    n.parse()
                        .expect("SCRUB_BENCH_ROUNDS: a whole number of rounds")
                }),
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
    shape: String,
    secrets: usize,
    tokens: bool,
    bytes: f64,
    stream_1: f64,
    /// MB/s per size of [`PUSHES`].
    streams: [f64; 3],
    /// MB/s of 4 KiB pushes into an output buffer emptied after each, per
    /// place of [`REUSED_AFTER`].
    reused: [f64; 2],
    compile_ms: f64,
    compile_us_per_byte: f64,
    memory_mib: f64,
    memory_per_byte: f64,
    raw_only: f64,
    every_pattern: Option<f64>,
    naive: Option<f64>,
    every_patterns: usize,
    every_build_ms: f64,
    every_memory_mib: f64,
    /// `bytes` at 100 × 40 B, in this shape's rounds (cross-shape targets).
    reference_bytes: Option<f64>,
    /// Compile of 1,000 tokens per value byte, in this shape's rounds (the
    /// linearity target, at 10,000 tokens).
    compile_ref_us_per_byte: Option<f64>,
    /// Compile of ten times this shape's values, between its rounds (at 10
    /// × 64 KiB: the 100 × 64 KiB in under 15 s).
    compile_tenfold: Option<TenfoldCompile>,
    /// First compiles of 1,000 tokens (that shape's name) and of 10,000,
    /// each in a process of its own, µs per value byte (at 10,000 tokens;
    /// beside the linearity target, which is of compile rounds in one
    /// process).
    first_tokens: Option<(String, f64, f64)>,
}

/// A compile of ten times a shape's values, the best of
/// [`TENFOLD_RUNS`] (it takes seconds), each followed by a set of the
/// shape's own compile rounds.
struct TenfoldCompile {
    shape: String,
    seconds: f64,
    /// The slowest of the runs, printed beside the best.
    slowest_seconds: f64,
    us_per_byte: f64,
    memory_mib: f64,
    memory_per_byte: f64,
    /// The best first compile of the shape and of ten times its values,
    /// each in a process of its own: µs per value byte.
    first_us_per_byte: (f64, f64),
}

/// Values of this length, this many, are also compiled ten times over
/// (the longest values, where compile takes the longest a secret).
const TENFOLD: (usize, usize) = (10, 65_536);

/// Compiles of ten times the values measured, as every other figure, the
/// best of its runs: measured once, a moment of the shared host's load
/// (it runs 1 to 1.3 times slower from one run to the next) went into the
/// linearity target whole, against the best of the shape's rounds.
const TENFOLD_RUNS: usize = 3;

/// Set in a child process of the benchmark: `COUNT,LEN` (long values) or
/// `COUNT,tokens`, compile that many values of the shape once and print
/// the seconds (see [`first_compiles`]).
const FIRST_COMPILE_ENV: &str = "SCRUB_BENCH_FIRST_COMPILE";

/// First compiles of each of two shapes (the long ones; 1,000 and 10,000
/// tokens), alternated.
const FIRST_COMPILE_RUNS: usize = 3;

fn mb_per_s(len: usize, time: Duration) -> f64 {
    len as f64 / 1e6 / time.as_secs_f64()
}

fn main() {
    if let Ok(shape) = std::env::var(FIRST_COMPILE_ENV) {
        return compile_once(&shape);
    }
    let plan = Plan::from_env();
    let wall = Instant::now();
    let max_tokens = SHAPES.iter().filter(|s| s.tokens).map(|s| s.secrets).max();
    let universe = input::secrets(max_tokens.unwrap_or(0));
    let mixed = input::generate(plan.input_len, &universe, 32 * 1024);
    if let Ok(path) = std::env::var("SCRUB_BENCH_DUMP") {
        std::fs::write(&path, &mixed.bytes).expect("write SCRUB_BENCH_DUMP");
    }
    eprintln!(
        "scrub bench: {} input, {} plants{}",
        size(plan.input_len),
        mixed.plants.len(),
        if plan.quick { " (quick)" } else { "" }
    );
    // `SCRUB_BENCH_SHAPES=0,4`: only those rows of `SHAPES` (for work on one
    // shape; the README's table is of every shape).
    let only: Option<Vec<usize>> = std::env::var("SCRUB_BENCH_SHAPES")
        .ok()
        .map(|v| v.split(',').filter_map(|i| i.trim().parse().ok()).collect());
    // The shape the cross-shape targets divide by (`bytes` at 100 × 40 B),
    // measured again in the rounds of each shape that needs it, so that a
    // change in the host's speed between shapes does not enter the ratio.
    let options = Options::new(RULES_VERSION);
    let reference = Reference {
        scrubber: compile(&universe[..REFERENCE_TOKENS], &options).expect("compile"),
        input: &mixed.bytes,
        tokens: &universe[..1_000.min(universe.len())],
    };
    let rows: Vec<Row> = SHAPES
        .iter()
        .enumerate()
        .filter(|(i, _)| only.as_ref().is_none_or(|only| only.contains(i)))
        .map(|(_, shape)| {
            let row = if shape.tokens {
                measure(&plan, shape, &universe[..shape.secrets], &mixed, &reference)
            } else {
                // The same mixed text, with this shape's values planted in
                // it now and then (one every 64 value lengths: a key printed
                // once in a while, 2 to 3% of the bytes).
                let secrets = input::long_secrets(shape.secrets, shape.len);
                let spacing = (64 * shape.len).max(32 * 1024);
                let input = input::generate(plan.input_len, &secrets, spacing);
                measure(&plan, shape, &secrets, &input, &reference)
            };
            eprintln!("  {} done at {:.0?}", shape.name(), wall.elapsed());
            row
        })
        .collect();
    print_table(&plan, &mixed, &rows);
    eprintln!("scrub bench: finished in {:.1?}", wall.elapsed());
}

/// What the cross-shape targets divide by: `bytes` at 100 × 40 B over the
/// mixed input, and compile of 1,000 tokens.
struct Reference<'a> {
    scrubber: Scrubber,
    input: &'a [u8],
    tokens: &'a [Secret],
}

const REFERENCE_TOKENS: usize = 100;

/// Which run of a round a measurement's `run` is asked for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// The untimed run before the timed one (see [`rounds`]): its result
    /// is not checked, so that the next run starts from the state the work
    /// leaves, not from that of a check.
    WarmUp,
    /// The timed run: its result is checked, after its time is taken.
    Timed,
}

/// One measurement of a shape's rounds: `run` does the work once and
/// returns the time it took (checks of its result stay outside it).
struct Timed<'a> {
    best: Duration,
    run: Box<dyn FnMut(Pass) -> Duration + 'a>,
}

impl<'a> Timed<'a> {
    fn new(run: impl FnMut(Pass) -> Duration + 'a) -> Timed<'a> {
        Timed {
            best: Duration::MAX,
            run: Box::new(run),
        }
    }
}

/// Runs every measurement once a round, in turn, for the plan's
/// repetitions (fewer once the shape's budget is spent, at least one):
/// each is the best of its rounds, and the ratios between them are taken
/// over the same stretch of time, whatever the shared host does.
///
/// Each timed run comes right after an untimed run of the same work (not
/// in a smoke run, whose figures mean nothing), so that every measurement
/// starts from the state that work leaves, its scrubber's sets in the
/// cache: a throughput, not a first pass. The untimed runs count against
/// the budget. Timed once in turn, `bytes`, first in its round after the
/// baselines, started with a large engine's sets out of the cache where
/// each push came after another run of the same scrubber, and the push
/// ratios read up to a tenth too high (`benches/MEASUREMENTS.md`, the
/// thirty-fourth session). Nothing else comes between the two runs: the
/// untimed run's result is not checked (see [`Pass`]). Where the streams'
/// was, the check read 32 MiB between them and the timed pushes started
/// with the sets out of the cache, `bytes` not: 4 KiB pushes read 0.00 to
/// 0.07 x of `bytes` lower at 10,000 tokens and 10 x 64 KiB, in three runs
/// with both in the same rounds (the forty-first session).
fn rounds(plan: &Plan, timed: &mut [Timed]) {
    let started = Instant::now();
    let budget = plan.budget * timed.len() as u32;
    for _ in 0..plan.reps.max(1) {
        for t in timed.iter_mut() {
            if !plan.quick {
                (t.run)(Pass::WarmUp);
            }
            t.best = t.best.min((t.run)(Pass::Timed));
        }
        if started.elapsed() >= budget {
            break;
        }
    }
}

/// The line under the tables that gives first compiles of two shapes
/// (name, µs per value byte), each in a process of its own, and why the
/// linearity target beside them reads otherwise.
fn print_first_compiles(small: (&str, f64), large: (&str, f64), why: &str) {
    println!();
    println!(
        "First compiles, each in a process of its own (best of {}, alternated): {} {} µs per \
         value byte, {} {} µs, {}× (the linearity target below {}).",
        FIRST_COMPILE_RUNS,
        small.0,
        fmt(small.1),
        large.0,
        fmt(large.1),
        fmt(large.1 / small.1),
        why
    );
}

/// In a child process: compiles `COUNT,LEN` long values or `COUNT,tokens`
/// tokens once and prints the seconds it took.
fn compile_once(shape: &str) {
    let (count, len) = shape.split_once(',').expect("COUNT,LEN or COUNT,tokens");
    let count: usize = count.parse().expect("a count");
    let secrets = match len {
        "tokens" => input::secrets(count),
        len => input::long_secrets(count, len.parse().expect("a length")),
    };
    let options = Options::new(RULES_VERSION);
    let (time, _) = timed(|| compile(black_box(&secrets), &options).expect("compile"));
    println!("{}", time.as_secs_f64());
}

/// The best first compile of each of `shapes`, each in a process of its
/// own (this benchmark again, see [`compile_once`]), in µs per value byte:
/// where a process compiles one set, none of its buffers is memory the
/// allocator kept from a compile before, nor in the cache.
fn first_compiles(shapes: [Shape; 2], runs: usize) -> [f64; 2] {
    let exe = std::env::current_exe().expect("the benchmark's path");
    let mut best = [f64::MAX; 2];
    for _ in 0..runs {
        for (i, shape) in shapes.iter().enumerate() {
            let (count, len) = (shape.secrets, shape.len);
            let kind = match shape.tokens {
                true => "tokens".to_string(),
                false => len.to_string(),
            };
            let out = std::process::Command::new(&exe)
                .env(FIRST_COMPILE_ENV, format!("{count},{kind}"))
                .stderr(std::process::Stdio::inherit())
                .output()
                .expect("run the benchmark for one compile");
            assert!(out.status.success(), "a first compile failed");
            let seconds: f64 = String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .expect("seconds");
            best[i] = best[i].min(seconds * 1e6 / (count * len) as f64);
        }
    }
    best
}

fn timed<R>(f: impl FnOnce() -> R) -> (Duration, R) {
    let t = Instant::now();
    let r = f();
    (t.elapsed(), r)
}

fn measure(
    plan: &Plan,
    shape: &Shape,
    secrets: &[Secret],
    input: &input::Input,
    reference: &Reference,
) -> Row {
    let n = secrets.len();
    let data = &input.bytes[..];
    let options = Options::new(RULES_VERSION);
    let value_bytes: usize = secrets.iter().map(|s| s.value.len()).sum();
    let mut row = Row {
        shape: shape.name(),
        secrets: n,
        tokens: shape.tokens,
        ..Row::default()
    };

    // Compile; at 10,000 tokens in rounds with 1,000 (the linearity target).
    let compile_of = |secrets: &[Secret]| {
        let secrets = black_box(secrets);
        timed(|| compile(secrets, &options).expect("compile")).0
    };
    let linear = shape.tokens && n == 10_000 && reference.tokens.len() == 1_000;
    let mut compiles = vec![Timed::new(|_| compile_of(secrets))];
    if linear {
        compiles.push(Timed::new(|_| compile_of(reference.tokens)));
    }
    rounds(plan, &mut compiles);
    if linear && !plan.quick {
        let small_shape = Shape::tokens(reference.tokens.len());
        let [small, large] = first_compiles([small_shape, Shape::tokens(n)], FIRST_COMPILE_RUNS);
        row.first_tokens = Some((small_shape.name(), small, large));
    }
    // Ten times the values, then this shape's rounds again, a few times:
    // the best of each spans the time of all.
    if !plan.quick && !shape.tokens && (n, shape.len) == TENFOLD {
        let tenfold = input::long_secrets(10 * n, shape.len);
        let (mut best, mut slowest, mut memory) = (Duration::MAX, Duration::ZERO, 0);
        for _ in 0..TENFOLD_RUNS {
            let (time, scrubber) =
                timed(|| compile(black_box(&tenfold), &options).expect("compile"));
            (best, slowest) = (best.min(time), slowest.max(time));
            memory = scrubber.memory_usage();
            drop(scrubber);
            rounds(plan, &mut compiles);
        }
        let bytes = (10 * value_bytes) as f64;
        let [small, large] = first_compiles(
            [Shape::long(n, shape.len), Shape::long(10 * n, shape.len)],
            FIRST_COMPILE_RUNS,
        );
        row.compile_tenfold = Some(TenfoldCompile {
            shape: Shape::long(10 * n, shape.len).name(),
            seconds: best.as_secs_f64(),
            slowest_seconds: slowest.as_secs_f64(),
            us_per_byte: best.as_secs_f64() * 1e6 / bytes,
            memory_mib: memory as f64 / MIB as f64,
            memory_per_byte: memory as f64 / bytes,
            first_us_per_byte: (small, large),
        });
    }
    row.compile_ms = compiles[0].best.as_secs_f64() * 1e3;
    row.compile_us_per_byte = compiles[0].best.as_secs_f64() * 1e6 / value_bytes as f64;
    if linear {
        let bytes: usize = reference.tokens.iter().map(|s| s.value.len()).sum();
        row.compile_ref_us_per_byte = Some(compiles[1].best.as_secs_f64() * 1e6 / bytes as f64);
    }
    drop(compiles);
    let scrubber = compile(secrets, &options).expect("compile");
    row.memory_mib = scrubber.memory_usage() as f64 / MIB as f64;
    row.memory_per_byte = scrubber.memory_usage() as f64 / value_bytes as f64;

    let expected = scrubber.bytes(data);
    let found: u64 = expected.hits.iter().map(|h| h.count).sum();
    let planted = input.planted(data.len(), n);
    assert!(
        planted > 0 && found >= planted as u64,
        "{}: bytes found {found} matches, {planted} were planted",
        row.shape
    );
    let expected = expected.output;
    let prefix = &data[..plan.byte_push_len.min(data.len())];
    let expected_prefix = scrubber.bytes(prefix).output;

    // The baselines. (a) raw-only: one leftmost-longest automaton over the
    // raw values.
    let raw: Vec<&[u8]> = secrets.iter().map(|s| &s.value[..]).collect();
    let redactions: Vec<Vec<u8>> = secrets
        .iter()
        .map(|s| format!("[redacted:{}]", s.name).into_bytes())
        .collect();
    let raw_owner: Vec<usize> = (0..n).collect();
    let raw_ac = AhoCorasick::builder()
        .match_kind(MatchKind::LeftmostLongest)
        .build(&raw)
        .expect("raw automaton");
    assert!(
        raw_ac.find(&expected[..]).is_none(),
        "{}: a raw value is left in the output of bytes",
        row.shape
    );
    // (b) every pattern of every secret (fragments included) in one
    // leftmost-longest automaton, one pass over the input.
    let every = (shape.tokens && EVERY_COUNTS.contains(&n)).then(|| {
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
        (ac, every_owner)
    });

    // `bytes`, the streams and the baselines in rounds. Streams in chunks
    // of 64 B, 4 KiB and 64 KiB over the whole input, 1 B over a prefix;
    // each output must be exactly that of `bytes`.
    let name = &row.shape;
    let stream_of = |data, expected, chunk| stream_timed(&scrubber, data, expected, chunk, name);
    let reused_of = |after| reused_timed(&scrubber, data, &expected, after, name);
    let mut timed_all = vec![
        Timed::new(|_| timed(|| scrubber.bytes(black_box(data))).0),
        Timed::new(stream_of(data, &expected, PUSHES[0])),
        Timed::new(stream_of(data, &expected, PUSHES[1])),
        Timed::new(stream_of(data, &expected, PUSHES[2])),
        Timed::new(stream_of(prefix, &expected_prefix, 1)),
        Timed::new(reused_of(REUSED_AFTER[0])),
        Timed::new(reused_of(REUSED_AFTER[1])),
        Timed::new(|_| {
            let (time, (_, count)) =
                timed(|| replace_with(&raw_ac, black_box(data), &raw_owner, &redactions));
            assert!(count > 0, "{name}: raw-only baseline found nothing");
            time
        }),
    ];
    let cross = (shape.tokens && n == 10_000) || (!shape.tokens && n == 100);
    if cross {
        let (scrubber, input) = (&reference.scrubber, reference.input);
        timed_all.push(Timed::new(move |_| {
            timed(|| scrubber.bytes(black_box(input))).0
        }));
    }
    if let Some((ac, owner)) = &every {
        timed_all.push(Timed::new(|_| {
            let (time, (_, count)) =
                timed(|| replace_with(ac, black_box(data), owner, &redactions));
            assert!(count > 0, "{name}: every-pattern baseline found nothing");
            time
        }));
    }
    rounds(plan, &mut timed_all);
    let best: Vec<Duration> = timed_all.iter().map(|t| t.best).collect();
    drop(timed_all);
    row.bytes = mb_per_s(data.len(), best[0]);
    for i in 0..PUSHES.len() {
        row.streams[i] = mb_per_s(data.len(), best[1 + i]);
    }
    row.stream_1 = mb_per_s(prefix.len(), best[4]);
    row.reused = [5, 6].map(|i| mb_per_s(data.len(), best[i]));
    row.raw_only = mb_per_s(data.len(), best[7]);
    let mut next = 8;
    if cross {
        row.reference_bytes = Some(mb_per_s(reference.input.len(), best[next]));
        next += 1;
    }
    if every.is_some() {
        row.every_pattern = Some(mb_per_s(data.len(), best[next]));
    }

    // (c) naive: each pattern of each secret in turn, over the whole buffer
    // (far from its target: measured apart, best of the plan's runs).
    if shape.tokens && NAIVE_COUNTS.contains(&n) {
        let prefix = &data[..plan.naive_len.min(data.len())];
        let (time, count) = plan.best(|| naive(secrets, &redactions, black_box(prefix)));
        row.naive = Some(mb_per_s(prefix.len(), time));
        assert!(
            count > 0 || input.planted(prefix.len(), n) == 0,
            "{}: naive baseline found nothing",
            row.shape
        );
    }
    row
}

/// A measurement of `data` through a stream in `chunk`-byte pieces, whose
/// output must be `expected` (checked after each timed run). The untimed
/// run before it is not checked: its check read the output and `expected`,
/// twice the input, which pushed the scrubber's sets out of the
/// third-level cache (32 MiB here) right before the timed run, where
/// `bytes`' timed run starts from the state its own run leaves.
fn stream_timed<'a>(
    scrubber: &'a Scrubber,
    data: &'a [u8],
    expected: &'a [u8],
    chunk: usize,
    name: &'a str,
) -> impl FnMut(Pass) -> Duration + 'a {
    let mut out = Vec::with_capacity(data.len() + data.len() / 8);
    move |pass| {
        let time = timed(|| stream(scrubber, data, chunk, &mut out)).0;
        assert!(
            pass == Pass::WarmUp || out == expected,
            "{name}: stream output in {chunk}-byte pushes differs from bytes"
        );
        time
    }
}

/// A measurement of `data` through a stream in 4 KiB pushes into one
/// output buffer emptied after each push (see [`push_reused`]; as the C
/// ABI, the command line tool and the bindings use theirs), written
/// `after` bytes after the input's place in a page (give or take the few
/// held bytes a push releases first): where the system's `memcpy` copies
/// with `rep movsb`, that place decides its speed (see
/// `src/engine/append.rs`). Each push's output must be that of `bytes`
/// there (checked in a first, untimed run).
fn reused_timed<'a>(
    scrubber: &'a Scrubber,
    data: &'a [u8],
    expected: &'a [u8],
    after: usize,
    name: &'a str,
) -> impl FnMut(Pass) -> Duration + 'a {
    // Room for what a push releases at most (a held pattern of the
    // longest value, wrapped, and the push), so that the buffer never
    // moves.
    let mut out = Vec::with_capacity(256 * 1024);
    let at = (data.as_ptr() as usize + after).wrapping_sub(out.as_ptr() as usize) % 4096;
    out.resize(at, 0);
    let mut checked = false;
    move |_| {
        if !checked {
            let mut emitted = 0;
            push_reused(scrubber, data, &mut out, at, |piece| {
                assert!(
                    expected[emitted..].starts_with(piece),
                    "{name}: pushes into a reused buffer differ from bytes"
                );
                emitted += piece.len();
            });
            assert_eq!(
                emitted,
                expected.len(),
                "{name}: reused buffer, output lost"
            );
            checked = true;
        }
        timed(|| {
            push_reused(scrubber, data, &mut out, at, |piece| {
                black_box(piece);
            })
        })
        .0
    }
}

/// Pushes `data` through a new stream in 4 KiB pieces into `out`, whose
/// first `at` bytes stay: `take` gets each push's output (and the end's),
/// which is then dropped.
fn push_reused(
    scrubber: &Scrubber,
    data: &[u8],
    out: &mut Vec<u8>,
    at: usize,
    mut take: impl FnMut(&[u8]),
) {
    let mut stream = scrubber.stream();
    for piece in data.chunks(4096) {
        stream.push_into(black_box(piece), out).expect("push");
        take(&out[at..]);
        out.truncate(at);
    }
    stream.end_into(out).expect("end");
    take(&out[at..]);
    out.truncate(at);
}

/// Pushes `data` through a new stream in `chunk`-byte pieces into `out`
/// (cleared, reused).
fn stream(scrubber: &Scrubber, data: &[u8], chunk: usize, out: &mut Vec<u8>) {
    out.clear();
    let mut stream = scrubber.stream();
    for piece in data.chunks(chunk) {
        stream.push_into(black_box(piece), out).expect("push");
    }
    stream.end_into(out).expect("end");
    black_box(&*out);
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

/// A figure of the tables, to three significant digits or so.
fn fmt(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else if v >= 0.1 {
        format!("{v:.2}")
    } else {
        // Small ratios (1 B pushes near 0.02 ×) with a third decimal.
        format!("{v:.3}")
    }
}

fn print_table(plan: &Plan, input: &input::Input, rows: &[Row]) {
    println!();
    let total: usize = input.mix.iter().sum();
    let pct = |i: usize| 100.0 * input.mix[i] as f64 / total as f64;
    println!(
        "Input: {} of mixed text (log lines {:.0}%, JSON {:.0}%, base64 wrapped at 76 {:.0}%, \
         hex dumps {:.0}%, and {} planted values in several forms: raw, base64 inline and \
         wrapped, JSON in JSON, percent, hex); the long-value shapes plant their own values \
         (PEM-like, multi-line) in the same text, one every 64 value lengths. 1-byte pushes over \
         the first {}, naive over the first {}. MB = 10^6 bytes; {}{}. The machine is shared \
         and noisy: compare ratios within one run, not absolute figures across runs.",
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
            format!(
                "best of up to {} rounds (in a round, each measurement of a shape in turn, timed after an untimed run of the same work, so that it starts with its scrubber's data in the cache)",
                plan.reps
            )
        },
        if plan.quick {
            " (SCRUB_BENCH_QUICK: smoke run, numbers not meaningful)"
        } else {
            ""
        }
    );
    println!();
    println!(
        "| shape | bytes MB/s | push 1 B | push 64 B | push 4 KiB | push 64 KiB | \
         compile ms | µs/value byte | memory MiB | bytes/value byte | raw-only MB/s | \
         every-pattern MB/s | naive MB/s |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let opt = |v: Option<f64>| v.map_or("-".to_string(), fmt);
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.shape,
            fmt(r.bytes),
            fmt(r.stream_1),
            fmt(r.streams[0]),
            fmt(r.streams[1]),
            fmt(r.streams[2]),
            fmt(r.compile_ms),
            fmt(r.compile_us_per_byte),
            fmt(r.memory_mib),
            fmt(r.memory_per_byte),
            fmt(r.raw_only),
            opt(r.every_pattern),
            opt(r.naive),
        );
    }
    println!();
    println!(
        "4 KiB pushes into an output buffer emptied after each push (as the C ABI, the command \
         line tool and the bindings use theirs), its output written {} or {} bytes after the \
         input's place in a page, against `bytes` (see `src/engine/append.rs`):",
        REUSED_AFTER[0], REUSED_AFTER[1]
    );
    println!();
    println!(
        "| shape | bytes MB/s | reused, {} B after, MB/s | / `bytes` | reused, {} B after, MB/s | / `bytes` |",
        REUSED_AFTER[0], REUSED_AFTER[1]
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for r in rows {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            r.shape,
            fmt(r.bytes),
            fmt(r.reused[0]),
            fmt(r.reused[0] / r.bytes),
            fmt(r.reused[1]),
            fmt(r.reused[1] / r.bytes),
        );
    }
    println!();
    println!(
        "Push columns are MB/s of a stream fed in pieces of that size. raw-only: one \
         `aho_corasick` automaton (LeftmostLongest) over the raw values. every-pattern: one \
         LeftmostLongest automaton over every pattern of `slicc_scrub::patterns` (fragments \
         included, no wrapped view, no fragment extension): {}. naive: each pattern of each \
         secret replaced in turn with a `windows().position()` scan.",
        rows.iter()
            .filter(|r| r.every_pattern.is_some())
            .map(|r| format!(
                "{} patterns at {}, built in {} ms, {} MiB",
                r.every_patterns,
                r.shape,
                fmt(r.every_build_ms),
                fmt(r.every_memory_mib)
            ))
            .collect::<Vec<_>>()
            .join("; ")
    );
    for r in rows {
        if let Some(t) = &r.compile_tenfold {
            println!();
            println!(
                "Compile only, {}: {} s (best of {}, the slowest {} s), {} µs per value byte, \
                 {} MiB ({} bytes per value byte), each run followed by compile rounds of {}.",
                t.shape,
                fmt(t.seconds),
                TENFOLD_RUNS,
                fmt(t.slowest_seconds),
                fmt(t.us_per_byte),
                fmt(t.memory_mib),
                fmt(t.memory_per_byte),
                r.shape
            );
            let (small, large) = t.first_us_per_byte;
            let why = format!(
                "divides by the best of {}'s compile rounds in this process, which reuse buffers \
                 the allocator kept from the round before, where it maps those of {} anew at \
                 each compile",
                r.shape, t.shape
            );
            print_first_compiles((&r.shape, small), (&t.shape, large), &why);
        }
        if let Some((small_shape, small, large)) = &r.first_tokens {
            let why = format!(
                "divides the best of their compile rounds in this process, where those of {} \
                 find their buffers in memory the allocator kept from the round before, and \
                 much of what they read in the cache",
                small_shape
            );
            print_first_compiles((small_shape, *small), (&r.shape, *large), &why);
        }
    }
    println!();
    println!("| target | measured | goal | status |");
    println!("|---|---:|---:|---|");
    // `at_least`: the measured ratio must reach the goal; otherwise it must
    // stay under it.
    let target = |what: String, measured: Option<f64>, goal: f64, at_least: bool, unit: &str| {
        let (m, status) = match measured {
            Some(m) if m.is_finite() => {
                let meets = |v: f64| if at_least { v >= goal } else { v <= goal };
                let pass = meets(m);
                // A figure that its rounding puts on the other side of
                // the goal (0.0196 printed as 0.020) gets more digits.
                let mut shown = fmt(m);
                if shown.parse::<f64>().is_ok_and(|s| meets(s) != pass) {
                    shown = format!("{m:.4}");
                }
                (format!("{shown}{unit}"), if pass { "PASS" } else { "OPEN" })
            }
            _ => ("-".to_string(), "-"),
        };
        let sign = if at_least { "≥" } else { "≤" };
        println!("| {what} | {m} | {sign} {goal}{unit} | {status} |");
    };
    let tokens = |n: usize| rows.iter().find(|r| r.tokens && r.secrets == n);
    for r in rows {
        if let Some(base) = r.reference_bytes {
            target(
                format!("`bytes` at {} / `bytes` at 100 × 40 B", r.shape),
                Some(r.bytes / base),
                0.5,
                true,
                "×",
            );
        }
    }
    for r in rows {
        target(
            format!("4 KiB pushes / `bytes`, {}", r.shape),
            Some(r.streams[1] / r.bytes),
            0.8,
            true,
            "×",
        );
    }
    for r in rows {
        target(
            format!("64 B pushes / `bytes`, {} (0.1× is the moonshot)", r.shape),
            Some(r.streams[0] / r.bytes),
            0.05,
            true,
            "×",
        );
    }
    for r in rows {
        target(
            format!("1 B pushes / `bytes`, {}", r.shape),
            Some(r.stream_1 / r.bytes),
            0.02,
            true,
            "×",
        );
    }
    for r in rows {
        target(
            format!("compile, µs per value byte, {}", r.shape),
            Some(r.compile_us_per_byte),
            2.0,
            false,
            " µs",
        );
    }
    target(
        "compile per value byte at 10,000 / at 1,000 × 40 B (linear)".to_string(),
        tokens(10_000).and_then(|r| Some(r.compile_us_per_byte / r.compile_ref_us_per_byte?)),
        1.5,
        false,
        "×",
    );
    for r in rows {
        let Some(t) = &r.compile_tenfold else {
            continue;
        };
        target(
            format!("compile, µs per value byte, {}", t.shape),
            Some(t.us_per_byte),
            2.0,
            false,
            " µs",
        );
        target(
            format!("compile, seconds, {}", t.shape),
            Some(t.seconds),
            15.0,
            false,
            " s",
        );
        target(
            format!(
                "compile per value byte at {} / at {} (linear)",
                t.shape, r.shape
            ),
            Some(t.us_per_byte / r.compile_us_per_byte),
            1.5,
            false,
            "×",
        );
        target(
            format!("memory, bytes per value byte, {}", t.shape),
            Some(t.memory_per_byte),
            128.0,
            false,
            " B",
        );
    }
    for r in rows {
        target(
            format!("memory, bytes per value byte, {}", r.shape),
            Some(r.memory_per_byte),
            128.0,
            false,
            " B",
        );
    }
    for n in [100, 1_000] {
        target(
            format!("`bytes` / raw-only, {n} × 40 B"),
            tokens(n).map(|r| r.bytes / r.raw_only),
            4.0,
            true,
            "×",
        );
    }
    target(
        "`bytes` / every-pattern, 10 × 40 B".to_string(),
        tokens(10).and_then(|r| r.every_pattern.map(|e| r.bytes / e)),
        10.0,
        true,
        "×",
    );
    target(
        "`bytes` / naive, 100 × 40 B".to_string(),
        tokens(100).and_then(|r| r.naive.map(|naive| r.bytes / naive)),
        20.0,
        true,
        "×",
    );
}
