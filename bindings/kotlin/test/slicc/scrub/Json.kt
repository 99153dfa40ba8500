package slicc.scrub

/**
 * A small JSON reader for the vectors (the JDK has none): objects become
 * Map<String, Any?>, arrays List<Any?>, numbers Long or Double. Strict
 * enough for files this repository writes; not a general parser.
 */
class Json private constructor(private val text: String) {
    private var at = 0

    companion object {
        fun parse(text: String): Any? {
            val json = Json(text)
            val value = json.value()
            json.space()
            if (json.at != text.length) json.fail("text after the value")
            return value
        }
    }

    private fun fail(what: String): Nothing = throw IllegalArgumentException("JSON: $what at offset $at")

    private fun space() {
        while (at < text.length && (text[at] == ' ' || text[at] == '\n' || text[at] == '\r' || text[at] == '\t')) at++
    }

    private fun expect(c: Char) {
        space()
        if (at >= text.length || text[at] != c) fail("expected '$c'")
        at++
    }

    private fun value(): Any? {
        space()
        if (at >= text.length) fail("unexpected end")
        val c = text[at]
        return when {
            c == '{' -> obj()
            c == '[' -> array()
            c == '"' -> string()
            text.startsWith("true", at) -> { at += 4; true }
            text.startsWith("false", at) -> { at += 5; false }
            text.startsWith("null", at) -> { at += 4; null }
            c == '-' || c in '0'..'9' -> number()
            else -> fail("unexpected '$c'")
        }
    }

    private fun obj(): Map<String, Any?> {
        expect('{')
        val map = LinkedHashMap<String, Any?>()
        space()
        if (text[at] == '}') { at++; return map }
        while (true) {
            space()
            val key = string()
            expect(':')
            map[key] = value()
            space()
            if (text[at] == ',') { at++; continue }
            expect('}')
            return map
        }
    }

    private fun array(): List<Any?> {
        expect('[')
        val list = ArrayList<Any?>()
        space()
        if (text[at] == ']') { at++; return list }
        while (true) {
            list.add(value())
            space()
            if (text[at] == ',') { at++; continue }
            expect(']')
            return list
        }
    }

    private fun string(): String {
        expect('"')
        val out = StringBuilder()
        while (true) {
            if (at >= text.length) fail("unterminated string")
            val c = text[at++]
            when (c) {
                '"' -> return out.toString()
                '\\' -> {
                    val e = text[at++]
                    when (e) {
                        '"', '\\', '/' -> out.append(e)
                        'b' -> out.append('\b')
                        'f' -> out.append('\u000c')
                        'n' -> out.append('\n')
                        'r' -> out.append('\r')
                        't' -> out.append('\t')
                        // A surrogate pair arrives as two escapes: appended unit by unit.
                        'u' -> { out.append(text.substring(at, at + 4).toInt(16).toChar()); at += 4 }
                        else -> fail("bad escape")
                    }
                }
                else -> out.append(c)
            }
        }
    }

    private fun number(): Any {
        val start = at
        while (at < text.length && (text[at] in '0'..'9' || text[at] in "+-.eE")) at++
        val literal = text.substring(start, at)
        return literal.toLongOrNull() ?: literal.toDouble()
    }
}
