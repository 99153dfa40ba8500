package slicc.scrub

import com.sun.jna.Pointer
import java.io.Closeable
import com.sun.jna.ptr.PointerByReference

/**
 * A stream over a scrubber (SPEC §4). Its calls are serialised, so it may be
 * shared between threads. end() frees the native stream and keeps the hits,
 * so an ended stream needs no close() (where its hits cannot be read then,
 * it keeps the native stream, which still has them, rather than lose the
 * bytes end() returns).
 */
class Stream internal constructor(pointer: Pointer) : Closeable {
    private val handle = Handle(this, pointer, { Lib.lib.scrub_stream_free(it) }, "stream")
    private val output = PointerByReference()
    private val outputLen = Lib.sizeMemory()
    private var ended = false
    private var endedHits: List<Hit>? = null

    private fun live(): Pointer {
        if (ended) throw ScrubException(Status.STREAM_ENDED.code)
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
        ended = true
        try {
            endedHits = readHits(stream)
            handle.close()
        } catch (e: ScrubException) {
            // No memory for the list: [hits] reads it from the native stream later.
        } catch (e: OutOfMemoryError) {
            // Likewise.
        }
        return bytes
    }

    /** How many bytes are held back, waiting for more input; 0 once ended. */
    val held: Long
        @Synchronized get() {
            if (ended) return 0
            val held = Lib.sizeMemory()
            Lib.check(Lib.lib.scrub_stream_held(handle.get(), held))
            return Lib.readSize(held)
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
