package slicc.scrub

import com.sun.jna.Pointer
import java.lang.ref.Cleaner
import java.util.concurrent.atomic.AtomicReference

/**
 * Ownership of one native handle: freed once, by close(), or by the Cleaner
 * as a backstop when its owner is collected unclosed.
 */
internal class Handle(owner: Any, pointer: Pointer, free: (Pointer) -> Unit, private val what: String) {
    // The state the Cleaner runs: it must not reach the owner.
    private class Release(pointer: Pointer, private val free: (Pointer) -> Unit) : Runnable {
        val pointer = AtomicReference<Pointer?>(pointer)
        override fun run() {
            pointer.getAndSet(null)?.let(free)
        }
    }

    private val release = Release(pointer, free)
    private val cleanable = cleaner.register(owner, release)

    /** The live pointer; throws IllegalStateException once closed. */
    fun get(): Pointer = release.pointer.get() ?: throw IllegalStateException("slicc-scrub: this $what is closed")

    val closed: Boolean get() = release.pointer.get() == null

    fun close() = cleanable.clean()

    companion object {
        private val cleaner: Cleaner = Cleaner.create()
    }
}
