package slicc.scrub

import java.io.ByteArrayOutputStream
import java.io.File

/**
 * The Kotlin binding's test program: vectors/vectors.json (bytes, text, every
 * split point, one byte at a time), vectors/idle.json, vectors/errors.json
 * when present, and misuse cases. Ends with "N passed, M failed"; exits 1 on
 * any failure.
 *
 *   java -cp ... slicc.scrub.VectorsTestKt VECTORS_DIR
 */
fun main(args: Array<String>) {
    val dir = File(if (args.isNotEmpty()) args[0] else "vectors")
    val t = Tally()
    println("library ${Scrubber.libraryVersion()}, rules version ${Scrubber.RULES_VERSION}")
    runVectors(t, readJson(File(dir, "vectors.json")))
    runIdle(t, readJson(File(dir, "idle.json")))
    val errors = File(dir, "errors.json")
    if (errors.exists()) runErrors(t, readJson(errors)) else println("(no ${errors.path}: error cases skipped)")
    runMisuse(t)
    println("${t.passed} passed, ${t.failed} failed")
    if (t.failed > 0) System.exit(1)
}

class Tally {
    var passed = 0
    var failed = 0

    fun check(name: String, block: () -> Unit) {
        try {
            block()
            passed++
        } catch (e: Throwable) {
            failed++
            println("FAIL $name: $e")
        }
    }
}

class Failure(message: String) : AssertionError(message)

fun require(ok: Boolean, what: () -> String) {
    if (!ok) throw Failure(what())
}

@Suppress("UNCHECKED_CAST")
fun readJson(file: File): Map<String, Any?> = Json.parse(file.readText(Charsets.UTF_8)) as Map<String, Any?>

@Suppress("UNCHECKED_CAST")
fun Map<String, Any?>.list(key: String): List<Map<String, Any?>> = this[key] as List<Map<String, Any?>>

fun fromHex(hex: String): ByteArray = ByteArray(hex.length / 2) { i -> hex.substring(2 * i, 2 * i + 2).toInt(16).toByte() }

fun toHex(bytes: ByteArray): String {
    val out = StringBuilder()
    for (b in bytes) out.append(String.format("%02x", b.toInt() and 0xff))
    return out.toString()
}

/** A field given as text (UTF-8) or, with a Hex suffix, as hex bytes. */
fun bytesOf(map: Map<String, Any?>, field: String): ByteArray? {
    val hex = map[field + "Hex"] as String?
    if (hex != null) return fromHex(hex)
    val text = map[field] as String?
    return text?.toByteArray(Charsets.UTF_8)
}

fun secretsOf(case: Map<String, Any?>): List<Secret> =
    case.list("secrets").map { Secret(it["name"] as String, bytesOf(it, "value")!!, bytesOf(it, "placeholder")) }

fun sameLengthOf(case: Map<String, Any?>): Boolean {
    @Suppress("UNCHECKED_CAST")
    val options = case["options"] as Map<String, Any?>?
    return options != null && options["sameLength"] == true
}

fun hitsOf(case: Map<String, Any?>): List<Hit> =
    case.list("hits").map { Hit(it["name"] as String, it["form"] as String, (it["count"] as Long)) }

/** Hits compare in any order. */
fun sameHits(actual: List<Hit>, expected: List<Hit>, what: String) {
    val key = { h: Hit -> "${h.name}/${h.form}/${h.count}" }
    require(actual.map(key).sorted() == expected.map(key).sorted()) { "$what: hits $actual, expected $expected" }
}

fun sameBytes(actual: ByteArray, expected: ByteArray, what: String) {
    require(actual.contentEquals(expected)) { "$what: got ${toHex(actual)}, expected ${toHex(expected)}" }
}

fun chunks(stream: Stream, parts: List<ByteArray>): ByteArray {
    val out = ByteArrayOutputStream()
    for (part in parts) out.write(stream.push(part))
    out.write(stream.end())
    return out.toByteArray()
}

fun runVectors(t: Tally, vectors: Map<String, Any?>) {
    t.check("vectors.json: format and constants") {
        require(vectors["format"] == 1L) { "format ${vectors["format"]}" }
        require(vectors["fragment"] == Scrubber.FRAGMENT.toLong()) { "fragment" }
        require(vectors["minValue"] == Scrubber.MIN_VALUE.toLong()) { "minValue" }
        require(vectors["idleMs"] == Scrubber.IDLE_MS.toLong()) { "idleMs" }
    }
    val cases = vectors.list("cases")
    for (case in cases) {
        val name = case["name"] as String
        val input = bytesOf(case, "input")!!
        val output = bytesOf(case, "output")!!
        val hits = hitsOf(case)
        val scrubber = try {
            Scrubber.compile(secretsOf(case), sameLengthOf(case))
        } catch (e: ScrubException) {
            t.check("$name: compile") { throw e }
            continue
        }
        scrubber.use {
            t.check("$name: bytes") {
                val got = scrubber.bytes(input)
                sameBytes(got.output, output, "bytes()")
                sameHits(got.hits, hits, "bytes()")
            }
            val text = case["input"] as String?
            if (text != null) {
                t.check("$name: text") {
                    val (got, gotHits) = scrubber.text(text)
                    require(got == String(output, Charsets.UTF_8)) { "text(): got \"$got\"" }
                    sameHits(gotHits, hits, "text()")
                }
            }
            t.check("$name: every split point") {
                for (i in 0..input.size) {
                    val stream = scrubber.stream()
                    val got = chunks(stream, listOf(input.copyOfRange(0, i), input.copyOfRange(i, input.size)))
                    sameBytes(got, output, "split at $i")
                    sameHits(stream.hits, hits, "split at $i")
                }
            }
            t.check("$name: one byte at a time") {
                val stream = scrubber.stream()
                val got = chunks(stream, input.indices.map { input.copyOfRange(it, it + 1) })
                sameBytes(got, output, "one byte at a time")
                sameHits(stream.hits, hits, "one byte at a time")
            }
        }
    }
    println("vectors.json: ${cases.size} cases")
}

fun runIdle(t: Tally, vectors: Map<String, Any?>) {
    val cases = vectors.list("cases")
    for (case in cases) {
        t.check("idle ${case["name"]}") {
            val scrubber = Scrubber.compile(secretsOf(case), sameLengthOf(case))
            val stream = scrubber.stream()
            scrubber.close() // a stream outlives its scrubber
            // Each step's output as text, or (outputsHex) as hex bytes.
            @Suppress("UNCHECKED_CAST")
            val hex = case["outputsHex"] as List<String>?
            @Suppress("UNCHECKED_CAST")
            val outputs = hex?.map { fromHex(it) } ?: (case["outputs"] as List<String>).map { it.toByteArray(Charsets.UTF_8) }
            val steps = case.list("steps")
            require(steps.size == outputs.size) { "steps and outputs differ in number" }
            steps.forEachIndexed { i, step ->
                val pushed = bytesOf(step, "push")
                val got = when {
                    pushed != null -> stream.push(pushed)
                    step["idle"] == true -> stream.idle()
                    step["end"] == true -> stream.end()
                    else -> throw Failure("step $i: unknown step ${step.keys}")
                }
                sameBytes(got, outputs[i], "step $i")
            }
            sameHits(stream.hits, hitsOf(case), "hits")
        }
    }
    println("idle.json: ${cases.size} cases")
}

/** vectors/errors.json's error names, as statuses. */
val errorStatus = mapOf(
    "unsupported version" to Status.UNSUPPORTED_VERSION,
    "invalid name" to Status.INVALID_NAME,
    "duplicate name" to Status.DUPLICATE_NAME,
    "value too short" to Status.VALUE_TOO_SHORT,
    "value too long" to Status.VALUE_TOO_LONG,
    "placeholder too long" to Status.PLACEHOLDER_TOO_LONG,
    "placeholder leaks" to Status.PLACEHOLDER_LEAKS,
    "redaction leaks" to Status.REDACTION_LEAKS
)

fun runErrors(t: Tally, vectors: Map<String, Any?>) {
    val cases = vectors.list("cases")
    for (case in cases) {
        t.check("error ${case["name"]}") {
            val want = errorStatus[case["error"]] ?: throw Failure("unknown error ${case["error"]}")
            @Suppress("UNCHECKED_CAST")
            val options = (case["options"] as Map<String, Any?>?) ?: emptyMap()
            val version = (options["version"] as Long?)?.toInt() ?: Scrubber.RULES_VERSION
            val secrets = secretsOf(case)
            val e = expectScrub(want) { Scrubber.compile(secrets, options["sameLength"] == true, version).close() }
            noSecretIn(e.message ?: "", secrets)
        }
    }
    println("errors.json: ${cases.size} cases")
}

fun expectScrub(status: Status, block: () -> Unit): ScrubException {
    try {
        block()
    } catch (e: ScrubException) {
        require(e.status == status) { "expected $status, got ${e.status} (${e.message})" }
        return e
    }
    throw Failure("expected a ScrubException $status, got none")
}

fun noSecretIn(message: String, secrets: List<Secret>) {
    for (s in secrets) {
        for (bytes in listOf(s.value, s.placeholder)) {
            if (bytes == null || bytes.size < Scrubber.MIN_VALUE) continue
            require(!message.contains(String(bytes, Charsets.UTF_8))) { "a secret's value or placeholder is in: $message" }
        }
    }
}
