package dev.wirecontract.graphmind

import org.json.JSONArray
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.MethodSource
import java.io.File
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * Issue 37, the adapter core on the JVM host: each scenario of
 * `vectors/graphmind/adapter-core/scenarios.json` (redaction, token batching, the loop-guard
 * environment) played through [SessionHost]'s public API against `wirecontract listen` on
 * loopback (`--break none --on-pause continue`: it acks with no breakpoints, continues every
 * pause and records both directions) puts the same frames on the wire as the real
 * `graphmind-ai` 0.5.1 client did in the recording next to it. The host is configured as an
 * adapter author would: the scenario's variables, under the real clients' names, as the
 * environment map the core reads (`AppSessionConfig.env`; without it the host passes
 * `System.getenv()`). The scenario code holds no protocol rule. Normalized as
 * `bindings/python/tests/adapter_core_scenarios.py` and `contract/tests/integration/session_adapter_core.rs`
 * do: run ids, pause ids, durations, `heldMs`, the loop fingerprint and loop seqs. The same
 * settings as host config fields give the same frames; the kill switch in the map beats
 * `enabled = true`.
 */
@Timeout(60)
class AdapterCoreTest {
    /** Generous deadlines: a busy CI machine must not turn a slow first connect into a 10 s retry. */
    private val config =
        AppSessionConfig(app = "adapter-core", sdkName = "adapter-core", sdkVersion = "1", connectTimeoutMs = 5000L, handshakeTimeoutMs = 5000L)

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    fun ourHostMatchesTheRealClient(name: String, @TempDir dir: Path) {
        val expected = normalize(recording(name))
        assertTrue(expected.length() > 0, "the recording holds frames")
        val ours = normalize(play(name, scenarios().getJSONObject(name), dir))
        assertTrue(ours.similar(expected), "$name: ours\n${ours.toString(1)}\nexpected\n${expected.toString(1)}")
    }

    /**
     * The same scenarios configured in code instead (an adapter that sets the host's config
     * fields, under no environment): the same frames.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    fun hostConfigGivesTheSameFrames(name: String, @TempDir dir: Path) {
        val inCode = config.copy(env = emptyMap())
        val configured = when (name) {
            "redact-tool-args" -> inCode.copy(hideToolArgs = true)
            "redact-tool-results" -> inCode.copy(hideToolResults = true)
            "redact-inputs-outputs" -> inCode.copy(hideInputs = true, hideOutputs = true)
            "loop-guard-env" -> inCode.copy(loopThreshold = 2L, loopAllow = listOf("poll", "tool:other"))
            else -> inCode
        }
        val expected = normalize(recording(name))
        val ours = normalize(play(name, scenarios().getJSONObject(name), dir, configured))
        assertTrue(ours.similar(expected), "$name: ours\n${ours.toString(1)}\nexpected\n${expected.toString(1)}")
    }

    /** `GRAPHMIND_DISABLED` in the environment map beats `enabled = true`: nothing connects or goes out, gates continue. */
    @Test
    fun theKillSwitchBeatsAnExplicitEnabled() {
        SessionHost("ws://127.0.0.1:9/ingest", config.copy(env = mapOf("GRAPHMIND_DISABLED" to "1"), enabled = true)).use { host ->
            assertFalse(host.ready(100L).get(5, TimeUnit.SECONDS))
            host.run("off") { run ->
                assertNull(run.emit(Message.NodeStarted(NodeStarted(nodeId = "tool:t", kind = NodeKind.TOOL, name = "t", instanceId = "i1"))))
                assertEquals(Decision.Continue, run.gate(PausePoint.BEFORE, GateNode("tool:t", NodeKind.TOOL, "t")).get(1, TimeUnit.SECONDS))
            }
            assertEquals(emptyList<String>(), host.core.bufferedFrames())
        }
    }

    @Test
    fun everyScenarioIsPlayed() {
        assertEquals(setOf("redact-tool-args", "redact-tool-results", "redact-inputs-outputs", "tokens-batch", "loop-guard-env"), scenarios().keySet())
    }

    /**
     * Scenario [name] through the host's public API, configured by [configured] or else by the
     * scenario's environment map; the listener's record (`{dir, frame}` rows).
     */
    private fun play(name: String, scenario: JSONObject, dir: Path, configured: AppSessionConfig? = null): List<JSONObject> =
        SessionHostTest.Listener(dir, "--break", "none", "--on-pause", "continue").use { listener ->
            val vars = scenario.getJSONObject("env")
            val env = vars.keySet().associateWith { vars.getString(it) }
            SessionHost(listener.url, configured ?: config.copy(env = env)).use { host ->
                assertTrue(host.ready().get(10, TimeUnit.SECONDS), "our host did not attach")
                host.run(name) { run ->
                    val steps = scenario.getJSONArray("steps")
                    for (i in 0 until steps.length()) {
                        val step = steps.getJSONArray(i)
                        when (step.getString(0)) {
                            "start" -> run.emit(
                                Message.NodeStarted(
                                    NodeStarted(
                                        nodeId = step.getString(1),
                                        kind = kind(step.getString(2)),
                                        name = step.getString(3),
                                        instanceId = step.getString(4),
                                        input = jsonText(step, 5),
                                    ),
                                ),
                            )
                            "token" -> run.pushToken(step.getString(1), step.getString(2), step.getString(3))
                            "gate" -> {
                                val node = GateNode(step.getString(1), kind(step.getString(2)), step.getString(3))
                                assertEquals(Decision.Continue, run.gate(PausePoint.BEFORE, node).get(10, TimeUnit.SECONDS))
                            }
                            "finish" -> run.emit(
                                Message.NodeFinished(
                                    NodeFinished(nodeId = step.getString(1), instanceId = step.getString(2), output = jsonText(step, 3), durationMs = 1.0, status = RunStatus.OK),
                                ),
                            )
                            else -> error("unknown step $step")
                        }
                    }
                }
            }
            assertEquals(0, listener.waitExit(), listener.output())
            listener.frames()
        }

    companion object {
        private val data = File(Vectors.repo, "vectors/graphmind/adapter-core")

        fun scenarios() = JSONObject(File(data, "scenarios.json").readText())

        @JvmStatic
        fun names(): List<String> = scenarios().keySet().sorted()

        fun recording(name: String): List<JSONObject> =
            File(data, "$name.jsonl").readLines().filter { it.isNotBlank() }.map { JSONObject(it) }

        private fun kind(wire: String): NodeKind = NodeKind.entries.single { it.name.lowercase() == wire }

        /** Member [i] of [step] as JSON text; JSON `null` there means absent. */
        private fun jsonText(step: JSONArray, i: Int): String? = if (step.isNull(i)) null else JSONObject.valueToString(step.get(i))

        private val VOLATILE = setOf("durationMs", "heldMs", "fingerprint", "pauseId", "firstSeq", "lastSeq")

        /** The app's frames after the handshake as `{type, runId, payload}`, volatile members replaced (the Python `normalize`). */
        fun normalize(log: List<JSONObject>): JSONArray {
            val runs = LinkedHashMap<String, String>()
            val out = JSONArray()
            for (entry in log) {
                if (entry.getString("dir") != "app->viewer") continue
                val frame = JSONObject(entry.getString("frame"))
                if (frame.getString("type") == "hello") continue
                val runId = frame.getString("runId")
                val placeholder = runs.getOrPut(runId) { "<run${runs.size}>" }
                out.put(JSONObject().put("type", frame.getString("type")).put("runId", placeholder).put("payload", scrub(frame.get("payload"), runId, placeholder)))
            }
            return out
        }

        private fun scrub(value: Any, runId: String, placeholder: String): Any = when (value) {
            is JSONObject -> JSONObject().also { out ->
                for (k in value.keySet()) {
                    val v = value.get(k)
                    out.put(k, if (k in VOLATILE) "<$k>" else if (v == runId) placeholder else scrub(v, runId, placeholder))
                }
            }
            is JSONArray -> JSONArray().also { out -> for (i in 0 until value.length()) out.put(scrub(value.get(i), runId, placeholder)) }
            else -> value
        }
    }
}
