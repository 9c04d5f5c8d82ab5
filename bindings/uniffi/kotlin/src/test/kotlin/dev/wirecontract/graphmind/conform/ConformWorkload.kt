// The `wirecontract conform` workload (docs/conform.md) on the Kotlin SessionHost: one run
// named $WIRECONTRACT_CONFORM_RUN, an agent node around a tool call (before, after and error
// gates, session spec §3.7) and an LLM call streaming tokens (before and after gates). The
// scenario ($WIRECONTRACT_CONFORM_SCENARIO) changes only what the contract says (in rearm the
// run is played twice). Compiled by
// the Maven test build and run by ConformTest (`wirecontract conform -- java … ConformWorkloadKt`);
// exits 0 whatever the run's outcome.
package dev.wirecontract.graphmind.conform

import dev.wirecontract.graphmind.*
import java.util.concurrent.TimeUnit

private val scenario: String = System.getenv("WIRECONTRACT_CONFORM_SCENARIO") ?: error("WIRECONTRACT_CONFORM_SCENARIO is not set")
private val runName: String = System.getenv("WIRECONTRACT_CONFORM_RUN") ?: "conform-$scenario"

private class PlannedFailure : RuntimeException("conform: the first attempt fails")

private val agentNode = GateNode("agent:conform", NodeKind.AGENT, "conform", "agent_1")
private val toolNode = GateNode("tool:get_weather", NodeKind.TOOL, "get_weather", "call_1")
private val llmNode = GateNode("llm:planner", NodeKind.LLM, "planner", "llm_1")

private fun SessionHost.Run.started(node: GateNode, parent: String?, input: String? = null) {
    emit(Message.NodeStarted(NodeStarted(nodeId = node.nodeId, parentId = parent, kind = node.kind, name = node.name, instanceId = node.instanceId!!, input = input)))
}

private fun SessionHost.Run.finished(node: GateNode, status: RunStatus, output: String? = null, extra: String = "{}") {
    emit(Message.NodeFinished(NodeFinished(nodeId = node.nodeId, instanceId = node.instanceId, output = output, durationMs = 1.0, status = status, extraJson = extra)))
}

private fun getWeather(attempt: Int): String {
    if (scenario.endsWith("-error") && attempt == 1) throw PlannedFailure()
    return """{"city":"Paris","tempC":21}"""
}

/** A tool call with its three gates; what each decision obliges is spec §3.7. */
private fun tool(run: SessionHost.Run) {
    run.started(toolNode, agentNode.instanceId, """{"city":"Paris"}""")
    var attempt = 0
    while (true) { // a retry at after/error runs the body again
        when (val d = run.gate(PausePoint.BEFORE, toolNode).get()) {
            is Decision.Abort -> { run.finished(toolNode, RunStatus.ABORTED); throw RunAbortedException(run.runId) }
            is Decision.Inject -> { run.finished(toolNode, RunStatus.OK, d.outputJson ?: "null", """{"injected":true}"""); return }
            else -> {}
        }
        attempt += 1
        val result = try {
            getWeather(attempt)
        } catch (e: PlannedFailure) {
            run.emit(Message.NodeError(NodeError(nodeId = toolNode.nodeId, instanceId = toolNode.instanceId, error = ErrorInfo(name = "PlannedFailure", message = e.message ?: ""))))
            when (val d = run.gate(PausePoint.ERROR, toolNode).get()) {
                is Decision.Retry -> continue
                is Decision.Abort -> { run.finished(toolNode, RunStatus.ABORTED); throw RunAbortedException(run.runId) }
                is Decision.Inject -> { run.finished(toolNode, RunStatus.OK, d.outputJson ?: "null", """{"injected":true,"recoveredFromError":true}"""); return }
                else -> { run.finished(toolNode, RunStatus.ERROR); throw e } // continue at error: the original error goes on
            }
        }
        when (val d = run.gate(PausePoint.AFTER, toolNode).get()) {
            is Decision.Retry -> continue
            is Decision.Abort -> { run.finished(toolNode, RunStatus.ABORTED, result); throw RunAbortedException(run.runId) }
            is Decision.Inject -> { run.finished(toolNode, RunStatus.OK, d.outputJson ?: "null", """{"injected":true}"""); return }
            else -> { run.finished(toolNode, RunStatus.OK, result); return }
        }
    }
}

private fun llm(run: SessionHost.Run) {
    run.started(llmNode, agentNode.instanceId)
    if (run.gate(PausePoint.BEFORE, llmNode).get() is Decision.Abort) { run.finished(llmNode, RunStatus.ABORTED); throw RunAbortedException(run.runId) }
    for (text in listOf("It is ", "sunny ", "in Paris.")) {
        run.emit(Message.NodeToken(NodeToken(nodeId = llmNode.nodeId, deltas = listOf(TokenDelta(TokenChannel.TEXT, text)))))
    }
    when (val d = run.gate(PausePoint.AFTER, llmNode).get()) {
        is Decision.Abort -> { run.finished(llmNode, RunStatus.ABORTED); throw RunAbortedException(run.runId) }
        is Decision.Inject -> run.finished(llmNode, RunStatus.OK, d.outputJson ?: "null", """{"injected":true}""")
        else -> run.finished(llmNode, RunStatus.OK, "\"It is sunny in Paris.\"")
    }
}

private fun agent(run: SessionHost.Run) {
    run.started(agentNode, null)
    try {
        tool(run)
        llm(run)
    } catch (e: RunAbortedException) {
        run.finished(agentNode, RunStatus.ABORTED); throw e
    } catch (e: PlannedFailure) {
        run.finished(agentNode, RunStatus.ERROR); throw e
    }
    run.finished(agentNode, RunStatus.OK)
}

fun main() {
    val config = AppSessionConfig(
        app = "conform-kotlin",
        ringMaxFrames = System.getenv("WIRECONTRACT_CONFORM_RING_FRAMES")?.toLong(),
        pauseTimeoutMs = System.getenv("WIRECONTRACT_CONFORM_PAUSE_TIMEOUT_MS")?.toLong(),
        connectTimeoutMs = 5000, // a cold JVM's first WebSocket can take longer than the default 300 ms
    )
    checkNotNull(System.getenv("GRAPHMIND_URL")) { "GRAPHMIND_URL is not set" }
    // No url argument: the endpoint is GRAPHMIND_URL, which the core reads from the process
    // environment the host passes (as an adapter leaves it to the environment).
    val host = SessionHost(config = config, onWarn = { _, _ -> })
    val attach = {
        if (scenario != "late-attach") {
            var attempts = 1 // a refused ack (ack-protocol) costs one attempt each; 5 at most
            while (!host.ready().get(10, TimeUnit.SECONDS) && attempts < 5) attempts += 1
        }
    }
    attach()
    val play = {
        try {
            host.run(runName) { run -> agent(run) }
        } catch (e: PlannedFailure) { // the run ended error or aborted: the outcome under test
        } catch (e: RunAbortedException) {
        }
    }
    if (scenario == "dispose") {
        val worker = Thread { play() }.apply { isDaemon = true; start() }
        val until = System.nanoTime() + 10_000_000_000L // until the tool's before gate is held (10 s at most)
        while (host.core.heldPauseIds().isEmpty() && System.nanoTime() < until) Thread.sleep(10)
        host.close()
        worker.join(5000)
        return
    }
    play()
    if (scenario == "rearm") { // rearm plays the run twice, the second after re-attaching
        attach()
        play()
    }
    host.ready().get(10, TimeUnit.SECONDS) // re-attach after a drop, so the ring is replayed before closing
    host.close()
}
