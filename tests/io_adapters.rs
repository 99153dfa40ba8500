//! The std::io adapters give exactly what `bytes` gives, however the data
//! arrives.

use std::io::{Read, Write};

use slicc_scrub::{Options, RULES_VERSION, ScrubReader, ScrubWriter, Scrubber, Secret, compile};

fn scrubber() -> Scrubber {
    compile(
        &[
            Secret::new("GH_TOKEN", "ghp_abcdefgh0123456789XYZ").with_placeholder("fnox_1"),
            Secret::new("API_KEY", "sk-live-0000111122223333"),
        ],
        &Options::new(RULES_VERSION),
    )
    .unwrap()
}

fn sample() -> Vec<u8> {
    let mut input = Vec::new();
    for i in 0..200 {
        write!(input, "line {i}: token=ghp_abcdefgh0123456789XYZ ").unwrap();
        writeln!(
            input,
            "b64=c2stbGl2ZS0wMDAwMTExMTIyMjIzMzMz frag=abcdefgh01234567"
        )
        .unwrap();
    }
    input
}

/// A reader that returns at most `step` bytes a call.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn writer_matches_bytes_in_any_chunking() {
    let scrubber = scrubber();
    let input = sample();
    let expected = scrubber.bytes(&input);
    assert!(!expected.hits.is_empty());
    for step in [1, 3, 7, 64, 4096, input.len()] {
        let mut writer = ScrubWriter::new(&scrubber, Vec::new());
        for chunk in input.chunks(step) {
            writer.write_all(chunk).unwrap();
        }
        let (out, hits) = writer.finish().unwrap();
        assert_eq!(out, expected.output, "step {step}");
        assert_eq!(hits, expected.hits, "step {step}");
    }
}

/// A writer that takes at most `step` bytes a call and, while `failing`,
/// fails every `fail_every`-th call (with `kind`), taking nothing then.
struct Flaky {
    data: Vec<u8>,
    step: usize,
    calls: usize,
    fail_every: usize,
    kind: std::io::ErrorKind,
    failing: std::rc::Rc<std::cell::Cell<bool>>,
    failures: usize,
}

impl Write for Flaky {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.calls += 1;
        if self.failing.get() && self.calls.is_multiple_of(self.fail_every) {
            self.failures += 1;
            return Err(std::io::Error::new(self.kind, "flaky"));
        }
        let n = self.step.min(buf.len());
        self.data.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// io::Write: an error takes no byte of the buffer, and `Ok(n)` takes n.
/// A caller that retries every failed call (as one does after
/// `WouldBlock`) gets every scrubbed byte once, in order, whatever the
/// inner writer fails on; `Interrupted` is retried inside.
#[test]
fn writer_errors_of_the_inner_writer_lose_and_repeat_nothing() {
    let scrubber = scrubber();
    let input = sample();
    let expected = scrubber.bytes(&input);
    for kind in [
        std::io::ErrorKind::WouldBlock,
        std::io::ErrorKind::Interrupted,
    ] {
        for (step, fail_every) in [(1, 2), (5, 3), (64, 2), (4096, 5), (usize::MAX, 2)] {
            let failing = std::rc::Rc::new(std::cell::Cell::new(true));
            let inner = Flaky {
                data: Vec::new(),
                step,
                calls: 0,
                fail_every,
                kind,
                failing: failing.clone(),
                failures: 0,
            };
            let mut writer = ScrubWriter::new(&scrubber, inner);
            let mut errors = 0;
            for (i, chunk) in input.chunks(37).enumerate() {
                let mut rest = chunk;
                let mut tries = 0;
                while !rest.is_empty() {
                    tries += 1;
                    assert!(tries < 100, "a chunk never taken ({kind:?}, step {step})");
                    match writer.write(rest) {
                        Ok(n) => rest = &rest[n..],
                        Err(e) => {
                            assert_eq!(e.kind(), kind);
                            errors += 1;
                        }
                    }
                }
                if i % 5 == 0 {
                    let mut tries = 0;
                    while let Err(e) = writer.flush() {
                        tries += 1;
                        assert!(tries < 100, "a flush that never passes");
                        assert_eq!(e.kind(), kind);
                        errors += 1;
                    }
                }
            }
            // `finish` gives the writer up on an error: none from here.
            failing.set(false);
            let (inner, hits) = writer.finish().unwrap();
            assert_eq!(inner.data, expected.output, "{kind:?}, step {step}");
            assert_eq!(hits, expected.hits);
            assert!(inner.failures > 0, "the inner writer never failed");
            if kind == std::io::ErrorKind::Interrupted {
                assert_eq!(errors, 0, "Interrupted is retried inside");
            }
        }
    }
}

#[test]
fn writer_flush_passes_only_decided_bytes() {
    let scrubber = scrubber();
    let mut writer = ScrubWriter::new(&scrubber, Vec::new());
    writer.write_all(b"token: ghp_abcd").unwrap();
    writer.flush().unwrap();
    // "ghp_abcd" could still become the token: it is held, not written.
    assert_eq!(writer.get_ref().as_slice(), b"token: ");
    writer.write_all(b"efgh0123456789XYZ!").unwrap();
    let (out, _) = writer.finish().unwrap();
    assert_eq!(out, b"token: fnox_1!");
}

#[test]
fn writer_idle_releases_a_short_tail() {
    let scrubber = scrubber();
    let mut writer = ScrubWriter::new(&scrubber, Vec::new());
    writer.write_all(b"Password? ghp_").unwrap();
    assert_eq!(writer.get_ref().as_slice(), b"Password? ");
    writer.idle().unwrap();
    assert_eq!(writer.get_ref().as_slice(), b"Password? ghp_");
}

#[test]
fn writer_dropped_unfinished_still_writes_held_bytes() {
    let scrubber = scrubber();
    let mut sink = Vec::new();
    {
        let mut writer = ScrubWriter::new(&scrubber, &mut sink);
        writer.write_all(b"end: ghp_abc").unwrap();
    }
    assert_eq!(sink, b"end: ghp_abc");
}

#[test]
fn reader_matches_bytes_for_any_read_size() {
    let scrubber = scrubber();
    let input = sample();
    let expected = scrubber.bytes(&input);
    for step in [1, 5, 100, 1 << 20] {
        let mut reader = ScrubReader::new(&scrubber, Trickle { data: &input, step });
        let mut out = Vec::new();
        let mut buf = [0u8; 13];
        loop {
            let n = reader.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        assert_eq!(out, expected.output, "step {step}");
        assert_eq!(reader.hits(), expected.hits, "step {step}");
    }
}

#[test]
fn reader_with_read_to_end() {
    let scrubber = scrubber();
    let input = b"x ghp_abcdefgh0123456789XYZ y".to_vec();
    let mut out = Vec::new();
    ScrubReader::new(&scrubber, input.as_slice())
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, b"x fnox_1 y");
}
