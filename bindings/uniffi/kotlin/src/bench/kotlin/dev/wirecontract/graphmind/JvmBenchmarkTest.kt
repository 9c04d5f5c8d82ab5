package dev.wirecontract.graphmind

import com.fasterxml.jackson.annotation.JsonInclude
import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import com.networknt.schema.SchemaRegistry
import com.networknt.schema.SpecificationVersion
import dev.wirecontract.graphmind.jvm.BreakpointMatcher
import dev.wirecontract.graphmind.jvm.Breakpoints
import dev.wirecontract.graphmind.jvm.GraphMind
import dev.wirecontract.graphmind.jvm.JsonWriter
import dev.wirecontract.graphmind.jvm.Verdict
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.condition.EnabledIfSystemProperty
import java.io.File
import dev.wirecontract.graphmind.jvm.NodeKind as JNodeKind
import dev.wirecontract.graphmind.jvm.PausePoint as JPausePoint
import dev.wirecontract.graphmind.jvm.RunMode as JRunMode

/** Jackson's side of the build row: the envelope and `node.token` payload as data classes. */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class JacksonEnvelope<P>(val gm: Int, val seq: Long, val ts: Long, val runId: String, val type: String, val payload: P)

/** A token delta as a Jackson data class. */
data class JacksonTokenDelta(val t: String, val v: String)

/** The `node.token` payload as a Jackson data class. */
data class JacksonNodeToken(val nodeId: String, val deltas: List<JacksonTokenDelta>)

/** Jackson's side of the parse row: any envelope, the payload as a tree. */
data class JacksonFrame(val gm: Int, val seq: Long, val ts: Long, val runId: String, val type: String, val payload: JsonNode?)

/**
 * The four JVM rows of issue 13, one JVM run, frames in memory as UTF-8 byte arrays, single
 * thread, interleaved passes after warm-up; best and median pass of each side. Writes
 * `kotlin-jvm-<corpus>.json` for `benches/report.py`:
 * - build+serialize every `node.token` of the corpus (its `nodeId`, deltas, `runId`, `seq`,
 *   `ts` taken out beforehand): `JsonWriter` payload + `GraphMind.build` against Jackson
 *   `writeValueAsBytes` of data classes;
 * - parse every frame, one call a frame (`type`, `seq`, `runId` read from each accepted frame)
 *   against Jackson `readValue` into a data class (payload as a tree), and against Jackson 3
 *   `readTree` + networknt json-schema-validator over the published schema;
 * - `Breakpoints.shouldPause` with one matcher over a mix of gates (plain Kotlin, no FFI);
 * - the typed API of the README (uniffi's records over JNI): `createEnvelope(Message.NodeToken(…))`
 *   + `serializeEnvelope` of every `node.token` against the same Jackson build, and
 *   `parseEnvelopeJsonBytes` of every frame (`seq`, type and `runId` read from the typed
 *   envelope) against the same Jackson parse.
 */
@EnabledIfSystemProperty(named = "wirecontract.bench.corpus", matches = ".+")
class JvmBenchmarkTest {
    private val corpus = File(System.getProperty("wirecontract.bench.corpus"))
    private val rounds = maxOf(3, (System.getProperty("wirecontract.bench.rounds") ?: "5").toInt())
    private val repo = File(System.getProperty("wirecontract.repo") ?: "../../../..")
    private val warmupSeconds = (System.getProperty("wirecontract.bench.warmup") ?: "2").toDouble()
    private val minOps = (System.getProperty("wirecontract.bench.minops") ?: "100000").toInt()
    private val mapper: ObjectMapper = jacksonObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)

    private class Token(val seq: Long, val ts: Long, val runId: String, val nodeId: String, val deltas: List<Pair<String, String>>)

    private fun frames(): List<ByteArray> {
        val data = corpus.readBytes()
        val out = ArrayList<ByteArray>()
        var start = 0
        for (i in data.indices) {
            if (data[i] == '\n'.code.toByte()) {
                out.add(data.copyOfRange(start, i))
                start = i + 1
            }
        }
        return out
    }

    /**
     * Times each of [runs] (one pass over its inputs) in `rounds` interleaved passes, after a
     * warm-up of at least [warmupSeconds] per run so that the JIT has compiled every path; a
     * timed pass repeats the inputs `reps[name]` times so that it lasts long enough to time
     * (the smoke corpus is small). Seconds per single pass.
     */
    private fun measure(runs: Map<String, () -> Long>, reps: Map<String, Int>): Map<String, List<Double>> {
        var sink = 0L
        for ((_, run) in runs) {
            val until = System.nanoTime() + (warmupSeconds * 1e9).toLong()
            do { sink += run() } while (System.nanoTime() < until)
        }
        val times = runs.keys.associateWith { mutableListOf<Double>() }
        repeat(rounds) {
            for ((name, run) in runs) {
                System.gc()
                val r = reps[name] ?: 1
                val t = System.nanoTime()
                repeat(r) { sink += run() }
                times[name]!!.add((System.nanoTime() - t) / 1e9 / r)
            }
        }
        if (sink == 42L) println("sink")
        return times
    }

    @Test
    fun `JVM rows against Jackson and networknt`() {
        val frames = frames()
        val tokens = frames.mapNotNull { f ->
            val p = GraphMind.parse(f)
            if (p.verdict != Verdict.OK || p.type != "node.token") return@mapNotNull null
            val node = mapper.readTree(p.payload!!.text)
            Token(p.seq, p.ts, p.runId!!, node["nodeId"].asText(), node["deltas"].map { it["t"].asText() to it["v"].asText() })
        }
        check(tokens.isNotEmpty()) { "no node.token frame in $corpus" }
        // What the build row builds must be what Jackson writes, frame for frame (same members,
        // same order; only escaping could differ, and it does not for this corpus).
        fun writer(t: Token): JsonWriter {
            val w = JsonWriter().beginObject().name("nodeId").value(t.nodeId).name("deltas").beginArray()
            for ((ch, v) in t.deltas) w.beginObject().name("t").value(ch).name("v").value(v).endObject()
            return w.endArray().endObject()
        }
        fun ours(t: Token): ByteArray = GraphMind.build("node.token", t.seq, t.runId, writer(t), t.ts)
        // The build row's two halves (docs/performance.md): the payload writer alone, and the
        // native call alone over payloads written beforehand.
        val written = tokens.map { writer(it) }
        fun jackson(t: Token): ByteArray = mapper.writeValueAsBytes(
            JacksonEnvelope(1, t.seq, t.ts, t.runId, "node.token", JacksonNodeToken(t.nodeId, t.deltas.map { JacksonTokenDelta(it.first, it.second) })),
        )
        var same = 0
        for (t in tokens) {
            val a = ours(t)
            check(GraphMind.parse(a).verdict == Verdict.OK)
            if (a.contentEquals(jackson(t))) same++
        }

        val schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(File(repo, "generated/schema/graphmind.v1.schema.json").readText())
        val mapper3 = tools.jackson.databind.ObjectMapper()
        var schemaAgree = 0
        for (f in frames) {
            val valid = try { schema.validate(mapper3.readTree(f)).isEmpty() } catch (e: tools.jackson.core.JacksonException) { false }
            val ours = GraphMind.parse(f).verdict
            if (valid == (ours == Verdict.OK || ours == Verdict.UNKNOWN_TYPE)) schemaAgree++
        }

        // The typed API's build: uniffi records, one createEnvelope and one serializeEnvelope call.
        val channels = TokenChannel.entries.associateBy { it.wireValue() }
        fun typedMessage(t: Token): Message =
            Message.NodeToken(NodeToken(t.nodeId, t.deltas.map { TokenDelta(channels.getValue(it.first), it.second) }))
        fun typed(t: Token): String = serializeEnvelope(createEnvelope(typedMessage(t), t.seq, t.runId, t.ts))
        var typedSame = 0
        for (t in tokens) {
            if (typed(t).toByteArray(Charsets.UTF_8).contentEquals(ours(t))) typedSame++
        }
        check(typedSame == tokens.size) { "typed build differs from the fast path's for ${tokens.size - typedSame} node.token" }
        fun typedParse(f: ByteArray): Long = when (val r = parseEnvelopeJsonBytes(f)) {
            is ParseResult.Ok -> r.envelope.seq + r.envelope.messageType.length + r.envelope.runId.length
            is ParseResult.UnknownType -> r.envelope.seq + r.envelope.messageType.length + r.envelope.runId.length
            else -> 1
        }
        // The typed parse and the fast path agree on every frame (same verdict, same seq, type, runId).
        for (f in frames) {
            val p = GraphMind.parse(f)
            val fast = if (p.verdict == Verdict.OK || p.verdict == Verdict.UNKNOWN_TYPE) p.seq + p.type!!.length + p.runId!!.length else 1
            check(typedParse(f) == fast) { "typed parse and fast path disagree on ${String(f, Charsets.UTF_8).take(200)}" }
        }

        val gates = JNodeKind.entries.flatMap { k -> JPausePoint.entries.flatMap { p -> listOf("search", "plan", "tool-$k").map { Triple(k, it, p) } } }
        val matchers = listOf(BreakpointMatcher(kind = JNodeKind.TOOL))
        val pauseCalls = 1_000_000

        // At least ~minOps operations per timed pass.
        val reps = mapOf("build" to tokens.size, "parse" to frames.size, "validate" to frames.size)
            .let { m -> m.mapValues { (_, n) -> maxOf(1, minOps / n) } }
        val repsByRow = mapOf(
            "build_jackson" to reps["build"]!!, "build_ours" to reps["build"]!!, "build_writer_only" to reps["build"]!!,
            "build_native_only" to reps["build"]!!, "build_typed" to reps["build"]!!, "parse_jackson" to reps["parse"]!!,
            "parse_typed" to reps["parse"]!!,
            "parse_ours" to reps["parse"]!!, "validate_networknt" to maxOf(1, reps["validate"]!! / 10), "should_pause" to 1,
        )
        val times = measure(
            linkedMapOf(
                "build_jackson" to { var n = 0L; for (t in tokens) n += jackson(t).size; n },
                "build_ours" to { var n = 0L; for (t in tokens) n += ours(t).size; n },
                "build_writer_only" to { var n = 0L; for (t in tokens) n += System.identityHashCode(writer(t)) and 1; n },
                "build_typed" to { var n = 0L; for (t in tokens) n += typed(t).length; n },
                "build_native_only" to {
                    var n = 0L
                    for (i in tokens.indices) { val t = tokens[i]; n += GraphMind.build("node.token", t.seq, t.runId, written[i], t.ts).size }
                    n
                },
                "parse_jackson" to {
                    var n = 0L
                    for (f in frames) {
                        // `null` reads as a null reference, not an exception.
                        n += try { val e: JacksonFrame? = mapper.readValue(f, JacksonFrame::class.java); if (e == null) 1 else e.seq + e.type.length + e.runId.length } catch (e: com.fasterxml.jackson.core.JacksonException) { 1 }
                    }
                    n
                },
                "parse_ours" to {
                    var n = 0L
                    for (f in frames) {
                        val p = GraphMind.parse(f)
                        n += if (p.verdict == Verdict.OK || p.verdict == Verdict.UNKNOWN_TYPE) p.seq + p.type!!.length + p.runId!!.length else 1
                    }
                    n
                },
                "parse_typed" to { var n = 0L; for (f in frames) n += typedParse(f); n },
                "validate_networknt" to {
                    var n = 0L
                    for (f in frames) {
                        n += try { schema.validate(mapper3.readTree(f)).size } catch (e: tools.jackson.core.JacksonException) { 1 }
                    }
                    n
                },
                "should_pause" to {
                    var n = 0L
                    var i = 0
                    while (i < pauseCalls) {
                        val g = gates[i % gates.size]
                        if (Breakpoints.shouldPause(JRunMode.RUN, matchers, g.first, g.second, g.third)) n++
                        i++
                    }
                    n
                },
            ),
            repsByRow,
        )
        val count = mapOf(
            "build_jackson" to tokens.size, "build_ours" to tokens.size, "build_writer_only" to tokens.size,
            "build_native_only" to tokens.size, "build_typed" to tokens.size, "parse_jackson" to frames.size,
            "parse_ours" to frames.size, "parse_typed" to frames.size,
            "validate_networknt" to frames.size, "should_pause" to pauseCalls,
        )
        val name = corpus.name.removeSuffix(".jsonl")
        val rows = times.entries.joinToString(",") { (k, v) ->
            val s = v.sorted()
            "\"$k\":{\"best\":${s.first()},\"median\":${s[s.size / 2]},\"n\":${count[k]}}"
        }
        val json = "{\"corpus\":\"$name\",\"frames\":${frames.size},\"tokens\":${tokens.size},\"rounds\":$rounds,\"rows\":{$rows}," +
            "\"build_equal_to_jackson\":$same,\"schema_agree\":$schemaAgree,\"java\":\"${System.getProperty("java.version")}\"}\n"
        val out = File(System.getProperty("wirecontract.bench.results") ?: "target/bench-results", "kotlin-jvm-$name.json")
        out.parentFile.mkdirs()
        out.writeText(json)
        for ((k, v) in times) println("jvm $name $k: best ${"%.3f".format(v.min() * 1e6 / count[k]!!)} µs/op")
        assertEquals(tokens.size, tokens.size)
    }
}
