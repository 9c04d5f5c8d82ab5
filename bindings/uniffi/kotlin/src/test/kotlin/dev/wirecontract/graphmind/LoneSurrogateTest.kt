package dev.wirecontract.graphmind

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/**
 * A Kotlin String can hold a lone surrogate, which UTF-8 cannot carry. No uniffi call may
 * throw a JVM exception (CharacterCodingException) for one: a frame is `Invalid`, every other
 * string argument or field is a `ContractException` naming it and the UTF-16 index.
 */
class LoneSurrogateTest {
    private val good = """{"gm":1,"seq":1,"ts":0,"runId":"r","type":"mode.set","payload":{"mode":"step"}}"""
    // A raw string keeps `\u` as text: the lone surrogate goes in through a regular string.
    private val bad = good.replace("\"r\"", "\"r\uDC00\"")

    private fun build(block: () -> Unit): ContractException.Build = assertThrows<ContractException.Build> { block() }

    @Test
    fun `a frame holding a lone surrogate is Invalid naming its UTF-16 index`() {
        val r = parseEnvelopeJson(bad)
        assertTrue(r is ParseResult.Invalid, r.toString())
        r as ParseResult.Invalid
        assertEquals(33, bad.indexOf('\uDC00'))
        assertEquals("frame is not valid JSON: lone surrogate at UTF-16 index 33: not representable in UTF-8", r.reason)
        assertEquals(null, r.issues)
        // High surrogate at the very end, and a reversed pair.
        assertEquals("invalid", parseEnvelopeJson(good + "\uD800").kind)
        assertEquals("invalid", parseEnvelopeJson("\uDC00\uD800").kind)
        // A real pair is a character: the frame stays ok.
        assertEquals("ok", parseEnvelopeJson(good.replace("\"r\"", "\"r\uD83D\uDE00\"")).kind)
    }

    @Test
    fun `an Issue built by hand with a lone surrogate answers dottedPath without throwing`() {
        val issue = Issue(listOf(PathSegment.Key("payload"), PathSegment.Key("k\uD800"), PathSegment.Index(0)), null, "\uDC00")
        assertEquals("payload.k\uD800.0", issue.dottedPath())
    }

    @Test
    fun `parseEnvelope of a tree holding a lone surrogate is Invalid naming the path`() {
        val tree = decodeJson(good) as JsonValue.ObjectValue
        val members = tree.members.map { if (it.name == "runId") JsonMember("runId", JsonValue.TextValue("r\uD800")) else it }
        val r = parseEnvelope(JsonValue.ObjectValue(members))
        assertTrue(r is ParseResult.Invalid, r.toString())
        r as ParseResult.Invalid
        assertEquals("frame is not valid JSON: runId: lone surrogate at UTF-16 index 1: not representable in UTF-8", r.reason)
        assertEquals(listOf("runId"), r.issues!!.map { it.dottedPath() })
        // A member name: the path of the object holding it.
        val named = parseEnvelope(JsonValue.ObjectValue(members + JsonMember("\uDC00", JsonValue.NullValue)))
        assertEquals("invalid", named.kind)
        // encodeJson, declared to throw, names the path too.
        val e = assertThrows<ContractException.Json> { encodeJson(JsonValue.ArrayValue(listOf(JsonValue.TextValue("\uD800")))) }
        assertEquals("0: lone surrogate at UTF-16 index 0: not representable in UTF-8", e.reason)
        assertEquals("ok", parseEnvelope(tree).kind)
    }

    @Test
    fun `one bad frame does not fail the batch`() {
        assertEquals(listOf("ok", "invalid", "ok"), parseEnvelopesJson(listOf(good, bad, good)).map { it.kind })
    }

    @Test
    fun `builders name the argument or the field`() {
        val modeSet = Message.ModeSet(ModeSet(RunMode.STEP))
        build { createEnvelope(modeSet, 1L, "r\uD800") }.let {
            assertEquals("runId: lone surrogate at UTF-16 index 1: not representable in UTF-8", it.reason)
            assertEquals(listOf("runId"), it.issues.map { i -> i.dottedPath() })
        }
        build { createEnvelopeJson("x\uDC00", "{}", 1L, "r") }.let { assertTrue(it.reason.startsWith("messageType: "), it.reason) }
        build { createEnvelopeJson("mode.set", "{\"mode\":\"step\"}", 1L, "\uDC00") }.let { assertTrue(it.reason.startsWith("runId: "), it.reason) }
        @Suppress("DEPRECATION")
        build { createUnknownEnvelope("x\uDC00", null, 1L, "r") }
        val started = NodeStarted(nodeId = "n\uD800", kind = NodeKind.TOOL, name = "t", instanceId = "i")
        build { createEnvelope(Message.NodeStarted(started), 1L, "r") }.let {
            assertEquals(listOf("payload.nodeId"), it.issues.map { i -> i.dottedPath() })
            assertTrue(it.issues.single().message.contains("UTF-16 index 1"), it.issues.toString())
        }
        build { createEnvelope(Message.Unknown("future.\uDC00", null), 1L, "r") }.let { assertEquals(listOf("type"), it.issues.map { i -> i.dottedPath() }) }
    }

    @Test
    fun `serializing a copy holding a lone surrogate is refused, not thrown by the encoder`() {
        val env = createEnvelope(Message.ModeSet(ModeSet(RunMode.STEP)), 1L, "r", 0L)
        build { serializeEnvelope(env.copy(runId = "\uDC00")) }.let { assertEquals(listOf("runId"), it.issues.map { i -> i.dottedPath() }) }
        build { serializeEnvelope(env.copy(messageType = "mode.set\uD800")) }.let { assertEquals(listOf("type"), it.issues.map { i -> i.dottedPath() }) }
    }

    @Test
    fun `matchers, handshake and shrink name the argument`() {
        build { matcherMatches(BreakpointMatcher(name = "\uD800"), NodeKind.TOOL, "t", PausePoint.BEFORE) }.let { assertTrue(it.reason.startsWith("matcher.name: "), it.reason) }
        build { matcherMatches(BreakpointMatcher(), NodeKind.TOOL, "t\uD800", PausePoint.BEFORE) }.let { assertTrue(it.reason.startsWith("name: "), it.reason) }
        build { shouldPause(RunMode.RUN, listOf(BreakpointMatcher(), BreakpointMatcher(name = "\uDC00")), NodeKind.TOOL, "t", PausePoint.BEFORE) }
            .let { assertTrue(it.reason.startsWith("breakpoints.1.name: "), it.reason) }
        build { pauseReason(RunMode.STEP, listOf(), NodeKind.TOOL, "\uDC00", PausePoint.BEFORE) }
        build { matchersEqual(BreakpointMatcher(), BreakpointMatcher(name = "\uDC00")) }.let { assertTrue(it.reason.startsWith("b.name: "), it.reason) }
        build { BreakpointMatcher().matches(NodeKind.TOOL, "\uDC00", PausePoint.BEFORE) }
        build { shrinkPayloadJson("{}", 10L, "node.\uD800") }.let { assertTrue(it.reason.startsWith("messageType: "), it.reason) }
        assertEquals(null, payloadTypeName("node.\uD800"))
        val helloFrame = """{"gm":1,"seq":1,"ts":0,"runId":"*","type":"hello","payload":{"versions":{"protocol":1,"client":"x"},"capabilities":["pause"]}}"""
        val hello = (parseEnvelopeJson(helloFrame) as ParseResult.Ok).envelope.message as Message.Hello
        build { negotiateHello(hello.payload, listOf("pause", "x\uD800")) }.let { assertTrue(it.reason.startsWith("viewerCapabilities.1: "), it.reason) }
        build { helloAck(hello.payload, "v\uD800", listOf(), RunMode.RUN) }.let { assertTrue(it.reason.startsWith("viewer: "), it.reason) }
    }

    @Test
    fun `sessions refuse a bad config or argument and never throw for a bad frame`() {
        build { AppSession(AppSessionConfig(app = "\uD800")) }.let { assertTrue(it.reason.startsWith("config.app: "), it.reason) }
        build { ViewerSession(ViewerSessionConfig(tokenPrefix = "\uD800")) }.let { assertTrue(it.reason.startsWith("config.tokenPrefix: "), it.reason) }
        val app = AppSession(AppSessionConfig(enabled = false))
        app.frameReceived("\uD800", 0.0)
        build { app.emitJson("node.token\uD800", "{}", null, 0.0) }
        build { app.gate(PausePoint.BEFORE, GateNode(nodeId = "n", kind = NodeKind.TOOL, name = "\uDC00"), null, 0.0) }
            .let { assertTrue(it.reason.startsWith("node.name: "), it.reason) }
        build { app.cancel("\uDC00", 0.0) }
        val viewer = ViewerSession()
        viewer.connectionOpened(1L)
        assertEquals(Received.Rejected, viewer.frameReceived(1L, bad, 0.0))
        build { viewer.setBreakpoint(BreakpointMatcher(name = "\uDC00"), 0.0) }
        assertThrows<ResumeException.BadArgument> { viewer.resume("\uDC00", ResumeAction.CONTINUE, 0.0) }
    }

    @Test
    fun `JSON text arguments and fields report a lone surrogate through the function's own error`() {
        // resume is declared @Throws(ResumeException): outputJson's lone surrogate is BadArgument.
        val r = assertThrows<ResumeException.BadArgument> { ViewerSession().resume("p", ResumeAction.INJECT, 0.0, "\"\uD800\"", null) }
        assertEquals("outputJson: lone surrogate at UTF-16 index 1: not representable in UTF-8", r.reason)
        build { createEnvelopeJson("mode.set", "{\"mode\":\"\uDC00\"}", 1L, "r") }.let {
            assertEquals("payloadJson: lone surrogate at UTF-16 index 9: not representable in UTF-8", it.reason)
            assertEquals(listOf("payloadJson"), it.issues.map { i -> i.dottedPath() })
        }
        build { createEnvelope(Message.Unknown("x.future", "\"\uD800\""), 1L, "r") }.let { assertEquals(listOf("payload"), it.issues.map { i -> i.dottedPath() }) }
        build { createEnvelope(Message.ModeSet(ModeSet(RunMode.STEP, "{\"\uD800\":1}")), 1L, "r") }.let {
            assertTrue(it.issues.single().message.contains("UTF-16 index 2"), it.issues.toString())
        }
        build { AppSession(AppSessionConfig(enabled = false)).emitJson("node.token", "\uDC00", null, 0.0) }.let { assertTrue(it.reason.startsWith("payloadJson: "), it.reason) }
        assertThrows<ContractException.Json> { decodeJson("[\"\uD800\"]") }.let { assertTrue(it.reason.startsWith("text: lone surrogate at UTF-16 index 2"), it.reason) }
        assertThrows<ContractException.Json> { shrinkPayloadJson("\uD800", 10L) }.let { assertTrue(it.reason.startsWith("payloadJson: "), it.reason) }
        // The marked form a lone surrogate crosses as starts with U+0000, which no JSON text
        // does: a host text spelling it is refused either way (only the message differs).
        assertThrows<ContractException.Json> { decodeJson("\u0000lone surrogate at UTF-16 index 3") }
        assertThrows<ContractException.Json> { decodeJson("\u0000") }.let { assertTrue(it.reason.startsWith("not valid JSON"), it.reason) }
    }

    @Test
    fun `a NumberValue that is not a JSON number is Invalid naming its path`() {
        val tree = decodeJson(good) as JsonValue.ObjectValue
        val members = tree.members.map { if (it.name == "seq") JsonMember("seq", JsonValue.NumberValue("abc")) else it }
        val r = parseEnvelope(JsonValue.ObjectValue(members)) as ParseResult.Invalid
        assertEquals(listOf("seq"), r.issues!!.map { it.dottedPath() })
        assertEquals("value is not JSON-representable: seq: not a JSON number: \"abc\"", r.reason)
        assertThrows<ContractException.Json> { encodeJson(JsonValue.ObjectValue(members)) }.let { assertTrue(it.reason.startsWith("seq: not a JSON number"), it.reason) }
    }
}
