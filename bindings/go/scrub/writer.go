package scrub

import (
	"io"
	"sync"
)

// Writer is an io.WriteCloser that scrubs what is written to it into
// another writer, as a stream: each Write passes on every byte that can no
// longer be part of a match and holds the rest; Close writes what is held.
// Close does not close the inner writer.
//
// For interactive output (a prompt without a newline), call Idle after
// IdleTimeout without a Write, for example from a time.Timer reset on each
// Write: it passes on a short held tail.
//
// After a failed write to the inner writer, every later call returns that
// error. A Writer may be used from several goroutines; calls are serialised.
type Writer struct {
	mu     sync.Mutex
	stream *Stream
	w      io.Writer
	buf    []byte // reused output buffer
	err    error  // sticky
	closed bool
	hits   []Hit // the stream's, kept at Close
}

// NewWriter returns a Writer that scrubs into w with the secrets of s. The
// Writer keeps what it needs: s may be closed before it.
func NewWriter(s *Scrubber, w io.Writer) *Writer {
	stream, err := s.NewStream()
	return &Writer{stream: stream, w: w, err: err}
}

// pass writes buf to the inner writer.
func (w *Writer) pass() error {
	if len(w.buf) == 0 {
		return nil
	}
	n, err := w.w.Write(w.buf)
	if err == nil && n < len(w.buf) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = err
	}
	return err
}

// Write scrubs p into the inner writer; it returns len(p) when every byte
// was taken (some may be held back until a later Write, Idle or Close).
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, ErrClosed
	}
	var err error
	if w.buf, err = w.stream.AppendPush(w.buf[:0], p); err != nil {
		w.err = err
		return 0, err
	}
	if err := w.pass(); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Idle passes on a held tail shorter than Fragment bytes (see Stream.Idle).
// Call it after IdleTimeout without a Write.
func (w *Writer) Idle() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrClosed
	}
	var err error
	if w.buf, err = w.stream.AppendIdle(w.buf[:0]); err != nil {
		w.err = err
		return err
	}
	return w.pass()
}

// Close ends the stream, writes what it held to the inner writer and frees
// the stream. Closing twice is fine (the second call does nothing).
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.stream == nil {
		return w.err
	}
	defer func() {
		w.hits, _ = w.stream.Hits()
		w.stream.Close()
	}()
	if w.err != nil {
		return w.err
	}
	var err error
	if w.buf, err = w.stream.AppendEnd(w.buf[:0]); err != nil {
		w.err = err
		return err
	}
	return w.pass()
}

// Hits returns the hits so far (also after Close).
func (w *Writer) Hits() ([]Hit, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stream == nil {
		return nil, w.err
	}
	if w.closed {
		return w.hits, nil
	}
	return w.stream.Hits()
}
