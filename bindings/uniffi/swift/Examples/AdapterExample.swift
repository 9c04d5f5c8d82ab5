// Quoted by docs/session.md ("Swift"); compiled into the GraphMind tests (a symlink) and run
// against `wirecontract listen` by step 45-swift. Copy it into an app that depends on
// WirecontractGraphmind.
import WirecontractGraphmind

func weatherAgent(url: String, fetch: (String) async throws -> String) async throws {
    let gm = try SessionHost(url: url, config: AppSessionConfig(app: "weather-agent"))
    _ = try await gm.ready()                                          // optional: wait for a viewer
    let run = try await gm.startRun("weather")
    do {
        let llm = GateNode(nodeId: "llm:planner", kind: .llm, name: "planner", instanceId: "llm_1")
        try await gm.emit(.nodeStarted(payload: NodeStarted(nodeId: llm.nodeId, kind: .llm, name: "planner", instanceId: "llm_1")), run: run)
        if case .abort = await gm.gate(.before, llm, run: run) { throw RunAbortedError(runId: run) }
        let deltas = [TokenDelta(t: .text, v: "Checking "), TokenDelta(t: .text, v: "Paris")]
        try await gm.emit(.nodeToken(payload: NodeToken(nodeId: llm.nodeId, deltas: deltas)), run: run)
        try await gm.emit(.nodeFinished(payload: NodeFinished(nodeId: llm.nodeId, instanceId: "llm_1", durationMs: 12, status: .ok)), run: run)

        let tool = GateNode(nodeId: "tool:get_weather", kind: .tool, name: "get_weather", instanceId: "call_1")
        try await gm.emit(.nodeStarted(payload: NodeStarted(nodeId: tool.nodeId, kind: .tool, name: "get_weather", instanceId: "call_1", input: #"{"city":"Paris"}"#)), run: run)
        var output: String?
        while output == nil {                                          // a retry at after/error runs the body again
            switch await gm.gate(.before, tool, run: run) {
            case .abort: throw RunAbortedError(runId: run)
            case .inject(let injected): output = injected ?? "null"; continue
            default: break
            }
            let result: String
            do { result = try await fetch("Paris") } catch {
                let info = ErrorInfo(name: "FetchError", message: String(describing: error))
                try await gm.emit(.nodeError(payload: NodeError(nodeId: tool.nodeId, instanceId: "call_1", error: info)), run: run)
                switch await gm.gate(.error, tool, run: run) {
                case .inject(let injected): output = injected ?? "null"; continue
                case .retry: continue
                case .abort: throw RunAbortedError(runId: run)
                case .continue: throw error
                }
            }
            switch await gm.gate(.after, tool, run: run) {
            case .inject(let injected): output = injected ?? "null"
            case .abort: throw RunAbortedError(runId: run)
            case .retry: continue
            case .continue: output = result
            }
        }
        try await gm.emit(.nodeFinished(payload: NodeFinished(nodeId: tool.nodeId, instanceId: "call_1", output: output, durationMs: 3, status: .ok)), run: run)
        try await gm.finishRun(run)
    } catch {
        try await gm.finishRun(run, error: error)
    }
    await gm.close()
}
