package dev.wirecontract.graphmind.jvm

import dev.wirecontract.graphmind.ContractException
import dev.wirecontract.graphmind.Message
import dev.wirecontract.graphmind.ParseResult
import dev.wirecontract.graphmind.createEnvelope
import dev.wirecontract.graphmind.createEnvelopeJson
import dev.wirecontract.graphmind.parseEnvelopeJson
import dev.wirecontract.graphmind.serializeEnvelope
import dev.wirecontract.graphmind.Envelope as Record

/**
 * A GraphMind envelope that always serializes: the checked counterpart of the uniffi
 * [dev.wirecontract.graphmind.Envelope] record, whose data-class `copy()` can hold anything
 * (`serializeEnvelope` refuses such a copy only when it is sent).
 *
 * The constructor is private. Every way to get one ([of], [ofJson], [from], [parse] and the
 * `with*` methods) runs the contract's own checks at that point (`serializeEnvelope`: counters
 * 0 ≤ x ≤ 2^53 − 1, `runId`, the payload against its type, `extraJson`) and throws
 * [ContractException] there, so an invalid copy is refused where it is made. The frame text is
 * computed once, at creation.
 */
class Envelope private constructor(
    /** The validated uniffi record (typed payload, `extraJson`). */
    val record: Record,
    /** The frame text, `JSON.stringify`-exact (graphmind-v1 §5.14). */
    val frame: String,
) {
    /** `seq`, 0 ≤ seq ≤ 2^53 − 1. */
    val seq: Long get() = record.seq

    /** `ts`, epoch milliseconds, 0 ≤ ts ≤ 2^53 − 1. */
    val ts: Long get() = record.ts

    /** `runId`. */
    val runId: String get() = record.runId

    /** The wire type string. */
    val type: String get() = record.messageType

    /** The type and its typed payload. */
    val message: Message get() = record.message

    /** This envelope with another `seq`; throws [ContractException] when no frame can carry it. */
    @Throws(ContractException::class)
    fun withSeq(seq: Long): Envelope = from(record.copy(seq = seq))

    /** This envelope with another `ts`; throws [ContractException] when no frame can carry it. */
    @Throws(ContractException::class)
    fun withTs(ts: Long): Envelope = from(record.copy(ts = ts))

    /** This envelope with another `runId`; throws [ContractException] when no frame can carry it. */
    @Throws(ContractException::class)
    fun withRunId(runId: String): Envelope = from(record.copy(runId = runId))

    /** This envelope with another message (its type follows); throws [ContractException] for an invalid payload. */
    @Throws(ContractException::class)
    fun withMessage(message: Message): Envelope = from(createEnvelope(message, record.seq, record.runId, record.ts).copy(extraJson = record.extraJson))

    /** Equal when the frames are equal. */
    override fun equals(other: Any?): Boolean = other is Envelope && other.frame == frame

    override fun hashCode(): Int = frame.hashCode()

    /** The frame text. */
    override fun toString(): String = frame

    companion object {
        /** Checks a uniffi record (e.g. a `copy()`): the envelope, or [ContractException.Build] naming every problem. */
        @JvmStatic
        @Throws(ContractException::class)
        fun from(record: Record): Envelope = Envelope(record, serializeEnvelope(record))

        /** Builds from a typed message (`createEnvelope`); `ts` defaults to now. */
        @JvmStatic
        @JvmOverloads
        @Throws(ContractException::class)
        fun of(message: Message, seq: Long, runId: String, ts: Long? = null): Envelope = from(createEnvelope(message, seq, runId, ts))

        /** Builds from a type string and payload JSON text (`createEnvelopeJson`): any type, known ones validated. */
        @JvmStatic
        @JvmOverloads
        @Throws(ContractException::class)
        fun ofJson(type: String, payload: JsonText, seq: Long, runId: String, ts: Long? = null): Envelope =
            from(createEnvelopeJson(type, payload.text, seq, runId, ts))

        /** The envelope of an `ok` or `unknown-type` frame, else `null` (see `parseEnvelopeJson` for why). */
        @JvmStatic
        fun parse(frame: String): Envelope? = when (val r = parseEnvelopeJson(frame)) {
            is ParseResult.Ok -> from(r.envelope)
            is ParseResult.UnknownType -> from(r.envelope)
            else -> null
        }
    }
}
