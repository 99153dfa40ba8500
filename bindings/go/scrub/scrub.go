// Package scrub is the Go binding (cgo) of slicc-scrub, which removes known
// secret values, in every common encoding, from bytes before they reach a
// language model.
//
//	s, err := scrub.Compile([]scrub.Secret{{Name: "GH_TOKEN", Value: token}}, scrub.Options{})
//	if err != nil { ... }
//	defer s.Close()
//	out, hits, err := s.Bytes(data)
//
//	w := scrub.NewWriter(s, os.Stdout) // an io.WriteCloser that scrubs into os.Stdout
//	io.Copy(w, child)
//	w.Close()                           // writes what the stream still holds
//
// It is a thin layer over the C ABI (include/slicc_scrub.h): every matching
// decision is the library's. Errors are *Error values carrying the C status
// and a message that names a secret by index and name, never by its value.
//
// Linking: through pkg-config, against the installed C library (the root
// CMakeLists.txt installs it with its pkg-config files): by default the
// shared library (package slicc_scrub); with the build tag
// slicc_scrub_static, the static one (package slicc_scrub-static), with no
// run-time dependency. For a prefix pkg-config does not search, set
// PKG_CONFIG_PATH to its lib/pkgconfig (and, for the shared library,
// LD_LIBRARY_PATH to its lib, or link statically). The #cgo pkg-config
// lines are in link_shared.go and link_static.go: a file of its own for
// each, so that Go's build cache tells the two links apart.
//
// Threads: a Scrubber may be used from any number of goroutines at once. A
// Stream or a Writer serialises its own calls with a mutex. Close methods
// free the C memory at once; a finalizer frees it otherwise, as a safety net.
package scrub

/*
#include <stdlib.h>
#include <string.h>
#include "slicc_scrub.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// Constants of SPEC §1.
const (
	// Fragment is the length of a fragment window.
	Fragment = C.SCRUB_FRAGMENT
	// MinValue is the shortest value a secret may have, in bytes.
	MinValue = C.SCRUB_MIN_VALUE
	// MaxValue is the longest value a secret may have, in bytes.
	MaxValue = C.SCRUB_MAX_VALUE
	// MaxPlaceholder is the longest placeholder, in bytes.
	MaxPlaceholder = C.SCRUB_MAX_PLACEHOLDER
	// MaxName is the longest name, in bytes.
	MaxName = C.SCRUB_MAX_NAME
	// IdleMS is the number of milliseconds without input after which to
	// call Stream.Idle or Writer.Idle.
	IdleMS = C.SCRUB_IDLE_MS
	// IdleTimeout is IdleMS as a time.Duration.
	IdleTimeout = IdleMS * time.Millisecond
	// RulesVersion is the rules version this package compiles with.
	RulesVersion = C.SCRUB_RULES_VERSION
)

// Version is the library's version ("0.1.0").
func Version() string { return C.GoString(C.scrub_version()) }

// LibraryRulesVersion is the rules version the linked library implements.
func LibraryRulesVersion() uint32 { return uint32(C.scrub_rules_version()) }

// Status is a C status code (scrub_status).
type Status uint32

// The status codes of the C ABI.
const (
	StatusOK                 Status = C.SCRUB_STATUS_OK
	StatusNullArgument       Status = C.SCRUB_STATUS_NULL_ARGUMENT
	StatusInvalidArgument    Status = C.SCRUB_STATUS_INVALID_ARGUMENT
	StatusPanic              Status = C.SCRUB_STATUS_PANIC
	StatusStreamEnded        Status = C.SCRUB_STATUS_STREAM_ENDED
	StatusStreamPoisoned     Status = C.SCRUB_STATUS_STREAM_POISONED
	StatusIndexOutOfRange    Status = C.SCRUB_STATUS_INDEX_OUT_OF_RANGE
	StatusUnsupportedOptions Status = C.SCRUB_STATUS_UNSUPPORTED_OPTIONS
	StatusUnsupportedVersion Status = C.SCRUB_STATUS_UNSUPPORTED_VERSION
	StatusInvalidName        Status = C.SCRUB_STATUS_INVALID_NAME
	StatusDuplicateName      Status = C.SCRUB_STATUS_DUPLICATE_NAME
	StatusValueTooShort      Status = C.SCRUB_STATUS_VALUE_TOO_SHORT
	StatusValueTooLong       Status = C.SCRUB_STATUS_VALUE_TOO_LONG
	StatusPlaceholderTooLong Status = C.SCRUB_STATUS_PLACEHOLDER_TOO_LONG
	StatusPlaceholderLeaks   Status = C.SCRUB_STATUS_PLACEHOLDER_LEAKS
	StatusRedactionLeaks     Status = C.SCRUB_STATUS_REDACTION_LEAKS
	StatusTooLarge           Status = C.SCRUB_STATUS_TOO_LARGE
	StatusInvalidJSON        Status = C.SCRUB_STATUS_INVALID_JSON
	StatusInvalidSecretsJSON Status = C.SCRUB_STATUS_INVALID_SECRETS_JSON
)

// String is the library's fixed message for the status.
func (s Status) String() string { return C.GoString(C.scrub_status_message(C.uint32_t(s))) }

// Error is a failed call: the C status and the library's message (which
// never holds a value or a placeholder).
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string { return "slicc-scrub: " + e.Message }

// Is makes errors.Is(err, ErrStreamEnded) and the like compare statuses.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Status == e.Status
}

// Sentinels for errors.Is.
var (
	// ErrStreamEnded: Push, Idle or End after End.
	ErrStreamEnded = &Error{StatusStreamEnded, StatusStreamEnded.String()}
	// ErrClosed: a call on a Scrubber, Stream or Writer after Close (the C
	// ABI's NULL argument).
	ErrClosed = &Error{StatusNullArgument, "closed"}
)

func statusError(status C.scrub_status) error {
	if status == C.SCRUB_STATUS_OK {
		return nil
	}
	return &Error{Status(status), Status(status).String()}
}

// Form is the form a secret was found in (SPEC §2), in tie-break order. A
// later rules version may add forms: treat an unknown value as "other".
type Form uint32

// The forms.
const (
	FormRaw      Form = C.SCRUB_FORM_RAW
	FormFragment Form = C.SCRUB_FORM_FRAGMENT
	FormJSON     Form = C.SCRUB_FORM_JSON
	FormPercent  Form = C.SCRUB_FORM_PERCENT
	FormHTML     Form = C.SCRUB_FORM_HTML
	FormBase64   Form = C.SCRUB_FORM_BASE64
	FormHex      Form = C.SCRUB_FORM_HEX
	FormWrapped  Form = C.SCRUB_FORM_WRAPPED
)

// String is the form's name ("raw", "fragment", ...), as in SPEC §2.
func (f Form) String() string {
	if name := C.scrub_form_name(C.uint32_t(f)); name != nil {
		return C.GoString(name)
	}
	return fmt.Sprintf("form(%d)", uint32(f))
}

// Secret is one secret. Value holds any bytes (MinValue to MaxValue of
// them); an empty Placeholder means none: a raw match then becomes
// "[redacted:<Name>]".
type Secret struct {
	Name        string
	Value       []byte
	Placeholder []byte
}

// String shows lengths only, so that printing a Secret with %v or %+v never
// shows its value or placeholder, nor its name, which can hold another
// secret's value or a placeholder.
func (s Secret) String() string {
	return fmt.Sprintf("Secret{Name: <%d bytes>, Value: <%d bytes>, Placeholder: <%d bytes>}",
		len(s.Name), len(s.Value), len(s.Placeholder))
}

// GoString is String, for %#v.
func (s Secret) GoString() string { return s.String() }

// Options are the compile options; the rules version is always RulesVersion.
type Options struct {
	// SameLength replaces every match by as many '*' as it spans, keeping
	// CR and LF.
	SameLength bool
}

// Hit is how many matches of a secret in a form were replaced. Never a value.
type Hit struct {
	Name  string
	Form  Form
	Count uint64
}

// String shows the name's length, not the name, which can hold a
// placeholder (printing never shows one); Name is the caller's to show.
func (h Hit) String() string {
	return fmt.Sprintf("Hit{Name: <%d bytes>, Form: %s, Count: %d}", len(h.Name), h.Form, h.Count)
}

// GoString is String, for %#v.
func (h Hit) GoString() string { return h.String() }

func (o Options) c() C.scrub_options {
	var opts C.scrub_options
	opts.struct_size = C.size_t(unsafe.Sizeof(opts))
	opts.version = C.SCRUB_RULES_VERSION
	if o.SameLength {
		opts.same_length = 1
	}
	return opts
}

// compileError turns a failed compile into an *Error, freeing err.
func compileError(status C.scrub_status, err *C.scrub_error) error {
	if err == nil {
		return statusError(status)
	}
	defer C.scrub_error_free(err)
	message := C.scrub_error_message(err)
	if message == nil {
		return statusError(status)
	}
	return &Error{Status(status), C.GoString(message)}
}

// takeHits reads and frees a C list of hits.
func takeHits(hits *C.scrub_hits) ([]Hit, error) {
	defer C.scrub_hits_free(hits)
	var n C.size_t
	if err := statusError(C.scrub_hits_len(hits, &n)); err != nil {
		return nil, err
	}
	out := make([]Hit, 0, int(n))
	for i := C.size_t(0); i < n; i++ {
		var hit C.scrub_hit
		if err := statusError(C.scrub_hits_get(hits, i, &hit)); err != nil {
			return nil, err
		}
		out = append(out, Hit{C.GoString(hit.name), Form(hit.form), uint64(hit.count)})
	}
	return out, nil
}

// cBytes views C memory as a Go slice, without copying: valid only as long
// as the C memory is.
func cBytes(p *C.uint8_t, n C.size_t) []byte {
	if n == 0 || p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), int(n))
}

// goBytes is a pointer to b's bytes for C (nil when b is empty).
func goBytes(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// Scrubber is a list of compiled secrets. Immutable: use one from any number
// of goroutines at once.
type Scrubber struct {
	mu  sync.RWMutex // Close takes it exclusively, every other call shared
	ptr *C.scrub_scrubber
}

func newScrubber(ptr *C.scrub_scrubber) *Scrubber {
	s := &Scrubber{ptr: ptr}
	runtime.SetFinalizer(s, (*Scrubber).Close)
	return s
}

// Compile compiles secrets. It fails with an *Error naming the secret by
// index and name (never its value) when one is invalid.
func Compile(secrets []Secret, opts Options) (*Scrubber, error) {
	// The C ABI reads a struct of pointers: it must live in C memory, and so
	// must what it points to (cgo's pointer rules).
	n := len(secrets)
	var array *C.scrub_secret
	if n > 0 {
		array = (*C.scrub_secret)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.scrub_secret{}))))
		if array == nil {
			return nil, &Error{StatusInvalidArgument, "out of memory"}
		}
		defer C.free(unsafe.Pointer(array))
	}
	entries := unsafe.Slice(array, n)
	// The copies in C memory, wiped before they are freed: they hold the
	// values and placeholders (the Rust side wipes its own).
	type copied struct {
		p    unsafe.Pointer
		size int
	}
	var toFree []copied
	defer func() {
		for _, c := range toFree {
			C.memset(c.p, 0, C.size_t(c.size))
			C.free(c.p)
		}
	}()
	for i, s := range secrets {
		if strings.IndexByte(s.Name, 0) >= 0 {
			// The C ABI takes a NUL-terminated name: refuse rather than
			// compile a shorter one.
			return nil, &Error{StatusInvalidName, fmt.Sprintf("secret %d: invalid name: it contains a NUL byte", i)}
		}
		name := C.CString(s.Name)
		toFree = append(toFree, copied{unsafe.Pointer(name), len(s.Name)})
		entries[i].name = name
		if len(s.Value) > 0 {
			value := C.CBytes(s.Value)
			toFree = append(toFree, copied{value, len(s.Value)})
			entries[i].value = (*C.uint8_t)(value)
			entries[i].value_len = C.size_t(len(s.Value))
		}
		if len(s.Placeholder) > 0 {
			placeholder := C.CBytes(s.Placeholder)
			toFree = append(toFree, copied{placeholder, len(s.Placeholder)})
			entries[i].placeholder = (*C.uint8_t)(placeholder)
			entries[i].placeholder_len = C.size_t(len(s.Placeholder))
		}
	}
	copts := opts.c()
	var ptr *C.scrub_scrubber
	var cerr *C.scrub_error
	if status := C.scrub_compile(array, C.size_t(n), &copts, &ptr, &cerr); status != C.SCRUB_STATUS_OK {
		return nil, compileError(status, cerr)
	}
	return newScrubber(ptr), nil
}

// CompileJSON compiles secrets given as JSON text, the vectors' format:
// [{"name": ..., "value" or "valueHex": ..., "placeholder" or
// "placeholderHex": ...}].
func CompileJSON(json []byte, opts Options) (*Scrubber, error) {
	copts := opts.c()
	var ptr *C.scrub_scrubber
	var cerr *C.scrub_error
	// A non-NULL pointer even for an empty text: "" is then a JSON syntax
	// error, as it should be, not a NULL argument.
	var empty byte
	p := (*C.char)(unsafe.Pointer(&empty))
	if len(json) > 0 {
		p = (*C.char)(unsafe.Pointer(&json[0]))
	}
	status := C.scrub_compile_json(p, C.size_t(len(json)), &copts, &ptr, &cerr)
	runtime.KeepAlive(json)
	if status != C.SCRUB_STATUS_OK {
		return nil, compileError(status, cerr)
	}
	return newScrubber(ptr), nil
}

// Bytes scrubs input in one piece: the scrubbed bytes (a new slice) and the
// hits.
func (s *Scrubber) Bytes(input []byte) ([]byte, []Hit, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.ptr == nil {
		return nil, nil, ErrClosed
	}
	var result *C.scrub_result
	if err := statusError(C.scrub_bytes(s.ptr, goBytes(input), C.size_t(len(input)), &result)); err != nil {
		return nil, nil, err
	}
	defer C.scrub_result_free(result)
	var p *C.uint8_t
	var n C.size_t
	if err := statusError(C.scrub_result_output(result, &p, &n)); err != nil {
		return nil, nil, err
	}
	output := append([]byte{}, cBytes(p, n)...)
	var hits *C.scrub_hits
	if err := statusError(C.scrub_result_hits(result, &hits)); err != nil {
		return nil, nil, err
	}
	list, err := takeHits(hits)
	if err != nil {
		return nil, nil, err
	}
	return output, list, nil
}

// NewStream makes a stream over the secrets. It keeps them alive: the
// Scrubber may be closed first.
func (s *Scrubber) NewStream() (*Stream, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.ptr == nil {
		return nil, ErrClosed
	}
	var ptr *C.scrub_stream
	if err := statusError(C.scrub_stream_new(s.ptr, &ptr)); err != nil {
		return nil, err
	}
	st := &Stream{ptr: ptr}
	runtime.SetFinalizer(st, (*Stream).Close)
	return st, nil
}

// Close frees the compiled secrets; streams made from it keep working.
// Further calls give ErrClosed. Closing twice is fine.
func (s *Scrubber) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ptr != nil {
		C.scrub_scrubber_free(s.ptr)
		s.ptr = nil
		runtime.SetFinalizer(s, nil)
	}
	return nil
}

// Stream scrubs input that arrives in chunks (SPEC §4). Push returns every
// byte that can no longer be part of a match, scrubbed, and holds the rest;
// call Idle after IdleTimeout without input; End once returns what is held.
// After End, Push, Idle and End fail with ErrStreamEnded; Hits still works.
type Stream struct {
	mu  sync.Mutex
	ptr *C.scrub_stream
}

type outFunc func(ptr *C.scrub_stream, p **C.uint8_t, n *C.size_t) C.scrub_status

// call runs f and appends its output to dst.
func (st *Stream) call(dst []byte, f outFunc) ([]byte, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ptr == nil {
		return dst, ErrClosed
	}
	var p *C.uint8_t
	var n C.size_t
	if err := statusError(f(st.ptr, &p, &n)); err != nil {
		return dst, err
	}
	return append(dst, cBytes(p, n)...), nil
}

// Push pushes chunk and returns the scrubbed bytes it frees (a new slice,
// possibly empty).
func (st *Stream) Push(chunk []byte) ([]byte, error) { return st.AppendPush(nil, chunk) }

// AppendPush is Push appending to dst (reuse one buffer to avoid
// allocating per chunk).
func (st *Stream) AppendPush(dst, chunk []byte) ([]byte, error) {
	return st.call(dst, func(ptr *C.scrub_stream, p **C.uint8_t, n *C.size_t) C.scrub_status {
		status := C.scrub_stream_push(ptr, goBytes(chunk), C.size_t(len(chunk)), p, n)
		runtime.KeepAlive(chunk)
		return status
	})
}

// Idle is for after IdleTimeout without input: when fewer than Fragment
// bytes are held, they come out scrubbed and the stream goes on afresh;
// otherwise nothing.
func (st *Stream) Idle() ([]byte, error) { return st.AppendIdle(nil) }

// AppendIdle is Idle appending to dst.
func (st *Stream) AppendIdle(dst []byte) ([]byte, error) {
	return st.call(dst, func(ptr *C.scrub_stream, p **C.uint8_t, n *C.size_t) C.scrub_status {
		return C.scrub_stream_idle(ptr, p, n)
	})
}

// End returns everything held, scrubbed; the stream is ended.
func (st *Stream) End() ([]byte, error) { return st.AppendEnd(nil) }

// AppendEnd is End appending to dst.
func (st *Stream) AppendEnd(dst []byte) ([]byte, error) {
	return st.call(dst, func(ptr *C.scrub_stream, p **C.uint8_t, n *C.size_t) C.scrub_status {
		return C.scrub_stream_end(ptr, p, n)
	})
}

// Hits returns the hits so far (also after End).
func (st *Stream) Hits() ([]Hit, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ptr == nil {
		return nil, ErrClosed
	}
	var hits *C.scrub_hits
	if err := statusError(C.scrub_stream_hits(st.ptr, &hits)); err != nil {
		return nil, err
	}
	return takeHits(hits)
}

// Held returns how many bytes the stream holds back, waiting for more input.
func (st *Stream) Held() (int, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ptr == nil {
		return 0, ErrClosed
	}
	var n C.size_t
	if err := statusError(C.scrub_stream_held(st.ptr, &n)); err != nil {
		return 0, err
	}
	return int(n), nil
}

// Close frees the stream; bytes still held are dropped (call End first).
// Closing twice is fine.
func (st *Stream) Close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ptr != nil {
		C.scrub_stream_free(st.ptr)
		st.ptr = nil
		runtime.SetFinalizer(st, nil)
	}
	return nil
}
