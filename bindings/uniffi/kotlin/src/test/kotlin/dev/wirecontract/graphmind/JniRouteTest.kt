package dev.wirecontract.graphmind

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.io.File
import java.util.concurrent.Callable
import java.util.concurrent.Executors

/**
 * The typed API's hot functions cross through JNI (`bindings/uniffi/src/jni/calls.rs`, bodies
 * written by `scripts/generators/kotlin_jni_calls.py`): every routed function's body calls its
 * JNI entry and no longer its JNA one, the declared error crosses with its issues, and calls
 * from many threads at once each get their own answer.
 */
class JniRouteTest {
    private val kotlin = File(Vectors.repo, "generated/kotlin/dev/wirecontract/graphmind/wirecontract_uniffi.kt").readText()
    private val calls = File(Vectors.repo, "generated/kotlin/dev/wirecontract/graphmind/jni_calls.kt").readText()
    private val rust = File(Vectors.repo, "bindings/uniffi/src/jni/calls.rs").readText()

    private fun snake(name: String) = name.replace(Regex("[A-Z]")) { "_" + it.value.lowercase() }

    @Test
    fun `every JNI entry point is the body of the uniffi function of its name`() {
        val routed = Regex("""external fun (\w+)\(args: ByteArray, length: Int\): ByteArray""").findAll(calls).map { it.groupValues[1] }.toList()
        val exported = Regex("""\bJava_dev_wirecontract_graphmind_JniCalls_(\w+)\b""").findAll(rust).map { it.groupValues[1] }.toSet()
        assertEquals(exported, routed.toSet(), "JniCalls declares exactly the entry points calls.rs exports")
        assertTrue(routed.containsAll(listOf("parseEnvelopeJson", "parseEnvelopeJsonBytes", "createEnvelope", "serializeEnvelope")), routed.toString())
        for (name in routed) {
            val start = Regex("""fun `$name`\(""").findAll(kotlin).single().range.last
            val body = kotlin.substring(start, kotlin.indexOf("\n    }\n", start))
            assertTrue(body.contains("JniCalls.$name(uniffiArgs.array(), uniffiArgs.position())"), "$name: $body")
            assertTrue(!body.contains("uniffi_wirecontract_uniffi_fn_func_${snake(name)}("), "$name still calls JNA: $body")
        }
    }

    @Test
    fun `a declared error crosses with its reason and issues`() {
        val e = assertThrows<ContractException.Build> {
            createEnvelope(Message.ModeSet(ModeSet(RunMode.STEP)), seq = -1, runId = "r")
        }
        assertEquals(listOf("seq"), e.issues.map { it.dottedPath() })
        val env = createEnvelope(Message.ModeSet(ModeSet(RunMode.STEP)), seq = 1, runId = "r", ts = 2)
        val bad = assertThrows<ContractException.Build> { serializeEnvelope(env.copy(extraJson = """{"seq":3}""")) }
        assertTrue(bad.issues.single().dottedPath() == "seq", bad.issues.toString())
        val json = assertThrows<ContractException.Build> { createEnvelopeJson("mode.set", "{nope", seq = 1, runId = "r") }
        assertTrue(json.reason.isNotEmpty(), json.toString())
    }

    @Test
    fun `calls from many threads at once each get their own answer`() {
        val pool = Executors.newFixedThreadPool(8)
        try {
            val jobs = (0 until 8).map { worker ->
                Callable {
                    for (i in 0 until 500) {
                        val runId = "run-$worker-$i"
                        val message = Message.NodeToken(NodeToken("n$i", listOf(TokenDelta(TokenChannel.TEXT, "t$worker/$i"))))
                        val text = serializeEnvelope(createEnvelope(message, seq = i.toLong(), runId = runId, ts = worker.toLong()))
                        val back = (parseEnvelopeJson(text) as ParseResult.Ok).envelope
                        check(back.runId == runId && back.seq == i.toLong() && back.ts == worker.toLong()) { "$worker/$i: $back" }
                        val token = (back.message as Message.NodeToken).payload
                        check(token.deltas.single().v == "t$worker/$i") { "$worker/$i: $token" }
                        val bytes = parseEnvelopesJsonBytes(listOf(text.toByteArray(), "{".toByteArray()))
                        check(bytes[0] is ParseResult.Ok && bytes[1] is ParseResult.Invalid) { "$worker/$i: $bytes" }
                    }
                    worker
                }
            }
            assertEquals((0 until 8).toList(), pool.invokeAll(jobs).map { it.get() })
        } finally {
            pool.shutdown()
        }
    }
}
