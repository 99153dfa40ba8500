"""Tests of the Python package: vectors/vectors.json (SPEC section 5) at every
split point and one byte at a time, vectors/idle.json, vectors/errors.json,
misuse, and the package itself (the library it carries, its constants, the
status codes against include/slicc_scrub.h). They test the installed
package, so run them from outside the checkout, in a virtual environment it
was installed into:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install ./bindings/python
    cd /tmp && /tmp/venv/bin/python -m unittest discover -s "$OLDPWD/bindings/python/tests" -v
"""

import gc
import importlib.metadata
import json
import re
import threading
import unittest
from pathlib import Path

import slicc_scrub
from slicc_scrub import Hit, Result, Scrubber, ScrubError, Status

# tests/ -> python/ -> bindings/ -> the repository.
ROOT = Path(__file__).resolve().parents[3]
VECTORS = ROOT / "vectors"
HEADER = ROOT / "include" / "slicc_scrub.h"


def _load(name):
    with open(VECTORS / name, encoding="utf-8") as f:
        return json.load(f)["cases"]


CASES = _load("vectors.json")
IDLE_CASES = _load("idle.json")


def _field(obj, text, hex_):
    if text in obj:
        return obj[text].encode("utf-8")
    if hex_ in obj:
        return bytes.fromhex(obj[hex_])
    return b""


def _same_length(case):
    return bool(case.get("options", {}).get("sameLength", False))


def _hits(hits):
    return sorted((h["name"], h["form"], h["count"]) if isinstance(h, dict) else tuple(h) for h in hits)


class VectorsTest(unittest.TestCase):
    """Every case of vectors.json through bytes(), text(), from_json(), a
    stream split at every point, and a stream fed one byte at a time."""

    def _case(self, case):
        return (
            Scrubber(case["secrets"], same_length=_same_length(case)),
            _field(case, "input", "inputHex"),
            _field(case, "output", "outputHex"),
            _hits(case["hits"]),
        )

    def test_cases_are_there(self):
        self.assertGreater(len(CASES), 100)
        self.assertGreater(len(IDLE_CASES), 5)

    def test_bytes(self):
        for case in CASES:
            with self.subTest(case=case["name"]):
                scrubber, data, want, want_hits = self._case(case)
                output, hits = scrubber.bytes(data)
                self.assertEqual(output, want)
                self.assertEqual(_hits(hits), want_hits)
                self.assertTrue(all(isinstance(h, Hit) for h in hits))

    def test_text(self):
        n = 0
        for case in CASES:
            if "input" not in case:
                continue
            n += 1
            with self.subTest(case=case["name"]):
                scrubber, _, want, want_hits = self._case(case)
                result = scrubber.text(case["input"])
                self.assertIsInstance(result.output, str)
                self.assertEqual(result.output, want.decode("utf-8", "replace"))
                self.assertEqual(_hits(result.hits), want_hits)
        self.assertGreater(n, 100)

    def test_from_json(self):
        for case in CASES:
            with self.subTest(case=case["name"]):
                scrubber = Scrubber.from_json(json.dumps(case["secrets"]), same_length=_same_length(case))
                _, data, want, want_hits = self._case(case)
                output, hits = scrubber.bytes(data)
                self.assertEqual(output, want)
                self.assertEqual(_hits(hits), want_hits)

    def test_every_split_point(self):
        splits = 0
        for case in CASES:
            with self.subTest(case=case["name"]):
                scrubber, data, want, want_hits = self._case(case)
                for i in range(len(data) + 1):
                    with scrubber.stream() as stream:
                        out = stream.push(data[:i]) + stream.push(data[i:]) + stream.end()
                        if out != want or _hits(stream.hits) != want_hits:
                            self.fail(
                                f"split at {i}: output {out!r}, want {want!r}; "
                                f"hits {_hits(stream.hits)}, want {want_hits}"
                            )
                    splits += 1
        self.assertGreater(splits, 1000)

    def test_one_byte_at_a_time(self):
        for case in CASES:
            with self.subTest(case=case["name"]):
                scrubber, data, want, want_hits = self._case(case)
                with scrubber.stream() as stream:
                    out = b"".join(stream.push(data[i : i + 1]) for i in range(len(data)))
                    out += stream.end()
                    self.assertEqual(out, want)
                    self.assertEqual(_hits(stream.hits), want_hits)

    def test_idle_steps(self):
        for case in IDLE_CASES:
            with self.subTest(case=case["name"]):
                scrubber = Scrubber(case["secrets"], same_length=_same_length(case))
                self.assertEqual(len(case["steps"]), len(case["outputs"]))
                with scrubber.stream() as stream:
                    for k, (step, want) in enumerate(zip(case["steps"], case["outputs"])):
                        if "push" in step or "pushHex" in step:
                            got = stream.push(_field(step, "push", "pushHex"))
                        elif "idle" in step:
                            got = stream.idle()
                        elif "end" in step:
                            got = stream.end()
                        else:
                            self.fail(f"step {k}: unknown step {step}")
                        self.assertEqual(got, want.encode("utf-8"), f"step {k}")
                    self.assertEqual(_hits(stream.hits), _hits(case["hits"]))


class ApiTest(unittest.TestCase):
    VALUE = "correct horse battery staple"

    def test_constants(self):
        # Read from the library: these are SPEC section 1's values.
        self.assertEqual(slicc_scrub.FRAGMENT, 16)
        self.assertEqual(slicc_scrub.MIN_VALUE, 8)
        self.assertEqual(slicc_scrub.IDLE_MS, 50)
        self.assertEqual(slicc_scrub.RULES_VERSION, 4)
        self.assertEqual(
            (slicc_scrub.MAX_VALUE, slicc_scrub.MAX_PLACEHOLDER, slicc_scrub.MAX_NAME),
            (65536, 1024, 128),
        )
        self.assertEqual(
            slicc_scrub.FORMS,
            ("raw", "fragment", "json", "percent", "html", "base64", "hex", "wrapped"),
        )
        self.assertRegex(slicc_scrub.version(), r"^\d+\.\d+\.\d+")

    def test_secret_shapes(self):
        data = b"pw=correct horse battery staple; token=ghp_abcdefgh12345678"
        want = b"pw=[redacted:PW]; token=<gh>"
        shapes = [
            [("PW", self.VALUE), ("GH", "ghp_abcdefgh12345678", "<gh>")],
            [("PW", self.VALUE.encode()), ("GH", b"ghp_abcdefgh12345678", b"<gh>")],
            [{"name": "PW", "value": self.VALUE}, {"name": "GH", "value": "ghp_abcdefgh12345678", "placeholder": "<gh>"}],
            [{"name": "PW", "valueHex": self.VALUE.encode().hex(), "placeholder": None},
             {"name": "GH", "value": b"ghp_abcdefgh12345678", "placeholderHex": b"<gh>".hex()}],
        ]
        for secrets in shapes:
            with self.subTest(secrets=repr(secrets)):
                result = Scrubber(secrets).bytes(data)
                self.assertIsInstance(result, Result)
                self.assertEqual(result.output, want)
                self.assertEqual(result.hits, [Hit("PW", "raw", 1), Hit("GH", "raw", 1)])

    def test_bytes_like_inputs_and_empty(self):
        s = Scrubber([("PW", self.VALUE)])
        for data in (b"x correct horse battery staple", bytearray(b"x correct horse battery staple"),
                     memoryview(b"x correct horse battery staple")):
            self.assertEqual(s.bytes(data).output, b"x [redacted:PW]")
        self.assertEqual(s.bytes(b""), Result(b"", []))
        with self.assertRaises(TypeError):
            s.bytes("a str")
        self.assertEqual(Scrubber([]).bytes(b"anything"), (b"anything", []))

    def test_bytes_like_values_are_not_left_in_copies(self):
        # A bytearray is passed where it is (the caller can wipe it); what
        # the binding copies (read-only or non-contiguous buffers, hex
        # fields) it wipes once compiled. Each shape still compiles.
        import ctypes
        from slicc_scrub import _NativeSecrets, _normalise, _Secret

        value = b"correct horse battery staple"
        caller = bytearray(value)
        secrets = [
            ("A", caller),
            ("B", memoryview(b"B-" + value)),
            ("C", memoryview(b"".join(bytes([c, 0x2E]) for c in b"C-" + value))[::2]),
            {"name": "D", "valueHex": (b"D-" + value).hex(), "placeholderHex": b"<dee>".hex()},
        ]
        native = _NativeSecrets(_normalise(secrets))
        at = _Secret.value.offset
        pointers = [ctypes.c_void_p.from_buffer(native.array[i], at).value for i in range(4)]
        self.assertEqual(pointers[0], ctypes.addressof((ctypes.c_char * len(caller)).from_buffer(caller)))
        self.assertEqual([ctypes.string_at(p, 30) for p in pointers[1:]], [b"B-" + value, b"C-" + value, b"D-" + value])
        self.assertEqual(len(native.copies), 4, "B, C, D's value and D's placeholder are copies")
        native.wipe()
        self.assertEqual([ctypes.string_at(p, 30) for p in pointers[1:]], [bytes(30)] * 3)
        self.assertEqual(caller, value, "the caller's bytearray is the caller's to wipe")
        del native

        s = Scrubber(secrets)
        out = s.bytes(b"a " + value + b" b B-" + value + b" c C-" + value + b" d D-" + value).output
        self.assertEqual(out, b"a [redacted:A] b [redacted:B] c [redacted:C] d <dee>")
        caller[:] = bytes(len(caller))  # not held by the binding once compiled

    def test_same_length(self):
        s = Scrubber([("PW", self.VALUE)], same_length=True)
        self.assertEqual(s.bytes(b"pw=correct horse battery staple;").output, b"pw=" + b"*" * 28 + b";")

    def test_value_with_nul_bytes(self):
        value = b"ab\0cd\0ef\0gh"
        s = Scrubber([("NUL", value, b"<nul>")])
        self.assertEqual(s.bytes(b"x" + value + b"y").output, b"x<nul>y")

    def test_repr_shows_no_name_and_no_output(self):
        # A name can hold a placeholder; the output holds the placeholders.
        placeholder = "PH_abcdefgh"
        s = Scrubber([("X" + placeholder, self.VALUE, placeholder)])
        for result in (s.bytes(b"a " + self.VALUE.encode() + b" b"), s.text("a " + self.VALUE + " b")):
            self.assertEqual(result.hits, [Hit("X" + placeholder, "raw", 1)])
            self.assertIn(placeholder, str(result.output))
            for shown in (repr(result), str(result), repr(result.hits), str(result.hits[0])):
                self.assertNotIn(placeholder, shown)
                self.assertIn("<12 bytes>", shown)

    def test_stream_context_manager_and_hits(self):
        scrubber = Scrubber([("PW", self.VALUE, "[pw]")])
        with scrubber.stream() as stream:
            out = stream.push(b"say correct horse")
            self.assertGreater(stream.held, 0)
            out += stream.push(b" battery staple!")
            out += stream.idle()
            out += stream.end()
            self.assertTrue(stream.ended)
            self.assertEqual(out, b"say [pw]!")
            self.assertEqual(stream.hits, [Hit("PW", "raw", 1)])
        with self.assertRaises(ScrubError) as cm:
            stream.push(b"x")
        self.assertEqual(cm.exception.status, Status.NULL_ARGUMENT)

    def test_scrubber_closed_before_its_stream(self):
        scrubber = Scrubber([("PW", self.VALUE)])
        stream = scrubber.stream()
        scrubber.close()
        with self.assertRaises(ScrubError):
            scrubber.bytes(b"x")
        self.assertEqual(stream.push(b"a correct horse battery staple") + stream.end(), b"a [redacted:PW]")

    def test_threads_share_a_scrubber(self):
        scrubber = Scrubber([("PW", self.VALUE)])
        data = b"x correct horse battery staple y " * 50
        want = b"x [redacted:PW] y " * 50
        errors = []

        def work():
            for _ in range(50):
                if scrubber.bytes(data).output != want:
                    errors.append("bytes")
                with scrubber.stream() as stream:
                    out = b"".join(stream.push(data[i : i + 7]) for i in range(0, len(data), 7))
                    if out + stream.end() != want:
                        errors.append("stream")

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])


class MisuseTest(unittest.TestCase):
    VALUE = "correct horse battery staple"

    def assert_error(self, status, fn, secret_text=None):
        with self.assertRaises(ScrubError) as cm:
            fn()
        e = cm.exception
        self.assertEqual(e.status, status, str(e))
        self.assertTrue(str(e))
        if secret_text:
            self.assertNotIn(secret_text, str(e))
            self.assertNotIn(secret_text, repr(e))
        return e

    def test_push_idle_end_after_end(self):
        stream = Scrubber([("PW", self.VALUE)]).stream()
        self.assertEqual(stream.push(b"hello") + stream.end(), b"hello")
        self.assert_error(Status.STREAM_ENDED, lambda: stream.push(b"x"))
        self.assert_error(Status.STREAM_ENDED, stream.idle)
        self.assert_error(Status.STREAM_ENDED, stream.end)
        self.assertEqual(stream.hits, [])

    def test_bad_secrets_raise_without_the_value(self):
        e = self.assert_error(Status.VALUE_TOO_SHORT, lambda: Scrubber([("PW", "s3cr3t!")]), "s3cr3t!")
        self.assertIn("PW", str(e))
        self.assert_error(Status.INVALID_NAME, lambda: Scrubber([("bad name", self.VALUE)]), self.VALUE)
        self.assert_error(Status.INVALID_NAME, lambda: Scrubber([("A\0B", self.VALUE)]), self.VALUE)
        self.assert_error(
            Status.DUPLICATE_NAME, lambda: Scrubber([("A", self.VALUE), ("A", "another value")]), self.VALUE
        )
        self.assert_error(
            Status.PLACEHOLDER_LEAKS, lambda: Scrubber([("A", self.VALUE, self.VALUE)]), self.VALUE
        )
        self.assert_error(Status.VALUE_TOO_LONG, lambda: Scrubber([("A", b"x" * 70000)]))
        self.assert_error(
            Status.INVALID_JSON, lambda: Scrubber.from_json('[{"name": "A", "value": "correct horse'), "correct"
        )
        self.assert_error(
            Status.INVALID_SECRETS_JSON, lambda: Scrubber.from_json('[{"name": "A", "valu": "correct horse"}]')
        )

    def test_bad_shapes_raise_type_error_without_the_value(self):
        for secrets in ([42], [("A",)], [("A", 12345678)], [{"name": "A", "value": self.VALUE, "x": 1}]):
            with self.subTest(secrets=repr(secrets)):
                with self.assertRaises(TypeError) as cm:
                    Scrubber(secrets)
                self.assertNotIn(self.VALUE, str(cm.exception))
                self.assertNotIn("12345678", str(cm.exception))

    def test_lone_surrogates_raise_value_error_without_the_value(self):
        # Python's UnicodeEncodeError would quote the character and carry
        # the whole string: neither reaches the caller.
        value = "s3cr3t-\ud800-value"
        for make in (
            lambda: Scrubber([("A", value)]),
            lambda: Scrubber([("A", self.VALUE, value)]),
            lambda: Scrubber([{"name": "A", "value": value}]),
            lambda: Scrubber([(value, self.VALUE)]),
            lambda: Scrubber.from_json('[{"name": "A", "value": "' + value + '"}]'),
            lambda: Scrubber([("A", self.VALUE)]).text(value),
        ):
            with self.assertRaises(ValueError) as cm:
                make()
            e = cm.exception
            self.assertNotIsInstance(e, UnicodeError)
            self.assertIn("lone surrogate at character", str(e))
            for shown in (str(e), repr(e)):
                self.assertNotIn("s3cr3t", shown)
                self.assertNotIn("\ud800", shown)
            self.assertIsNone(e.__context__)
            self.assertIsNone(e.__cause__)

    def test_stream_cannot_be_made_directly(self):
        with self.assertRaises(TypeError):
            slicc_scrub.Stream()


class ErrorVectorsTest(unittest.TestCase):
    """Every case of vectors/errors.json fails to compile, from the secrets and
    from their JSON, with its status, and the message shows no value or
    placeholder. The binding always compiles with its own rules version: the
    cases of another version are run by the C harness."""

    def test_error_cases(self):
        with open(VECTORS / "errors.json", encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        self.assertGreater(len(cases), 10)
        run = 0
        for case in cases:
            options = case.get("options", {})
            if options.get("version", slicc_scrub.RULES_VERSION) != slicc_scrub.RULES_VERSION:
                continue
            run += 1
            want = Status[case["error"].upper().replace(" ", "_")]
            same_length = bool(options.get("sameLength", False))
            shown = []
            for s in case["secrets"]:
                shown.append(_field(s, "value", "valueHex").strip(b"\r\n"))
                shown.append(_field(s, "placeholder", "placeholderHex"))
            for how, compile_ in (
                ("secrets", lambda: Scrubber(case["secrets"], same_length=same_length)),
                ("from_json", lambda: Scrubber.from_json(json.dumps(case["secrets"]), same_length=same_length)),
            ):
                with self.subTest(case=case["name"], how=how):
                    with self.assertRaises(ScrubError) as cm:
                        compile_()
                    self.assertEqual(cm.exception.status, want)
                    text = (str(cm.exception) + repr(cm.exception)).encode("utf-8")
                    for secret in shown:  # shorter ones could occur by chance
                        self.assertFalse(len(secret) >= 7 and secret in text, "the message shows a secret")
        self.assertGreater(run, 10)


if __name__ == "__main__":
    unittest.main()


class PackageTest(unittest.TestCase):
    """The installed package: the library it carries, its metadata, and the
    status codes against the C header."""

    def test_imported_from_the_installed_package(self):
        # Not the checkout's source: the package as pip installed it, with
        # the library beside the module and no environment variable.
        module = Path(slicc_scrub.__file__).resolve()
        self.assertNotIn(ROOT / "bindings", module.parents)
        library = Path(slicc_scrub.library_path()).resolve()
        self.assertEqual(library.parent, module.parent)
        self.assertTrue(library.name.startswith("libslicc_scrub"))
        self.assertTrue((module.parent / "py.typed").is_file())

    def test_version_is_the_library_version(self):
        self.assertEqual(importlib.metadata.version("slicc-scrub"), slicc_scrub.version())

    def test_status_codes_are_the_header_s(self):
        text = HEADER.read_text(encoding="utf-8")
        header = {
            name: int(value)
            for name, value in re.findall(r"^\s*SCRUB_STATUS_([A-Z_]+) = (\d+),", text, re.M)
        }
        self.assertGreater(len(header), 10)
        self.assertEqual({s.name: s.value for s in Status}, header)
        # And each has the library's own message.
        for status in Status:
            self.assertNotEqual(slicc_scrub._fail(status).message, "unknown status")

    def test_form_names_are_the_header_s(self):
        text = HEADER.read_text(encoding="utf-8")
        forms = re.findall(r"^\s*SCRUB_FORM_([A-Z0-9_]+) = (\d+),", text, re.M)
        self.assertEqual([name.lower() for name, _ in sorted(forms, key=lambda f: int(f[1]))],
                         list(slicc_scrub.FORMS))

    def test_handles_are_freed_once_by_close_or_collection(self):
        scrubber = Scrubber([("PW", "correct horse battery staple")])
        stream = scrubber.stream()
        finalizers = [scrubber._finalizer, stream._finalizer]
        self.assertTrue(all(f.alive for f in finalizers))
        stream.close()
        stream.close()
        self.assertFalse(finalizers[1].alive)
        del scrubber
        gc.collect()
        self.assertFalse(finalizers[0].alive)
