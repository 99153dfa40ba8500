package slicc.scrub

import com.sun.jna.Pointer
import java.io.Closeable
import com.sun.jna.ptr.PointerByReference

/**
 * A stream over a scrubber (SPEC §4). Its calls are serialised, so it may be
 * shared between threads. end() frees the native stream and keeps the hits,
 * so an ended stream needs no close().
 */
class Stream internal constructor(pointer: Pointer) : Closeable {
    private val handle = Handle(this, pointer, { Lib.lib.scrub_stream_free(it) }, "stream")
    private val output = PointerByReference()
    private val outputLen = Lib.sizeMemory()
    private var endedHits: List<Hit>? = null

    private fun live(): Pointer {
        if (endedHits != null) throw ScrubException(Status.STREAM_ENDED.code)
        return handle.get()
    }

    private fun taken(status: Int): ByteArray {
        Lib.check(status)
        return Lib.copyOut(output.value, Lib.readSize(outputLen))
    }

    /** Pushes [chunk]; returns every byte, scrubbed, that can no longer be part of a match. */
    @Synchronized
    fun push(chunk: ByteArray): ByteArray {
        val stream = live()
        return taken(Lib.lib.scrub_stream_push(stream, chunk, Lib.size(chunk.size), output, outputLen))
    }

    /** After [Scrubber.IDLE_MS] without input: what is held, scrubbed, when fewer than 16 bytes are. */
    @Synchronized
    fun idle(): ByteArray {
        val stream = live()
        return taken(Lib.lib.scrub_stream_idle(stream, output, outputLen))
    }

    /** Everything still held, scrubbed; then push, idle and end throw (STREAM_ENDED). */
    @Synchronized
    fun end(): ByteArray {
        val stream = live()
        val bytes = taken(Lib.lib.scrub_stream_end(stream, output, outputLen))
        endedHits = readHits(stream)
        handle.close()
        return bytes
    }

    /** The hits so far; still readable after end(). */
    val hits: List<Hit>
        @Synchronized get() = endedHits ?: readHits(handle.get())

    private fun readHits(stream: Pointer): List<Hit> {
        val hits = PointerByReference()
        Lib.check(Lib.lib.scrub_stream_hits(stream, hits))
        return takeHits(hits.value)
    }

    /** Frees the stream without end() (held bytes are dropped). */
    @Synchronized
    override fun close() = handle.close()
}
