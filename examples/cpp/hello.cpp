// The C++ example of the README (its "C++" section): compile one secret, scrub a
// buffer, then the same through a stream in pieces; print the hits. Exits
// non-zero when the output is not what it should be, so it doubles as a test.
#include <slicc_scrub.hpp>

#include <iostream>
#include <string>

int main() {
    try {
        const auto scrubber = slicc_scrub::Scrubber::compile({
            {"GH_TOKEN", "ghp_abcdefgh12345678", "fnox_proxy_1"},
            {"DB_PASSWORD", "correct horse battery staple", ""},
        });

        // One buffer at once.
        const std::string input =
            "token: ghp_abcdefgh12345678, base64: Z2hwX2FiY2RlZmdoMTIzNDU2Nzg=\n"
            "url: https://db/?pw=correct%20horse%20battery%20staple\n";
        const slicc_scrub::Result result = scrubber.bytes(input);
        std::cout << result.output;
        for (const slicc_scrub::Hit &hit : result.hits) {
            std::cout << "  " << hit.name << " as " << hit.form_name << ": " << hit.count << "\n";
        }

        // The same as a stream, in pieces that cut the secrets.
        slicc_scrub::Stream stream = scrubber.stream();
        std::string streamed;
        for (std::size_t i = 0; i < input.size(); i += 5) {
            stream.push(std::string_view(input).substr(i, 5), streamed);  // appends
        }
        stream.end(streamed);

        const std::string want =
            "token: fnox_proxy_1, base64: [redacted:GH_TOKEN]\n"
            "url: https://db/?pw=[redacted:DB_PASSWORD]\n";
        const bool ok = result.output == want && streamed == want && stream.hits() == result.hits;
        std::cout << (ok ? "ok" : "MISMATCH") << "\n";
        return ok ? 0 : 1;
    } catch (const slicc_scrub::Error &e) {
        // The message names the secret by index and name, never its value.
        std::cerr << "slicc-scrub error " << e.status() << ": " << e.what() << "\n";
        return 1;
    }
}
