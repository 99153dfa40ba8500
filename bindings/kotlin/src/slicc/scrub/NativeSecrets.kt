package slicc.scrub

import com.sun.jna.Memory
import com.sun.jna.Native
import com.sun.jna.Pointer

/**
 * The caller's secrets as the scrub_secret array scrub_compile reads (each
 * struct is five pointer-sized words: name, value, value_len, placeholder,
 * placeholder_len). Only the NUL a C string cannot hold is checked here;
 * every rule of the contract is the library's, so its messages are the
 * same in every binding. [wipe] zeroes the native copies of values and
 * placeholders once compile has returned.
 */
internal class NativeSecrets(secrets: List<Secret>) {
    private val buffers = ArrayList<Memory>()
    val array: Pointer?

    init {
        val word = Native.POINTER_SIZE
        check(Native.SIZE_T_SIZE == word) { "slicc-scrub: size_t and pointers differ in width here" }
        array = if (secrets.isEmpty()) null else Memory((secrets.size * 5 * word).toLong())
        secrets.forEachIndexed { index, secret ->
            if (secret.name.indexOf('\u0000') >= 0) {
                wipe()
                throw ScrubException(Status.INVALID_NAME.code, "secret $index: invalid name: it holds a NUL character")
            }
            val base = (index * 5 * word).toLong()
            val name = secret.name.toByteArray(Charsets.UTF_8)
            array!!.setPointer(base, copy(name, terminate = true))
            array.setPointer(base + word, copy(secret.value, terminate = false))
            Lib.writeSize(array, base + 2 * word, secret.value.size.toLong())
            val placeholder = secret.placeholder
            if (placeholder == null || placeholder.isEmpty()) {
                array.setPointer(base + 3 * word, null)
                Lib.writeSize(array, base + 4 * word, 0)
            } else {
                array.setPointer(base + 3 * word, copy(placeholder, terminate = false))
                Lib.writeSize(array, base + 4 * word, placeholder.size.toLong())
            }
        }
    }

    private fun copy(bytes: ByteArray, terminate: Boolean): Memory {
        // Memory of size 0 is not allowed: an empty value gets one byte (and length 0).
        val memory = Memory(maxOf(1, bytes.size + if (terminate) 1 else 0).toLong())
        memory.clear()
        memory.write(0, bytes, 0, bytes.size)
        buffers.add(memory)
        return memory
    }

    fun wipe() {
        for (buffer in buffers) buffer.clear()
    }
}
