package scrub

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The vectors (SPEC §5): every case through Bytes (compiled with Compile and
// with CompileJSON), a stream split at every point, one byte at a time, and
// the Writer; idle.json step by step; errors.json; then misuse.

type vectorSecret struct {
	Name           string  `json:"name"`
	Value          *string `json:"value"`
	ValueHex       *string `json:"valueHex"`
	Placeholder    *string `json:"placeholder"`
	PlaceholderHex *string `json:"placeholderHex"`
}

type vectorHit struct {
	Name  string `json:"name"`
	Form  string `json:"form"`
	Count uint64 `json:"count"`
}

type vectorOptions struct {
	SameLength bool `json:"sameLength"`
}

type vectorCase struct {
	Name      string          `json:"name"`
	Secrets   json.RawMessage `json:"secrets"`
	Options   *vectorOptions  `json:"options"`
	Input     *string         `json:"input"`
	InputHex  *string         `json:"inputHex"`
	Output    *string         `json:"output"`
	OutputHex *string         `json:"outputHex"`
	Hits      []vectorHit     `json:"hits"`
}

type idleStep struct {
	Push    *string `json:"push"`
	PushHex *string `json:"pushHex"`
	Idle    bool    `json:"idle"`
	End     bool    `json:"end"`
}

type idleCase struct {
	Name    string          `json:"name"`
	Secrets json.RawMessage `json:"secrets"`
	Options *vectorOptions  `json:"options"`
	Steps   []idleStep      `json:"steps"`
	Outputs []string        `json:"outputs"`
	Hits    []vectorHit     `json:"hits"`
}

func loadCases(t *testing.T, name string, into interface{}) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc.Cases, into); err != nil {
		t.Fatal(err)
	}
}

// field gives the bytes of text, or of hexText decoded.
func field(t *testing.T, text, hexText *string) []byte {
	t.Helper()
	if text != nil {
		return []byte(*text)
	}
	if hexText != nil {
		b, err := hex.DecodeString(*hexText)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return []byte{}
}

func options(o *vectorOptions) Options {
	return Options{SameLength: o != nil && o.SameLength}
}

func secretsOf(t *testing.T, raw json.RawMessage) []Secret {
	t.Helper()
	var list []vectorSecret
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	out := make([]Secret, 0, len(list))
	for _, s := range list {
		out = append(out, Secret{s.Name, field(t, s.Value, s.ValueHex), field(t, s.Placeholder, s.PlaceholderHex)})
	}
	return out
}

func hitKeys(hits []Hit) []string {
	keys := make([]string, 0, len(hits))
	for _, h := range hits {
		keys = append(keys, fmt.Sprintf("%s/%s/%d", h.Name, h.Form, h.Count))
	}
	sort.Strings(keys)
	return keys
}

func wantKeys(hits []vectorHit) []string {
	keys := make([]string, 0, len(hits))
	for _, h := range hits {
		keys = append(keys, fmt.Sprintf("%s/%s/%d", h.Name, h.Form, h.Count))
	}
	sort.Strings(keys)
	return keys
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func sameKeys(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") }

type prepared struct {
	name     string
	compiled *Scrubber
	fromJSON *Scrubber
	input    []byte
	output   []byte
	hits     []string
}

func prepare(t *testing.T) []prepared {
	t.Helper()
	var cases []vectorCase
	loadCases(t, "vectors.json", &cases)
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	out := make([]prepared, 0, len(cases))
	for _, c := range cases {
		compiled, err := Compile(secretsOf(t, c.Secrets), options(c.Options))
		if err != nil {
			t.Fatalf("%s: Compile: %v", c.Name, err)
		}
		fromJSON, err := CompileJSON(c.Secrets, options(c.Options))
		if err != nil {
			t.Fatalf("%s: CompileJSON: %v", c.Name, err)
		}
		out = append(out, prepared{c.Name, compiled, fromJSON, field(t, c.Input, c.InputHex),
			field(t, c.Output, c.OutputHex), wantKeys(c.Hits)})
	}
	return out
}

func (p *prepared) check(t *testing.T, where string, got []byte, hits []Hit, err error) bool {
	t.Helper()
	if err != nil {
		t.Errorf("%s %s: %v", p.name, where, err)
		return false
	}
	if !bytes.Equal(got, p.output) {
		t.Errorf("%s %s: output %q, want %q", p.name, where, got, p.output)
		return false
	}
	if keys := hitKeys(hits); !sameKeys(keys, p.hits) {
		t.Errorf("%s %s: hits %v, want %v", p.name, where, keys, p.hits)
		return false
	}
	return true
}

func TestVectorsBytes(t *testing.T) {
	for _, p := range prepare(t) {
		out, hits, err := p.compiled.Bytes(p.input)
		p.check(t, "Bytes", out, hits, err)
		out, hits, err = p.fromJSON.Bytes(p.input)
		p.check(t, "Bytes (CompileJSON)", out, hits, err)
	}
}

func TestVectorsEverySplitPoint(t *testing.T) {
	splits := 0
	for _, p := range prepare(t) {
		for i := 0; i <= len(p.input); i++ {
			st, err := p.compiled.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			out, err1 := st.Push(p.input[:i])
			out, err2 := st.AppendPush(out, p.input[i:])
			out, err3 := st.AppendEnd(out)
			hits, err4 := st.Hits()
			st.Close()
			ok := p.check(t, fmt.Sprintf("split at %d", i), out, hits, firstErr(err1, err2, err3, err4))
			splits++
			if !ok {
				break
			}
		}
	}
	t.Logf("%d split points", splits)
}

func TestVectorsByteAtATime(t *testing.T) {
	for _, p := range prepare(t) {
		st, err := p.fromJSON.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		var errs error
		for i := range p.input {
			var piece []byte
			piece, err = st.Push(p.input[i : i+1])
			out = append(out, piece...)
			if err != nil {
				errs = err
			}
		}
		end, err := st.End()
		if err != nil {
			errs = err
		}
		hits, err := st.Hits()
		if err != nil {
			errs = err
		}
		p.check(t, "byte at a time", append(out, end...), hits, errs)
		st.Close()
	}
}

func TestVectorsWriter(t *testing.T) {
	for _, p := range prepare(t) {
		for _, size := range []int{1, 3, 7, 64, len(p.input) + 1} {
			var buf bytes.Buffer
			w := NewWriter(p.compiled, &buf)
			var errs error
			for i := 0; i < len(p.input); i += size {
				end := i + size
				if end > len(p.input) {
					end = len(p.input)
				}
				n, err := w.Write(p.input[i:end])
				if err != nil || n != end-i {
					errs = fmt.Errorf("Write: %d, %v", n, err)
				}
			}
			if err := w.Close(); err != nil {
				errs = err
			}
			hits, err := w.Hits()
			if err != nil {
				errs = err
			}
			if !p.check(t, fmt.Sprintf("Writer in chunks of %d", size), buf.Bytes(), hits, errs) {
				break
			}
		}
	}
}

func TestIdleVectors(t *testing.T) {
	var cases []idleCase
	loadCases(t, "idle.json", &cases)
	if len(cases) < 5 {
		t.Fatalf("only %d idle cases", len(cases))
	}
	for _, c := range cases {
		s, err := Compile(secretsOf(t, c.Secrets), options(c.Options))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		st, err := s.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Steps) != len(c.Outputs) {
			t.Fatalf("%s: %d steps, %d outputs", c.Name, len(c.Steps), len(c.Outputs))
		}
		for k, step := range c.Steps {
			var got []byte
			switch {
			case step.Push != nil || step.PushHex != nil:
				got, err = st.Push(field(t, step.Push, step.PushHex))
			case step.Idle:
				got, err = st.Idle()
			case step.End:
				got, err = st.End()
			default:
				t.Fatalf("%s: step %d: unknown step", c.Name, k)
			}
			if err != nil || string(got) != c.Outputs[k] {
				t.Errorf("%s step %d: %q (%v), want %q", c.Name, k, got, err, c.Outputs[k])
			}
		}
		hits, err := st.Hits()
		if err != nil || !sameKeys(hitKeys(hits), wantKeys(c.Hits)) {
			t.Errorf("%s: hits %v (%v), want %v", c.Name, hitKeys(hits), err, wantKeys(c.Hits))
		}
		st.Close()
		s.Close()
	}
}

const value = "correct horse battery staple"

func expectStatus(t *testing.T, what string, err error, want Status, secret string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v, want an *Error with status %d", what, err, want)
		return
	}
	if e.Status != want {
		t.Errorf("%s: status %d (%s), want %d", what, e.Status, e.Message, want)
	}
	if e.Message == "" {
		t.Errorf("%s: empty message", what)
	}
	if secret != "" && strings.Contains(err.Error(), secret) {
		t.Errorf("%s: the message holds the secret: %s", what, err)
	}
}

func TestCompileErrors(t *testing.T) {
	_, err := Compile([]Secret{{Name: "PW", Value: []byte("s3cr3t!")}}, Options{})
	expectStatus(t, "short value", err, StatusValueTooShort, "s3cr3t!")
	if err != nil && !strings.Contains(err.Error(), "PW") {
		t.Errorf("the message does not name the secret: %v", err)
	}
	_, err = Compile([]Secret{{Name: "bad name", Value: []byte(value)}}, Options{})
	expectStatus(t, "bad name", err, StatusInvalidName, value)
	_, err = Compile([]Secret{{Name: "A\x00B", Value: []byte(value)}}, Options{})
	expectStatus(t, "NUL in name", err, StatusInvalidName, value)
	_, err = Compile([]Secret{{Name: "A", Value: []byte(value)}, {Name: "A", Value: []byte("another value")}}, Options{})
	expectStatus(t, "duplicate", err, StatusDuplicateName, value)
	_, err = Compile([]Secret{{Name: "A", Value: []byte(value), Placeholder: []byte(value)}}, Options{})
	expectStatus(t, "placeholder leaks", err, StatusPlaceholderLeaks, value)
	_, err = CompileJSON([]byte(`[{"name": "A", "value": "correct horse`), Options{})
	expectStatus(t, "not JSON", err, StatusInvalidJSON, "correct")
	_, err = CompileJSON(nil, Options{})
	expectStatus(t, "empty JSON", err, StatusInvalidJSON, "")
	_, err = CompileJSON([]byte(`[{"name": "A", "valu": "correct horse"}]`), Options{})
	expectStatus(t, "not secrets", err, StatusInvalidSecretsJSON, "")
}

func TestStreamMisuseAndLifetimes(t *testing.T) {
	s, err := Compile([]Secret{{Name: "PW", Value: []byte(value), Placeholder: []byte("[pw]")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	s.Close() // the stream keeps the secrets alive
	s.Close()
	if _, _, err := s.Bytes([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Bytes after Close: %v", err)
	}
	out, _ := st.Push([]byte("say correct horse"))
	if held, _ := st.Held(); held == 0 {
		t.Errorf("nothing held while a match may grow")
	}
	out, _ = st.AppendPush(out, []byte(" battery staple!"))
	out, _ = st.AppendIdle(out)
	out, _ = st.AppendEnd(out)
	if string(out) != "say [pw]!" {
		t.Errorf("stream output %q", out)
	}
	for name, f := range map[string]func() ([]byte, error){
		"Push": func() ([]byte, error) { return st.Push([]byte("x")) },
		"Idle": st.Idle,
		"End":  st.End,
	} {
		if _, err := f(); !errors.Is(err, ErrStreamEnded) {
			t.Errorf("%s after End: %v", name, err)
		}
	}
	if hits, err := st.Hits(); err != nil || len(hits) != 1 || hits[0] != (Hit{"PW", FormRaw, 1}) {
		t.Errorf("hits after End: %v, %v", hits, err)
	}
	st.Close()
	st.Close()
	if _, err := st.Push([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Push after Close: %v", err)
	}
}

type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	f.n++
	return 0, errors.New("disk full")
}

func TestWriterErrorsAndIdle(t *testing.T) {
	s, err := Compile([]Secret{{Name: "PW", Value: []byte(value)}}, Options{SameLength: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	var buf bytes.Buffer
	w := NewWriter(s, &buf)
	w.Write([]byte("Password: correct"))
	if err := w.Idle(); err != nil || buf.String() != "Password: correct" {
		t.Errorf("Idle: %q, %v", buf.String(), err)
	}
	w.Write([]byte(" horse battery staple\n"))
	w.Close()
	if err := w.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	// Idle released "correct" afresh: it is never part of a later match, so
	// the rest is scrubbed on its own (a fragment of the value, here).
	rest, _, _ := s.Bytes([]byte(" horse battery staple\n"))
	if want := "Password: correct" + string(rest); buf.String() != want || strings.Contains(want, "horse") {
		t.Errorf("after idle: %q, want %q", buf.String(), want)
	}
	if _, err := w.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Write after Close: %v", err)
	}

	f := &failingWriter{}
	w = NewWriter(s, f)
	if _, err := w.Write([]byte("hello\n")); err == nil {
		t.Errorf("Write to a failing writer: no error")
	}
	if _, err := w.Write([]byte("again\n")); err == nil || f.n != 1 {
		t.Errorf("the error is not sticky: %v, %d writes", err, f.n)
	}
	if err := w.Close(); err == nil {
		t.Errorf("Close after a failed write: no error")
	}

	s2, _ := Compile(nil, Options{})
	s2.Close()
	w = NewWriter(s2, &buf)
	if _, err := w.Write([]byte("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Writer over a closed scrubber: %v", err)
	}
	w.Close()
}

func TestEmptyAndNUL(t *testing.T) {
	s, err := Compile(nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out, hits, err := s.Bytes([]byte("anything")); string(out) != "anything" || len(hits) != 0 || err != nil {
		t.Errorf("no secrets: %q %v %v", out, hits, err)
	}
	if out, _, err := s.Bytes(nil); len(out) != 0 || err != nil {
		t.Errorf("empty input: %q %v", out, err)
	}
	v := []byte("ab\x00cd\x00ef\x00gh")
	s, err = Compile([]Secret{{Name: "NUL", Value: v, Placeholder: []byte("<nul>")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if out, _, _ := s.Bytes(append(append([]byte("x"), v...), 'y')); string(out) != "x<nul>y" {
		t.Errorf("value with NUL bytes: %q", out)
	}
}

func TestConstantsAndForms(t *testing.T) {
	if Fragment != 16 || MinValue != 8 || IdleMS != 50 || RulesVersion != 4 {
		t.Errorf("constants: %d %d %d %d", Fragment, MinValue, IdleMS, RulesVersion)
	}
	if LibraryRulesVersion() != RulesVersion || Version() == "" {
		t.Errorf("library: %q rules %d", Version(), LibraryRulesVersion())
	}
	names := []string{}
	for f := FormRaw; f <= FormWrapped; f++ {
		names = append(names, f.String())
	}
	if strings.Join(names, " ") != "raw fragment json percent html base64 hex wrapped" {
		t.Errorf("forms: %v", names)
	}
}

func TestGoroutinesShareAScrubber(t *testing.T) {
	s, err := Compile([]Secret{{Name: "PW", Value: []byte(value)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	input := bytes.Repeat([]byte("x correct horse battery staple y "), 50)
	want := bytes.Repeat([]byte("x [redacted:PW] y "), 50)
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				if out, _, _ := s.Bytes(input); !bytes.Equal(out, want) {
					errs <- "Bytes"
				}
				var buf bytes.Buffer
				w := NewWriter(s, &buf)
				for i := 0; i < len(input); i += 7 {
					end := i + 7
					if end > len(input) {
						end = len(input)
					}
					w.Write(input[i:end])
				}
				w.Close()
				if !bytes.Equal(buf.Bytes(), want) {
					errs <- "Writer"
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("%s differs", e)
	}
}

// errors.json: every case fails to compile, with Compile and with
// CompileJSON, with its status, and the message shows no value or
// placeholder. Options always carry RulesVersion: the cases of another rules
// version are run by the C harness.
func TestErrorVectors(t *testing.T) {
	var cases []struct {
		Name    string          `json:"name"`
		Secrets json.RawMessage `json:"secrets"`
		Options *struct {
			Version    *uint32 `json:"version"`
			SameLength bool    `json:"sameLength"`
		} `json:"options"`
		Error string `json:"error"`
	}
	loadCases(t, "errors.json", &cases)
	statuses := map[string]Status{
		"unsupported version":  StatusUnsupportedVersion,
		"invalid name":         StatusInvalidName,
		"duplicate name":       StatusDuplicateName,
		"value too short":      StatusValueTooShort,
		"value too long":       StatusValueTooLong,
		"placeholder too long": StatusPlaceholderTooLong,
		"placeholder leaks":    StatusPlaceholderLeaks,
		"redaction leaks":      StatusRedactionLeaks,
	}
	run := 0
	for _, c := range cases {
		if c.Options != nil && c.Options.Version != nil && *c.Options.Version != uint32(RulesVersion) {
			continue
		}
		want, ok := statuses[c.Error]
		if !ok {
			t.Errorf("%s: unknown error %q", c.Name, c.Error)
			continue
		}
		opts := Options{SameLength: c.Options != nil && c.Options.SameLength}
		secrets := secretsOf(t, c.Secrets)
		compiled, errCompile := Compile(secrets, opts)
		fromJSON, errJSON := CompileJSON(c.Secrets, opts)
		for _, s := range []*Scrubber{compiled, fromJSON} {
			if s != nil {
				s.Close()
			}
		}
		for how, err := range map[string]error{"Compile": errCompile, "CompileJSON": errJSON} {
			expectStatus(t, c.Name+" "+how, err, want, "")
			for _, s := range secrets {
				for _, shown := range [][]byte{bytes.Trim(s.Value, "\r\n"), s.Placeholder} {
					// Shorter ones could occur by chance.
					if err != nil && len(shown) >= MinValue-1 && strings.Contains(err.Error(), string(shown)) {
						t.Errorf("%s %s: the message shows a value or placeholder", c.Name, how)
					}
				}
			}
		}
		run++
	}
	if run < 10 {
		t.Errorf("only %d error cases ran", run)
	}
}

// Printing a Secret shows neither its value, nor its placeholder, nor its
// name (which can hold another secret's value).
func TestSecretPrintsNoSecret(t *testing.T) {
	value, placeholder := "sk-live-7f3a9c2e5b", "<the-placeholder>"
	s := Secret{Name: "another-secret-value", Value: []byte(value), Placeholder: []byte(placeholder)}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, shown := range []string{fmt.Sprintf(format, s), fmt.Sprintf(format, []Secret{s})} {
			for _, bad := range []string{value, placeholder, s.Name, fmt.Sprint([]byte(value)[:8])[1:20]} {
				if strings.Contains(shown, bad) {
					t.Errorf("%s shows %q: %s", format, bad, shown)
				}
			}
		}
	}
}

// Printing a Hit does not show its name, which can hold a placeholder.
func TestHitPrintsNoName(t *testing.T) {
	placeholder := "PH_abcdefgh"
	sc, err := Compile([]Secret{{Name: "X" + placeholder, Value: []byte("correct-horse-battery"), Placeholder: []byte(placeholder)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	_, hits, err := sc.Bytes([]byte("a correct-horse-battery b"))
	if err != nil || len(hits) != 1 || hits[0].Name != "X"+placeholder {
		t.Fatalf("hits %v (%v), want one of X%s", hitKeys(hits), err, placeholder)
	}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, shown := range []string{fmt.Sprintf(format, hits[0]), fmt.Sprintf(format, hits)} {
			if strings.Contains(shown, placeholder) || !strings.Contains(shown, "<12 bytes>") {
				t.Errorf("%s shows %s", format, shown)
			}
		}
	}
}
