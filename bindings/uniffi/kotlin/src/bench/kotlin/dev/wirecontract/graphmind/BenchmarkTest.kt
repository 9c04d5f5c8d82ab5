package dev.wirecontract.graphmind

import com.fasterxml.jackson.core.JacksonException
import com.fasterxml.jackson.databind.ObjectMapper
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.condition.EnabledIfSystemProperty
import java.io.File

/**
 * JVM throughput of the uniffi binding against Jackson's `ObjectMapper.readTree` (parse only),
 * single thread, frames already in memory as UTF-8 byte arrays, best of interleaved rounds
 * after warm-up. Run by `scripts/bench` through the `bench` Maven profile (release library);
 * writes `target/bench-results/kotlin-<corpus>.json`. Every verdict is first checked against
 * the corpus labels (the generator's `seq: -1` unknown-type label error counted apart).
 */
@EnabledIfSystemProperty(named = "wirecontract.bench.corpus", matches = ".+")
class BenchmarkTest {
    private val corpus = File(System.getProperty("wirecontract.bench.corpus"))
    private val rounds = (System.getProperty("wirecontract.bench.rounds") ?: "5").toInt()
    private val mapper = ObjectMapper()

    private fun kindLabel(r: ParseResult): Char = when (r) {
        is ParseResult.Ok -> 'o'
        is ParseResult.UnknownType -> 'u'
        is ParseResult.VersionMismatch -> 'v'
        is ParseResult.Invalid -> 'i'
    }

    /** Label `u`, verdict invalid, and the frame is an unknown-type envelope once `seq` is 0. */
    private fun isSeqLabelError(frame: ByteArray): Boolean {
        val node = try { mapper.readTree(frame) } catch (e: JacksonException) { return false }
        if (!node.isObject || node.get("seq")?.isIntegralNumber != true || node.get("seq").asLong() != -1L) return false
        (node as com.fasterxml.jackson.databind.node.ObjectNode).put("seq", 0)
        return parseEnvelopeJsonBytes(mapper.writeValueAsBytes(node)) is ParseResult.UnknownType
    }

    @Test
    fun `throughput against Jackson readTree`() {
        val data = corpus.readBytes()
        val frames = ArrayList<ByteArray>()
        var start = 0
        for (i in data.indices) {
            if (data[i] == '\n'.code.toByte()) {
                frames.add(data.copyOfRange(start, i))
                start = i + 1
            }
        }
        val labels = File(corpus.path + ".labels").readText()
        assertEquals(labels.length, frames.size, "frame and label counts")
        val bytes = frames.sumOf { it.size.toLong() }

        var agree = 0
        var labelErrors = 0
        var disagree = 0
        frames.forEachIndexed { i, f ->
            val got = kindLabel(parseEnvelopeJsonBytes(f))
            when {
                got == labels[i] -> agree++
                labels[i] == 'u' && got == 'i' && isSeqLabelError(f) -> labelErrors++
                else -> disagree++
            }
        }
        assertEquals(0, disagree, "verdicts that disagree with the labels")

        var sink = 0L
        val runs = linkedMapOf<String, () -> Unit>(
            "jackson_readtree" to {
                for (f in frames) {
                    try { sink += mapper.readTree(f).size() } catch (e: JacksonException) { sink++ }
                }
            },
            "uniffi_single" to {
                for (f in frames) sink += kindLabel(parseEnvelopeJsonBytes(f)).code
            },
            "uniffi_batch256" to {
                var i = 0
                while (i < frames.size) {
                    val chunk = frames.subList(i, minOf(i + 256, frames.size)).map { it }
                    for (r in parseEnvelopesJsonBytes(chunk)) sink += kindLabel(r).code
                    i += 256
                }
            },
        )
        val best = runs.keys.associateWith { Double.MAX_VALUE }.toMutableMap()
        repeat(2) { runs.values.forEach { it() } } // JIT warm-up
        repeat(rounds) {
            for ((name, run) in runs) {
                System.gc()
                val t = System.nanoTime()
                run()
                best[name] = minOf(best[name]!!, (System.nanoTime() - t) / 1e9)
            }
        }
        val name = corpus.name.removeSuffix(".jsonl")
        val rows = best.entries.joinToString(",") { (k, v) -> "\"$k\":$v" }
        val json = "{\"corpus\":\"$name\",\"frames\":${frames.size},\"bytes\":$bytes,\"rows\":{$rows}," +
            "\"agreement\":{\"agree\":$agree,\"label_errors\":$labelErrors,\"disagree\":$disagree},\"sink\":${sink % 2}}\n"
        val out = File(System.getProperty("wirecontract.bench.results") ?: "target/bench-results", "kotlin-$name.json")
        out.parentFile.mkdirs()
        out.writeText(json)
        for ((k, v) in best) println("kotlin $name $k: ${"%.0f".format(frames.size / v)} frames/s")
    }
}
