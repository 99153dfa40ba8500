package slicc.scrub

import com.sun.jna.IntegerType
import com.sun.jna.Library
import com.sun.jna.Memory
import com.sun.jna.Native
import com.sun.jna.Pointer
import com.sun.jna.Structure
import com.sun.jna.ptr.PointerByReference
import java.io.File

/** size_t, whatever its width on this platform. */
class SizeT(value: Long) : IntegerType(Native.SIZE_T_SIZE, value, true) {
    constructor() : this(0)

    // Kotlin sees these members of java.lang.Number as abstract.
    override fun toByte(): Byte = toInt().toByte()
    override fun toShort(): Short = toInt().toShort()
    @Suppress("OVERRIDE_DEPRECATION") // deprecated in Kotlin 1.9, abstract in 1.3
    override fun toChar(): Char = toInt().toChar()
}

/** One scrub_hit, as scrub_hits_get fills it (JNA lays the struct out for the platform). */
class HitStruct : Structure() {
    @JvmField var name: Pointer? = null
    @JvmField var form: Int = 0
    @JvmField var form_name: Pointer? = null
    @JvmField var count: Long = 0

    override fun getFieldOrder(): List<String> = listOf("name", "form", "form_name", "count")
}

/**
 * The functions of include/slicc_scrub.h this binding calls. Handles are
 * plain pointers; strings come back as pointers, decoded as UTF-8 here
 * (JNA's default encoding is the platform's).
 */
interface CLibrary : Library {
    fun scrub_version(): Pointer
    fun scrub_rules_version(): Int
    fun scrub_status_message(status: Int): Pointer

    fun scrub_compile(secrets: Pointer?, len: SizeT, options: Pointer, scrubber: PointerByReference, error: PointerByReference): Int
    fun scrub_error_message(error: Pointer?): Pointer?
    fun scrub_error_free(error: Pointer?)
    fun scrub_scrubber_free(scrubber: Pointer?)

    fun scrub_bytes(scrubber: Pointer, input: ByteArray, len: SizeT, result: PointerByReference): Int
    fun scrub_result_output(result: Pointer, output: PointerByReference, len: Pointer): Int
    fun scrub_result_hits(result: Pointer, hits: PointerByReference): Int
    fun scrub_result_free(result: Pointer?)

    fun scrub_hits_len(hits: Pointer, len: Pointer): Int
    fun scrub_hits_get(hits: Pointer, index: SizeT, hit: HitStruct): Int
    fun scrub_hits_free(hits: Pointer?)

    fun scrub_stream_new(scrubber: Pointer, stream: PointerByReference): Int
    fun scrub_stream_push(stream: Pointer, chunk: ByteArray, len: SizeT, output: PointerByReference, outputLen: Pointer): Int
    fun scrub_stream_idle(stream: Pointer, output: PointerByReference, outputLen: Pointer): Int
    fun scrub_stream_end(stream: Pointer, output: PointerByReference, outputLen: Pointer): Int
    fun scrub_stream_hits(stream: Pointer, hits: PointerByReference): Int
    fun scrub_stream_held(stream: Pointer, held: Pointer): Int
    fun scrub_stream_free(stream: Pointer?)
}

/** The loaded library, and small helpers over its calling conventions. */
internal object Lib {
    /**
     * SLICC_SCRUB_LIB (the library file, or a folder holding it) wins;
     * otherwise JNA finds "slicc_scrub" on jna.library.path, then where the
     * system loader looks (an installed prefix, versioned names included).
     */
    val lib: CLibrary by lazy { load() }

    private fun load(): CLibrary {
        val explicit = System.getenv("SLICC_SCRUB_LIB")
        val target = if (explicit.isNullOrEmpty()) {
            "slicc_scrub"
        } else {
            val file = File(explicit)
            if (!file.exists()) throw UnsatisfiedLinkError("slicc-scrub: SLICC_SCRUB_LIB=$explicit does not exist")
            if (file.isDirectory) File(file, System.mapLibraryName("slicc_scrub")).absolutePath else file.absolutePath
        }
        return try {
            Native.load(target, CLibrary::class.java)
        } catch (e: UnsatisfiedLinkError) {
            val err = UnsatisfiedLinkError(
                "slicc-scrub: cannot load the C library $target: install it, set -Djna.library.path " +
                    "to its folder, or set SLICC_SCRUB_LIB to the file or folder (${e.message})"
            )
            err.initCause(e)
            throw err
        }
    }

    fun string(pointer: Pointer?): String? = pointer?.getString(0, "UTF-8")

    /** Reads a size_t that the library stored at `memory`. */
    fun readSize(memory: Pointer): Long =
        if (Native.SIZE_T_SIZE == 8) memory.getLong(0) else memory.getInt(0).toLong() and 0xffffffffL

    /** Writes a size_t into native memory. */
    fun writeSize(memory: Pointer, offset: Long, value: Long) {
        if (Native.SIZE_T_SIZE == 8) memory.setLong(offset, value) else memory.setInt(offset, value.toInt())
    }

    fun sizeMemory(): Memory = Memory(Native.SIZE_T_SIZE.toLong())

    fun size(value: Int): SizeT = SizeT(value.toLong())

    /**
     * Copies `len` bytes the library owns into a new array; an output no
     * array can hold (2 GiB or more: placeholders can make it longer than
     * the input) throws, rather than come back cut at a wrapped length.
     */
    fun copyOut(output: Pointer?, len: Long): ByteArray {
        if (len == 0L || output == null) return ByteArray(0)
        if (len > Int.MAX_VALUE - 8) {
            throw OutOfMemoryError("slicc-scrub: an output of $len bytes does not fit a ByteArray")
        }
        return output.getByteArray(0, len.toInt())
    }

    fun check(status: Int) {
        if (status != 0) throw ScrubException(status)
    }
}
