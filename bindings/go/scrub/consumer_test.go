package scrub

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A module outside this repository that depends on the package, as a user's
// would: it builds against the installed C library that pkg-config finds
// (PKG_CONFIG_PATH as the caller set it), and its program runs.
func TestModuleOutsideTheRepository(t *testing.T) {
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := "module example.com/consumer\n\ngo 1.19\n\n" +
		"require github.com/ai-ecoverse/slicc-scrub/bindings/go/scrub v0.0.0\n\n" +
		"replace github.com/ai-ecoverse/slicc-scrub/bindings/go/scrub => " + filepath.ToSlash(here) + "\n"
	mainGo := `package main

import (
	"fmt"
	"os"

	"github.com/ai-ecoverse/slicc-scrub/bindings/go/scrub"
)

func main() {
	s, err := scrub.Compile([]scrub.Secret{{Name: "GH_TOKEN", Value: []byte("ghp_abcdefgh12345678")}}, scrub.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer s.Close()
	out, hits, err := s.Bytes([]byte("token: ghp_abcdefgh12345678"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(string(out), len(hits), scrub.Version())
}
`
	for name, text := range map[string]string{"go.mod": goMod, "main.go": mainGo} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	args := []string{"run"}
	if linkTags != "" {
		args = append(args, "-tags", linkTags) // link the consumer as this test is linked
	}
	cmd := exec.Command(goTool, append(args, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run in %s: %v\n%s", dir, err, out)
	}
	got := strings.TrimSpace(string(out))
	want := "token: [redacted:GH_TOKEN] 1 " + Version()
	if got != want {
		t.Fatalf("the consumer printed %q, want %q", got, want)
	}
	t.Logf("a module in %s built against pkg-config's slicc_scrub and printed %q", dir, got)
}
