package slicc.scrub

import com.sun.jna.Memory
import com.sun.jna.Native
import com.sun.jna.Pointer
import com.sun.jna.ptr.PointerByReference
import java.io.Closeable
import java.lang.ref.Reference

/**
 * Compiled secrets: immutable, for any number of calls and streams on any
 * number of threads. A java.io.Closeable (so an AutoCloseable): close it, or use `use { }`, to free its native memory;
 * a Cleaner frees it otherwise once it is collected. Streams made from it go
 * on working after close. A close() while other threads call it waits for
 * their calls; later calls throw IllegalStateException.
 */
class Scrubber private constructor(pointer: Pointer) : Closeable {
    private val handle = Handle(this, pointer, { Lib.lib.scrub_scrubber_free(it) }, "scrubber")

    /** Scrubs [input] in one piece. */
    fun bytes(input: ByteArray): Scrubbed<ByteArray> {
        val result = PointerByReference()
        try {
            handle.use { Lib.check(Lib.lib.scrub_bytes(it, input, Lib.size(input.size), result)) }
        } finally {
            // Reachable until the call returns: else the Cleaner may free
            // the scrubber under it (the result owns what it holds).
            Reference.reachabilityFence(this)
        }
        val owned = result.value
        try {
            val output = PointerByReference()
            val len = Lib.sizeMemory()
            Lib.check(Lib.lib.scrub_result_output(owned, output, len))
            val bytes = Lib.copyOut(output.value, Lib.readSize(len))
            val hits = PointerByReference()
            Lib.check(Lib.lib.scrub_result_hits(owned, hits))
            return Scrubbed(bytes, takeHits(hits.value))
        } finally {
            Lib.lib.scrub_result_free(owned)
        }
    }

    /** Scrubs the UTF-8 bytes of [input]; a sequence a match cut decodes as U+FFFD. */
    fun text(input: String): Scrubbed<String> {
        val scrubbed = bytes(input.toByteArray(Charsets.UTF_8))
        return Scrubbed(String(scrubbed.output, Charsets.UTF_8), scrubbed.hits)
    }

    /** A new stream over these secrets. */
    fun stream(): Stream {
        val stream = PointerByReference()
        try {
            handle.use { Lib.check(Lib.lib.scrub_stream_new(it, stream)) }
        } finally {
            // As in bytes(): a stream keeps its secrets once made.
            Reference.reachabilityFence(this)
        }
        return Stream(stream.value)
    }

    val closed: Boolean get() = handle.closed

    override fun close() = handle.close()

    companion object {
        /** Length of a fragment window (SCRUB_FRAGMENT). */
        const val FRAGMENT = 16
        /** Shortest value, in bytes. */
        const val MIN_VALUE = 8
        const val MAX_VALUE = 65536
        const val MAX_PLACEHOLDER = 1024
        const val MAX_NAME = 128
        /** Milliseconds without input after which to call [Stream.idle]. */
        const val IDLE_MS = 50
        /** Form names in tie-break order; a hit's form is one of them. */
        val FORMS: List<String> = listOf("raw", "fragment", "json", "percent", "html", "base64", "hex", "wrapped")

        /** The rules version the loaded library implements. */
        @JvmStatic
        val RULES_VERSION: Int get() = Lib.lib.scrub_rules_version()

        /** The library's version ("0.1.0"). */
        @JvmStatic
        fun libraryVersion(): String = Lib.string(Lib.lib.scrub_version()) ?: ""

        /**
         * Compiles [secrets]. [version] is the rules version the caller was
         * written for: the library refuses any other (by default, the one it
         * implements). Throws [ScrubException] for a secret that breaks a rule.
         */
        @JvmStatic
        @JvmOverloads
        fun compile(secrets: List<Secret>, sameLength: Boolean = false, version: Int = RULES_VERSION): Scrubber {
            val native = NativeSecrets(secrets)
            try {
                val scrubber = PointerByReference()
                val error = PointerByReference()
                val status = Lib.lib.scrub_compile(
                    native.array, Lib.size(secrets.size), options(version, sameLength), scrubber, error
                )
                if (status != 0) {
                    val message = Lib.string(Lib.lib.scrub_error_message(error.value))
                    Lib.lib.scrub_error_free(error.value)
                    throw if (message != null) ScrubException(status, message) else ScrubException(status)
                }
                return Scrubber(scrubber.value)
            } finally {
                native.wipe()
            }
        }

        private fun options(version: Int, sameLength: Boolean): Memory {
            val width = Native.SIZE_T_SIZE
            val options = Memory((width + 8).toLong())
            Lib.writeSize(options, 0, (width + 8).toLong())
            options.setInt(width.toLong(), version)
            options.setInt((width + 4).toLong(), if (sameLength) 1 else 0)
            return options
        }
    }
}
