package slicc.scrub

/**
 * A secret: its [name] (1 to 128 bytes of `A-Z a-z 0-9 _ - .`), its [value]
 * (any bytes) and an optional [placeholder] that replaces a raw match (null
 * or empty: `[redacted:<name>]`). The arrays are the caller's; compile copies
 * them. toString() shows lengths only: a name can hold another secret's
 * value or a placeholder.
 */
class Secret(val name: String, val value: ByteArray, val placeholder: ByteArray? = null) {
    /** A value and placeholder given as text: their UTF-8 bytes. */
    constructor(name: String, value: String, placeholder: String? = null) :
        this(name, value.toByteArray(Charsets.UTF_8), placeholder?.toByteArray(Charsets.UTF_8))

    override fun toString(): String =
        "Secret(name=<${name.toByteArray(Charsets.UTF_8).size} bytes>, value=<${value.size} bytes>)"
}

/** What bytes() and text() give: the scrubbed [output] and its [hits]. */
class Scrubbed<T>(val output: T, val hits: List<Hit>) {
    operator fun component1(): T = output
    operator fun component2(): List<Hit> = hits
}
