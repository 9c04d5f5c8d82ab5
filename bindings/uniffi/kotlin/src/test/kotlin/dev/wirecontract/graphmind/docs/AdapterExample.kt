// Quoted by docs/session.md ("Kotlin"); compiled by the Maven build and run against
// `wirecontract listen` by SessionHostTest.docsAdapterRuns.
package dev.wirecontract.graphmind.docs

import dev.wirecontract.graphmind.*
import java.util.concurrent.TimeUnit

fun weatherAgent(url: String, fetch: (String) -> String) {
    SessionHost(url, AppSessionConfig(app = "weather-agent")).use { gm ->
        gm.ready().get(2, TimeUnit.SECONDS)                           // optional: wait for a viewer
        gm.run("weather") { run ->                                    // finishes ok, or error/aborted with what it throws
            val llm = GateNode("llm:planner", NodeKind.LLM, "planner", "llm_1")
            run.emit(Message.NodeStarted(NodeStarted(nodeId = llm.nodeId, kind = llm.kind, name = llm.name, instanceId = "llm_1")))
            if (run.gate(PausePoint.BEFORE, llm).get() is Decision.Abort) throw RunAbortedException(run.runId)
            val deltas = listOf(TokenDelta(TokenChannel.TEXT, "Checking "), TokenDelta(TokenChannel.TEXT, "Paris"))
            run.emit(Message.NodeToken(NodeToken(nodeId = llm.nodeId, deltas = deltas)))
            run.emit(Message.NodeFinished(NodeFinished(nodeId = llm.nodeId, instanceId = "llm_1", durationMs = 12.0, status = RunStatus.OK)))

            val tool = GateNode("tool:get_weather", NodeKind.TOOL, "get_weather", "call_1")
            run.emit(Message.NodeStarted(NodeStarted(nodeId = tool.nodeId, kind = tool.kind, name = tool.name, instanceId = "call_1", input = """{"city":"Paris"}""")))
            var output: String? = null
            while (output == null) {                                   // a retry at after/error runs the body again
                when (val d = run.gate(PausePoint.BEFORE, tool).get()) {
                    is Decision.Abort -> throw RunAbortedException(run.runId)
                    is Decision.Inject -> { output = d.outputJson ?: "null"; break }
                    else -> {}
                }
                val result = try { fetch("Paris") } catch (e: Exception) {
                    run.emit(Message.NodeError(NodeError(nodeId = tool.nodeId, instanceId = "call_1", error = ErrorInfo(name = "FetchError", message = e.message ?: ""))))
                    when (val d = run.gate(PausePoint.ERROR, tool).get()) {
                        is Decision.Inject -> { output = d.outputJson ?: "null"; break }
                        is Decision.Retry -> continue
                        is Decision.Abort -> throw RunAbortedException(run.runId)
                        else -> throw e
                    }
                }
                when (val d = run.gate(PausePoint.AFTER, tool).get()) {
                    is Decision.Inject -> output = d.outputJson ?: "null"
                    is Decision.Abort -> throw RunAbortedException(run.runId)
                    is Decision.Retry -> continue
                    else -> output = result
                }
            }
            run.emit(Message.NodeFinished(NodeFinished(nodeId = tool.nodeId, instanceId = "call_1", output = output, durationMs = 3.0, status = RunStatus.OK)))
        }
    }
}
