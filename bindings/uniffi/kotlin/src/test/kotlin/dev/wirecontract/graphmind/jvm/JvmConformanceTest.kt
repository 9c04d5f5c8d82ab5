package dev.wirecontract.graphmind.jvm

import dev.wirecontract.graphmind.Message
import dev.wirecontract.graphmind.ParseResult
import dev.wirecontract.graphmind.Vectors
import dev.wirecontract.graphmind.envelopeOrNull
import dev.wirecontract.graphmind.kind
import dev.wirecontract.graphmind.matchersEqual
import dev.wirecontract.graphmind.parseEnvelopeJson
import dev.wirecontract.graphmind.serializeEnvelope
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import dev.wirecontract.graphmind.BreakpointMatcher as UMatcher
import dev.wirecontract.graphmind.pauseReason as corePauseReason

/**
 * The JVM fast path against every vector (shared conformance, extra, real-client captures):
 * the JNI parse's verdict, type and envelope fields agree with the vector and with the full
 * uniffi parse; rebuilding an accepted frame gives the core's serialization; the generated
 * matcher equality, hash and pause decision agree with the core for every matcher found in
 * the vectors, over every gate and mode.
 */
class JvmConformanceTest {
    @Test
    fun `every vector parses to its verdict, with the core's envelope fields`() {
        var rebuilt = 0
        for (v in Vectors.all) {
            val frame = GraphMind.parse(v.frame)
            assertEquals(v.expect, frame.verdict.wire, v.id)
            val full = parseEnvelopeJson(v.frame)
            assertEquals(full.kind, frame.verdict.wire, v.id)
            val env = full.envelopeOrNull
            if (env == null) {
                if (full is ParseResult.VersionMismatch) assertEquals(full.received, frame.gmReceived, v.id)
                continue
            }
            if (v.type != null) assertEquals(v.type, frame.type, v.id)
            assertEquals(env.messageType, frame.type, v.id)
            assertEquals(env.seq, frame.seq, v.id)
            assertEquals(env.ts, frame.ts, v.id)
            assertEquals(env.runId, frame.runId, v.id)
            assertEquals(MessageTypes.ALL.indexOf(env.messageType), frame.typeIndex, v.id)
            val payload = frame.payload ?: continue
            if (env.extraJson != "{}") continue
            // Rebuilt from the fast path's fields: the core's own serialization, byte for byte.
            val again = GraphMind.buildString(frame.type!!, frame.seq, frame.runId!!, payload, frame.ts)
            assertEquals(serializeEnvelope(env), again, v.id)
            assertEquals(frame.verdict, GraphMind.parse(again).verdict, v.id)
            rebuilt++
        }
        assertTrue(rebuilt > 300, "only $rebuilt frames rebuilt")
    }

    private fun convert(m: UMatcher) = BreakpointMatcher(
        m.kind?.let { NodeKind.valueOf(it.name) },
        m.name,
        m.point?.let { PausePoint.valueOf(it.name) },
    )

    private fun matchersIn(message: Message): List<UMatcher> = when (message) {
        is Message.BreakpointSet -> listOf(message.payload.matcher)
        is Message.BreakpointClear -> listOf(message.payload.matcher)
        is Message.HelloAck -> message.payload.breakpoints
        else -> emptyList()
    }

    @Test
    fun `generated matching agrees with the core on every matcher of the vectors`() {
        val found = LinkedHashSet<UMatcher>()
        for (v in Vectors.all) {
            val env = (parseEnvelopeJson(v.frame) as? ParseResult.Ok)?.envelope ?: continue
            found += matchersIn(env.message).map { it.copy(extraJson = "{}") }
        }
        // The spec's corner cases beside them: empty, absent vs explicit point, name only.
        found += UMatcher()
        found += UMatcher(point = dev.wirecontract.graphmind.PausePoint.BEFORE)
        found += UMatcher(kind = dev.wirecontract.graphmind.NodeKind.TOOL)
        found += UMatcher(kind = dev.wirecontract.graphmind.NodeKind.TOOL, point = dev.wirecontract.graphmind.PausePoint.BEFORE)
        found += UMatcher(name = "search", point = dev.wirecontract.graphmind.PausePoint.ERROR)
        assertTrue(found.size >= 8, "matchers found: ${found.size}")
        val list = found.toList()
        for (a in list) for (b in list) {
            val same = matchersEqual(a, b)
            assertEquals(same, convert(a) == convert(b), "$a vs $b")
            if (same) assertEquals(convert(a).hashCode(), convert(b).hashCode(), "$a vs $b")
        }
        val names = list.mapNotNull { it.name }.toSet() + "other"
        var gates = 0
        for (mode in dev.wirecontract.graphmind.RunMode.entries) for (k in dev.wirecontract.graphmind.NodeKind.entries)
            for (p in dev.wirecontract.graphmind.PausePoint.entries) for (n in names) for (subset in listOf(list, list.take(1), emptyList())) {
                val core = corePauseReason(mode, subset, k, n, p)?.name
                val ours = Breakpoints.pauseReason(RunMode.valueOf(mode.name), subset.map(::convert), NodeKind.valueOf(k.name), n, PausePoint.valueOf(p.name))?.name
                assertEquals(core, ours, "$mode $k $n $p $subset")
                gates++
            }
        assertTrue(gates > 100)
    }

    @Test
    fun `generated enums carry every wire value and match the uniffi enums`() {
        fun <E : Enum<E>> names(e: Array<E>) = e.map { it.name }
        assertEquals(names(dev.wirecontract.graphmind.NodeKind.values()), names(NodeKind.values()))
        assertEquals(names(dev.wirecontract.graphmind.PausePoint.values()), names(PausePoint.values()))
        assertEquals(names(dev.wirecontract.graphmind.RunMode.values()), names(RunMode.values()))
        assertEquals(names(dev.wirecontract.graphmind.ResumeAction.values()), names(ResumeAction.values()))
        assertEquals(names(dev.wirecontract.graphmind.TokenChannel.values()), names(TokenChannel.values()))
        assertEquals(names(dev.wirecontract.graphmind.PauseReason.values()), names(PauseReason.values()))
        for (k in NodeKind.values()) assertEquals(k, NodeKind.fromWire(k.wire))
        for (k in TokenChannel.values()) assertEquals(k, TokenChannel.fromWire(k.wire))
        assertEquals(TokenChannel.TOOL_ARGS, TokenChannel.fromWire("tool-args"))
        assertEquals(null, NodeKind.fromWire("Tool"))
        assertEquals(dev.wirecontract.graphmind.messageTypes(), MessageTypes.ALL)
    }
}
