package dev.wirecontract.graphmind

import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.io.File

/** One line of shared/vectors/graphmind/shrink.jsonl (graphmind-shrink §15). */
data class ShrinkVector(val name: String, val type: String?, val maxBytes: Long, val payloadJson: String, val expectJson: String, val tier: Int)

/**
 * Payload shrinking (graphmind-shrink): every vector of shrink.jsonl, text byte for byte and
 * tier, from JSON text and from a JsonValue tree; createEnvelope/createEnvelopeJson with
 * maxPayloadBytes; bad input (not JSON, lone surrogates in a Kotlin String, huge depth) gives
 * ContractException or a result, never a JVM exception or a crash.
 */
class ShrinkTest {
    private val vectors: List<ShrinkVector> by lazy {
        val file = File(Vectors.shared, "vectors/graphmind/shrink.jsonl")
        check(file.isFile) { "shrink vectors missing: $file (set WIRECONTRACT_SHARED)" }
        file.readLines(Charsets.UTF_8).filter { it.isNotBlank() }.map { JSONObject(it) }.map {
            ShrinkVector(
                it.getString("name"), if (it.isNull("type")) null else it.getString("type"), it.getLong("max_bytes"),
                it.getString("payload_json"), it.getString("expect_json"), it.getInt("tier"),
            )
        }
    }

    private fun failure(v: ShrinkVector, got: Shrunk) =
        "${v.name}: tier ${got.tier} (want ${v.tier})\n  got  ${got.json.take(300)}\n  want ${v.expectJson.take(300)}"

    @Test
    fun `every shrink vector from JSON text, byte for byte and tier`() {
        assertEquals(233, vectors.size)
        val failures = vectors.mapNotNull { v ->
            val got = shrinkPayloadJson(v.payloadJson, v.maxBytes, v.type)
            if (got.json == v.expectJson && got.tier.toInt() == v.tier) null else failure(v, got)
        }
        assertEquals(listOf<String>(), failures)
        assertEquals(setOf(1, 2, 3, 4), vectors.map { it.tier }.toSet())
    }

    @Test
    fun `every shrink vector from a JsonValue tree, except what a tree cannot hold`() {
        // decodeJson turns a lone-surrogate escape into U+FFFD (a tree holds host strings) and
        // refuses values nested deeper than jsonValueMaxDepth() (the depth-cap vectors).
        val lone = Regex("""\\u[dD][89a-fA-F][0-9a-fA-F]{2}""")
        val trees = vectors.filter { !lone.containsMatchIn(it.payloadJson) }.mapNotNull { v ->
            try {
                v to decodeJson(v.payloadJson)
            } catch (e: ContractException.Json) {
                assertTrue(e.reason.contains("deeper than"), "${v.name}: ${e.reason}")
                null
            }
        }
        assertTrue(trees.size > 200, "${trees.size}")
        val failures = trees.mapNotNull { (v, tree) ->
            val got = shrinkPayload(tree, v.maxBytes, v.type)
            if (got.json == v.expectJson && got.tier.toInt() == v.tier) null else failure(v, got)
        }
        assertEquals(listOf<String>(), failures)
    }

    @Test
    fun `defaults are the reference's 512 KiB and no type`() {
        assertEquals(524_288L, defaultMaxPayloadBytes())
        val s = shrinkPayloadJson("""{"b":1.0,"1":1e400, "a":-0}""")
        assertEquals(Shrunk(json = """{"1":null,"b":1,"a":0}""", tier = 1L), s)
        val big = "\"" + "x".repeat(600_000) + "\""
        assertEquals(4, shrinkPayloadJson(big).tier.toInt())
    }

    private fun bigNodeFinished(chars: Int) =
        NodeFinished(nodeId = "n", output = "\"" + "é".repeat(chars) + "\"", durationMs = 2.5, status = RunStatus.OK)

    @Test
    fun `createEnvelope with maxPayloadBytes shrinks an oversize payload and the frame parses ok`() {
        val payload = bigNodeFinished(1_000_000)
        val whole = serializeEnvelope(createEnvelope(Message.NodeFinished(payload), 1L, "r", 0L))
        assertTrue(whole.length > 1_000_000)

        val envelope = createEnvelope(Message.NodeFinished(payload), 1L, "r", 0L, maxPayloadBytes = defaultMaxPayloadBytes())
        val frame = serializeEnvelope(envelope)
        assertTrue(frame.toByteArray().size < 524_288, "${frame.toByteArray().size}")
        val parsed = parseEnvelopeJson(frame)
        assertTrue(parsed is ParseResult.Ok, parsed.kind)
        val shrunk = ((parsed as ParseResult.Ok).envelope.message as Message.NodeFinished).payload
        val output = checkNotNull(shrunk.output)
        assertTrue(output.endsWith("…[graphmind: truncated]\""), output.takeLast(40))
        assertTrue(shrunk.extraJson.startsWith("""{"__graphmindTruncated":true,"bytes":"""), shrunk.extraJson.take(80))
        assertEquals(envelope, parsed.envelope)

        // The JSON form takes the same route, and agrees with shrinkPayloadJson's text.
        val payloadJson = """{"nodeId":"n","output":"${"é".repeat(1_000_000)}","durationMs":2.5,"status":"ok"}"""
        val fromJson = createEnvelopeJson("node.finished", payloadJson, 1L, "r", 0L, maxPayloadBytes = 524_288L)
        assertEquals(envelope, fromJson)
        val reference = shrinkPayloadJson(payloadJson, 524_288L, "node.finished")
        assertEquals(2, reference.tier.toInt())
        assertEquals("""{"gm":1,"seq":1,"ts":0,"runId":"r","type":"node.finished","payload":${reference.json}}""", serializeEnvelope(fromJson))

        // Within budget nothing changes.
        val small = createEnvelope(Message.NodeFinished(bigNodeFinished(10)), 1L, "r", 0L, maxPayloadBytes = 524_288L)
        assertEquals(createEnvelope(Message.NodeFinished(bigNodeFinished(10)), 1L, "r", 0L), small)
    }

    @Test
    fun `only the tier-4 marker fitting a known type is a build error`() {
        val invalid = """{"nodeId":"n","durationMs":-1,"status":"ok","output":"${"a".repeat(100)}"}"""
        val e = assertThrows<ContractException.Build> { createEnvelopeJson("node.finished", invalid, 1L, "r", 0L, maxPayloadBytes = 60L) }
        assertTrue(e.reason.contains("only the whole-payload marker"), e.reason)
        assertEquals(listOf("payload"), e.issues.map { it.dottedPath() })
        assertEquals(4, shrinkPayloadJson(invalid, 60L, "node.finished").tier.toInt())
    }

    @Test
    fun `bad input is a ContractException, never a JVM exception`() {
        assertThrows<ContractException.Json> { shrinkPayloadJson("{") }
        assertThrows<ContractException.Json> { shrinkPayloadJson("") }
        assertThrows<ContractException.Json> { shrinkPayloadJson("[1] [2]") }
        // Lone surrogates in a Kotlin String: refused by Rust (the text crosses marked), with the index.
        val lone = assertThrows<ContractException.Json> { shrinkPayloadJson("\"ab\uD800\"") }
        assertTrue(lone.reason.contains("lone surrogate at UTF-16 index 3"), lone.reason)
        assertThrows<ContractException.Json> { shrinkPayloadJson("\"\uDC00\uD800\"") }
        assertThrows<ContractException.Json> { shrinkPayloadJson("\"x\uD83D\"") }
        assertThrows<ContractException.Build> { shrinkPayloadJson("{}", 10L, "node.\uD800") }
        assertThrows<ContractException.Json> { shrinkPayload(JsonValue.TextValue("\uDFFF")) }
        val member = JsonValue.ObjectValue(listOf(JsonMember(name = "\uD800", value = JsonValue.NullValue)))
        assertThrows<ContractException.Json> { shrinkPayload(member) }
        assertThrows<ContractException.Json> { shrinkPayload(JsonValue.NumberValue("NaN")) }
        // The builder names its argument (a Build error, as for every builder argument).
        val arg = assertThrows<ContractException.Build> { createEnvelopeJson("node.finished", "\"\uD800\"", 1L, "r", maxPayloadBytes = 10L) }
        assertEquals(listOf("payloadJson"), arg.issues.map { it.dottedPath() })
        // A surrogate pair is a character, and escapes of lone surrogates are JSON.
        assertEquals("\"\uD83D\uDE00\"", shrinkPayloadJson("\"\uD83D\uDE00\"").json)
        assertEquals("\"\\ud800\"", shrinkPayloadJson("\"\\uD800\"").json)
    }

    @Test
    fun `a 1,000,000-deep payload shrinks on a 256 KiB thread`() {
        val depth = 1_000_000
        val payload = """{"nodeId":"n","output":${"[".repeat(depth)}${"]".repeat(depth)},"durationMs":1,"status":"ok"}"""
        val s = onSmallStack { shrinkPayloadJson(payload, 4096L, "node.finished") }
        assertEquals(2, s.tier.toInt())
        assertTrue(s.json.startsWith("""{"nodeId":"n","output":[],"durationMs":1,"status":"ok","__graphmindTruncated":true"""), s.json.take(120))
        val whole = onSmallStack { shrinkPayloadJson("[".repeat(depth) + "]".repeat(depth), 10_000_000L) }
        assertEquals(1, whole.tier.toInt())
        assertEquals(2 * depth, whole.json.length)
    }
}
