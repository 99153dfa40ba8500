//! The shared vectors of SPEC §5 (`vectors/`): every case through bytes(),
//! text(), every split point and one byte at a time; the idle streams; the
//! pattern lists; the compile errors; and the generator's own staleness
//! check. The brute-force
//! reference runs on the same cases, so the vectors (built by Python's
//! encoders) also check the reference.

mod common;
mod reference;

use std::path::PathBuf;
use std::process::Command;

use common::*;
use reference::{RefSecret, RefStream, Reference, patterns_of};
use serde::Deserialize;
use slicc_scrub::{
    CompileError, FRAGMENT, Form, Hit, IDLE_MS, MIN_VALUE, Options, RULES_VERSION, Scrubber,
    compile, patterns, secrets_from_json,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load<T: for<'de> Deserialize<'de>>(file: &str) -> T {
    let path = root().join("vectors").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Text or hex, whichever the field has.
fn text_or_hex(text: &Option<String>, hex: &Option<String>, what: &str) -> Vec<u8> {
    match (text, hex) {
        (Some(t), None) => t.as_bytes().to_vec(),
        (None, Some(h)) => hex_decode(h),
        _ => panic!("{what}: exactly one of text and hex"),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VSecret {
    name: String,
    value: Option<String>,
    #[serde(rename = "valueHex")]
    value_hex: Option<String>,
    placeholder: Option<String>,
    #[serde(rename = "placeholderHex")]
    placeholder_hex: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct VOptions {
    #[serde(rename = "sameLength", default)]
    same_length: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VHit {
    name: String,
    form: String,
    count: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    secrets: Vec<VSecret>,
    #[serde(default)]
    options: Option<VOptions>,
    input: Option<String>,
    #[serde(rename = "inputHex")]
    input_hex: Option<String>,
    output: Option<String>,
    #[serde(rename = "outputHex")]
    output_hex: Option<String>,
    hits: Vec<VHit>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vectors {
    format: u32,
    fragment: usize,
    #[serde(rename = "minValue")]
    min_value: usize,
    #[serde(rename = "idleMs")]
    idle_ms: u64,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdleCase {
    name: String,
    secrets: Vec<VSecret>,
    #[serde(default)]
    options: Option<VOptions>,
    steps: Vec<Step>,
    outputs: Vec<String>,
    hits: Vec<VHit>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Step {
    push: Option<String>,
    #[serde(rename = "pushHex")]
    push_hex: Option<String>,
    idle: Option<bool>,
    end: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdleFile {
    format: u32,
    cases: Vec<IdleCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternsFile {
    format: u32,
    values: Vec<PatternValue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternValue {
    name: String,
    value: Option<String>,
    #[serde(rename = "valueHex")]
    value_hex: Option<String>,
    patterns: Vec<VPattern>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VPattern {
    form: String,
    variant: String,
    hex: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorsFile {
    format: u32,
    cases: Vec<ErrorCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorCase {
    name: String,
    secrets: Vec<VSecret>,
    #[serde(default)]
    options: Option<ErrorOptions>,
    error: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorOptions {
    version: Option<u32>,
    #[serde(rename = "sameLength", default)]
    same_length: bool,
}

fn ref_secrets(secrets: &[VSecret], case: &str) -> Vec<RefSecret> {
    secrets
        .iter()
        .map(|s| RefSecret {
            name: s.name.clone(),
            value: text_or_hex(&s.value, &s.value_hex, case),
            placeholder: match (&s.placeholder, &s.placeholder_hex) {
                (None, None) => None,
                (p, h) => Some(text_or_hex(p, h, case)),
            },
        })
        .collect()
}

fn hits_of(hits: &[VHit]) -> Vec<(String, &'static str, u64)> {
    let hits: Vec<Hit> = hits
        .iter()
        .map(|h| Hit {
            name: h.name.clone(),
            form: Form::from_name(&h.form).unwrap_or_else(|| panic!("form {:?}", h.form)),
            count: h.count,
        })
        .collect();
    sorted_hits(&hits)
}

struct Loaded {
    name: String,
    scrubber: Scrubber,
    reference: Reference,
    input: Vec<u8>,
    text_input: bool,
    output: Vec<u8>,
    hits: Vec<(String, &'static str, u64)>,
}

fn cases() -> Vec<Loaded> {
    let v: Vectors = load("vectors.json");
    assert_eq!(v.format, 1);
    assert_eq!(v.fragment, FRAGMENT);
    assert_eq!(v.min_value, MIN_VALUE);
    assert_eq!(v.idle_ms, IDLE_MS);
    assert!(v.cases.len() > 50, "only {} cases", v.cases.len());
    v.cases
        .into_iter()
        .map(|c| {
            let secrets = ref_secrets(&c.secrets, &c.name);
            let same_length = c.options.unwrap_or_default().same_length;
            let scrubber = compile(&to_secrets(&secrets), &options(same_length))
                .unwrap_or_else(|e| panic!("{}: compile: {e}", c.name));
            Loaded {
                reference: Reference::new(&secrets, same_length),
                scrubber,
                input: text_or_hex(&c.input, &c.input_hex, &c.name),
                text_input: c.input.is_some(),
                output: text_or_hex(&c.output, &c.output_hex, &c.name),
                hits: hits_of(&c.hits),
                name: c.name,
            }
        })
        .collect()
}

/// Runs `check` on every case, collecting the names and messages of the
/// cases that fail, so one failure does not hide the others.
fn each_case(what: &str, check: impl Fn(&Loaded) -> Result<(), String>) {
    let mut failures = Vec::new();
    let all = cases();
    for c in &all {
        if let Err(msg) = check(c) {
            failures.push(format!("{}: {msg}", c.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{what}: {} of {} cases fail:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}

fn same(what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "{what}:\n   got \"{}\"\n  want \"{}\"",
            show(got),
            show(want)
        ))
    }
}

fn same_hits(what: &str, got: &[Hit], want: &[(String, &'static str, u64)]) -> Result<(), String> {
    let got = sorted_hits(got);
    if got == want {
        Ok(())
    } else {
        Err(format!("{what} hits:\n   got {got:?}\n  want {want:?}"))
    }
}

#[test]
fn vectors_bytes_and_text() {
    each_case("bytes() and text()", |c| {
        let got = c.scrubber.bytes(&c.input);
        same("bytes()", &got.output, &c.output)?;
        same_hits("bytes()", &got.hits, &c.hits)?;
        if c.text_input {
            let text = c.scrubber.text(std::str::from_utf8(&c.input).unwrap());
            let want = String::from_utf8_lossy(&c.output);
            same("text()", text.text.as_bytes(), want.as_bytes())?;
            same_hits("text()", &text.hits, &c.hits)?;
        }
        Ok(())
    });
}

#[test]
fn vectors_every_split_point() {
    each_case("every split point", |c| {
        for i in 0..=c.input.len() {
            let mut st = c.scrubber.stream();
            let mut out = st.push(&c.input[..i]).unwrap();
            out.extend(st.push(&c.input[i..]).unwrap());
            out.extend(st.end().unwrap());
            same(&format!("split at {i}"), &out, &c.output)?;
            same_hits(&format!("split at {i}"), &st.hits(), &c.hits)?;
        }
        Ok(())
    });
}

#[test]
fn vectors_one_byte_at_a_time() {
    each_case("one byte at a time", |c| {
        let (out, hits) = byte_at_a_time(&c.scrubber, &c.input);
        same("one byte at a time", &out, &c.output)?;
        same_hits("one byte at a time", &hits, &c.hits)
    });
}

/// The vectors, built by Python's encoders, check the reference itself.
#[test]
fn reference_agrees_with_the_vectors() {
    each_case("reference", |c| {
        let (out, hits) = c.reference.scrub(&c.input);
        same("reference", &out, &c.output)?;
        same_hits("reference", &hits, &c.hits)
    });
}

/// The engine's hold-back on every vector, one byte at a time: output, held
/// and hits after every push equal the reference's.
#[test]
fn vectors_hold_back_matches_the_reference() {
    each_case("hold-back", |c| {
        let mut ops: Vec<Op> = c.input.iter().map(|&b| Op::Push(vec![b])).collect();
        ops.push(Op::End);
        try_stream(&c.scrubber, &c.reference, &ops).map(|_| ())
    });
}

fn idle_cases() -> Vec<IdleCase> {
    let f: IdleFile = load("idle.json");
    assert_eq!(f.format, 1);
    assert!(!f.cases.is_empty());
    f.cases
}

#[test]
fn idle_vectors() {
    for c in idle_cases() {
        assert_eq!(c.steps.len(), c.outputs.len(), "{}", c.name);
        let secrets = ref_secrets(&c.secrets, &c.name);
        let same_length = c.options.as_ref().map(|o| o.same_length).unwrap_or(false);
        let (scrubber, reference) = both(&secrets, same_length);
        let mut st = scrubber.stream();
        let mut model = RefStream::new(&reference);
        for (k, (step, want)) in c.steps.iter().zip(&c.outputs).enumerate() {
            let (got, from_model) = match step {
                Step {
                    push: Some(t),
                    push_hex: None,
                    idle: None,
                    end: None,
                } => (st.push(t.as_bytes()).unwrap(), model.push(t.as_bytes())),
                Step {
                    push: None,
                    push_hex: Some(h),
                    idle: None,
                    end: None,
                } => {
                    let b = hex_decode(h);
                    (st.push(&b).unwrap(), model.push(&b))
                }
                Step {
                    push: None,
                    push_hex: None,
                    idle: Some(true),
                    end: None,
                } => (st.idle().unwrap(), model.idle()),
                Step {
                    push: None,
                    push_hex: None,
                    idle: None,
                    end: Some(true),
                } => (st.end().unwrap(), model.end()),
                _ => panic!("{}: step {k}: not one of push, pushHex, idle, end", c.name),
            };
            assert_eq!(show(&got), show(want.as_bytes()), "{}: step {k}", c.name);
            assert_eq!(
                show(&from_model),
                show(want.as_bytes()),
                "{}: step {k}, reference",
                c.name
            );
            assert_eq!(st.held(), model.held(), "{}: step {k}: held", c.name);
        }
        assert!(st.is_ended(), "{}: ends with end", c.name);
        assert_eq!(
            sorted_hits(&st.hits()),
            hits_of(&c.hits),
            "{}: hits",
            c.name
        );
        assert_eq!(sorted_hits(&model.hits()), hits_of(&c.hits), "{}", c.name);
    }
}

#[test]
fn pattern_vectors() {
    let f: PatternsFile = load("patterns.json");
    assert_eq!(f.format, 1);
    assert!(!f.values.is_empty());
    for v in f.values {
        let value = text_or_hex(&v.value, &v.value_hex, &v.name);
        let want: Vec<(String, String, String)> = v
            .patterns
            .iter()
            .map(|p| (p.form.clone(), p.variant.clone(), p.hex.clone()))
            .collect();
        let hex = |b: &[u8]| String::from_utf8(reference::hex(b, false)).unwrap();
        let got: Vec<(String, String, String)> = patterns(&value)
            .into_iter()
            .map(|p| {
                (
                    p.form.as_str().to_string(),
                    p.variant.clone(),
                    hex(&p.bytes),
                )
            })
            .collect();
        assert_eq!(got, want, "{}: patterns()", v.name);
        let mine: Vec<(String, String, String)> = patterns_of(&value)
            .into_iter()
            .map(|p| {
                (
                    p.form.as_str().to_string(),
                    p.variant.clone(),
                    hex(&p.bytes),
                )
            })
            .collect();
        assert_eq!(mine, want, "{}: the reference's builder", v.name);
    }
}

/// The name errors.json gives each kind of compile error (`CompileError` is
/// non-exhaustive: a kind this test does not know fails the case).
fn error_kind(error: &CompileError) -> &'static str {
    match error {
        CompileError::UnsupportedVersion { .. } => "unsupported version",
        CompileError::InvalidName { .. } => "invalid name",
        CompileError::DuplicateName { .. } => "duplicate name",
        CompileError::ValueTooShort { .. } => "value too short",
        CompileError::ValueTooLong { .. } => "value too long",
        CompileError::PlaceholderTooLong { .. } => "placeholder too long",
        CompileError::PlaceholderLeaks { .. } => "placeholder leaks",
        CompileError::RedactionLeaks { .. } => "redaction leaks",
        _ => "a kind errors.json does not name",
    }
}

/// One case of errors.json, ready to compile.
struct ErrorVector {
    name: String,
    secrets: Vec<slicc_scrub::Secret>,
    options: Options,
    error: String,
}

/// The cases of errors.json; the secrets read from the file's JSON by
/// `secrets_from_json` must be the same as read here.
fn error_cases() -> Vec<ErrorVector> {
    let text = std::fs::read_to_string(root().join("vectors/errors.json")).unwrap();
    let file: ErrorsFile = serde_json::from_str(&text).unwrap();
    let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(file.format, 1);
    assert!(
        file.cases.len() >= 10,
        "only {} error cases",
        file.cases.len()
    );
    file.cases
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let options = c.options.as_ref();
            let options = Options::new(options.and_then(|o| o.version).unwrap_or(RULES_VERSION))
                .same_length(options.is_some_and(|o| o.same_length));
            let secrets = to_secrets(&ref_secrets(&c.secrets, &c.name));
            let json = serde_json::to_vec(&raw["cases"][i]["secrets"]).unwrap();
            let from_json = secrets_from_json(&json)
                .unwrap_or_else(|e| panic!("{}: secrets_from_json: {e}", c.name));
            // (Secret has no Debug, on purpose: it holds a value.)
            assert!(from_json == secrets, "{}: secrets_from_json", c.name);
            ErrorVector {
                name: c.name,
                secrets,
                options,
                error: c.error,
            }
        })
        .collect()
}

/// Every case of errors.json fails to compile with its kind of error.
#[test]
fn error_vectors() {
    let mut failures = Vec::new();
    for c in error_cases() {
        match compile(&c.secrets, &c.options) {
            Ok(_) => failures.push(format!("{}: compiled, want {:?}", c.name, c.error)),
            Err(e) if error_kind(&e) != c.error => failures.push(format!(
                "{}: {:?}, want {:?}",
                c.name,
                error_kind(&e),
                c.error
            )),
            Err(_) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "error vectors:\n{}",
        failures.join("\n")
    );
}

/// SPEC §1: no error message (`Display` or `Debug`) shows a value or a
/// placeholder of the case, even where a name holds another secret's value.
#[test]
fn error_vector_messages_show_no_value() {
    let mut failures = Vec::new();
    for c in error_cases() {
        let Err(error) = compile(&c.secrets, &c.options) else {
            continue; // error_vectors reports it
        };
        let shown = format!("{error} {error:?}");
        for s in &c.secrets {
            let value = reference::trim_line_breaks(&s.value);
            let placeholder = s.placeholder.as_deref().unwrap_or_default();
            for (what, bytes) in [("value", value), ("placeholder", placeholder)] {
                // Shorter ones could occur by chance (such as "p" in "placeholder").
                if bytes.len() >= MIN_VALUE - 1
                    && shown.as_bytes().windows(bytes.len()).any(|w| w == bytes)
                {
                    failures.push(format!("{}: the message shows {}'s {what}", c.name, s.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "messages:\n{}", failures.join("\n"));
}

#[test]
fn generator_check_passes() {
    // `python3` on Unix; Windows installs often have only `python`.
    let run = |python: &str| {
        Command::new(python)
            .arg("vectors/generate.py")
            .arg("--check")
            .current_dir(root())
            .output()
    };
    let out = run("python3")
        .or_else(|_| run("python"))
        .expect("python3 must be installed to check the vectors (CI installs it)");
    assert!(
        out.status.success(),
        "vectors/generate.py --check failed: the committed vectors are stale\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
