package dev.wirecontract.graphmind.jvm

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The JVM fast path's API: ranges, errors, offsets, opaque values, matchers in sets. */
class JvmApiTest {
    private val token = JsonText.of("""{"nodeId":"n1","deltas":[{"t":"text","v":"Hi"}]}""")

    @Test
    fun `build writes the frame the core writes`() {
        assertEquals(
            """{"gm":1,"seq":3,"ts":5,"runId":"r1","type":"node.token","payload":{"nodeId":"n1","deltas":[{"t":"text","v":"Hi"}]}}""",
            GraphMind.buildString("node.token", 3, "r1", token, 5),
        )
        assertTrue(GraphMind.parse(GraphMind.build("node.token", 3, "r1", token)).ts > 1_700_000_000_000)
        val unknown = GraphMind.parse(GraphMind.build("x.future", 0, "*", JsonText.of("[1e400]"), 0))
        assertEquals(Verdict.UNKNOWN_TYPE, unknown.verdict)
        assertEquals("[1e400]", unknown.payload.toString())
    }

    @Test
    fun `a lone surrogate escape in type decodes to U+FFFD as in the core`() {
        val frame = """{"gm":1,"seq":1,"ts":1,"runId":"r","type":"x.y\ud800","payload":{}}""".toByteArray()
        val f = GraphMind.parse(frame)
        assertEquals("x.y\uFFFD", f.type)
        assertEquals("x.y\uD83D\uDE00", GraphMind.parse("""{"gm":1,"seq":1,"ts":1,"runId":"r","type":"x.y\ud83d\ude00","payload":{}}""".toByteArray()).type)
    }

    @Test
    fun `negative and oversized counters are refused clearly`() {
        val neg = assertThrows(WireException::class.java) { GraphMind.build("node.token", -1, "r", token, 0) }
        assertTrue(neg.message!!.contains("seq: too small: expected integer to be >= 0, received -1"), neg.message)
        val big = assertThrows(WireException::class.java) { GraphMind.build("node.token", 0, "r", token, 1L shl 53) }
        assertTrue(big.message!!.contains("ts: too big"), big.message)
        assertEquals(Verdict.OK, GraphMind.parse(GraphMind.build("node.token", (1L shl 53) - 1, "r", token, 0)).verdict)
    }

    @Test
    fun `bad input is an exception or invalid, never a crash`() {
        val bad = assertThrows(WireException::class.java) { GraphMind.build("node.token", 0, "r", JsonText.of("""{"nodeId":1}"""), 0) }
        assertTrue(bad.message!!.contains("payload"), bad.message)
        assertThrows(WireException::class.java) { GraphMind.build("node.token", 0, "r\uD800", token, 0) }
        assertThrows(WireException::class.java) { GraphMind.build("node.token", 0, "r", JsonText.of("{"), 0) }
        assertThrows(WireException::class.java) { GraphMind.build("node.token", 0, "a\u0000b", token, 0) }
        for (text in listOf("", "{", "null", "[]", "{\"gm\":1}", "\uD800", "x".repeat(100_000))) {
            assertEquals(Verdict.INVALID, GraphMind.parse(text).verdict, text.take(20))
        }
        val frame = GraphMind.parse(byteArrayOf(0xFF.toByte(), '{'.code.toByte()))
        assertEquals(Verdict.INVALID, frame.verdict)
        assertTrue(frame.reason!!.contains("UTF-8"), frame.reason)
        assertThrows(IndexOutOfBoundsException::class.java) { GraphMind.parse(ByteArray(4), 2, 3) }
    }

    @Test
    fun `an (array, offset, length) range outside the array is IndexOutOfBoundsException, as in every JVM API`() {
        // Objects.checkFromIndexSize's convention (and exception), overflow-safe.
        assertThrows(IndexOutOfBoundsException::class.java) { GraphMind.parse(ByteArray(4), 1, Int.MAX_VALUE) }
        assertThrows(IndexOutOfBoundsException::class.java) { GraphMind.parse(ByteArray(4), Int.MAX_VALUE, 1) }
        assertThrows(IndexOutOfBoundsException::class.java) { GraphMind.parse(ByteArray(4), -1, 1) }
        assertThrows(IndexOutOfBoundsException::class.java) { GraphMind.parse(ByteArray(4), 0, -1) }
        assertEquals(Verdict.INVALID, GraphMind.parse(ByteArray(4), 4, 0).verdict)
    }

    @Test
    fun `a text frame longer than the frame cap is the cap's verdict, sized before any buffer`() {
        // One unit over the cap (16 MiB of ASCII): the core's own reason, with no 3x buffer.
        val cap = dev.wirecontract.graphmind.defaultMaxFrameBytes()
        val f = GraphMind.parse("a".repeat(cap.toInt() + 1))
        assertEquals(Verdict.INVALID, f.verdict)
        assertEquals("frame exceeds $cap bytes", f.reason)
        // A lone surrogate in an over-cap frame: the cap first, as in the core.
        assertEquals("frame exceeds $cap bytes", GraphMind.parse("\uD800".repeat(cap.toInt() + 1)).reason)
    }

    @Test
    fun `a text frame with a lone surrogate gives the same reason as the uniffi parse`() {
        // A raw string keeps `\u` as text: the lone surrogate goes in through a regular string.
        val text = """{"gm":1,"seq":1,"ts":0,"runId":"r","type":"mode.set","payload":{"mode":"step"}}""".replace("\"r\"", "\"r\uDC00\"")
        val frame = GraphMind.parse(text)
        assertEquals(Verdict.INVALID, frame.verdict)
        assertEquals("frame is not valid JSON: lone surrogate at UTF-16 index 33: not representable in UTF-8", frame.reason)
        assertEquals((dev.wirecontract.graphmind.parseEnvelopeJson(text) as dev.wirecontract.graphmind.ParseResult.Invalid).reason, frame.reason)
    }

    @Test
    fun `a frame inside a larger array, escapes and duplicates decoded as JSON_parse does`() {
        val text = """xx{"gm":1,"seq":1,"ts":2,"runId":"r\u00e9\"1","runId":"r\u00e9\"2","type":"node.token","payload":{"nodeId":"n","deltas":[]}}yy"""
        val bytes = text.toByteArray()
        val frame = GraphMind.parse(bytes, 2, bytes.size - 4)
        assertEquals(Verdict.OK, frame.verdict)
        assertEquals("ré\"2", frame.runId)
        assertEquals("node.token", frame.type)
        assertEquals("""{"nodeId":"n","deltas":[]}""", frame.payload!!.text)
        val mismatch = GraphMind.parse("""{"gm":2,"seq":1,"ts":2,"runId":"r","type":"x","payload":{}}""")
        assertEquals(2L, mismatch.gmReceived)
    }

    @Test
    fun `matchers follow protocol equality in sets`() {
        val a = BreakpointMatcher(kind = NodeKind.TOOL)
        val b = BreakpointMatcher(kind = NodeKind.TOOL, point = PausePoint.BEFORE)
        assertEquals(a, b)
        assertEquals(a.hashCode(), b.hashCode())
        val set = hashSetOf(a)
        assertTrue(set.remove(b))
        assertFalse(a == BreakpointMatcher(kind = NodeKind.TOOL, point = PausePoint.AFTER))
        assertEquals("""BreakpointMatcher{"kind":"tool"}""", a.toString())
        assertTrue(Breakpoints.shouldPause(RunMode.RUN, listOf(a), NodeKind.TOOL, "x", PausePoint.BEFORE))
        assertNull(Breakpoints.pauseReason(RunMode.RUN, listOf(a), NodeKind.LLM, "x", PausePoint.BEFORE))
        assertEquals(PauseReason.STEP, Breakpoints.pauseReason(RunMode.STEP, emptyList(), NodeKind.LLM, "x", PausePoint.ERROR))
    }

    @Test
    fun `opaque values are JSON, with a readable toString`() {
        assertEquals("\"Hello\"", JsonText.string("Hello").toString())
        assertEquals("null", JsonText.NULL.toString())
        assertEquals(JsonText.of("{\"a\":1}"), JsonText.of("{\"a\":1}"))
        assertEquals("\"a\\\"b\\n\\u0001\"", JsonText.string("a\"b\n\u0001").text)
    }
}
