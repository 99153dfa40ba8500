package slicc.scrub

// Misuse gives clear errors, and never a value or placeholder in a message.

const val VALUE = "sk-live-7f3a9c2e5b"
const val PLACEHOLDER = "fnox_proxy_placeholder"

fun expectThrows(what: String, block: () -> Unit): Throwable {
    try {
        block()
    } catch (e: Throwable) {
        return e
    }
    throw Failure("$what: expected an exception")
}

fun runMisuse(t: Tally) {
    val v = Scrubber.RULES_VERSION
    t.check("misuse: push, idle, end after end are STREAM_ENDED; hits stay") {
        Scrubber.compile(listOf(Secret("API_KEY", VALUE))).use { scrubber ->
            val stream = scrubber.stream()
            val out = String(chunks(stream, listOf("key=$VALUE".toByteArray())), Charsets.UTF_8)
            require(out == "key=[redacted:API_KEY]") { out }
            val m = expectScrub(Status.STREAM_ENDED) { stream.push("more".toByteArray()) }.message.toString()
            require(m.contains("ended")) { m }
            expectScrub(Status.STREAM_ENDED) { stream.idle() }
            expectScrub(Status.STREAM_ENDED) { stream.end() }
            require(stream.hits == listOf(Hit("API_KEY", "raw", 1))) { stream.hits.toString() }
            stream.close()
        }
    }
    t.check("held counts the bytes held back, 0 once ended; a closed stream refuses it") {
        Scrubber.compile(listOf(Secret("API_KEY", VALUE))).use { scrubber ->
            val stream = scrubber.stream()
            require(stream.held == 0L) { "held ${stream.held} at first" }
            val head = stream.push("key=${VALUE.take(6)}".toByteArray())
            require(stream.held == 6L) { "held ${stream.held}: a proper prefix of the value is held back" }
            val out = head + stream.push(VALUE.drop(6).toByteArray()) + stream.end()
            require(String(out, Charsets.UTF_8) == "key=[redacted:API_KEY]") { String(out, Charsets.UTF_8) }
            require(stream.held == 0L) { "held ${stream.held} once ended" }
            val closed = scrubber.stream()
            closed.push(VALUE.take(6).toByteArray())
            closed.close()
            val e = expectThrows("held after close") { closed.held }
            require(e is IllegalStateException && e.message.toString().contains("stream is closed")) { e.toString() }
        }
    }
    t.check("misuse: wrong rules version") {
        for (version in listOf(v - 1, v + 1, 0)) {
            val e = expectScrub(Status.UNSUPPORTED_VERSION) { Scrubber.compile(listOf(Secret("A", VALUE)), false, version) }
            val m = e.message.toString()
            require(m.contains("unsupported rules version $version")) { m }
        }
    }
    val bad = listOf(
        Triple(listOf(Secret("a b", VALUE)), Status.INVALID_NAME, "secret 0"),
        Triple(listOf(Secret("", VALUE)), Status.INVALID_NAME, "secret 0"),
        Triple(listOf(Secret("A".repeat(129), VALUE)), Status.INVALID_NAME, "secret 0"),
        Triple(listOf(Secret("A\u0000B", VALUE)), Status.INVALID_NAME, "NUL"),
        Triple(listOf(Secret("A", VALUE), Secret("A", VALUE + "x")), Status.DUPLICATE_NAME, "secret 1"),
        Triple(listOf(Secret("A", "short")), Status.VALUE_TOO_SHORT, "too short"),
        Triple(listOf(Secret("A", ByteArray(0))), Status.VALUE_TOO_SHORT, "too short"),
        Triple(listOf(Secret("A", ByteArray(65537) { 0x41 })), Status.VALUE_TOO_LONG, "too long"),
        Triple(listOf(Secret("A", VALUE, "p".repeat(1025))), Status.PLACEHOLDER_TOO_LONG, "secret 0"),
        Triple(listOf(Secret("A", VALUE, "x$VALUE")), Status.PLACEHOLDER_LEAKS, "secret 0")
    )
    for ((secrets, status, text) in bad) {
        t.check("misuse: bad secret gives $status") {
            val e = expectScrub(status) { Scrubber.compile(secrets) }
            val m = e.message.toString()
            require(m.contains(text)) { m }
            require(!m.contains(VALUE) && !m.contains(PLACEHOLDER)) { "a secret in $m" }
            require(e.code == status.code) { "code ${e.code}" }
        }
    }
    t.check("misuse: a closed scrubber refuses calls; its streams go on") {
        val scrubber = Scrubber.compile(listOf(Secret("A", VALUE)), sameLength = true)
        val stream = scrubber.stream()
        scrubber.close()
        scrubber.close()
        require(scrubber.closed) { "closed" }
        val e = expectThrows("bytes after close") { scrubber.bytes(ByteArray(1)) }
        require(e is IllegalStateException && e.message.toString().contains("scrubber is closed")) { e.toString() }
        expectThrows("stream after close") { scrubber.stream() }
        val out = String(chunks(stream, listOf("$VALUE\n".toByteArray())), Charsets.UTF_8)
        require(out == "*".repeat(VALUE.length) + "\n") { out }
    }
    t.check("misuse: a closed stream refuses calls") {
        val stream = Scrubber.compile(emptyList()).use { it.stream() }
        stream.close()
        val e = expectThrows("push after close") { stream.push(ByteArray(1)) }
        require(e is IllegalStateException && e.message.toString().contains("stream is closed")) { e.toString() }
    }
    t.check("API: text with placeholder bytes, empty placeholder is none, an empty list passes through") {
        Scrubber.compile(listOf(Secret("A", VALUE, "<A>"), Secret("B", "another-secret-value", ""))).use { s ->
            val (out, hits) = s.text("$VALUE another-secret-value")
            require(out == "<A> [redacted:B]") { out }
            require(hits == listOf(Hit("A", "raw", 1), Hit("B", "raw", 1))) { hits.toString() }
        }
        Scrubber.compile(emptyList()).use { s ->
            val input = byteArrayOf(0, -1, 13, 10, -128)
            sameBytes(s.bytes(input).output, input, "passthrough")
        }
        require(Secret("A", VALUE, PLACEHOLDER).toString() == "Secret(name=<1 bytes>, value=<${VALUE.length} bytes>)") { "toString shows a secret" }
        // A name that is another secret's value is not shown either.
        require(!Secret(VALUE, "another-secret-value").toString().contains(VALUE)) { "toString shows a name" }
        // Nor a hit's name, which can hold a placeholder.
        Scrubber.compile(listOf(Secret("X$PLACEHOLDER", VALUE, PLACEHOLDER))).use { s ->
            val hits = s.text("a $VALUE b").hits
            require(hits.map { it.name } == listOf("X$PLACEHOLDER")) { "hits" }
            require(!hits.toString().contains(PLACEHOLDER)) { "toString shows a hit's name" }
        }
        require(Scrubber.libraryVersion().matches(Regex("\\d+\\.\\d+\\.\\d+.*"))) { Scrubber.libraryVersion() }
        require(Scrubber.FORMS.size == 8) { "forms" }
    }
    t.check("API: text keeps a leading BOM") {
        Scrubber.compile(listOf(Secret("A", VALUE))).use { s ->
            val out = s.text("\uFEFF$VALUE").output
            require(out == "\uFEFF[redacted:A]") { out }
        }
    }
    t.check("API: a scrubber closed while threads use it: their calls finish or refuse, none crashes") {
        val input = "a $VALUE b ".repeat(20_000).toByteArray()
        repeat(20) {
            val s = Scrubber.compile(listOf(Secret("A", VALUE)))
            val done = java.util.concurrent.atomic.AtomicInteger()
            val wrong = java.util.concurrent.atomic.AtomicInteger()
            val failed = java.util.concurrent.atomic.AtomicInteger()
            val threads = (1..3).map {
                Thread {
                    try {
                        while (true) {
                            val out = s.bytes(input).output
                            if (out.size != input.size - 20_000 * (VALUE.length - "[redacted:A]".length)) wrong.incrementAndGet()
                            s.stream().close()
                            done.incrementAndGet()
                        }
                    } catch (e: IllegalStateException) {
                        // closed: expected once close() has run
                    } catch (e: Throwable) {
                        failed.incrementAndGet() // a native call on a freed scrubber
                    }
                }
            }
            threads.forEach { it.start() }
            while (done.get() < 3) Thread.yield()
            s.close()
            threads.forEach { it.join() }
            require(wrong.get() == 0 && failed.get() == 0) { "${wrong.get()} wrong outputs, ${failed.get()} failed calls" }
            require(s.closed) { "closed" }
        }
    }
    t.check("API: one scrubber, four threads at once") {
        Scrubber.compile(listOf(Secret("A", VALUE))).use { s ->
            val input = "a $VALUE b".toByteArray()
            val wrong = java.util.concurrent.atomic.AtomicInteger()
            val threads = (1..4).map {
                Thread {
                    for (i in 0 until 200) {
                        val stream = s.stream()
                        val out = String(s.bytes(input).output) + String(chunks(stream, listOf(input)))
                        if (out != "a [redacted:A] ba [redacted:A] b") wrong.incrementAndGet()
                    }
                }
            }
            threads.forEach { it.start() }
            threads.forEach { it.join() }
            require(wrong.get() == 0) { "${wrong.get()} wrong outputs" }
        }
    }
}
