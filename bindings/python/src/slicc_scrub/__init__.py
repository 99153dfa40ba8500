"""slicc_scrub: Python bindings (ctypes) for slicc-scrub, which removes known
secret values, in every common encoding, from bytes before they reach a
language model.

    from slicc_scrub import Scrubber

    scrubber = Scrubber([("GH_TOKEN", token, "fnox_proxy_1")])
    output, hits = scrubber.bytes(data)          # bytes in, bytes out
    text, hits = scrubber.text("a str")          # str in, str out

    with scrubber.stream() as stream:            # chunks, e.g. a terminal
        out = stream.push(chunk)                 # as often as needed
        out += stream.idle()                     # after IDLE_MS without input
        out += stream.end()                      # what is still held
        print(stream.hits)

A thin layer over the C ABI (include/slicc_scrub.h): every matching decision
is the library's. The package carries its own build of the shared library,
beside this file (``pip install ./bindings/python`` builds it with cargo);
the environment variable SLICC_SCRUB_LIB (a file, or a folder holding it)
overrides it, and without either the system's library path is searched. The
constants (FRAGMENT, MIN_VALUE, IDLE_MS, RULES_VERSION, ...) and the form
names are read from that library.

Errors are ScrubError, with .status (a Status) and a message that names a
secret by index and name, never by its value or placeholder.

Threads: a Scrubber may be used from any number of threads at once (the GIL
is released during each call). A Stream serialises its own calls with a lock.

Handles are freed by close(), by leaving a ``with`` block, or when the object
is garbage-collected (weakref.finalize): never twice.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import enum
import os
import sys
import threading
import weakref
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple, Union

#: What a Scrubber takes as one secret: a dict ``{"name", "value",
#: "placeholder"?}`` (or ``valueHex``/``placeholderHex``), or a tuple
#: ``(name, value)`` / ``(name, value, placeholder)``.
SecretLike = Union[Dict[str, Any], Tuple[Any, ...], List[Any]]
#: Bytes-like input.
BytesLike = Union[bytes, bytearray, memoryview]

__all__ = [
    "FRAGMENT",
    "IDLE_MS",
    "MIN_VALUE",
    "MAX_VALUE",
    "MAX_PLACEHOLDER",
    "MAX_NAME",
    "RULES_VERSION",
    "FORMS",
    "Status",
    "ScrubError",
    "Hit",
    "Result",
    "Scrubber",
    "Stream",
    "version",
    "library_path",
    "SecretLike",
    "BytesLike",
]

class Status(enum.IntEnum):
    """The C ABI's status codes (scrub_status)."""

    OK = 0
    NULL_ARGUMENT = 1
    INVALID_ARGUMENT = 2
    PANIC = 3
    STREAM_ENDED = 4
    STREAM_POISONED = 5
    INDEX_OUT_OF_RANGE = 6
    UNSUPPORTED_OPTIONS = 7
    UNSUPPORTED_VERSION = 100
    INVALID_NAME = 101
    DUPLICATE_NAME = 102
    VALUE_TOO_SHORT = 103
    VALUE_TOO_LONG = 104
    PLACEHOLDER_TOO_LONG = 105
    PLACEHOLDER_LEAKS = 106
    REDACTION_LEAKS = 107
    TOO_LARGE = 108
    INVALID_JSON = 200
    INVALID_SECRETS_JSON = 201


class ScrubError(Exception):
    """A failed call. ``status`` is a Status (or a plain int for a code this
    module does not know); ``message`` never holds a value or placeholder."""

    def __init__(self, status: int, message: str):
        try:
            status = Status(status)
        except ValueError:
            pass
        super().__init__(message)
        self.status = status
        self.message = message

    def __repr__(self) -> str:
        return f"ScrubError({self.status!r}, {self.message!r})"


class Hit(NamedTuple):
    """How many matches of a secret in a form were replaced. Never a value.
    Its repr shows the name's length, not the name, which can hold a
    placeholder; ``hit.name`` is the caller's to show."""

    name: str
    form: str
    count: int

    def __repr__(self) -> str:
        size = len(self.name.encode("utf-8"))
        return f"Hit(name=<{size} bytes>, form={self.form!r}, count={self.count})"


class Result(NamedTuple):
    """What Scrubber.bytes() and Scrubber.text() give: unpack it as
    ``output, hits = scrubber.bytes(data)``. Its repr shows the output's
    length, not the output, which holds the placeholders of what it
    replaced."""

    output: Union[bytes, str]
    hits: List[Hit]

    def __repr__(self) -> str:
        return f"Result(output=<{len(self.output)} {'bytes' if isinstance(self.output, bytes) else 'characters'}>, hits={self.hits!r})"


# ---------------------------------------------------------------------------
# The C library
# ---------------------------------------------------------------------------


class _Secret(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("value", ctypes.c_char_p),
        ("value_len", ctypes.c_size_t),
        ("placeholder", ctypes.c_char_p),
        ("placeholder_len", ctypes.c_size_t),
    ]


class _Options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("version", ctypes.c_uint32),
        ("same_length", ctypes.c_uint32),
    ]


class _Hit(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("form", ctypes.c_uint32),
        ("form_name", ctypes.c_char_p),
        ("count", ctypes.c_uint64),
    ]


def _library_file_name() -> str:
    if sys.platform == "win32":
        return "slicc_scrub.dll"
    if sys.platform == "darwin":
        return "libslicc_scrub.dylib"
    return "libslicc_scrub.so"


#: Suffixes of the library the package carries (setuptools-rust names it as
#: an extension module: libslicc_scrub.abi3.so, .pyd on Windows).
_BUNDLED_SUFFIXES = (".so", ".dylib", ".pyd", ".dll")


def _candidates() -> List[str]:
    env = os.environ.get("SLICC_SCRUB_LIB")
    if env:
        path = Path(env)
        return [str(path / _library_file_name()) if path.is_dir() else str(path)]
    here = Path(__file__).resolve().parent
    found = sorted(
        str(p) for p in here.glob("libslicc_scrub*") if p.suffix in _BUNDLED_SUFFIXES
    )
    system = ctypes.util.find_library("slicc_scrub")
    if system:
        found.append(system)
    return found


_P = ctypes.c_void_p
_OUT_BYTES = (ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t))
_SIGNATURES: Dict[str, Tuple[Any, List[Any]]] = {
    "scrub_version": (ctypes.c_char_p, []),
    "scrub_rules_version": (ctypes.c_uint32, []),
    "scrub_fragment": (ctypes.c_size_t, []),
    "scrub_min_value": (ctypes.c_size_t, []),
    "scrub_max_value": (ctypes.c_size_t, []),
    "scrub_max_placeholder": (ctypes.c_size_t, []),
    "scrub_max_name": (ctypes.c_size_t, []),
    "scrub_idle_ms": (ctypes.c_uint64, []),
    "scrub_form_name": (ctypes.c_char_p, [ctypes.c_uint32]),
    "scrub_status_message": (ctypes.c_char_p, [ctypes.c_uint32]),
    "scrub_compile": (
        ctypes.c_uint32,
        [ctypes.POINTER(_Secret), ctypes.c_size_t, ctypes.POINTER(_Options),
         ctypes.POINTER(_P), ctypes.POINTER(_P)],
    ),
    "scrub_compile_json": (
        ctypes.c_uint32,
        [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_Options),
         ctypes.POINTER(_P), ctypes.POINTER(_P)],
    ),
    "scrub_error_message": (ctypes.c_char_p, [_P]),
    "scrub_error_status": (ctypes.c_uint32, [_P]),
    "scrub_error_free": (None, [_P]),
    "scrub_scrubber_free": (None, [_P]),
    "scrub_bytes": (ctypes.c_uint32, [_P, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_P)]),
    "scrub_result_output": (ctypes.c_uint32, [_P, *_OUT_BYTES]),
    "scrub_result_hits": (ctypes.c_uint32, [_P, ctypes.POINTER(_P)]),
    "scrub_result_free": (None, [_P]),
    "scrub_hits_len": (ctypes.c_uint32, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "scrub_hits_get": (ctypes.c_uint32, [_P, ctypes.c_size_t, ctypes.POINTER(_Hit)]),
    "scrub_hits_free": (None, [_P]),
    "scrub_stream_new": (ctypes.c_uint32, [_P, ctypes.POINTER(_P)]),
    "scrub_stream_push": (ctypes.c_uint32, [_P, ctypes.c_char_p, ctypes.c_size_t, *_OUT_BYTES]),
    "scrub_stream_idle": (ctypes.c_uint32, [_P, *_OUT_BYTES]),
    "scrub_stream_end": (ctypes.c_uint32, [_P, *_OUT_BYTES]),
    "scrub_stream_hits": (ctypes.c_uint32, [_P, ctypes.POINTER(_P)]),
    "scrub_stream_held": (ctypes.c_uint32, [_P, ctypes.POINTER(ctypes.c_size_t)]),
    "scrub_stream_free": (None, [_P]),
}

_lib_lock = threading.Lock()
_lib: Optional[ctypes.CDLL] = None
_lib_path: Optional[str] = None


def _load() -> ctypes.CDLL:
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        candidates = _candidates()
        if not candidates:
            raise OSError(
                "slicc_scrub: the shared library was not found: install the package with "
                "`pip install ./bindings/python` from the slicc-scrub repository, or set "
                "SLICC_SCRUB_LIB to libslicc_scrub's path"
            )
        try:
            lib = ctypes.CDLL(candidates[0])
        except OSError as e:
            raise OSError(f"slicc_scrub: cannot load {candidates[0]}: {e}") from e
        for name, (restype, argtypes) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype = restype
            fn.argtypes = argtypes
        _lib_path = candidates[0]
        _lib = lib
        return lib


def library_path() -> str:
    """The path of the shared library in use (loads it)."""
    _load()
    assert _lib_path is not None
    return _lib_path


def version() -> str:
    """The library's version ("0.1.0")."""
    return _load().scrub_version().decode()


def _form_names() -> Tuple[str, ...]:
    lib = _load()
    names = []
    while True:
        name = lib.scrub_form_name(len(names))
        if not name:
            return tuple(names)
        names.append(name.decode())


# The constants of SPEC section 1, from the library itself.
_lib_at_import = _load()
#: Length of a fragment window, in bytes.
FRAGMENT: int = _lib_at_import.scrub_fragment()
#: Shortest value a secret may have once trimmed of CR and LF, in bytes.
MIN_VALUE: int = _lib_at_import.scrub_min_value()
#: Longest value a secret may have, in bytes.
MAX_VALUE: int = _lib_at_import.scrub_max_value()
#: Longest placeholder a secret may have, in bytes.
MAX_PLACEHOLDER: int = _lib_at_import.scrub_max_placeholder()
#: Longest name a secret may have, in bytes.
MAX_NAME: int = _lib_at_import.scrub_max_name()
#: Milliseconds without input after which to call Stream.idle().
IDLE_MS: int = _lib_at_import.scrub_idle_ms()
#: The rules version the library implements, which Scrubber compiles with.
RULES_VERSION: int = _lib_at_import.scrub_rules_version()
#: Form names in tie-break order (SPEC section 2); index = the C scrub_form.
FORMS: Tuple[str, ...] = _form_names()
del _lib_at_import


def _fail(status: int) -> ScrubError:
    message = _load().scrub_status_message(status)
    return ScrubError(status, message.decode() if message else "unknown status")


def _check(status: int) -> None:
    if status != Status.OK:
        raise _fail(status)


def _compile_error(status: int, error: ctypes.c_void_p) -> ScrubError:
    lib = _load()
    if error.value:
        try:
            message = lib.scrub_error_message(error)
            if message:
                return ScrubError(status, message.decode("utf-8", "replace"))
        finally:
            lib.scrub_error_free(error)
    return _fail(status)


def _take_hits(hits: ctypes.c_void_p) -> List[Hit]:
    lib = _load()
    try:
        n = ctypes.c_size_t()
        _check(lib.scrub_hits_len(hits, ctypes.byref(n)))
        out = []
        entry = _Hit()
        for i in range(n.value):
            _check(lib.scrub_hits_get(hits, i, ctypes.byref(entry)))
            if entry.form_name:
                form = entry.form_name.decode()
            else:  # a form of a later rules version without a name: never so far
                form = str(entry.form)
            out.append(Hit(entry.name.decode(), form, entry.count))
        return out
    finally:
        lib.scrub_hits_free(hits)


def _out_bytes(pointer: ctypes.c_void_p, length: ctypes.c_size_t) -> bytes:
    if length.value == 0:
        return b""
    return ctypes.string_at(pointer.value, length.value)


def _as_bytes(data: object, what: str) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    if isinstance(data, str):
        raise TypeError(f"{what} must be bytes-like, not str (encode it, or use text())")
    raise TypeError(f"{what} must be bytes-like, not {type(data).__name__}")


def _utf8(text: str, what: str) -> bytes:
    """The UTF-8 bytes of ``text``; a ValueError naming ``what`` where it
    holds a lone surrogate. Python's own UnicodeEncodeError quotes the
    character and carries the whole string (``.object``), which may be a
    secret value: it is raised outside the handler, so that it is not
    chained to one."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        at = e.start
    raise ValueError(f"{what} is not valid Unicode: a lone surrogate at character {at} (pass bytes)")


def _secret_bytes(value: object, i: int, field: str) -> BytesLike:
    # The message names the field and the secret's index, never the value.
    # A bytes-like value stays the caller's object (see _NativeSecrets).
    if value is None:
        return b""
    if isinstance(value, str):
        return _utf8(value, f"secret {i}: {field}")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return value
    raise TypeError(f"secret {i}: {field} must be bytes or str, not {type(value).__name__}")


class _Decoded(bytearray):
    """Bytes decoded here (a hex field): wiped once compiled."""


def _normalise(secrets: Iterable[SecretLike]) -> List[Tuple[bytes, BytesLike, BytesLike]]:
    """(name bytes, value, placeholder) for each secret; hex fields decoded
    into _Decoded bytearrays."""
    out = []
    for i, secret in enumerate(secrets):
        if isinstance(secret, dict):
            unknown = set(secret) - {"name", "value", "valueHex", "placeholder", "placeholderHex"}
            if unknown:
                raise TypeError(f"secret {i}: unknown field {sorted(unknown)[0]!r}")
            name = secret.get("name")
            if "valueHex" in secret:
                value = _Decoded.fromhex(secret["valueHex"])
            else:
                value = secret.get("value")
            if "placeholderHex" in secret:
                placeholder = _Decoded.fromhex(secret["placeholderHex"])
            else:
                placeholder = secret.get("placeholder")
        elif isinstance(secret, (tuple, list)) and len(secret) in (2, 3):
            name, value = secret[0], secret[1]
            placeholder = secret[2] if len(secret) == 3 else None
        else:
            raise TypeError(
                f"secret {i}: expected a dict {{name, value, placeholder?}} "
                "or a tuple (name, value[, placeholder])"
            )
        if value is None:
            raise TypeError(f"secret {i}: no value")
        if isinstance(name, str):
            name = _utf8(name, f"secret {i}: name")
        if not isinstance(name, bytes):
            raise TypeError(f"secret {i}: name must be str or bytes")
        if b"\0" in name:
            # The C ABI takes a NUL-terminated name: refuse rather than
            # compile a shorter one.
            raise ScrubError(Status.INVALID_NAME, f"secret {i}: invalid name: it contains a NUL byte")
        out.append(
            (name, _secret_bytes(value, i, "value"), _secret_bytes(placeholder, i, "placeholder"))
        )
    return out


class _NativeSecrets:
    """The secrets as the C ABI takes them, for one compile. A writable
    buffer (a bytearray) is passed where it is, not copied: a caller who
    wipes it after compiling leaves no copy of ours behind. What must be
    copied (a read-only or non-contiguous buffer, a hex field decoded
    here) is wiped by wipe(). A str or bytes is immutable: Python gives no
    way to wipe it, the caller's or ours."""

    def __init__(self, normalised: List[Tuple[bytes, BytesLike, BytesLike]]) -> None:
        self._keep: List[object] = []  # what the structs point into
        self.copies: List[ctypes.Array] = []  # made here: wiped
        self.array = (_Secret * max(len(normalised), 1))()
        for i, (name, value, placeholder) in enumerate(normalised):
            value_p, value_len = self._pointer(value)
            placeholder_p, placeholder_len = self._pointer(placeholder)
            # An empty placeholder is none (NULL); an empty value is an
            # empty value, for compile to refuse as too short.
            placeholder_p = placeholder_p if placeholder_len else None
            self.array[i] = _Secret(name, value_p, value_len, placeholder_p, placeholder_len)

    def _pointer(self, data: BytesLike) -> Tuple[object, int]:
        if isinstance(data, bytes):
            return data, len(data)
        view = memoryview(data)
        if view.nbytes == 0:
            return b"", 0
        ours = isinstance(data, _Decoded)
        if view.readonly or not view.c_contiguous:
            view, ours = memoryview(bytearray(view)), True
        array = (ctypes.c_char * view.nbytes).from_buffer(view)
        self._keep.append(array)
        if ours:
            self.copies.append(array)
        return ctypes.cast(array, ctypes.c_char_p), view.nbytes

    def wipe(self) -> None:
        for array in self.copies:
            ctypes.memset(array, 0, ctypes.sizeof(array))
        self._keep.clear()


def _options(same_length: bool) -> _Options:
    return _Options(ctypes.sizeof(_Options), RULES_VERSION, 1 if same_length else 0)


# ---------------------------------------------------------------------------
# The API
# ---------------------------------------------------------------------------


class Scrubber:
    """Compiled secrets. Immutable; use it from any number of threads.

    ``secrets`` is a list of dicts ``{"name", "value", "placeholder"?}``
    (``valueHex``/``placeholderHex`` as in the vectors also work) or of tuples
    ``(name, value)`` / ``(name, value, placeholder)``; values and placeholders
    are bytes or str (taken as UTF-8). A missing, None or empty placeholder
    means none: a raw match then becomes ``[redacted:<name>]``.
    ``same_length``: replace every match by as many ``*`` as it spans.
    """

    __slots__ = ("_handle", "_finalizer", "same_length", "__weakref__")

    def __init__(self, secrets: Iterable[SecretLike] = (), same_length: bool = False) -> None:
        self._handle = ctypes.c_void_p()
        self._finalizer: Optional[weakref.finalize] = None
        self.same_length = bool(same_length)
        lib = _load()
        normalised = _normalise(secrets)
        native = _NativeSecrets(normalised)
        options = _options(self.same_length)
        handle = ctypes.c_void_p()
        error = ctypes.c_void_p()
        try:
            status = lib.scrub_compile(
                native.array,
                len(normalised),
                ctypes.byref(options),
                ctypes.byref(handle),
                ctypes.byref(error),
            )
        finally:
            native.wipe()
        if status != Status.OK:
            raise _compile_error(status, error)
        self._own(handle)

    def _own(self, handle: ctypes.c_void_p) -> None:
        self._handle = handle
        self._finalizer = weakref.finalize(self, _load().scrub_scrubber_free, handle)

    @classmethod
    def from_json(cls, text: Union[str, bytes], same_length: bool = False) -> "Scrubber":
        """Compiles secrets given as JSON text (the vectors' format, as
        ``scrub_compile_json``): ``[{"name", "value" or "valueHex",
        "placeholder" or "placeholderHex"}]``."""
        data = _utf8(text, "the secrets JSON") if isinstance(text, str) else _as_bytes(text, "text")
        self = cls.__new__(cls)
        self._handle = ctypes.c_void_p()
        self._finalizer = None
        self.same_length = bool(same_length)
        options = _options(self.same_length)
        handle = ctypes.c_void_p()
        error = ctypes.c_void_p()
        status = _load().scrub_compile_json(
            data, len(data), ctypes.byref(options), ctypes.byref(handle), ctypes.byref(error)
        )
        if status != Status.OK:
            raise _compile_error(status, error)
        self._own(handle)
        return self

    def _live(self) -> ctypes.c_void_p:
        if not self._handle.value:
            raise ScrubError(Status.NULL_ARGUMENT, "the scrubber is closed")
        return self._handle

    def bytes(self, data: BytesLike) -> Result:
        """Scrubs ``data`` (bytes-like) in one piece: Result(output bytes, hits)."""
        data = _as_bytes(data, "data")
        lib = _load()
        result = ctypes.c_void_p()
        _check(lib.scrub_bytes(self._live(), data, len(data), ctypes.byref(result)))
        try:
            pointer, length = ctypes.c_void_p(), ctypes.c_size_t()
            _check(lib.scrub_result_output(result, ctypes.byref(pointer), ctypes.byref(length)))
            output = _out_bytes(pointer, length)
            hits = ctypes.c_void_p()
            _check(lib.scrub_result_hits(result, ctypes.byref(hits)))
            return Result(output, _take_hits(hits))
        finally:
            lib.scrub_result_free(result)

    def text(self, text: str) -> Result:
        """Scrubs the UTF-8 bytes of ``text``: Result(output str, hits); a
        broken UTF-8 sequence in the output (a fragment may cut a character)
        becomes U+FFFD."""
        if not isinstance(text, str):
            raise TypeError(f"text must be str, not {type(text).__name__}")
        output, hits = self.bytes(_utf8(text, "text"))
        return Result(output.decode("utf-8", "replace"), hits)

    def stream(self) -> "Stream":
        """A new stream over these secrets (see Stream)."""
        handle = ctypes.c_void_p()
        _check(_load().scrub_stream_new(self._live(), ctypes.byref(handle)))
        return Stream._wrap(handle)

    def close(self) -> None:
        """Frees the compiled secrets now (streams made from it keep working).
        Do not close a scrubber another thread is using."""
        self._handle = ctypes.c_void_p()
        if self._finalizer is not None:
            self._finalizer()  # frees the handle once, however often called

    def __enter__(self) -> "Scrubber":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if not self._handle.value else f"same_length={self.same_length}"
        return f"<slicc_scrub.Scrubber {state}>"


class Stream:
    """A stream over a Scrubber (SPEC section 4): ``push(chunk)`` returns
    every byte that can no longer be part of a match, scrubbed, and holds the
    rest; call ``idle()`` after IDLE_MS milliseconds without input; ``end()``
    once returns what is held. After end(), push, idle and end raise
    ScrubError(Status.STREAM_ENDED); ``hits`` stays readable.

    As a context manager, leaving the block frees the stream: call end()
    inside it to get the held bytes (bytes still held are dropped).
    """

    __slots__ = ("_handle", "_lock", "_ended", "_finalizer", "__weakref__")

    def __init__(self) -> None:
        raise TypeError("make a stream with Scrubber.stream()")

    @classmethod
    def _wrap(cls, handle: ctypes.c_void_p) -> "Stream":
        self = object.__new__(cls)
        self._handle = handle
        self._lock = threading.Lock()
        self._ended = False
        self._finalizer = weakref.finalize(self, _load().scrub_stream_free, handle)
        return self

    def _live(self) -> ctypes.c_void_p:
        if not self._handle.value:
            raise ScrubError(Status.NULL_ARGUMENT, "the stream is closed")
        return self._handle

    def _call(self, fn: Callable[..., int], *args: Any) -> bytes:
        pointer, length = ctypes.c_void_p(), ctypes.c_size_t()
        with self._lock:
            _check(fn(self._live(), *args, ctypes.byref(pointer), ctypes.byref(length)))
            return _out_bytes(pointer, length)

    def push(self, chunk: BytesLike) -> bytes:
        """Pushes ``chunk`` (bytes-like); returns the scrubbed bytes it frees."""
        chunk = _as_bytes(chunk, "chunk")
        return self._call(_load().scrub_stream_push, chunk, len(chunk))

    def idle(self) -> bytes:
        """Call after IDLE_MS without input: when fewer than FRAGMENT bytes
        are held they come out scrubbed (the stream goes on afresh);
        otherwise nothing."""
        return self._call(_load().scrub_stream_idle)

    def end(self) -> bytes:
        """Returns everything held, scrubbed; the stream is ended."""
        out = self._call(_load().scrub_stream_end)
        self._ended = True
        return out

    @property
    def ended(self) -> bool:
        """Whether end() was called."""
        return self._ended

    @property
    def hits(self) -> List[Hit]:
        """The hits so far (also after end())."""
        hits = ctypes.c_void_p()
        with self._lock:
            _check(_load().scrub_stream_hits(self._live(), ctypes.byref(hits)))
        return _take_hits(hits)

    @property
    def held(self) -> int:
        """How many bytes are held back, waiting for more input."""
        n = ctypes.c_size_t()
        with self._lock:
            _check(_load().scrub_stream_held(self._live(), ctypes.byref(n)))
        return n.value

    def close(self) -> None:
        """Frees the stream (bytes still held are dropped)."""
        with self._lock:
            self._handle = ctypes.c_void_p()
            self._finalizer()  # frees the handle once, however often called

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if not self._handle.value else ("ended" if self._ended else "open")
        return f"<slicc_scrub.Stream {state}>"
