package dev.wirecontract.graphmind.jvm

import dev.wirecontract.graphmind.ParseResult
import dev.wirecontract.graphmind.defaultMaxFrameBytes
import dev.wirecontract.graphmind.parseEnvelopeJsonBytes
import java.util.Objects

/**
 * The GraphMind contract for the JVM, fast path: parse and build+serialize through one JNI
 * call each (`bindings/uniffi/src/jni/`); enums, the message type table and breakpoint
 * matching are plain generated Kotlin ([NodeKind], [MessageTypes], [Breakpoints]). Java:
 * `GraphMind.parse(bytes)`, `GraphMind.build("node.token", 3L, "run1", payload)`.
 *
 * Integers are `Long` (no unsigned types): `seq`/`ts` must be `0 ≤ x ≤ 2^53 − 1`, checked by
 * the core; a negative one is a [WireException] saying `too small`. Thread-safe.
 */
object GraphMind {
    /** The protocol version this contract speaks (`gm`). */
    const val PROTOCOL_VERSION: Long = 1

    init {
        // Native's loader first: it points the uniffi (JNA) half at the file it loads, and on a
        // platform the jar lacks its error names the platform and the override property. Some
        // members below call the uniffi half (a String frame's size limit), which would
        // otherwise load the library through JNA on its own.
        Native.load()
    }

    private val scratch = ThreadLocal.withInitial { ByteArray(4096) }

    /** Parses one frame (UTF-8 bytes) with the default limits (graphmind-v1 §2, §5). Never throws for bad input. */
    @JvmStatic
    fun parse(frame: ByteArray): Frame = parse(frame, 0, frame.size)

    /**
     * Parses `frame[offset, offset + length)`; the frame keeps a reference to [frame].
     *
     * @throws IndexOutOfBoundsException when the range is not inside [frame], as every JVM API
     *   taking (array, offset, length) (`java.util.Objects.checkFromIndexSize`, which computes
     *   `offset + length` without `Int` overflow).
     */
    @JvmStatic
    fun parse(frame: ByteArray, offset: Int, length: Int): Frame {
        Objects.checkFromIndexSize(offset, length, frame.size)
        val out = LongArray(Native.OUT_LEN)
        val code = Native.parse(frame, offset, length, out)
        return Frame(frame, offset, length, VERDICTS[code], out)
    }

    /**
     * Parses a text frame (a WebSocket text message). A lone surrogate, which no UTF-8 frame can
     * hold, is [Verdict.INVALID]; so is a frame of more UTF-16 units than the default frame cap
     * has bytes (each unit is at least one byte of UTF-8), decided before any buffer is sized.
     */
    @JvmStatic
    fun parse(frame: String): Frame {
        if (frame.length > maxFrameBytes) return Frame(ByteArray(0), 0, 0, Verdict.INVALID, LongArray(Native.OUT_LEN), tooBig)
        val buf = ByteArray(Utf8.arraySize(Utf8.bound(frame.length), "frame"))
        val n = try {
            Utf8.encode(frame, buf, 0, "frame")
        } catch (e: WireException) {
            // The uniffi parse of the same String gives the contract's verdict and reason
            // (`frame is not valid JSON: lone surrogate at UTF-16 index N: …`); rare, so slow.
            return Frame(ByteArray(0), 0, 0, Verdict.INVALID, LongArray(Native.OUT_LEN), dev.wirecontract.graphmind.parseEnvelopeJson(frame))
        }
        return parse(buf, 0, n)
    }

    /** The core's default frame cap (graphmind-v1 §5: 16 MiB), in bytes. */
    private val maxFrameBytes: Int by lazy { minOf(defaultMaxFrameBytes(), Int.MAX_VALUE.toLong()).toInt() }

    /**
     * The core's own verdict on a frame over the cap (`frame exceeds N bytes`): asked once, of
     * a zeroed frame one byte over it (the cap is checked before anything is read).
     */
    private val tooBig: ParseResult by lazy { parseEnvelopeJsonBytes(ByteArray(maxFrameBytes + 1)) }

    /**
     * Builds a frame of any type and serializes it (graphmind-v1 §5.13, §5.14): a known type's
     * [payload] is validated against it, any other type is kept opaque; `gm` is 1; [ts] is now
     * when `null`. Returns the frame's UTF-8 bytes exactly as `JSON.stringify` writes it.
     *
     * @throws WireException naming every broken rule (path and rule), e.g. a negative [seq].
     */
    @JvmStatic
    @JvmOverloads
    fun build(type: String, seq: Long, runId: String, payload: JsonText, ts: Long? = null): ByteArray {
        var buf = scratch.get()
        val bound = Utf8.bound(type.length, runId.length, payload.text.length)
        if (buf.size < bound) {
            // Past the largest array, the exact UTF-8 length decides (a huge ASCII payload fits).
            val need = if (bound <= Utf8.MAX_ARRAY) {
                bound
            } else {
                Utf8.length(payload.text) + Utf8.length(type) + Utf8.length(runId)
            }
            buf = ByteArray(Utf8.arraySize(maxOf(need, minOf(buf.size * 2L, Utf8.MAX_ARRAY)), "payload"))
            scratch.set(buf)
        }
        val p = Utf8.encode(payload.text, buf, 0, "payload")
        return native(buf, p, type, runId, seq, ts)
    }

    /**
     * [build] with the payload as written by a [JsonWriter], its bytes passed as they are (no
     * intermediate `String`); the writer is left as it was.
     *
     * @throws WireException naming every broken rule (path and rule), e.g. a negative [seq].
     */
    @JvmStatic
    @JvmOverloads
    fun build(type: String, seq: Long, runId: String, payload: JsonWriter, ts: Long? = null): ByteArray {
        val p = payload.len
        payload.reserve(Utf8.bound(type.length, runId.length), "frame") { Utf8.length(type) + Utf8.length(runId) }
        return native(payload.buf, p, type, runId, seq, ts)
    }

    /** Appends type and runId after the payload's `p` bytes in `buf` and crosses once. */
    private fun native(buf: ByteArray, p: Int, type: String, runId: String, seq: Long, ts: Long?): ByteArray {
        val t = Utf8.encode(type, buf, p, "type")
        val r = Utf8.encode(runId, buf, t, "runId")
        return Native.build(buf, p, t - p, r - t, seq, ts ?: 0, ts != null)
    }

    /** [build], as a `String` (the WebSocket text message). */
    @JvmStatic
    @JvmOverloads
    fun buildString(type: String, seq: Long, runId: String, payload: JsonText, ts: Long? = null): String =
        String(build(type, seq, runId, payload, ts), Charsets.UTF_8)

    /** [build] from a [JsonWriter], as a `String`. */
    @JvmStatic
    @JvmOverloads
    fun buildString(type: String, seq: Long, runId: String, payload: JsonWriter, ts: Long? = null): String =
        String(build(type, seq, runId, payload, ts), Charsets.UTF_8)

    private val VERDICTS = Verdict.values()
}
