package slicc.scrub

import com.sun.jna.Pointer
import java.lang.ref.Cleaner
import java.util.concurrent.atomic.AtomicReference
import java.util.concurrent.locks.ReentrantReadWriteLock

/**
 * Ownership of one native handle: freed once, by close(), or by the Cleaner
 * as a backstop when its owner is collected unclosed. A call runs inside
 * [use], which close() waits for, and keeps its owner reachable (the
 * caller's fence), so that neither frees the handle under a native call.
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

    // Calls share it; close() takes it alone.
    private val lock = ReentrantReadWriteLock()

    /** The live pointer; throws IllegalStateException once closed. */
    fun get(): Pointer = release.pointer.get() ?: throw IllegalStateException("slicc-scrub: this $what is closed")

    /**
     * Runs [block] on the live pointer, close() waiting until it returns;
     * throws IllegalStateException once closed. The caller keeps the owner
     * reachable across it (Reference.reachabilityFence), so that the
     * Cleaner cannot run meanwhile either.
     */
    fun <T> use(block: (Pointer) -> T): T {
        val read = lock.readLock()
        read.lock()
        try {
            return block(get())
        } finally {
            read.unlock()
        }
    }

    val closed: Boolean get() = release.pointer.get() == null

    fun close() {
        val write = lock.writeLock()
        write.lock()
        try {
            cleanable.clean()
        } finally {
            write.unlock()
        }
    }

    companion object {
        private val cleaner: Cleaner = Cleaner.create()
    }
}
