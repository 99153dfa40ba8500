// SliccScrub: Swift over the C ABI of slicc-scrub (include/slicc_scrub.h),
// which removes known secret values, in every common encoding, from bytes
// before they reach a language model. The same shape as the other
// bindings: compile secrets into a Scrubber, then bytes(), text(), or a
// ScrubStream with push(), idle(), end() and hits(). Every matching decision is
// the library's.
//
// Untested on the machine this was written on (no Swift toolchain there);
// CI runs its tests in the macOS job.

import CSliccScrub
import Foundation

/// A secret to remove: its name (used in `[redacted:<name>]` and in hits),
/// its value, and an optional placeholder that replaces raw matches.
public struct Secret {
    public var name: String
    public var value: [UInt8]
    /// `nil` or empty: raw matches become `[redacted:<name>]` as well.
    public var placeholder: [UInt8]?

    public init(name: String, value: [UInt8], placeholder: [UInt8]? = nil) {
        self.name = name
        self.value = value
        self.placeholder = placeholder
    }

    public init(name: String, value: String, placeholder: String? = nil) {
        self.init(name: name, value: Array(value.utf8), placeholder: placeholder.map { Array($0.utf8) })
    }
}

/// Lengths only, so that `print`, string interpolation and `dump` never
/// show a value or a placeholder, nor the name, which can hold another
/// secret's value or a placeholder.
extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        return "Secret(name: <\(name.utf8.count) bytes>, value: <\(value.count) bytes>, placeholder: <\(placeholder?.count ?? 0) bytes>)"
    }

    public var debugDescription: String { return description }

    public var customMirror: Mirror { return Mirror(self, children: ["lengths": description]) }
}

/// How many matches of one secret in one form were replaced. Never a value.
/// Its description shows the name's length, not the name, which can hold a
/// placeholder; `name` is the caller's to show.
public struct Hit: Hashable, CustomStringConvertible {
    public let name: String
    public let form: String
    public let count: UInt64

    public init(name: String, form: String, count: UInt64) {
        self.name = name
        self.form = form
        self.count = count
    }

    public var description: String { "<\(name.utf8.count) bytes> as \(form): \(count)" }
}

/// A failed call: the C status code (`SCRUB_STATUS_*` of the header) and a
/// message that names a secret by index and name, never by its value or
/// placeholder.
public struct ScrubError: Error, CustomStringConvertible {
    public let status: UInt32
    public let message: String
    public var description: String { message }
}

/// The status codes a caller may want to tell apart (the header's
/// `SCRUB_STATUS_*` values, which never change).
public enum Status {
    public static let ok: UInt32 = 0
    public static let nullArgument: UInt32 = 1
    public static let invalidArgument: UInt32 = 2
    public static let panic: UInt32 = 3
    public static let streamEnded: UInt32 = 4
    public static let streamPoisoned: UInt32 = 5
    public static let indexOutOfRange: UInt32 = 6
    public static let unsupportedOptions: UInt32 = 7
    public static let unsupportedVersion: UInt32 = 100
    public static let invalidName: UInt32 = 101
    public static let duplicateName: UInt32 = 102
    public static let valueTooShort: UInt32 = 103
    public static let valueTooLong: UInt32 = 104
    public static let placeholderTooLong: UInt32 = 105
    public static let placeholderLeaks: UInt32 = 106
    public static let redactionLeaks: UInt32 = 107
    public static let tooLarge: UInt32 = 108
    public static let invalidJSON: UInt32 = 200
    public static let invalidSecretsJSON: UInt32 = 201
}

/// The constants of SPEC §1, from the linked library.
public enum Constants {
    public static var fragment: Int { Int(scrub_fragment()) }
    public static var minValue: Int { Int(scrub_min_value()) }
    public static var idleMilliseconds: UInt64 { UInt64(scrub_idle_ms()) }
    public static var rulesVersion: UInt32 { UInt32(scrub_rules_version()) }
    /// The linked library's version ("0.1.0").
    public static var version: String { String(cString: scrub_version()) }
}

private func failure(_ status: scrub_status) -> ScrubError {
    let message = scrub_status_message(UInt32(status))
    return ScrubError(status: UInt32(status), message: message.map { String(cString: $0) } ?? "unknown status")
}

private func check(_ status: scrub_status) throws {
    if UInt32(status) != Status.ok {
        throw failure(status)
    }
}

private func compileFailure(_ status: scrub_status, _ error: OpaquePointer?) -> ScrubError {
    defer { scrub_error_free(error) }
    if let error = error, let message = scrub_error_message(error) {
        return ScrubError(status: UInt32(status), message: String(cString: message))
    }
    return failure(status)
}

private func copyOut(_ pointer: UnsafePointer<UInt8>?, _ length: Int) -> [UInt8] {
    guard let pointer = pointer, length > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: length))
}

private func takeHits(_ hits: OpaquePointer?) throws -> [Hit] {
    defer { scrub_hits_free(hits) }
    var count = 0
    try check(scrub_hits_len(hits, &count))
    var list: [Hit] = []
    for index in 0..<count {
        var hit = scrub_hit()
        try check(scrub_hits_get(hits, index, &hit))
        let form = hit.form_name.map { String(cString: $0) } ?? "form \(hit.form)"
        list.append(Hit(name: String(cString: hit.name), form: form, count: hit.count))
    }
    return list
}

private func options(sameLength: Bool) -> scrub_options {
    var options = scrub_options()
    options.struct_size = MemoryLayout<scrub_options>.size
    options.version = UInt32(SCRUB_RULES_VERSION)
    options.same_length = sameLength ? 1 : 0
    return options
}

/// Compiled secrets. Immutable: share one between threads.
public final class Scrubber {
    private let handle: OpaquePointer

    /// Validates and compiles `secrets` (SPEC §1).
    /// - Throws: `ScrubError` naming the first secret at fault.
    public init(_ secrets: [Secret], sameLength: Bool = false) throws {
        // C copies of every name, value and placeholder, valid during the
        // call, then wiped (they spell the secrets) and freed.
        var owned: [(memory: UnsafeMutableRawPointer, count: Int)] = []
        defer {
            for (memory, count) in owned {
                slicc_scrub_swift_wipe(memory, count)
                free(memory)
            }
        }
        func copy(_ bytes: [UInt8]) -> UnsafePointer<UInt8> {
            let memory = malloc(max(bytes.count, 1))!
            owned.append((memory, bytes.count))
            bytes.withUnsafeBytes { source in
                if let base = source.baseAddress {
                    memcpy(memory, base, bytes.count)
                }
            }
            return UnsafePointer(memory.assumingMemoryBound(to: UInt8.self))
        }
        var entries: [scrub_secret] = []
        for (index, secret) in secrets.enumerated() {
            if secret.name.utf8.contains(0) {
                // The C ABI takes a NUL-terminated name: refuse a shorter one.
                throw ScrubError(status: Status.invalidName,
                                 message: "secret \(index): invalid name: it contains a NUL byte")
            }
            let name = strdup(secret.name)!
            owned.append((UnsafeMutableRawPointer(name), secret.name.utf8.count))
            var entry = scrub_secret()
            entry.name = UnsafePointer(name)
            entry.value = copy(secret.value)
            entry.value_len = secret.value.count
            if let placeholder = secret.placeholder, !placeholder.isEmpty {
                entry.placeholder = copy(placeholder)
                entry.placeholder_len = placeholder.count
            }
            entries.append(entry)
        }
        var opts = options(sameLength: sameLength)
        var scrubber: OpaquePointer?
        var error: OpaquePointer?
        let status = entries.withUnsafeBufferPointer { buffer in
            scrub_compile(buffer.baseAddress, buffer.count, &opts, &scrubber, &error)
        }
        guard UInt32(status) == Status.ok, let compiled = scrubber else {
            throw compileFailure(status, error)
        }
        handle = compiled
    }

    /// Compiles secrets given as JSON text, `[{"name", "value" or
    /// "valueHex", "placeholder" or "placeholderHex"}]`.
    /// - Throws: `ScrubError`.
    public init(json: [UInt8], sameLength: Bool = false) throws {
        var opts = options(sameLength: sameLength)
        var scrubber: OpaquePointer?
        var error: OpaquePointer?
        let status = json.withUnsafeBytes { raw in
            scrub_compile_json(raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count,
                               &opts, &scrubber, &error)
        }
        guard UInt32(status) == Status.ok, let compiled = scrubber else {
            throw compileFailure(status, error)
        }
        handle = compiled
    }

    deinit {
        scrub_scrubber_free(handle)
    }

    /// Scrubs `input` in one piece.
    public func bytes(_ input: [UInt8]) throws -> (output: [UInt8], hits: [Hit]) {
        var result: OpaquePointer?
        let status = input.withUnsafeBufferPointer { buffer in
            scrub_bytes(handle, buffer.baseAddress, buffer.count, &result)
        }
        try check(status)
        defer { scrub_result_free(result) }
        var pointer: UnsafePointer<UInt8>?
        var length = 0
        try check(scrub_result_output(result, &pointer, &length))
        let output = copyOut(pointer, length)
        var hits: OpaquePointer?
        try check(scrub_result_hits(result, &hits))
        return (output, try takeHits(hits))
    }

    /// Scrubs the UTF-8 bytes of `input`; a broken sequence in the output
    /// (a fragment may cut a character) becomes U+FFFD.
    public func text(_ input: String) throws -> (output: String, hits: [Hit]) {
        let (output, hits) = try bytes(Array(input.utf8))
        return (String(decoding: output, as: UTF8.self), hits)
    }

    /// A new stream over these secrets.
    public func stream() throws -> ScrubStream {
        var stream: OpaquePointer?
        try check(scrub_stream_new(handle, &stream))
        return ScrubStream(stream!)
    }
}

/// A stream over a Scrubber (SPEC §4), named so as not to clash with
/// Foundation's `Stream`: `push` returns every byte that can no
/// longer be part of a match, scrubbed, and holds the rest; call `idle()`
/// after `Constants.idleMilliseconds` without input; `end()` returns what is
/// held. After `end()`, push, idle and end throw `Status.streamEnded`.
/// Calls are serialised with a lock.
public final class ScrubStream {
    private let handle: OpaquePointer
    private let lock = NSLock()

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        scrub_stream_free(handle)
    }

    private func call(_ body: (OpaquePointer, UnsafeMutablePointer<UnsafePointer<UInt8>?>, UnsafeMutablePointer<Int>) -> scrub_status) throws -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        var pointer: UnsafePointer<UInt8>?
        var length = 0
        try check(body(handle, &pointer, &length))
        // The library reuses its buffer at the next call: copy it now.
        return copyOut(pointer, length)
    }

    /// Pushes `chunk`; returns the scrubbed bytes it frees.
    public func push(_ chunk: [UInt8]) throws -> [UInt8] {
        try chunk.withUnsafeBufferPointer { buffer in
            try call { handle, pointer, length in
                scrub_stream_push(handle, buffer.baseAddress, buffer.count, pointer, length)
            }
        }
    }

    /// When fewer than `Constants.fragment` bytes are held, returns them
    /// scrubbed (the stream goes on afresh); otherwise nothing.
    public func idle() throws -> [UInt8] {
        try call { handle, pointer, length in scrub_stream_idle(handle, pointer, length) }
    }

    /// Returns everything held, scrubbed; the stream is then ended.
    public func end() throws -> [UInt8] {
        try call { handle, pointer, length in scrub_stream_end(handle, pointer, length) }
    }

    /// The hits so far (also after `end()`).
    public func hits() throws -> [Hit] {
        lock.lock()
        defer { lock.unlock() }
        var hits: OpaquePointer?
        try check(scrub_stream_hits(handle, &hits))
        return try takeHits(hits)
    }

    /// How many bytes are held back, waiting for more input.
    public func held() throws -> Int {
        lock.lock()
        defer { lock.unlock() }
        var count = 0
        try check(scrub_stream_held(handle, &count))
        return count
    }
}
