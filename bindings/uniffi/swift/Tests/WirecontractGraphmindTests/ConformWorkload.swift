// The `wirecontract conform` workload (docs/conform.md) on the Swift SessionHost: one run named
// $WIRECONTRACT_CONFORM_RUN, an agent node around a tool call (before, after and error gates,
// session spec §3.7) and an LLM call streaming tokens (before and after gates). The scenario
// ($WIRECONTRACT_CONFORM_SCENARIO) changes only what the contract says (in rearm the run is
// played twice). Exits 0 whatever the run's outcome.
//
// It is an XCTest method only because a SwiftPM test target has no `main`: it is compiled by the
// package's one test build, and scripts/steps/45-swift.sh runs it through `wirecontract conform`
// (`-- <the test bundle> WirecontractGraphmindTests.ConformWorkload`); the step's `swift test`
// leaves it out (`--skip ConformWorkload`). Run without the kit's environment, it fails.
import Foundation
import WirecontractGraphmind
import XCTest

private struct PlannedFailure: Error, CustomStringConvertible {
    var description: String { "conform: the first attempt fails" }
}

private struct Workload {
    let gm: SessionHost
    let scenario: String
    let runName: String
    let agent = GateNode(nodeId: "agent:conform", kind: .agent, name: "conform", instanceId: "agent_1")
    let tool = GateNode(nodeId: "tool:get_weather", kind: .tool, name: "get_weather", instanceId: "call_1")
    let llm = GateNode(nodeId: "llm:planner", kind: .llm, name: "planner", instanceId: "llm_1")

    func started(_ node: GateNode, parent: String?, input: String? = nil, run: String) async throws {
        let payload = NodeStarted(nodeId: node.nodeId, parentId: parent, kind: node.kind, name: node.name, instanceId: node.instanceId ?? "", input: input)
        try await gm.emit(.nodeStarted(payload: payload), run: run)
    }

    func finished(_ node: GateNode, _ status: RunStatus, output: String? = nil, extra: String = "{}", run: String) async throws {
        let payload = NodeFinished(nodeId: node.nodeId, instanceId: node.instanceId, output: output, durationMs: 1, status: status, extraJson: extra)
        try await gm.emit(.nodeFinished(payload: payload), run: run)
    }

    func getWeather(attempt: Int) throws -> String {
        if scenario.hasSuffix("-error") && attempt == 1 { throw PlannedFailure() }
        return #"{"city":"Paris","tempC":21}"#
    }

    /// A tool call with its three gates; what each decision obliges is spec §3.7.
    func callTool(run: String) async throws {
        try await started(tool, parent: agent.instanceId, input: #"{"city":"Paris"}"#, run: run)
        var attempt = 0
        while true {  // a retry at after/error runs the body again
            switch await gm.gate(.before, tool, run: run) {
            case .abort:
                try await finished(tool, .aborted, run: run)
                throw RunAbortedError(runId: run)
            case .inject(let output):
                return try await finished(tool, .ok, output: output ?? "null", extra: #"{"injected":true}"#, run: run)
            case .continue, .retry:
                break
            }
            attempt += 1
            let result: String
            do {
                result = try getWeather(attempt: attempt)
            } catch {
                let info = ErrorInfo(name: "PlannedFailure", message: String(describing: error))
                try await gm.emit(.nodeError(payload: NodeError(nodeId: tool.nodeId, instanceId: tool.instanceId, error: info)), run: run)
                switch await gm.gate(.error, tool, run: run) {
                case .retry:
                    continue
                case .abort:
                    try await finished(tool, .aborted, run: run)
                    throw RunAbortedError(runId: run)
                case .inject(let output):
                    return try await finished(tool, .ok, output: output ?? "null", extra: #"{"injected":true,"recoveredFromError":true}"#, run: run)
                case .continue:  // the original error goes on
                    try await finished(tool, .error, run: run)
                    throw error
                }
            }
            switch await gm.gate(.after, tool, run: run) {
            case .retry:
                continue
            case .abort:
                try await finished(tool, .aborted, output: result, run: run)
                throw RunAbortedError(runId: run)
            case .inject(let output):
                return try await finished(tool, .ok, output: output ?? "null", extra: #"{"injected":true}"#, run: run)
            case .continue:
                return try await finished(tool, .ok, output: result, run: run)
            }
        }
    }

    func callLlm(run: String) async throws {
        try await started(llm, parent: agent.instanceId, run: run)
        if case .abort = await gm.gate(.before, llm, run: run) {
            try await finished(llm, .aborted, run: run)
            throw RunAbortedError(runId: run)
        }
        for text in ["It is ", "sunny ", "in Paris."] {
            try await gm.emit(.nodeToken(payload: NodeToken(nodeId: llm.nodeId, deltas: [TokenDelta(t: .text, v: text)])), run: run)
        }
        switch await gm.gate(.after, llm, run: run) {
        case .abort:
            try await finished(llm, .aborted, run: run)
            throw RunAbortedError(runId: run)
        case .inject(let output):
            try await finished(llm, .ok, output: output ?? "null", extra: #"{"injected":true}"#, run: run)
        case .continue, .retry:
            try await finished(llm, .ok, output: #""It is sunny in Paris.""#, run: run)
        }
    }

    func agentNode(run: String) async throws {
        try await started(agent, parent: nil, run: run)
        do {
            try await callTool(run: run)
            try await callLlm(run: run)
        } catch let e as RunAbortedError {
            try await finished(agent, .aborted, run: run)
            throw e
        } catch {
            try await finished(agent, .error, run: run)
            throw error
        }
        try await finished(agent, .ok, run: run)
    }

    /// One run; an aborted or failed run is the outcome under test, not a failure.
    func play() async throws {
        let run = try await gm.startRun(runName)
        do {
            try await agentNode(run: run)
            try await gm.finishRun(run)
        } catch is RunAbortedError {
            try await gm.finishRun(run, error: RunAbortedError(runId: run))
        } catch let e as PlannedFailure {
            try await gm.finishRun(run, error: e)
        }
    }

    func attach() async throws {
        guard scenario != "late-attach" else { return }
        for _ in 0..<5 {  // a refused ack (ack-protocol) costs one attempt each
            if try await gm.ready() { return }
        }
    }
}

final class ConformWorkload: XCTestCase {
    func testPlayScenario() async throws {
        let env = ProcessInfo.processInfo.environment
        guard let scenario = env["WIRECONTRACT_CONFORM_SCENARIO"], env["GRAPHMIND_URL"] != nil else {
            return XCTFail("the conform workload runs under `wirecontract conform` (WIRECONTRACT_CONFORM_SCENARIO, GRAPHMIND_URL)")
        }
        let config = AppSessionConfig(
            app: "conform-swift",
            ringMaxFrames: env["WIRECONTRACT_CONFORM_RING_FRAMES"].flatMap { Int64($0) },
            pauseTimeoutMs: env["WIRECONTRACT_CONFORM_PAUSE_TIMEOUT_MS"].flatMap { Int64($0) },
            connectTimeoutMs: 5000  // a loaded machine's first WebSocket can take longer than 300 ms
        )
        // No url argument: the endpoint is GRAPHMIND_URL, which the core reads from the process
        // environment the host passes (as an adapter leaves it to the environment).
        let gm = try SessionHost(config: config, onWarn: { _, _ in })
        let w = Workload(gm: gm, scenario: scenario, runName: env["WIRECONTRACT_CONFORM_RUN"] ?? "conform-\(scenario)")
        try await w.attach()
        if scenario == "dispose" {
            let worker = Task { try await w.play() }
            var waited = 0
            while gm.core.heldPauseIds().isEmpty && waited < 1000 {  // until the tool's before gate is held (10 s at most)
                try await Task.sleep(nanoseconds: 10_000_000)
                waited += 1
            }
            await gm.close()  // from outside the run: the held gate continues
            _ = await worker.result
            return
        }
        try await w.play()
        if scenario == "rearm" {  // rearm plays the run twice, the second after re-attaching
            try await w.attach()
            try await w.play()
        }
        _ = try await gm.ready()  // re-attach after a drop, so the ring is replayed before closing
        await gm.close()
    }
}
