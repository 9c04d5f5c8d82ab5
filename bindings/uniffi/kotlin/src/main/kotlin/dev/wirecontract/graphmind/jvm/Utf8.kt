package dev.wirecontract.graphmind.jvm

/** UTF-8 encoding with the lone-surrogate check, and JSON string decoding from frame bytes. */
internal object Utf8 {
    /** The largest byte array a JVM allocates (HotSpot reserves a few header words below `Int.MAX_VALUE`). */
    const val MAX_ARRAY: Long = Int.MAX_VALUE - 8L

    /**
     * Bytes to reserve for the UTF-8 of strings of UTF-16 lengths [lengths] (three per unit at
     * most), in `Long`: `3 * length` overflows `Int` from 715,827,883 units on, and an array
     * sized by the wrapped value is a `NegativeArraySizeException` or too small.
     */
    @JvmStatic
    fun bound(vararg lengths: Int): Long = lengths.fold(0L) { acc, n -> acc + 3L * n }

    /**
     * The exact UTF-8 length of [s] (a lone surrogate counted as three bytes, where the encoder
     * then refuses it), in `Long`; with [escaped], of [s] as the body of a JSON string written
     * by [JsonWriter] (`\"`, `\\`, `\n`, `\u0001`).
     */
    @JvmStatic
    fun length(s: String, escaped: Boolean = false): Long {
        var n = 0L
        var i = 0
        while (i < s.length) {
            val c = s[i].code
            n += when {
                escaped && (c < 0x20) -> if (c == 0x0A || c == 0x0D || c == 0x09) 2 else 6
                escaped && (c == '"'.code || c == '\\'.code) -> 2
                c < 0x80 -> 1
                c < 0x800 -> 2
                c in 0xD800..0xDBFF && i + 1 < s.length && s[i + 1].code in 0xDC00..0xDFFF -> { i++; 4 }
                else -> 3
            }
            i++
        }
        return n
    }

    /**
     * An array size for [needed] bytes, or a [WireException] naming [what] when no JVM array
     * holds that many (the frame, or its part, cannot be made on the JVM).
     */
    @JvmStatic
    fun arraySize(needed: Long, what: String): Int {
        if (needed > MAX_ARRAY) throw WireException("$what: $needed bytes of UTF-8, more than a JVM byte array holds ($MAX_ARRAY)")
        return needed.toInt()
    }

    /**
     * Writes [s] as UTF-8 into [buf] from [pos]; returns the new position. [buf] must have
     * `3 * s.length` bytes free. A lone surrogate (not representable in UTF-8) is a
     * [WireException] naming [what] and the UTF-16 index.
     */
    fun encode(s: String, buf: ByteArray, pos: Int, what: String): Int {
        var p = pos
        var i = 0
        val n = s.length
        while (i < n) {
            val c = s[i].code
            if (c < 0x80) {
                buf[p++] = c.toByte()
            } else if (c < 0x800) {
                buf[p++] = (0xC0 or (c shr 6)).toByte()
                buf[p++] = (0x80 or (c and 0x3F)).toByte()
            } else if (c in 0xD800..0xDBFF && i + 1 < n && s[i + 1].code in 0xDC00..0xDFFF) {
                val cp = 0x10000 + ((c - 0xD800) shl 10) + (s[i + 1].code - 0xDC00)
                buf[p++] = (0xF0 or (cp shr 18)).toByte()
                buf[p++] = (0x80 or ((cp shr 12) and 0x3F)).toByte()
                buf[p++] = (0x80 or ((cp shr 6) and 0x3F)).toByte()
                buf[p++] = (0x80 or (cp and 0x3F)).toByte()
                i++
            } else if (c in 0xD800..0xDFFF) {
                throw WireException("$what has a lone surrogate at UTF-16 index $i: not representable in UTF-8")
            } else {
                buf[p++] = (0xE0 or (c shr 12)).toByte()
                buf[p++] = (0x80 or ((c shr 6) and 0x3F)).toByte()
                buf[p++] = (0x80 or (c and 0x3F)).toByte()
            }
            i++
        }
        return p
    }

    /**
     * The string whose JSON content (between the quotes, already validated by the native
     * parser) is `bytes[start, end)`; [escaped] says whether it holds a backslash.
     */
    fun jsonString(bytes: ByteArray, start: Int, end: Int, escaped: Boolean): String {
        val raw = String(bytes, start, end - start, Charsets.UTF_8)
        if (!escaped) return raw
        val sb = StringBuilder(raw.length)
        var i = 0
        while (i < raw.length) {
            val c = raw[i]
            if (c != '\\') {
                sb.append(c)
                i++
                continue
            }
            when (val e = raw[i + 1]) {
                'b' -> sb.append('\b')
                'f' -> sb.append('\u000C')
                'n' -> sb.append('\n')
                'r' -> sb.append('\r')
                't' -> sb.append('\t')
                'u' -> {
                    sb.append(raw.substring(i + 2, i + 6).toInt(16).toChar())
                    i += 4
                }
                else -> sb.append(e) // '"', '\\', '/'
            }
            i += 2
        }
        // A lone surrogate escape (`\ud800` alone) becomes U+FFFD, as the core decodes typed
        // strings (`type` included); the core's verdict already refused one in `runId`.
        var j = 0
        while (j < sb.length) {
            val c = sb[j]
            if (c.isHighSurrogate() && j + 1 < sb.length && sb[j + 1].isLowSurrogate()) {
                j += 2
                continue
            }
            if (c.isSurrogate()) sb.setCharAt(j, '\uFFFD')
            j++
        }
        return sb.toString()
    }
}
