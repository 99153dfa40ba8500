package slicc.scrub

import com.sun.jna.Pointer

/**
 * How often a secret was found in a form ("raw", "fragment", ..., "wrapped"). Never a value.
 * toString() shows the name's length, not the name, which can hold a placeholder.
 */
data class Hit(val name: String, val form: String, val count: Long) {
    override fun toString(): String =
        "Hit(name=<${name.toByteArray(Charsets.UTF_8).size} bytes>, form=$form, count=$count)"
}

/** A scrub_hits list as [Hit]s, freed once read. */
internal fun takeHits(hits: Pointer): List<Hit> {
    try {
        val len = Lib.sizeMemory()
        Lib.check(Lib.lib.scrub_hits_len(hits, len))
        val count = Lib.readSize(len).toInt()
        val list = ArrayList<Hit>(count)
        val hit = HitStruct()
        for (i in 0 until count) {
            Lib.check(Lib.lib.scrub_hits_get(hits, Lib.size(i), hit))
            // A form of a later rules version without a name reads as its number.
            list.add(Hit(Lib.string(hit.name) ?: "", Lib.string(hit.form_name) ?: hit.form.toString(), hit.count))
        }
        return list
    } finally {
        Lib.lib.scrub_hits_free(hits)
    }
}
