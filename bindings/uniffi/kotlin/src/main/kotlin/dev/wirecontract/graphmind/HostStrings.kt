package dev.wirecontract.graphmind

/**
 * How the uniffi bindings lower a `HostString` (every `String` argument and record field of
 * both packages, `uniffi.toml`): as generalized UTF-8, where a lone surrogate becomes its
 * three-byte form (`ED A0..BF xx`, not UTF-8) instead of failing in a strict encoder with a
 * `CharacterCodingException`. Rust then decides: a parse answers `Invalid`
 * (`ParseException.Json` in Graphorin), every other function throws `ContractException`
 * naming the argument and the UTF-16 index.
 */
internal object HostStrings {
    /** [s] as bytes: its UTF-8 when it is Unicode text, else generalized UTF-8. */
    @JvmStatic
    fun encode(s: String): ByteArray {
        var i = 0
        val n = s.length
        while (i < n) {
            val c = s[i]
            if (c.isSurrogate()) {
                if (c.isHighSurrogate() && i + 1 < n && s[i + 1].isLowSurrogate()) {
                    i += 2
                    continue
                }
                return generalized(s)
            }
            i++
        }
        return s.toByteArray(Charsets.UTF_8)
    }

    /**
     * How a `JsonText` (JSON text, a plain `String` on the host) crosses: itself when it is
     * Unicode text, else the marked form Rust reads as "lone surrogate at UTF-16 index N"
     * (`LONE_SURROGATE_MARK` in `host_string.rs`: U+0000, which no JSON text starts with, then
     * the message and the index), so each function refuses it through its own declared error
     * naming the argument or field.
     */
    @JvmStatic
    fun jsonText(s: String): String {
        var i = 0
        val n = s.length
        while (i < n) {
            val c = s[i]
            if (c.isSurrogate()) {
                if (c.isHighSurrogate() && i + 1 < n && s[i + 1].isLowSurrogate()) {
                    i += 2
                    continue
                }
                return "\u0000lone surrogate at UTF-16 index $i"
            }
            i++
        }
        return s
    }

    /**
     * Text Rust sent: UTF-8, or generalized UTF-8 when Rust hands back bytes the host sent
     * (`Issue.dottedPath()` of a hand-built issue), so a lone surrogate comes back as itself.
     */
    @JvmStatic
    fun decode(bytes: ByteArray): String {
        var i = 0
        while (i + 1 < bytes.size) {
            // ED A0..BF: the three-byte form of a surrogate, which UTF-8 never contains.
            if (bytes[i] == 0xED.toByte() && (bytes[i + 1].toInt() and 0xE0) == 0xA0) return generalizedDecode(bytes)
            i++
        }
        return String(bytes, Charsets.UTF_8)
    }

    private fun generalizedDecode(bytes: ByteArray): String {
        val out = StringBuilder(bytes.size)
        var i = 0
        val n = bytes.size
        while (i < n) {
            val b = bytes[i].toInt() and 0xFF
            val len = when {
                b < 0x80 -> 1
                b < 0xE0 -> 2
                b < 0xF0 -> 3
                else -> 4
            }
            if (i + len > n) {
                out.append('\uFFFD')
                break
            }
            fun cont(k: Int) = bytes[i + k].toInt() and 0x3F
            when (len) {
                1 -> out.append(b.toChar())
                2 -> out.append((((b and 0x1F) shl 6) or cont(1)).toChar())
                3 -> out.append((((b and 0x0F) shl 12) or (cont(1) shl 6) or cont(2)).toChar())
                else -> out.appendCodePoint(((b and 0x07) shl 18) or (cont(1) shl 12) or (cont(2) shl 6) or cont(3))
            }
            i += len
        }
        return out.toString()
    }

    private fun generalized(s: String): ByteArray {
        // Sized exactly, in Long: `3 * s.length` overflows Int from 715,827,883 units on.
        val out = ByteArray(dev.wirecontract.graphmind.jvm.Utf8.arraySize(dev.wirecontract.graphmind.jvm.Utf8.length(s), "string"))
        var p = 0
        var i = 0
        val n = s.length
        while (i < n) {
            val c = s[i].code
            if (c < 0x80) {
                out[p++] = c.toByte()
            } else if (c < 0x800) {
                out[p++] = (0xC0 or (c shr 6)).toByte()
                out[p++] = (0x80 or (c and 0x3F)).toByte()
            } else if (c in 0xD800..0xDBFF && i + 1 < n && s[i + 1].code in 0xDC00..0xDFFF) {
                val cp = 0x10000 + ((c - 0xD800) shl 10) + (s[i + 1].code - 0xDC00)
                out[p++] = (0xF0 or (cp shr 18)).toByte()
                out[p++] = (0x80 or ((cp shr 12) and 0x3F)).toByte()
                out[p++] = (0x80 or ((cp shr 6) and 0x3F)).toByte()
                out[p++] = (0x80 or (cp and 0x3F)).toByte()
                i++
            } else {
                // Any other BMP unit, a lone surrogate included (its three-byte form).
                out[p++] = (0xE0 or (c shr 12)).toByte()
                out[p++] = (0x80 or ((c shr 6) and 0x3F)).toByte()
                out[p++] = (0x80 or (c and 0x3F)).toByte()
            }
            i++
        }
        return out
    }
}
