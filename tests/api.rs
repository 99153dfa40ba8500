//! The public API: stream life cycle, thread safety, a stream outliving its
//! scrubber, constants, forms and hit order, `text()` and U+FFFD.

mod common;
mod reference;

use common::*;
use slicc_scrub::{
    FRAGMENT, Form, Hit, IDLE_MS, MIN_VALUE, Options, RULES_VERSION, Scrubber, Secret, Stream,
    StreamError, compile,
};

const V1: &str = "ghp_abcdefgh12345678";
const V2: &str = "sk-live-0000111122223333";

fn scrubber(same_length: bool) -> Scrubber {
    compile(
        &[
            Secret::new("GH", V1).with_placeholder("<gh>"),
            Secret::new("SK", V2),
        ],
        &Options::new(RULES_VERSION).same_length(same_length),
    )
    .unwrap()
}

fn input() -> Vec<u8> {
    let b64 = reference::base64(V2.as_bytes(), reference::URL, false);
    let hex = reference::hex(V1.as_bytes(), true);
    [
        b"token=".as_slice(),
        V1.as_bytes(),
        b"\nkey: ",
        &b64,
        b"\ndump: ",
        &hex[..20],
        b"\r\n",
        &hex[20..],
        b"\nfrag ",
        &V2.as_bytes()[3..21],
        b" and ",
        &V1.as_bytes()[..10],
    ]
    .concat()
}

#[test]
fn constants() {
    assert_eq!(FRAGMENT, 16);
    assert_eq!(MIN_VALUE, 8);
    assert_eq!(IDLE_MS, 50);
    assert_eq!(RULES_VERSION, 4);
}

#[test]
fn forms_names_and_order() {
    let names: Vec<&str> = Form::ALL.iter().map(|f| f.as_str()).collect();
    assert_eq!(
        names,
        [
            "raw", "fragment", "json", "percent", "html", "base64", "hex", "wrapped"
        ]
    );
    for &f in Form::ALL {
        assert_eq!(Form::from_name(f.as_str()), Some(f));
        assert_eq!(f.to_string(), f.as_str());
    }
    assert_eq!(Form::from_name("Raw"), None);
    assert_eq!(Form::from_name(""), None);
    let mut sorted = Form::ALL.to_vec();
    sorted.sort();
    assert_eq!(sorted, Form::ALL, "Ord follows the tie-break order");
}

#[test]
fn bytes_text_hits_and_accessors() {
    let s = scrubber(false);
    assert_eq!(s.len(), 2);
    assert!(!s.is_empty());
    assert!(!s.same_length());
    assert!(scrubber(true).same_length());
    assert!(s.memory_usage() > 0);
    let out = s.bytes(&input());
    assert_eq!(
        String::from_utf8(out.output).unwrap(),
        "token=<gh>\nkey: [redacted:SK]\ndump: [redacted:GH]\nfrag [redacted:SK] and ghp_abcdef"
    );
    // by secret index, then form order
    let hit = |name: &str, form, count| Hit {
        name: name.into(),
        form,
        count,
    };
    assert_eq!(
        out.hits,
        [
            hit("GH", Form::Raw, 1),
            hit("GH", Form::Wrapped, 1),
            hit("SK", Form::Fragment, 1),
            hit("SK", Form::Base64, 1),
        ]
    );
    let text = s.text(std::str::from_utf8(&input()).unwrap());
    assert_eq!(text.hits, out.hits);

    let long = scrubber(true).bytes(&input());
    assert_eq!(long.output.len(), input().len());
    assert_eq!(long.hits, out.hits);
}

#[test]
fn text_replaces_a_cut_character_with_u_fffd() {
    // the value ends in "é" (C3 A9); the input has "è" (C3 A8): the fragment
    // extends through C3 and leaves A8 alone.
    let v = "0123456789abcdefghé";
    let s = compile(&[Secret::new("N", v)], &Options::new(RULES_VERSION)).unwrap();
    let out = s.text("<0123456789abcdefghè>");
    assert_eq!(out.text, "<[redacted:N]\u{FFFD}>");
    assert_eq!(out.hits[0].form, Form::Fragment);
    let raw = s.bytes("<0123456789abcdefghè>".as_bytes());
    assert_eq!(raw.output, b"<[redacted:N]\xa8>");
}

#[test]
fn stream_after_end_is_an_error_and_hits_stay() {
    let s = scrubber(false);
    let mut st = s.stream();
    assert!(!st.is_ended());
    let mut out = st.push(&input()).unwrap();
    out.extend(st.end().unwrap());
    assert!(st.is_ended());
    assert_eq!(out, s.bytes(&input()).output);
    let hits = st.hits();
    assert_eq!(hits, s.bytes(&input()).hits);
    assert_eq!(st.push(b"more").unwrap_err(), StreamError::Ended);
    assert_eq!(st.push(b"").unwrap_err(), StreamError::Ended);
    assert_eq!(st.idle().unwrap_err(), StreamError::Ended);
    assert_eq!(st.end().unwrap_err(), StreamError::Ended);
    let mut buf = b"keep".to_vec();
    assert_eq!(
        st.push_into(V1.as_bytes(), &mut buf),
        Err(StreamError::Ended)
    );
    assert_eq!(st.idle_into(&mut buf), Err(StreamError::Ended));
    assert_eq!(st.end_into(&mut buf), Err(StreamError::Ended));
    assert_eq!(buf, b"keep", "nothing written after end");
    assert_eq!(st.hits(), hits, "hits stay readable and unchanged");
    assert_eq!(st.held(), 0);
    assert!(st.is_ended());
    assert!(!StreamError::Ended.to_string().is_empty());
}

#[test]
fn into_variants_append() {
    let s = scrubber(false);
    let mut st = s.stream();
    let mut out = b"prefix:".to_vec();
    for chunk in input().chunks(5) {
        st.push_into(chunk, &mut out).unwrap();
    }
    st.idle_into(&mut out).unwrap();
    st.end_into(&mut out).unwrap();
    assert_eq!(
        out,
        [b"prefix:".as_slice(), &s.bytes(&input()).output].concat()
    );
}

#[test]
fn idle_releases_a_short_tail_and_the_stream_goes_on() {
    let s = scrubber(false);
    let mut st = s.stream();
    assert_eq!(st.push(b"x ghp_abc").unwrap(), b"x ");
    assert_eq!(st.held(), 7);
    assert_eq!(st.idle().unwrap(), b"ghp_abc");
    assert_eq!(st.held(), 0);
    assert_eq!(st.idle().unwrap(), b"", "idle with nothing held");
    // afresh: the rest of the value is not joined to the released bytes
    assert_eq!(st.push(b"defgh12345678 ").unwrap(), b"defgh12345678 ");
    assert_eq!(st.push(V1.as_bytes()).unwrap(), b"<gh>");
    assert_eq!(st.end().unwrap(), b"");
    assert_eq!(
        st.hits(),
        [Hit {
            name: "GH".into(),
            form: Form::Raw,
            count: 1
        }]
    );
}

#[test]
fn scrubber_is_send_sync_clone_and_stream_is_send() {
    fn send_sync_clone<T: Send + Sync + Clone + 'static>() {}
    fn send<T: Send + 'static>() {}
    send_sync_clone::<Scrubber>();
    send::<Stream>();
    let s = scrubber(false);
    let c = s.clone();
    assert_eq!(c.bytes(&input()), s.bytes(&input()));
}

#[test]
fn a_stream_outlives_its_scrubber() {
    let s = scrubber(false);
    let want = s.bytes(&input());
    let mut st = s.stream();
    let first = st.push(&input()[..9]).unwrap();
    drop(s);
    let mut out = first;
    for chunk in input()[9..].chunks(3) {
        out.extend(st.push(chunk).unwrap());
    }
    out.extend(st.end().unwrap());
    assert_eq!(out, want.output);
    assert_eq!(st.hits(), want.hits);
    // and a stream made from a clone that is dropped at once
    let mut st = scrubber(true).clone().stream();
    let mut out = st.push(&input()).unwrap();
    out.extend(st.end().unwrap());
    assert_eq!(out, scrubber(true).bytes(&input()).output);
}

#[test]
fn streams_on_eight_threads_share_one_scrubber() {
    let s = scrubber(false);
    let mut rng = Rng::new(8);
    let inputs: Vec<Vec<u8>> = (0..8)
        .map(|i| {
            let mut v = input();
            v.extend(noise(&mut rng, &[], i * 7));
            v.extend(input());
            v
        })
        .collect();
    let wants: Vec<_> = inputs.iter().map(|i| s.bytes(i)).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = inputs
            .iter()
            .enumerate()
            .map(|(t, inp)| {
                let s = &s;
                scope.spawn(move || {
                    let mut results = Vec::new();
                    for round in 0..20 {
                        let mut st = s.stream();
                        let mut out = Vec::new();
                        for chunk in inp.chunks(1 + (t + round) % 9) {
                            out.extend(st.push(chunk).unwrap());
                        }
                        out.extend(st.end().unwrap());
                        results.push((out, st.hits(), s.bytes(inp)));
                    }
                    results
                })
            })
            .collect();
        for (t, h) in handles.into_iter().enumerate() {
            for (out, hits, whole) in h.join().unwrap() {
                assert_eq!(out, wants[t].output, "thread {t}");
                assert_eq!(hits, wants[t].hits, "thread {t}");
                assert_eq!(whole, wants[t], "thread {t}");
            }
        }
    });
    // a clone moved into each thread works the same
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let s = s.clone();
            std::thread::spawn(move || s.bytes(&input()))
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), s.bytes(&input()));
    }
}
