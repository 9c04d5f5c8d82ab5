package dev.wirecontract.graphmind

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.io.File
import org.json.JSONObject

/** Building, serializing, range checks, matchers, JSON helpers and constants. */
class ApiTest {
    private val maxSafe = 9_007_199_254_740_991L
    private val sdk = SdkInfo(name = "python", version = "0.5.1")

    /**
     * Hand-built messages with most optional fields set (richer than most vectors). Not the
     * coverage list: [everyType] takes the types from the registry.
     */
    private val rich: List<Message> = listOf(
        Message.RunStarted(RunStarted(app = "a", sdk = sdk, meta = """{"k":[1,"x"],"big":1e400}""")),
        Message.RunFinished(RunFinished(status = RunStatus.ERROR, error = ErrorInfo(name = "E", message = "m", stack = "s"))),
        Message.GraphHint(GraphHint(nodes = listOf(GraphNodeHint(nodeId = "n", kind = NodeKind.TOOL, name = "t", parentId = "p")))),
        Message.NodeStarted(
            NodeStarted(
                nodeId = "n", parentId = "root", kind = NodeKind.LLM, name = "m", instanceId = "i",
                input = """{"q":"hi"}""", collapsed = false, redaction = RedactionSummary(count = 1L, keys = listOf("k")),
            ),
        ),
        Message.NodeToken(NodeToken(nodeId = "n", deltas = listOf(TokenDelta(t = TokenChannel.TOOL_ARGS, v = "{\"a\":")))),
        Message.NodeFinished(
            NodeFinished(
                nodeId = "n", instanceId = "i", output = "null", durationMs = 12.5, status = RunStatus.OK, heldMs = 0.0,
                usage = TokenUsage(inputTokens = 1L, outputTokens = 2L, inclusive = true, cacheReadTokens = 0L, reasoningTokens = maxSafe),
            ),
        ),
        Message.NodeError(NodeError(nodeId = "n", error = ErrorInfo(name = "E", message = "m"), heldMs = 3.25)),
        Message.ExecPaused(
            ExecPaused(
                pauseId = "p", nodeId = "n", point = PausePoint.AFTER, reason = PauseReason.LOOP,
                loopInfo = LoopInfo(repeats = 3L, firstSeq = 1L, lastSeq = 5L, fingerprint = "f", kind = LoopKind.CYCLE, period = 2L, laps = 1L),
                smart = SmartInfo(rule = SmartRule.ERROR_RESULT, detail = "d"), editable = true, instanceId = "i",
            ),
        ),
        Message.ExecRefused(ExecRefused(pauseId = "p", code = RefusalCode.SCHEMA, message = "bad", requestId = "q")),
        Message.ExecResumed(ExecResumed(pauseId = "p", action = ResumeAction.INJECT, edited = EditedValue(after = "null"), principal = "me")),
        Message.ExecResume(ExecResume(pauseId = "p", action = ResumeAction.CONTINUE, output = "[1]", input = "{}", requestId = "q")),
        Message.BreakpointSet(BreakpointSet(matcher = BreakpointMatcher(kind = NodeKind.TOOL))),
        Message.BreakpointClear(BreakpointClear(matcher = BreakpointMatcher(name = "x", point = PausePoint.ERROR))),
        Message.ModeSet(ModeSet(mode = RunMode.STEP)),
        Message.Hello(Hello(versions = ClientVersions(protocol = 1L, client = "0.5.1"), capabilities = knownCapabilities(), app = "a", sdk = sdk)),
        Message.HelloAck(
            HelloAck(
                versions = ViewerVersions(protocol = 1L, viewer = "v"), capabilities = listOf("pause"),
                breakpoints = listOf(BreakpointMatcher()), mode = RunMode.RUN, sessionToken = "s", hubCapabilities = listOf(),
            ),
        ),
    )

    /**
     * One message of every type the registry lists (`messageTypes()`), so that a new message type
     * is covered without editing this file or a data file: the first accepted frame of each type
     * in the conformance material ([Vectors.all]: the shared vectors, this repository's
     * `vectors/graphmind/extra.jsonl`, the real-client captures), else the generated
     * [Vectors.examples] (one frame of every registry type), then [rich].
     */
    private fun everyType(): List<Message> {
        val byType = LinkedHashMap<String, Message>()
        for (v in Vectors.all + Vectors.examples) {
            if (v.expect != "ok") continue
            val ok = parseEnvelopeJson(v.frame) as? ParseResult.Ok ?: continue
            byType.putIfAbsent(ok.envelope.messageType, ok.envelope.message)
        }
        val missing = messageTypes().filter { it !in byType }
        assertTrue(
            missing.isEmpty(),
            "no accepted frame of $missing in the conformance material or generated/examples/graphmind.jsonl: run scripts/regen",
        )
        assertTrue(messageTypes().containsAll(rich.map { createEnvelope(it, 0L, "r", 0L).messageType }))
        return messageTypes().map { byType.getValue(it) } + rich
    }

    @Test
    fun `a frame of every registry type builds, serializes and parses back equal`() {
        everyType().forEachIndexed { i, message ->
            val envelope = createEnvelope(message, seq = i.toLong(), runId = "run-1", ts = 1_756_200_000_000L)
            assertEquals("{}", envelope.extraJson)
            val text = serializeEnvelope(envelope)
            assertTrue(text.startsWith("""{"gm":1,"seq":$i,"ts":1756200000000,"runId":"run-1","type":"${envelope.messageType}","payload":{"""), text)
            val back = parseEnvelopeJson(text) as ParseResult.Ok
            assertEquals(envelope, back.envelope)
            assertEquals(message, back.envelope.message)
        }
    }

    @Test
    fun `ts defaults to now`() {
        val before = System.currentTimeMillis()
        val envelope = createEnvelope(Message.ModeSet(ModeSet(RunMode.RUN)), 1L, wildcardRunId())
        assertTrue(envelope.ts >= before && envelope.ts <= System.currentTimeMillis())
    }

    @Test
    fun `counters above 2^53 - 1 are refused, never wrapped`() {
        val modeSet = Message.ModeSet(ModeSet(RunMode.RUN))
        createEnvelope(modeSet, seq = maxSafe, runId = "r", ts = maxSafe)
        val e = assertThrows<ContractException.Build> { createEnvelope(modeSet, seq = maxSafe + 1L, runId = "r", ts = Long.MAX_VALUE) }
        assertEquals(listOf("seq", "ts"), e.issues.map { it.dottedPath() })
        // The parser's own message: host integers are read by the contract's reader.
        assertEquals("too big: expected a safe integer (|x| <= 9007199254740991), received 9007199254740992", e.issues[0].message)
        val negative = assertThrows<ContractException.Build> { createEnvelope(modeSet, seq = -1, runId = "r") }
        assertEquals("too small: expected integer to be >= 0, received -1", negative.issues.single().message)
        val envelope = createEnvelope(modeSet, 1L, "r", 0L)
        assertThrows<ContractException.Build> { serializeEnvelope(envelope.copy(ts = Long.MAX_VALUE)) }
        val usage = TokenUsage(inputTokens = maxSafe + 1L, outputTokens = Long.MAX_VALUE)
        val nested = assertThrows<ContractException.Build> {
            createEnvelope(Message.NodeFinished(NodeFinished(nodeId = "n", durationMs = 1.0, status = RunStatus.OK, usage = usage)), 1L, "r")
        }
        assertEquals(listOf("payload.usage.inputTokens", "payload.usage.outputTokens"), nested.issues.map { it.dottedPath() })
        val laps = assertThrows<ContractException.Build> {
            createEnvelope(Message.ExecPaused(ExecPaused(pauseId = "p", nodeId = "n", point = PausePoint.BEFORE, loopInfo = LoopInfo(0L, 0L, 0L, "f", laps = 0L))), 1L, "r")
        }
        assertEquals(listOf("payload.loop.laps"), laps.issues.map { it.dottedPath() })
        assertThrows<ContractException.Build> {
            createEnvelope(Message.Hello(Hello(versions = ClientVersions(Long.MIN_VALUE, "c"), capabilities = listOf())), 1L, "r")
        }
        // The parser refuses the same values on the wire.
        assertEquals("invalid", parseEnvelopeJson("""{"gm":1,"seq":9007199254740992,"ts":0,"runId":"r","type":"mode.set","payload":{"mode":"run"}}""").kind)
    }

    @Test
    fun `numbers a frame cannot carry are build errors`() {
        for (bad in listOf(Double.NaN, Double.POSITIVE_INFINITY, -1.0)) {
            val e = assertThrows<ContractException.Build> {
                createEnvelope(Message.NodeFinished(NodeFinished(nodeId = "n", durationMs = bad, status = RunStatus.OK)), 1L, "r")
            }
            assertEquals(listOf("payload.durationMs"), e.issues.map { it.dottedPath() })
        }
        // -0 is written as 0, as JSON.stringify does.
        val envelope = createEnvelope(Message.NodeFinished(NodeFinished(nodeId = "n", durationMs = -0.0, status = RunStatus.OK)), 1L, "r", 0L)
        assertTrue(serializeEnvelope(envelope).contains(""""durationMs":0,"""))
    }

    @Test
    fun `invalid payloads, unknown types and bad host values are build errors naming path and rule`() {
        val e = assertThrows<ContractException.Build> {
            createEnvelopeJson("node.token", """{"nodeId":"n","deltas":[{"t":"bogus","v":"x"}]}""", 1L, "r")
        }
        assertEquals("invalid payload for message type \"node.token\"", e.reason)
        assertEquals(listOf("payload.deltas.0.t"), e.issues.map { it.dottedPath() })
        assertTrue(e.message.contains("invalid payload"))
        // One builder: any type string; unknown types are built opaque.
        assertEquals(Message.Unknown("future.x", "{}"), createEnvelopeJson("future.x", "{}", 1L, "r").message)
        assertEquals("unknown-type", parseEnvelopeJson(serializeEnvelope(createEnvelope(Message.Unknown("future.x", "1"), 1L, "r"))).kind)
        assertEquals(Message.ModeSet(ModeSet(RunMode.RUN)), createEnvelope(Message.Unknown("mode.set", """{"mode":"run"}"""), 1L, "r").message)
        assertThrows<ContractException.Build> { createUnknownEnvelope("mode.set", "{}", 1L, "r") }
        val unknown = createUnknownEnvelope("future.x", null, 1L, "r", 5L)
        assertEquals(Message.Unknown("future.x", null), unknown.message)
        assertEquals("""{"gm":1,"seq":1,"ts":5,"runId":"r","type":"future.x"}""", serializeEnvelope(unknown))
        assertEquals("unknown-type", parseEnvelopeJson(serializeEnvelope(unknown)).kind)
        val output = assertThrows<ContractException.Build> {
            createEnvelope(Message.ExecResume(ExecResume(pauseId = "p", action = ResumeAction.INJECT, output = "{nope")), 1L, "r")
        }
        assertEquals(listOf("payload.output"), output.issues.map { it.dottedPath() })
        val known = assertThrows<ContractException.Build> {
            createEnvelope(Message.ModeSet(ModeSet(RunMode.RUN, extraJson = """{"mode":"step"}""")), 1L, "r")
        }
        assertEquals(listOf("payload.mode"), known.issues.map { it.dottedPath() })
        val envelope = createEnvelope(Message.ModeSet(ModeSet(RunMode.RUN)), 1L, "r", 0L)
        assertThrows<ContractException.Build> { serializeEnvelope(envelope.copy(messageType = "hello")) }
        assertThrows<ContractException.Build> { serializeEnvelope(envelope.copy(extraJson = """{"seq":2}""")) }
        assertThrows<ContractException.Build> { serializeEnvelope(envelope.copy(extraJson = "[]")) }
        assertThrows<ContractException.Build> { serializeEnvelope(envelope.copy(runId = "a\u0000b")) }
        assertEquals(
            """{"gm":1,"seq":1,"ts":0,"runId":"r","type":"mode.set","payload":{"mode":"run"},"x":1e400}""",
            serializeEnvelope(envelope.copy(extraJson = """{ "x" : 1e400 }""")),
        )
    }

    @Test
    fun `matcher equality treats an absent point as before and ignores unknown keys`() {
        assertTrue(matchersEqual(BreakpointMatcher(name = "x"), BreakpointMatcher(name = "x", point = PausePoint.BEFORE)))
        assertTrue(matchersEqual(BreakpointMatcher(kind = NodeKind.TOOL, extraJson = """{"a":1}"""), BreakpointMatcher(kind = NodeKind.TOOL)))
        assertFalse(matchersEqual(BreakpointMatcher(name = "x"), BreakpointMatcher(name = "x", point = PausePoint.AFTER)))
        assertFalse(matchersEqual(BreakpointMatcher(), BreakpointMatcher(kind = NodeKind.TOOL)))
        assertTrue(BreakpointMatcher(name = "x").sameAs(BreakpointMatcher(name = "x", point = PausePoint.BEFORE)))
        assertEquals(PausePoint.BEFORE, BreakpointMatcher().effectivePoint())
        // Matching: effective point, then kind if present, then name if present.
        assertTrue(matcherMatches(BreakpointMatcher(), NodeKind.LLM, "m", PausePoint.BEFORE))
        assertFalse(matcherMatches(BreakpointMatcher(), NodeKind.LLM, "m", PausePoint.AFTER))
        assertTrue(BreakpointMatcher(kind = NodeKind.TOOL, name = "t", point = PausePoint.ERROR).matches(NodeKind.TOOL, "t", PausePoint.ERROR))
        assertFalse(matcherMatches(BreakpointMatcher(kind = NodeKind.TOOL), NodeKind.LLM, "m", PausePoint.BEFORE))
        assertFalse(matcherMatches(BreakpointMatcher(name = "a"), NodeKind.LLM, "b", PausePoint.BEFORE))
        // Step mode pauses at every before and error point.
        assertTrue(shouldPause(RunMode.STEP, listOf(), NodeKind.TOOL, "t", PausePoint.ERROR))
        assertFalse(shouldPause(RunMode.STEP, listOf(), NodeKind.TOOL, "t", PausePoint.AFTER))
        assertTrue(shouldPause(RunMode.RUN, listOf(BreakpointMatcher(point = PausePoint.AFTER)), NodeKind.TOOL, "t", PausePoint.AFTER))
        assertFalse(shouldPause(RunMode.RUN, listOf(), NodeKind.TOOL, "t", PausePoint.BEFORE))
    }

    @Test
    fun `opaque values cross as exact JSON text and decode on request`() {
        val envelope = createEnvelopeJson(
            "node.started",
            """{"nodeId":"n","kind":"tool","name":"t","instanceId":"i","input":{"big":1e400,"list":[1,"two",null,true]}}""",
            1L, "r", 0L,
        )
        val input = (envelope.message as Message.NodeStarted).payload.input!!
        assertEquals("""{"big":1e400,"list":[1,"two",null,true]}""", input)
        val tree = decodeJson(input) as JsonValue.ObjectValue
        assertEquals(JsonMember("big", JsonValue.NumberValue("1e400")), tree.members[0])
        val list = listOf(JsonValue.NumberValue("1"), JsonValue.TextValue("two"), JsonValue.NullValue, JsonValue.BoolValue(true))
        assertEquals(JsonValue.ArrayValue(list), tree.members[1].value)
        assertEquals(input, encodeJson(tree))
        assertThrows<ContractException.Json> { decodeJson("{") }
        val depth = jsonValueMaxDepth().toInt()
        decodeJson("[".repeat(depth) + "]".repeat(depth))
        assertThrows<ContractException.Json> { decodeJson("[".repeat(depth + 1) + "]".repeat(depth + 1)) }
        assertThrows<ContractException.Json> { encodeJson(JsonValue.NumberValue("NaN")) }
        // parseEnvelope: the same algorithm from a decoded value.
        val decoded = decodeJson(serializeEnvelope(envelope))
        assertEquals(ParseResult.Ok(envelope), parseEnvelope(decoded))
    }

    @Test
    fun `parse options cap size and depth`() {
        val frame = """{"gm":1,"seq":1,"ts":0,"runId":"r","type":"mode.set","payload":{"mode":"run"}}"""
        val small = parseEnvelopeJson(frame, ParseOptions(maxFrameBytes = 10L)) as ParseResult.Invalid
        assertEquals("frame exceeds 10 bytes", small.reason)
        assertNull(small.issues)
        val nested = """{"gm":1,"seq":1,"ts":0,"runId":"r","type":"x.y","payload":[[[1]]]}"""
        assertEquals("invalid", parseEnvelopeJson(nested, ParseOptions(maxDepth = 2L)).kind)
        assertEquals("unknown-type", parseEnvelopeJson(nested).kind)
        assertEquals(ParseResult.VersionMismatch(2L, 1L), parseEnvelopeJson(frame.replace("\"gm\":1", "\"gm\":2")))
    }

    @Test
    fun `constants and tables match the contract`() {
        assertEquals(1L, protocolVersion())
        assertEquals("*", wildcardRunId())
        assertEquals(16L * 1024L * 1024L, defaultMaxFrameBytes())
        assertTrue(defaultMaxDepth() >= 10_000L)
        // Every registry type is a Message variant named after its payload record, and back
        // (from the generated classes, not a hand count).
        val variants = Message::class.java.declaredClasses
            .filter { Message::class.java.isAssignableFrom(it) && it != Message.Unknown::class.java }
            .map { it.simpleName }.toSet()
        assertEquals(variants, messageTypes().map { payloadTypeName(it) }.toSet())
        assertEquals(messageTypes(), eventTypes() + controlTypes() + handshakeTypes())
        assertEquals("NodeStarted", payloadTypeName("node.started"))
        assertNull(payloadTypeName("future.x"))
        assertEquals(File(Vectors.repo, "generated/schema/graphmind.v1.schema.json").readText(), exportJsonSchema())
        assertTrue(exportJsonSchema().contains(schemaId()))
        // The values in the JSON Schema's order (schemars' path from the declarations).
        val nodeKinds = JSONObject(exportJsonSchema()).getJSONObject("\$defs").getJSONObject("NodeKind").getJSONArray("enum")
        assertEquals((0 until nodeKinds.length()).map { nodeKinds.getString(it) }, NodeKind.entries.map { it.wireValue() })
        assertEquals("tool-args", TokenChannel.TOOL_ARGS.wireValue())
        assertTrue(knownCapabilities().contains("run-claim"))
        // Every contract object is a record of this package.
        assertTrue(objectTypes().containsAll(variants), objectTypes().toString())
        for (name in objectTypes()) Class.forName("dev.wirecontract.graphmind.$name")
    }
    @Test
    fun `invalid payloads salvage the envelope fields`() {
        val bad = """{"gm":1,"seq":7,"ts":9,"runId":"run_1","type":"node.token","payload":{"nodeId":"n","deltas":[{"t":"hologram","v":"x"}]}}"""
        val r = parseEnvelopeJson(bad) as ParseResult.Invalid
        assertEquals(listOf(7L, 9L), listOf(r.seq, r.ts))
        assertEquals("run_1", r.runId)
        assertEquals("node.token", r.messageType)
        val early = parseEnvelopeJson("""{"gm":1,"seq":-1,"ts":9,"runId":"r","type":"mode.set","payload":{}}""") as ParseResult.Invalid
        assertNull(early.seq)
        assertNull(early.messageType)
    }

    @Test
    fun `handshake helpers and pauseReason`() {
        val hello = Hello(versions = ClientVersions(1L, "c"), capabilities = listOf("abort", "x-new", "pause"), resumeToken = "tok")
        assertEquals(HelloNegotiation.Accepted(1L, listOf("abort", "pause"), "tok"), negotiateHello(hello, knownCapabilities()))
        val refused = negotiateHello(hello.copy(versions = ClientVersions(2L, "c")), knownCapabilities())
        assertTrue(refused is HelloNegotiation.Refused)
        val ack = helloAck(hello, "me", listOf(BreakpointMatcher(kind = NodeKind.TOOL), BreakpointMatcher(kind = NodeKind.TOOL, point = PausePoint.BEFORE)), RunMode.STEP, "s")
        assertEquals(1, ack.breakpoints.size)
        val frame = serializeEnvelope(createEnvelope(Message.HelloAck(ack), 0L, wildcardRunId(), 5L))
        assertEquals("ok", parseEnvelopeJson(frame).kind)
        val bps = listOf(BreakpointMatcher(kind = NodeKind.TOOL, name = "t"))
        assertEquals(PauseReason.BREAKPOINT, pauseReason(RunMode.STEP, bps, NodeKind.TOOL, "t", PausePoint.BEFORE))
        assertEquals(PauseReason.STEP, pauseReason(RunMode.STEP, bps, NodeKind.LLM, "x", PausePoint.ERROR))
        assertNull(pauseReason(RunMode.RUN, bps, NodeKind.LLM, "x", PausePoint.BEFORE))
    }
}
