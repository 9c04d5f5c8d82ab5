package dev.wirecontract.graphmind.jvm

import dev.wirecontract.graphmind.ParseResult
import dev.wirecontract.graphmind.parseEnvelopeJsonBytes

/** A parse verdict (graphmind-v1 §2), with its wire spelling. */
enum class Verdict(
    /** `ok`, `unknown-type`, `version-mismatch` or `invalid`, as the vector files spell it. */
    val wire: String,
) {
    /** A known type with a valid payload. */
    OK("ok"),

    /** A valid `gm: 1` envelope of a type this contract does not know (forward compatible). */
    UNKNOWN_TYPE("unknown-type"),

    /** A valid envelope with `gm` other than 1: see [Frame.gmReceived]. */
    VERSION_MISMATCH("version-mismatch"),

    /** Anything else: see [Frame.reason] and [Frame.toParseResult]. */
    INVALID("invalid"),
}

/**
 * One parsed frame: the verdict, and for [Verdict.OK] and [Verdict.UNKNOWN_TYPE] the envelope's
 * fields, read from the frame's own bytes when asked (the native parser returns offsets, not
 * objects). Holds the byte array given to [GraphMind.parse]: do not change it while the frame
 * is in use. [toParseResult] gives the full typed record (uniffi) when a payload's fields are
 * wanted typed.
 */
class Frame internal constructor(
    private val bytes: ByteArray,
    private val offset: Int,
    private val length: Int,
    /** The verdict. */
    val verdict: Verdict,
    private val slots: LongArray,
    /** The full result when it is already known (a text frame with a lone surrogate, or over the cap). */
    full: ParseResult? = null,
) {
    private var runIdCache: String? = null
    private var typeCache: String? = null
    private var payloadCache: JsonText? = null
    private var fullCache: ParseResult? = full

    private val hasEnvelope: Boolean
        get() = verdict == Verdict.OK || verdict == Verdict.UNKNOWN_TYPE

    /** Whether the verdict is [Verdict.OK]. */
    val isOk: Boolean
        get() = verdict == Verdict.OK

    /** `seq` (0 ≤ seq ≤ 2^53 − 1), or −1 without an envelope. */
    val seq: Long
        get() = if (hasEnvelope) slots[0] else -1

    /** `ts`, epoch milliseconds (0 ≤ ts ≤ 2^53 − 1), or −1 without an envelope. */
    val ts: Long
        get() = if (hasEnvelope) slots[1] else -1

    /** Index of [type] in [MessageTypes.ALL], or −1 (unknown type, or no envelope). */
    val typeIndex: Int
        get() = if (hasEnvelope) slots[3].toInt() else -1

    /** The wire type string, or `null` without an envelope. */
    val type: String?
        get() {
            if (!hasEnvelope) return null
            typeCache?.let { return it }
            val i = slots[3].toInt()
            val t = if (i >= 0) MessageTypes.ALL[i] else span(4, 2)
            typeCache = t
            return t
        }

    /** `runId`, or `null` without an envelope. */
    val runId: String?
        get() {
            if (!hasEnvelope) return null
            runIdCache?.let { return it }
            return span(2, 1).also { runIdCache = it }
        }

    /** The payload's JSON text as received, or `null` when absent (only an unknown type may omit it) or without an envelope. */
    val payload: JsonText?
        get() {
            if (!hasEnvelope || slots[5] < 0) return null
            payloadCache?.let { return it }
            val s = (slots[5] ushr 32).toInt()
            val e = (slots[5] and 0xFFFFFFFFL).toInt()
            return JsonText.of(String(bytes, s, e - s, Charsets.UTF_8)).also { payloadCache = it }
        }

    /** The `gm` received, for [Verdict.VERSION_MISMATCH]; otherwise `null`. */
    val gmReceived: Long?
        get() = if (verdict == Verdict.VERSION_MISMATCH) slots[7] else null

    /** Why the frame is [Verdict.INVALID] (one of the fixed reasons of §5.2), else `null`. Parses again, fully, on first use. */
    val reason: String?
        get() = (toParseResult() as? ParseResult.Invalid)?.reason

    /**
     * The full typed result (uniffi records: payload fields, issues with paths, salvage), parsed
     * again through the uniffi API on first use: the slow path, for when typed payload fields
     * are wanted.
     */
    fun toParseResult(): ParseResult {
        fullCache?.let { return it }
        val copy = if (offset == 0 && length == bytes.size) bytes else bytes.copyOfRange(offset, offset + length)
        return parseEnvelopeJsonBytes(copy).also { fullCache = it }
    }

    private fun span(slot: Int, flag: Long): String {
        val s = (slots[slot] ushr 32).toInt()
        val e = (slots[slot] and 0xFFFFFFFFL).toInt()
        return Utf8.jsonString(bytes, s, e, slots[6] and flag != 0L)
    }

    /** `Frame(ok node.token seq=3 runId=r1)`, `Frame(invalid)`. */
    override fun toString(): String = when {
        hasEnvelope -> "Frame(${verdict.wire} $type seq=$seq ts=$ts runId=$runId)"
        verdict == Verdict.VERSION_MISMATCH -> "Frame(version-mismatch gm=$gmReceived)"
        else -> "Frame(invalid)"
    }
}
