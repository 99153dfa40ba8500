// The C++ test of slicc-scrub: runs vectors/vectors.json (SPEC §5) through
// include/slicc_scrub.hpp, and vectors/idle.json and vectors/errors.json when
// given, plus the wrapper's own checks (errors, moves, misuse).
//
//   slicc_scrub_cpp_test VECTORS.json [IDLE.json [ERRORS.json]]
//
// For every case: bytes(input), compiled both with Scrubber::compile and with
// Scrubber::from_json (the case's own secrets text), gives output and hits;
// for every split point i, push(input[..i]), push(input[i..]), end() gives
// them; and one byte at a time, then end(). Hits are compared in any order.
// Ends with "N passed, N failed" and exits non-zero on any failure.
#include <slicc_scrub.hpp>

extern "C" {
#include "mini_json.h"
}

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace {

// ---------------------------------------------------------------------------
// The vectors are read with the C harness's JSON reader (capi/tests/c/mini_json),
// turned into a small C++ tree. Each value keeps the span of its source
// text, so a case's secrets can be handed to from_json as written.
// ---------------------------------------------------------------------------

struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool boolean = false;
    long long number = 0;
    std::string string;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;
    std::string_view source;

    const Json *get(std::string_view key) const {
        for (const auto &m : members) {
            if (m.first == key) {
                return &m.second;
            }
        }
        return nullptr;
    }
};

Json from_mini(const mj_value &v, std::string_view text) {
    Json out;
    out.source = text.substr(v.start, v.end - v.start);
    switch (v.type) {
    case MJ_NULL:
        out.kind = Json::Null;
        break;
    case MJ_BOOL:
        out.kind = Json::Bool;
        out.boolean = v.boolean;
        break;
    case MJ_NUMBER:
        out.kind = Json::Number;
        out.number = static_cast<long long>(v.number);
        break;
    case MJ_STRING:
        out.kind = Json::String;
        out.string.assign(v.string, v.string_len);
        break;
    case MJ_ARRAY:
        out.kind = Json::Array;
        for (std::size_t i = 0; i < v.len; ++i) {
            out.items.push_back(from_mini(v.items[i], text));
        }
        break;
    case MJ_OBJECT:
        out.kind = Json::Object;
        for (std::size_t i = 0; i < v.len; ++i) {
            out.members.emplace_back(v.keys[i], from_mini(v.items[i], text));
        }
        break;
    }
    return out;
}

Json parse_json(std::string_view text) {
    char error[256] = {0};
    mj_value *root = mj_parse(text.data(), text.size(), error);
    if (root == nullptr) {
        throw std::runtime_error(std::string("invalid JSON: ") + error);
    }
    Json out = from_mini(*root, text);
    mj_free(root);
    return out;
}

std::string read_file(const char *path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error(std::string("cannot read ") + path);
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string from_hex(const std::string &hex) {
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        throw std::runtime_error("bad hex digit");
    };
    if (hex.size() % 2 != 0) {
        throw std::runtime_error("odd hex length");
    }
    std::string out;
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        out += static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1]));
    }
    return out;
}

// The bytes of field `text` or, failing that, of field `hex` (hex-decoded).
std::string bytes_field(const Json &object, std::string_view text, std::string_view hex) {
    if (const Json *v = object.get(text)) {
        return v->string;
    }
    if (const Json *v = object.get(hex)) {
        return from_hex(v->string);
    }
    return std::string();
}

std::string printable(std::string_view bytes) {
    std::string out;
    for (unsigned char c : bytes) {
        if (c >= 0x20 && c < 0x7F && c != '\\') {
            out += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------
// Counting
// ---------------------------------------------------------------------------

long passed = 0;
long failed = 0;

void check(bool ok, const std::string &what) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        if (failed <= 50) {
            std::cerr << "FAIL " << what << "\n";
        }
    }
}

using HitKey = std::tuple<std::string, std::string, std::uint64_t>;

std::vector<HitKey> hit_keys(const std::vector<slicc_scrub::Hit> &hits) {
    std::vector<HitKey> keys;
    for (const auto &h : hits) {
        // The form's name must agree with its number.
        check(h.form_name == slicc_scrub::form_name(h.form), "form name of " + h.form_name);
        keys.emplace_back(h.name, h.form_name, h.count);
    }
    std::sort(keys.begin(), keys.end());
    return keys;
}

std::vector<HitKey> hit_keys(const Json &hits) {
    std::vector<HitKey> keys;
    for (const Json &h : hits.items) {
        keys.emplace_back(h.get("name")->string, h.get("form")->string,
                          static_cast<std::uint64_t>(h.get("count")->number));
    }
    std::sort(keys.begin(), keys.end());
    return keys;
}

std::string show(const std::vector<HitKey> &keys) {
    std::string out = "[";
    for (const auto &k : keys) {
        out += " " + std::get<0>(k) + "/" + std::get<1>(k) + "x" + std::to_string(std::get<2>(k));
    }
    return out + " ]";
}

void check_run(const std::string &where, const std::string &got, const std::string &want,
               const std::vector<slicc_scrub::Hit> &got_hits, const std::vector<HitKey> &want_hits) {
    check(got == want, where + ": output " + printable(got) + ", want " + printable(want));
    const auto keys = hit_keys(got_hits);
    check(keys == want_hits, where + ": hits " + show(keys) + ", want " + show(want_hits));
}

slicc_scrub::Options case_options(const Json &c) {
    slicc_scrub::Options options;
    if (const Json *o = c.get("options")) {
        if (const Json *s = o->get("sameLength")) {
            options.same_length = s->boolean;
        }
    }
    return options;
}

std::vector<slicc_scrub::Secret> case_secrets(const Json &c) {
    std::vector<slicc_scrub::Secret> secrets;
    for (const Json &s : c.get("secrets")->items) {
        secrets.push_back({s.get("name")->string, bytes_field(s, "value", "valueHex"),
                           bytes_field(s, "placeholder", "placeholderHex")});
    }
    return secrets;
}

// ---------------------------------------------------------------------------
// vectors.json
// ---------------------------------------------------------------------------

long run_case(const Json &c) {
    const std::string name = c.get("name")->string;
    const slicc_scrub::Options options = case_options(c);
    const std::string input = bytes_field(c, "input", "inputHex");
    const std::string want = bytes_field(c, "output", "outputHex");
    const std::vector<HitKey> want_hits = hit_keys(*c.get("hits"));

    const slicc_scrub::Scrubber scrubber = slicc_scrub::Scrubber::compile(case_secrets(c), options);
    const slicc_scrub::Scrubber from_json =
        slicc_scrub::Scrubber::from_json(c.get("secrets")->source, options);

    // 1. bytes(), both ways of compiling.
    slicc_scrub::Result r = scrubber.bytes(input);
    check_run(name + " bytes", r.output, want, r.hits, want_hits);
    r = from_json.bytes(input);
    check_run(name + " bytes (from_json)", r.output, want, r.hits, want_hits);

    // 2. Every split point.
    const slicc_scrub::ByteView in(input);
    long runs = 0;
    for (std::size_t i = 0; i <= input.size(); ++i) {
        slicc_scrub::Stream stream = scrubber.stream();
        std::string out = stream.push(in.subview(0, i));
        stream.push(in.subview(i), out);
        stream.end(out);
        check_run(name + " split at " + std::to_string(i), out, want, stream.hits(), want_hits);
        ++runs;
    }

    // 3. One byte at a time.
    slicc_scrub::Stream stream = from_json.stream();
    std::string out;
    for (std::size_t i = 0; i < input.size(); ++i) {
        stream.push(in.subview(i, 1), out);
    }
    stream.end(out);
    check_run(name + " byte at a time", out, want, stream.hits(), want_hits);
    return runs;
}

void run_vectors(const char *path) {
    const std::string text = read_file(path);
    const Json doc = parse_json(text);
    const Json *cases = doc.get("cases");
    if (cases == nullptr || cases->items.empty()) {
        throw std::runtime_error(std::string(path) + ": no cases");
    }
    const long before = failed;
    long splits = 0;
    for (const Json &c : cases->items) {
        try {
            splits += run_case(c);
        } catch (const slicc_scrub::Error &e) {
            check(false, c.get("name")->string + ": Error " + std::to_string(e.status()) + ": " +
                             e.what());
        }
    }
    std::cout << "vectors.json: " << cases->items.size() << " cases, " << splits
              << " split points and byte at a time: "
              << (failed == before ? "ok" : std::to_string(failed - before) + " failed") << "\n";
}

// ---------------------------------------------------------------------------
// idle.json
// ---------------------------------------------------------------------------

void run_idle(const char *path) {
    const std::string text = read_file(path);
    const Json doc = parse_json(text);
    const Json *cases = doc.get("cases");
    if (cases == nullptr || cases->items.empty()) {
        throw std::runtime_error(std::string(path) + ": no cases");
    }
    const long before = failed;
    for (const Json &c : cases->items) {
        const std::string name = c.get("name")->string;
        try {
            const auto scrubber = slicc_scrub::Scrubber::compile(case_secrets(c), case_options(c));
            slicc_scrub::Stream stream = scrubber.stream();
            const auto &steps = c.get("steps")->items;
            const auto &outputs = c.get("outputs")->items;
            check(steps.size() == outputs.size(), name + ": steps and outputs differ in number");
            for (std::size_t k = 0; k < steps.size() && k < outputs.size(); ++k) {
                const Json &step = steps[k];
                std::string got;
                if (step.get("push") || step.get("pushHex")) {
                    got = stream.push(bytes_field(step, "push", "pushHex"));
                } else if (step.get("idle")) {
                    got = stream.idle();
                } else if (step.get("end")) {
                    got = stream.end();
                } else {
                    check(false, name + ": unknown step");
                    continue;
                }
                const std::string &want = outputs[k].string;
                check(got == want, name + " step " + std::to_string(k) + ": " + printable(got) +
                                       ", want " + printable(want));
            }
            const auto keys = hit_keys(stream.hits());
            const auto want_hits = hit_keys(*c.get("hits"));
            check(keys == want_hits, name + ": hits " + show(keys) + ", want " + show(want_hits));
        } catch (const slicc_scrub::Error &e) {
            check(false, name + ": Error " + std::to_string(e.status()) + ": " + e.what());
        }
    }
    std::cout << "idle.json: " << cases->items.size() << " cases: "
              << (failed == before ? "ok" : std::to_string(failed - before) + " failed") << "\n";
}

// ---------------------------------------------------------------------------
// The wrapper itself
// ---------------------------------------------------------------------------

template <typename F>
void expect_error(const std::string &what, scrub_status want, F &&f,
                  std::string_view must_not_contain = {}) {
    try {
        f();
        check(false, what + ": no exception");
    } catch (const slicc_scrub::Error &e) {
        check(e.status() == want, what + ": status " + std::to_string(e.status()) + " (" + e.what() +
                                      "), want " + std::to_string(want));
        check(std::string_view(e.what()).size() > 0, what + ": empty message");
        check(must_not_contain.empty() ||
                  std::string_view(e.what()).find(must_not_contain) == std::string_view::npos,
              what + ": the message holds the secret value");
    }
}

// ---------------------------------------------------------------------------
// errors.json: each case fails to compile, both ways, with its status. The
// wrapper always compiles with its header's rules version, so the cases of
// another version are the C harness's (they are counted as skipped here).
// ---------------------------------------------------------------------------

void run_errors(const char *path) {
    const std::pair<const char *, scrub_status> statuses[] = {
        {"unsupported version", SCRUB_STATUS_UNSUPPORTED_VERSION},
        {"invalid name", SCRUB_STATUS_INVALID_NAME},
        {"duplicate name", SCRUB_STATUS_DUPLICATE_NAME},
        {"value too short", SCRUB_STATUS_VALUE_TOO_SHORT},
        {"value too long", SCRUB_STATUS_VALUE_TOO_LONG},
        {"placeholder too long", SCRUB_STATUS_PLACEHOLDER_TOO_LONG},
        {"placeholder leaks", SCRUB_STATUS_PLACEHOLDER_LEAKS},
        {"redaction leaks", SCRUB_STATUS_REDACTION_LEAKS},
    };
    const std::string text = read_file(path);
    const Json doc = parse_json(text);
    const Json *cases = doc.get("cases");
    if (cases == nullptr || cases->items.empty()) {
        throw std::runtime_error(std::string(path) + ": no cases");
    }
    const long before = failed;
    long skipped = 0;
    for (const Json &c : cases->items) {
        const std::string name = c.get("name")->string;
        const Json *options = c.get("options");
        const Json *version = options ? options->get("version") : nullptr;
        if (version && version->number != static_cast<long long>(slicc_scrub::rules_version)) {
            ++skipped;
            continue;
        }
        const std::string error = c.get("error")->string;
        scrub_status want = SCRUB_STATUS_OK;
        for (const auto &s : statuses) {
            if (error == s.first) {
                want = s.second;
            }
        }
        check(want != SCRUB_STATUS_OK, name + ": unknown error " + error);
        const slicc_scrub::Options opts = case_options(c);
        const auto secrets = case_secrets(c);
        expect_error(name + " compile", want, [&] { slicc_scrub::Scrubber::compile(secrets, opts); });
        expect_error(name + " from_json", want,
                     [&] { slicc_scrub::Scrubber::from_json(c.get("secrets")->source, opts); });
    }
    std::cout << "errors.json: " << cases->items.size() << " cases (" << skipped
              << " of another rules version left to the C harness): "
              << (failed == before ? "ok" : std::to_string(failed - before) + " failed") << "\n";
}

void run_wrapper_checks() {
    const long before = failed;
    using slicc_scrub::Scrubber;
    using slicc_scrub::Secret;

    check(slicc_scrub::library_rules_version() == slicc_scrub::rules_version, "rules version");
    check(!slicc_scrub::version().empty(), "version");
    check(slicc_scrub::form_name(slicc_scrub::Form::wrapped) == "wrapped", "form_name");

    // Compile errors carry the status and a message without the value.
    expect_error("short value", SCRUB_STATUS_VALUE_TOO_SHORT,
                 [] { Scrubber::compile({{"SHORT", "s3cr3t!", ""}}); }, "s3cr3t!");
    expect_error("bad name", SCRUB_STATUS_INVALID_NAME,
                 [] { Scrubber::compile({{"bad name", "correct horse battery", ""}}); },
                 "correct horse");
    expect_error("NUL in name", SCRUB_STATUS_INVALID_NAME,
                 [] { Scrubber::compile({{std::string("A\0B", 3), "correct horse battery", ""}}); });
    expect_error("duplicate name", SCRUB_STATUS_DUPLICATE_NAME, [] {
        Scrubber::compile({{"A", "correct horse battery", ""}, {"A", "staple staple", ""}});
    });
    expect_error("placeholder leaks", SCRUB_STATUS_PLACEHOLDER_LEAKS,
                 [] { Scrubber::compile({{"A", "correct horse battery", "correct horse battery"}}); },
                 "correct horse");
    expect_error("not JSON", SCRUB_STATUS_INVALID_JSON, [] { Scrubber::from_json("[{"); });
    expect_error("empty JSON", SCRUB_STATUS_INVALID_JSON, [] { Scrubber::from_json(""); });
    expect_error("not secrets", SCRUB_STATUS_INVALID_SECRETS_JSON,
                 [] { Scrubber::from_json(R"([{"name":"A","valu":"correct horse"}])"); });

    // A value with NUL bytes and a placeholder; an empty list passes through.
    const std::string value("ab\0cd\0ef\0gh", 11);
    const Scrubber nul = Scrubber::compile({{"NUL", value, "<nul>"}});
    check(nul.bytes("x" + value + "y").output == "x<nul>y", "value with NUL bytes");
    const Scrubber none = Scrubber::compile({});
    check(none.bytes("anything").output == "anything", "no secrets");
    check(none.bytes(slicc_scrub::ByteView()).output.empty(), "empty input");

    // sameLength keeps the length.
    const Scrubber same =
        Scrubber::compile({{"PW", "correct horse battery", ""}}, slicc_scrub::Options{true});
    check(same.bytes("pw=correct horse battery;").output == "pw=*********************;",
          "same_length");

    // Streams: move, the scrubber freed first, misuse after end.
    Scrubber scrubber = Scrubber::compile({{"PW", "correct horse battery", "[pw]"}});
    slicc_scrub::Stream stream = scrubber.stream();
    Scrubber moved = std::move(scrubber);
    check(!scrubber && static_cast<bool>(moved), "moved scrubber");
    expect_error("moved-from scrubber", SCRUB_STATUS_NULL_ARGUMENT, [&] { scrubber.bytes("x"); });
    moved = Scrubber();  // frees it: the stream keeps the secrets alive
    std::string out = stream.push("say correct horse");
    check(stream.held() > 0, "held while a match may grow");
    out += stream.push(" battery!");
    slicc_scrub::Stream other = std::move(stream);
    out += other.end();
    check(out == "say [pw]!", "stream output " + printable(out));
    check(other.hits().size() == 1 && other.hits()[0].form == slicc_scrub::Form::raw &&
              other.hits()[0].count == 1,
          "stream hits");
    expect_error("push after end", SCRUB_STATUS_STREAM_ENDED, [&] { other.push("x"); });
    expect_error("idle after end", SCRUB_STATUS_STREAM_ENDED, [&] { other.idle(); });
    expect_error("end after end", SCRUB_STATUS_STREAM_ENDED, [&] { other.end(); });
    check(other.hits().size() == 1, "hits after end");
    expect_error("moved-from stream", SCRUB_STATUS_NULL_ARGUMENT, [&] { stream.push("x"); });

    std::cout << "wrapper checks: "
              << (failed == before ? "ok" : std::to_string(failed - before) + " failed") << "\n";
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " VECTORS.json [IDLE.json [ERRORS.json]]\n";
        return 2;
    }
    try {
        run_wrapper_checks();
        run_vectors(argv[1]);
        if (argc > 2) {
            run_idle(argv[2]);
        }
        if (argc > 3) {
            run_errors(argv[3]);
        }
    } catch (const std::exception &e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    std::cout << passed << " passed, " << failed << " failed\n";
    return failed == 0 ? 0 : 1;
}
