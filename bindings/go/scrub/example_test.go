package scrub_test

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/ai-ecoverse/slicc-scrub/bindings/go/scrub"
)

// The example of docs/bindings.md.
func Example() {
	s, err := scrub.Compile([]scrub.Secret{
		{Name: "GH_TOKEN", Value: []byte("ghp_abcdefgh12345678"), Placeholder: []byte("fnox_proxy_1")},
		{Name: "DB_PASSWORD", Value: []byte("correct horse battery staple")},
	}, scrub.Options{})
	if err != nil {
		log.Fatal(err) // names the secret by index and name, never its value
	}
	defer s.Close()

	// One buffer at once.
	out, hits, err := s.Bytes([]byte("token: ghp_abcdefgh12345678, base64: Z2hwX2FiY2RlZmdoMTIzNDU2Nzg=\n"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	for _, h := range hits {
		fmt.Printf("  %s as %s: %d\n", h.Name, h.Form, h.Count)
	}

	// As a stream: an io.WriteCloser that scrubs into another writer.
	w := scrub.NewWriter(s, os.Stdout)
	io.WriteString(w, "url: https://db/?pw=correct%20horse")
	io.WriteString(w, "%20battery%20staple\n")
	if err := w.Close(); err != nil { // writes what the stream still holds
		log.Fatal(err)
	}
	// Output:
	// token: fnox_proxy_1, base64: [redacted:GH_TOKEN]
	//   GH_TOKEN as raw: 1
	//   GH_TOKEN as base64: 1
	// url: https://db/?pw=[redacted:DB_PASSWORD]
}
