package dev.wirecontract.graphmind.jvm

/**
 * A minimal streaming JSON writer for payloads, straight into UTF-8 bytes: `beginObject()`,
 * `name(...)`, `value(...)`, `endObject()` (and arrays), commas handled. Pass it to
 * [GraphMind.build] as it is (no intermediate `String`), or take [toJsonText]. Strings are
 * escaped so that the text is valid JSON; the native side validates the payload against its
 * type and writes the frame in `JSON.stringify`'s exact form (graphmind-v1 §5.14), so nothing
 * here needs to be canonical. A string holding a lone surrogate (not representable in UTF-8)
 * is a [WireException]. Not thread-safe; reusable after [reset].
 *
 * ```kotlin
 * val payload = JsonWriter().beginObject().name("nodeId").value("n1")
 *     .name("deltas").beginArray().beginObject().name("t").value("text").name("v").value("Hi")
 *     .endObject().endArray().endObject()
 * GraphMind.build("node.token", seq, runId, payload)
 * ```
 */
class JsonWriter {
    internal var buf = ByteArray(256)
    internal var len = 0
    private var first = true

    internal fun ensure(n: Int) = reserve(n.toLong(), "payload") { n.toLong() }

    /**
     * Makes room for [worst] more bytes, in `Long` (a worst case such as `6 * s.length`
     * overflows `Int`); when that is more than a JVM array holds, for the [exact] count instead,
     * and a [WireException] naming [what] when even that does not fit.
     */
    internal inline fun reserve(worst: Long, what: String, exact: () -> Long) {
        if (len + worst <= buf.size) return
        val need = if (len + worst <= Utf8.MAX_ARRAY) len + worst else len + exact()
        buf = buf.copyOf(Utf8.arraySize(maxOf(need, minOf(buf.size * 2L, Utf8.MAX_ARRAY)), what))
    }

    private fun sep() {
        if (!first) {
            ensure(1)
            buf[len++] = ','.code.toByte()
        }
        first = false
    }

    private fun raw(c: Char) {
        ensure(1)
        buf[len++] = c.code.toByte()
    }

    private fun ascii(s: String) {
        ensure(s.length)
        for (c in s) buf[len++] = c.code.toByte()
    }

    /** Opens an object (as a value). */
    fun beginObject(): JsonWriter = apply { sep(); raw('{'); first = true }

    /** Closes the current object. */
    fun endObject(): JsonWriter = apply { raw('}'); first = false }

    /** Opens an array (as a value). */
    fun beginArray(): JsonWriter = apply { sep(); raw('['); first = true }

    /** Closes the current array. */
    fun endArray(): JsonWriter = apply { raw(']'); first = false }

    /** A member name; the next call writes its value. */
    fun name(name: String): JsonWriter = apply { sep(); quote(name); raw(':'); first = true }

    /** A string value. */
    fun value(value: String): JsonWriter = apply { sep(); quote(value) }

    /** An integer value. */
    fun value(value: Long): JsonWriter = apply { sep(); ascii(value.toString()) }

    /** A number value; NaN and infinities are refused by the native side (§5.6). */
    fun value(value: Double): JsonWriter = apply {
        sep()
        ascii(if (value == Math.rint(value) && Math.abs(value) < 1e15) value.toLong().toString() else value.toString())
    }

    /** A boolean value. */
    fun value(value: Boolean): JsonWriter = apply { sep(); ascii(value.toString()) }

    /** An opaque value, its text inserted as it is. */
    fun value(value: JsonText): JsonWriter = apply {
        sep()
        reserve(Utf8.bound(value.text.length), "JSON text") { Utf8.length(value.text) }
        len = Utf8.encode(value.text, buf, len, "JSON text")
    }

    /** JSON `null` (only where the contract allows it: opaque values). */
    fun nullValue(): JsonWriter = apply { sep(); ascii("null") }

    /** Empties the writer for the next payload (the buffer is kept). */
    fun reset(): JsonWriter = apply { len = 0; first = true }

    /** The text written so far. */
    fun toJsonText(): JsonText = JsonText.of(String(buf, 0, len, Charsets.UTF_8))

    private fun quote(s: String) {
        // Worst case: every char a six-byte escape.
        reserve(2 + 6L * s.length, "string") { 2 + Utf8.length(s, escaped = true) }
        val b = buf
        var p = len
        b[p++] = '"'.code.toByte()
        var i = 0
        val n = s.length
        while (i < n) {
            val c = s[i].code
            if (c >= 0x20 && c < 0x80 && c != '"'.code && c != '\\'.code) {
                b[p++] = c.toByte()
            } else if (c < 0x80) {
                b[p++] = '\\'.code.toByte()
                when (c) {
                    '"'.code, '\\'.code -> b[p++] = c.toByte()
                    '\n'.code -> b[p++] = 'n'.code.toByte()
                    '\r'.code -> b[p++] = 'r'.code.toByte()
                    '\t'.code -> b[p++] = 't'.code.toByte()
                    else -> {
                        b[p++] = 'u'.code.toByte()
                        b[p++] = '0'.code.toByte()
                        b[p++] = '0'.code.toByte()
                        b[p++] = HEX[c shr 4]
                        b[p++] = HEX[c and 15]
                    }
                }
            } else if (c < 0x800) {
                b[p++] = (0xC0 or (c shr 6)).toByte()
                b[p++] = (0x80 or (c and 0x3F)).toByte()
            } else if (c in 0xD800..0xDBFF && i + 1 < n && s[i + 1].code in 0xDC00..0xDFFF) {
                val cp = 0x10000 + ((c - 0xD800) shl 10) + (s[i + 1].code - 0xDC00)
                b[p++] = (0xF0 or (cp shr 18)).toByte()
                b[p++] = (0x80 or ((cp shr 12) and 0x3F)).toByte()
                b[p++] = (0x80 or ((cp shr 6) and 0x3F)).toByte()
                b[p++] = (0x80 or (cp and 0x3F)).toByte()
                i++
            } else if (c in 0xD800..0xDFFF) {
                throw WireException("string has a lone surrogate at UTF-16 index $i: not representable in UTF-8")
            } else {
                b[p++] = (0xE0 or (c shr 12)).toByte()
                b[p++] = (0x80 or ((c shr 6) and 0x3F)).toByte()
                b[p++] = (0x80 or (c and 0x3F)).toByte()
            }
            i++
        }
        b[p++] = '"'.code.toByte()
        len = p
    }

    private companion object {
        val HEX = "0123456789abcdef".toByteArray()
    }
}
