package slicc.scrub

/** The C ABI's status codes (scrub_status). */
enum class Status(val code: Int) {
    OK(0),
    NULL_ARGUMENT(1),
    INVALID_ARGUMENT(2),
    PANIC(3),
    STREAM_ENDED(4),
    STREAM_POISONED(5),
    INDEX_OUT_OF_RANGE(6),
    UNSUPPORTED_OPTIONS(7),
    UNSUPPORTED_VERSION(100),
    INVALID_NAME(101),
    DUPLICATE_NAME(102),
    VALUE_TOO_SHORT(103),
    VALUE_TOO_LONG(104),
    PLACEHOLDER_TOO_LONG(105),
    PLACEHOLDER_LEAKS(106),
    REDACTION_LEAKS(107),
    TOO_LARGE(108),
    INVALID_JSON(200),
    INVALID_SECRETS_JSON(201);

    companion object {
        /** The status of a code, or null for a code of a later library. */
        fun of(code: Int): Status? = values().firstOrNull { it.code == code }
    }
}

/**
 * A failed call: [code] is the library's status, [status] its name when this
 * binding knows it. The message names a secret by index (and by name when
 * that is safe), never by its value or placeholder.
 */
class ScrubException(val code: Int, message: String) : RuntimeException(message) {
    constructor(code: Int) : this(code, Lib.string(Lib.lib.scrub_status_message(code)) ?: "status $code")

    val status: Status? get() = Status.of(code)
}
