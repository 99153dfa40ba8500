/*
 * slicc_scrub.hpp: a header-only C++17 wrapper over the C ABI of slicc-scrub
 * (slicc_scrub.h), which removes known secret values, in every common
 * encoding, from bytes before they reach a language model.
 *
 *   #include <slicc_scrub.hpp>
 *
 *   auto scrubber = slicc_scrub::Scrubber::compile({{"GH_TOKEN", token, "fnox_proxy_1"}});
 *   slicc_scrub::Result r = scrubber.bytes(text);   // r.output, r.hits
 *
 *   slicc_scrub::Stream stream = scrubber.stream();
 *   std::string out = stream.push(chunk);            // as often as needed
 *   out += stream.idle();                            // after idle_ms without input
 *   out += stream.end();                             // what is still held
 *
 * Every matching decision is the library's: this file only converts types,
 * owns handles and turns status codes into exceptions.
 *
 * Types.
 *   - Inputs are a ByteView: a (pointer, size) pair made implicitly from a
 *     std::string_view, a std::string, a C string, a std::vector<std::uint8_t>
 *     or explicitly from (const void *, size). Any bytes; the library copies
 *     what it needs during the call.
 *   - Outputs are std::string used as a byte string (it may hold any byte,
 *     NUL included; .data() and .size() give the bytes). Values and
 *     placeholders in Secret are std::string for the same reason.
 *   - Scrubber and Stream are move-only owners of the C handles; a moved-from
 *     handle is empty, and any call on it throws Error with
 *     SCRUB_STATUS_NULL_ARGUMENT.
 *   - Every failure throws slicc_scrub::Error (a std::runtime_error) carrying
 *     the C status code (status()) and the library's message (what()). No
 *     message ever holds a secret value or a placeholder.
 *
 * Threads: a Scrubber is immutable, so bytes() and stream() may be called on
 * one Scrubber from any number of threads at once. A Stream is used by one
 * thread at a time. A Stream keeps the compiled secrets alive: its Scrubber
 * may be destroyed first.
 *
 * Linking: as for the C library (-lslicc_scrub, or CMake's
 * slicc_scrub::slicc_scrub); this header adds nothing to link.
 */
#ifndef SLICC_SCRUB_HPP
#define SLICC_SCRUB_HPP

#include "slicc_scrub.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slicc_scrub {

/// Length of a fragment window (SPEC §2).
inline constexpr std::size_t fragment = SCRUB_FRAGMENT;
/// Shortest value a secret may have, in bytes.
inline constexpr std::size_t min_value = SCRUB_MIN_VALUE;
/// Longest value a secret may have, in bytes.
inline constexpr std::size_t max_value = SCRUB_MAX_VALUE;
/// Longest placeholder, in bytes.
inline constexpr std::size_t max_placeholder = SCRUB_MAX_PLACEHOLDER;
/// Longest name, in bytes.
inline constexpr std::size_t max_name = SCRUB_MAX_NAME;
/// Milliseconds without input after which to call Stream::idle().
inline constexpr unsigned idle_ms = SCRUB_IDLE_MS;
/// The rules version this header was written for.
inline constexpr std::uint32_t rules_version = SCRUB_RULES_VERSION;

/// The library's version ("0.1.0").
inline std::string version() {
    const char *v = scrub_version();  // NULL only where the library failed
    return v ? v : "";
}

/// The rules version the linked library implements.
inline std::uint32_t library_rules_version() noexcept { return scrub_rules_version(); }

/// The form a secret was found in (SPEC §2), in tie-break order. A later
/// rules version may add forms: treat an unknown value as "other".
enum class Form : std::uint32_t {
    raw = SCRUB_FORM_RAW,
    fragment = SCRUB_FORM_FRAGMENT,
    json = SCRUB_FORM_JSON,
    percent = SCRUB_FORM_PERCENT,
    html = SCRUB_FORM_HTML,
    base64 = SCRUB_FORM_BASE64,
    hex = SCRUB_FORM_HEX,
    wrapped = SCRUB_FORM_WRAPPED,
};

/// The name of a form ("raw", "fragment", ...); empty for an unknown value.
inline std::string_view form_name(Form form) noexcept {
    const char *name = scrub_form_name(static_cast<std::uint32_t>(form));
    return name ? std::string_view(name) : std::string_view();
}

/// A failed call: the C status code and the library's message.
class Error : public std::runtime_error {
  public:
    Error(scrub_status status, const std::string &message)
        : std::runtime_error(message), status_(status) {}

    /// The status the C function returned (never SCRUB_STATUS_OK).
    scrub_status status() const noexcept { return status_; }

  private:
    scrub_status status_;
};

/// Bytes to read: a pointer and a size, not owned. Made implicitly from the
/// usual byte containers; it must not outlive them.
class ByteView {
  public:
    ByteView() noexcept = default;
    ByteView(const void *data, std::size_t size) noexcept
        : data_(static_cast<const std::uint8_t *>(data)), size_(size) {}
    ByteView(std::string_view s) noexcept : ByteView(s.data(), s.size()) {}
    ByteView(const std::string &s) noexcept : ByteView(s.data(), s.size()) {}
    ByteView(const char *s) noexcept : ByteView(s, s ? std::char_traits<char>::length(s) : 0) {}
    ByteView(const std::vector<std::uint8_t> &v) noexcept : ByteView(v.data(), v.size()) {}

    const std::uint8_t *data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    /// The bytes [offset, offset + count), clamped to the view.
    ByteView subview(std::size_t offset, std::size_t count = static_cast<std::size_t>(-1)) const noexcept {
        if (offset > size_) {
            offset = size_;
        }
        if (count > size_ - offset) {
            count = size_ - offset;
        }
        return ByteView(data_ + offset, count);
    }

  private:
    const std::uint8_t *data_ = nullptr;
    std::size_t size_ = 0;
};

/// One secret. `value` holds any bytes (8 to 65,536 of them); an empty
/// `placeholder` means none: a raw match then becomes `[redacted:<name>]`.
struct Secret {
    std::string name;
    std::string value;
    std::string placeholder;
};

/// Compile options. The rules version is always this header's.
struct Options {
    /// Replace every match by as many `*` as it spans, keeping CR and LF.
    bool same_length = false;
};

/// One entry of the hits: how many matches of a secret in a form were
/// replaced. Never a value.
struct Hit {
    std::string name;
    Form form = Form::raw;
    std::string form_name;
    std::uint64_t count = 0;

    friend bool operator==(const Hit &a, const Hit &b) {
        return a.name == b.name && a.form == b.form && a.count == b.count;
    }
    friend bool operator!=(const Hit &a, const Hit &b) { return !(a == b); }
};

/// What Scrubber::bytes() gives: the scrubbed bytes and the hits (by secret
/// index, then form order).
struct Result {
    std::string output;
    std::vector<Hit> hits;
};

namespace detail {

[[noreturn]] inline void fail(scrub_status status) {
    const char *message = scrub_status_message(static_cast<std::uint32_t>(status));
    throw Error(status, message ? message : "unknown status");
}

inline void check(scrub_status status) {
    if (status != SCRUB_STATUS_OK) {
        fail(status);
    }
}

// Takes ownership of `error` (may be NULL) and throws.
[[noreturn]] inline void fail_compile(scrub_status status, scrub_error *error) {
    const char *message = error ? scrub_error_message(error) : nullptr;
    if (message == nullptr) {
        scrub_error_free(error);
        fail(status);
    }
    std::string text;
    try {
        text = message;
    } catch (...) {
        scrub_error_free(error);
        throw;
    }
    scrub_error_free(error);
    throw Error(status, text);
}

// Reads and frees `hits`.
inline std::vector<Hit> take_hits(scrub_hits *hits) {
    struct Guard {
        scrub_hits *hits;
        ~Guard() { scrub_hits_free(hits); }
    } guard{hits};
    std::size_t len = 0;
    check(scrub_hits_len(hits, &len));
    std::vector<Hit> out;
    out.reserve(len);
    for (std::size_t i = 0; i < len; ++i) {
        scrub_hit hit{};
        check(scrub_hits_get(hits, i, &hit));
        out.push_back(Hit{hit.name ? hit.name : "", static_cast<Form>(hit.form),
                          hit.form_name ? hit.form_name : "", hit.count});
    }
    return out;
}

inline scrub_options make_options(const Options &options) noexcept {
    scrub_options raw = SCRUB_OPTIONS_INIT;
    raw.same_length = options.same_length ? 1u : 0u;
    return raw;
}

inline void append(std::string &out, const std::uint8_t *data, std::size_t len) {
    if (len != 0) {
        out.append(reinterpret_cast<const char *>(data), len);
    }
}

}  // namespace detail

/// A stream over a Scrubber (SPEC §4): push chunks, call idle() after
/// idle_ms without input, end() once. Move-only.
class Stream {
  public:
    Stream() noexcept = default;
    /// Takes ownership of a C stream handle.
    explicit Stream(scrub_stream *stream) noexcept : stream_(stream) {}
    Stream(Stream &&other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
    Stream &operator=(Stream &&other) noexcept {
        if (this != &other) {
            scrub_stream_free(stream_);
            stream_ = std::exchange(other.stream_, nullptr);
        }
        return *this;
    }
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    /// Frees the stream; bytes still held are dropped (call end() first).
    ~Stream() { scrub_stream_free(stream_); }

    /// Pushes `chunk`; returns every byte, scrubbed, that can no longer be
    /// part of a match. The rest is held for later calls.
    std::string push(ByteView chunk) {
        std::string out;
        push(chunk, out);
        return out;
    }
    /// As push(chunk), appending to `out` (reuse one string to avoid
    /// allocating per chunk).
    void push(ByteView chunk, std::string &out) {
        const std::uint8_t *data = nullptr;
        std::size_t len = 0;
        detail::check(scrub_stream_push(stream_, chunk.data(), chunk.size(), &data, &len));
        detail::append(out, data, len);
    }

    /// After idle_ms without input: when fewer than `fragment` bytes are
    /// held, returns them scrubbed and goes on afresh; otherwise nothing.
    std::string idle() {
        std::string out;
        idle(out);
        return out;
    }
    void idle(std::string &out) {
        const std::uint8_t *data = nullptr;
        std::size_t len = 0;
        detail::check(scrub_stream_idle(stream_, &data, &len));
        detail::append(out, data, len);
    }

    /// Returns everything held, scrubbed; the stream is ended afterwards
    /// (push, idle and end throw Error with SCRUB_STATUS_STREAM_ENDED).
    std::string end() {
        std::string out;
        end(out);
        return out;
    }
    void end(std::string &out) {
        const std::uint8_t *data = nullptr;
        std::size_t len = 0;
        detail::check(scrub_stream_end(stream_, &data, &len));
        detail::append(out, data, len);
    }

    /// The hits so far (also after end()).
    std::vector<Hit> hits() const {
        scrub_hits *hits = nullptr;
        detail::check(scrub_stream_hits(stream_, &hits));
        return detail::take_hits(hits);
    }

    /// How many bytes are held back, waiting for more input.
    std::size_t held() const {
        std::size_t held = 0;
        detail::check(scrub_stream_held(stream_, &held));
        return held;
    }

    /// False for a moved-from or default-made stream.
    explicit operator bool() const noexcept { return stream_ != nullptr; }
    scrub_stream *native() const noexcept { return stream_; }
    /// Gives up ownership of the C handle.
    scrub_stream *release() noexcept { return std::exchange(stream_, nullptr); }

  private:
    scrub_stream *stream_ = nullptr;
};

/// Compiled secrets. Immutable and thread-safe; move-only.
class Scrubber {
  public:
    Scrubber() noexcept = default;
    /// Takes ownership of a C scrubber handle.
    explicit Scrubber(scrub_scrubber *scrubber) noexcept : scrubber_(scrubber) {}
    Scrubber(Scrubber &&other) noexcept : scrubber_(std::exchange(other.scrubber_, nullptr)) {}
    Scrubber &operator=(Scrubber &&other) noexcept {
        if (this != &other) {
            scrub_scrubber_free(scrubber_);
            scrubber_ = std::exchange(other.scrubber_, nullptr);
        }
        return *this;
    }
    Scrubber(const Scrubber &) = delete;
    Scrubber &operator=(const Scrubber &) = delete;
    ~Scrubber() { scrub_scrubber_free(scrubber_); }

    /// Compiles `secrets`. Throws Error (with a message naming the secret by
    /// index and name, never its value) when one is invalid.
    static Scrubber compile(const std::vector<Secret> &secrets, const Options &options = {}) {
        std::vector<scrub_secret> raw;
        raw.reserve(secrets.size());
        for (std::size_t i = 0; i < secrets.size(); ++i) {
            const Secret &s = secrets[i];
            if (s.name.find('\0') != std::string::npos) {
                // The C ABI takes a NUL-terminated name: refuse rather than
                // compile a shorter name.
                throw Error(SCRUB_STATUS_INVALID_NAME,
                            "secret " + std::to_string(i) + ": invalid name: it contains a NUL byte");
            }
            raw.push_back(scrub_secret{
                s.name.c_str(), reinterpret_cast<const std::uint8_t *>(s.value.data()),
                s.value.size(),
                s.placeholder.empty() ? nullptr
                                      : reinterpret_cast<const std::uint8_t *>(s.placeholder.data()),
                s.placeholder.size()});
        }
        const scrub_options raw_options = detail::make_options(options);
        scrub_scrubber *scrubber = nullptr;
        scrub_error *error = nullptr;
        const scrub_status status =
            scrub_compile(raw.data(), raw.size(), &raw_options, &scrubber, &error);
        if (status != SCRUB_STATUS_OK) {
            detail::fail_compile(status, error);
        }
        return Scrubber(scrubber);
    }

    /// Compiles secrets given as JSON text, the vectors' format:
    /// [{"name": ..., "value" or "valueHex": ..., "placeholder" or
    /// "placeholderHex": ...}].
    static Scrubber from_json(std::string_view json, const Options &options = {}) {
        const scrub_options raw_options = detail::make_options(options);
        scrub_scrubber *scrubber = nullptr;
        scrub_error *error = nullptr;
        // A non-NULL pointer even for an empty view: "" is then a JSON
        // syntax error, as it should be, not a NULL argument.
        const char *data = json.data() ? json.data() : "";
        const scrub_status status =
            scrub_compile_json(data, json.size(), &raw_options, &scrubber, &error);
        if (status != SCRUB_STATUS_OK) {
            detail::fail_compile(status, error);
        }
        return Scrubber(scrubber);
    }

    /// Scrubs `input` in one piece.
    Result bytes(ByteView input) const {
        scrub_result *result = nullptr;
        detail::check(scrub_bytes(scrubber_, input.data(), input.size(), &result));
        struct Guard {
            scrub_result *result;
            ~Guard() { scrub_result_free(result); }
        } guard{result};
        const std::uint8_t *data = nullptr;
        std::size_t len = 0;
        detail::check(scrub_result_output(result, &data, &len));
        Result out;
        detail::append(out.output, data, len);
        scrub_hits *hits = nullptr;
        detail::check(scrub_result_hits(result, &hits));
        out.hits = detail::take_hits(hits);
        return out;
    }

    /// A new stream over these secrets.
    Stream stream() const {
        scrub_stream *stream = nullptr;
        detail::check(scrub_stream_new(scrubber_, &stream));
        return Stream(stream);
    }

    /// False for a moved-from or default-made scrubber.
    explicit operator bool() const noexcept { return scrubber_ != nullptr; }
    const scrub_scrubber *native() const noexcept { return scrubber_; }
    /// Gives up ownership of the C handle.
    scrub_scrubber *release() noexcept { return std::exchange(scrubber_, nullptr); }

  private:
    scrub_scrubber *scrubber_ = nullptr;
};

}  // namespace slicc_scrub

#endif  // SLICC_SCRUB_HPP
