// Issue 37, the adapter core on the Swift host: each scenario of
// vectors/graphmind/adapter-core/scenarios.json (redaction, token batching, the loop-guard
// environment) played through SessionHost's public API against `wirecontract listen` on loopback
// (`--break none --on-pause continue`: it acks with no breakpoints, continues every pause and
// records both directions) puts the same frames on the wire as the real graphmind-ai 0.5.1 client
// did in the recording next to it. The host is configured as an adapter author would: the
// scenario's variables, under the real clients' names, as the environment map the core reads
// (`AppSessionConfig.env`; without it the host passes the process environment). The scenario code
// holds no protocol rule. Normalized as bindings/python/tests/adapter_core_scenarios.py and
// contract/tests/integration/session_adapter_core.rs do: run ids, pause ids, durations, `heldMs`, the loop
// fingerprint and loop seqs. The same settings as host config fields give the same frames; the
// kill switch in the map beats `enabled: true`.

import Foundation
import WirecontractGraphmind
import XCTest

final class AdapterCoreTests: XCTestCase {
    static let data = Vectors.repo.appendingPathComponent("vectors/graphmind/adapter-core")
    static let volatile: Set<String> = ["durationMs", "heldMs", "fingerprint", "pauseId", "firstSeq", "lastSeq"]

    func testEveryScenarioMatchesTheRealClientRecording() async throws {
        let text = try Data(contentsOf: Self.data.appendingPathComponent("scenarios.json"))
        let scenarios = try XCTUnwrap(try JSONSerialization.jsonObject(with: text) as? [String: Any])
        XCTAssertEqual(Set(scenarios.keys), ["redact-tool-args", "redact-tool-results", "redact-inputs-outputs", "tokens-batch", "loop-guard-env"])
        for name in scenarios.keys.sorted() {
            let scenario = try XCTUnwrap(scenarios[name] as? [String: Any])
            let expected = try Self.normalize(Vectors.lines(Self.data.appendingPathComponent("\(name).jsonl")))
            XCTAssertNotEqual(expected, "[]", "\(name): the recording holds frames")
            let ours = try Self.normalize(try await play(name, scenario))
            XCTAssertEqual(ours, expected, name)
        }
    }

    /// The same scenarios configured in code instead (an adapter that sets the host's config
    /// fields, under no environment): the same frames.
    func testHostConfigGivesTheSameFrames() async throws {
        let scenarios = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.data.appendingPathComponent("scenarios.json"))) as? [String: Any])
        for name in scenarios.keys.sorted() {
            var config = Self.config
            config.env = [:]
            switch name {
            case "redact-tool-args": config.hideToolArgs = true
            case "redact-tool-results": config.hideToolResults = true
            case "redact-inputs-outputs": (config.hideInputs, config.hideOutputs) = (true, true)
            case "loop-guard-env": (config.loopThreshold, config.loopAllow) = (2, ["poll", "tool:other"])
            default: break
            }
            let expected = try Self.normalize(Vectors.lines(Self.data.appendingPathComponent("\(name).jsonl")))
            let ours = try Self.normalize(try await play(name, try XCTUnwrap(scenarios[name] as? [String: Any]), config: config))
            XCTAssertEqual(ours, expected, name)
        }
    }

    /// `GRAPHMIND_DISABLED` in the environment map beats `enabled: true`: nothing connects or goes
    /// out, gates continue.
    func testTheKillSwitchBeatsAnExplicitEnabled() async throws {
        var config = Self.config
        (config.env, config.enabled) = (["GRAPHMIND_DISABLED": "1"], true)
        let host = try SessionHost(url: "ws://127.0.0.1:9/ingest", config: config)
        let attached = try await host.ready(timeoutMs: 100)
        XCTAssertFalse(attached)
        let run = try await host.startRun("off")
        let tool = GateNode(nodeId: "tool:t", kind: .tool, name: "t")
        let seq = try await host.emit(.nodeStarted(payload: NodeStarted(nodeId: "tool:t", kind: .tool, name: "t", instanceId: "i1")), run: run)
        XCTAssertNil(seq)
        let decision = await host.gate(.before, tool, run: run)
        XCTAssertEqual(decision, .continue)
        try await host.finishRun(run)
        XCTAssertEqual(host.core.bufferedFrames(), [])
        await host.close()
    }

    /// Generous deadlines: a busy CI machine must not turn a slow first connect into a 10 s retry.
    static let config = AppSessionConfig(app: "adapter-core", sdkName: "adapter-core", sdkVersion: "1", connectTimeoutMs: 5000, handshakeTimeoutMs: 5000)

    /// Scenario `name` through the host's public API, configured by `config` or else by the
    /// scenario's environment map; the listener's record (`{dir, frame}` rows).
    func play(_ name: String, _ scenario: [String: Any], config configured: AppSessionConfig? = nil) async throws -> [[String: Any]] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swift-adapter-core-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let listener = try Listener(dir, ["--break", "none", "--on-pause", "continue"])
        var config = Self.config
        config.env = try XCTUnwrap(scenario["env"] as? [String: String])
        let host = try SessionHost(url: listener.url, config: configured ?? config)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun(name)
        for case let step as [Any] in try XCTUnwrap(scenario["steps"] as? [Any]) {
            let s = { (i: Int) in step[i] as? String ?? "" }
            switch s(0) {
            case "start":
                let payload = NodeStarted(nodeId: s(1), kind: try Self.kind(s(2)), name: s(3), instanceId: s(4), input: try Self.jsonText(step[5]))
                try await host.emit(.nodeStarted(payload: payload), run: run)
            case "token":
                try await host.pushToken(s(1), channel: s(2), value: s(3), run: run)
            case "gate":
                let decision = await host.gate(.before, GateNode(nodeId: s(1), kind: try Self.kind(s(2)), name: s(3)), run: run)
                XCTAssertEqual(decision, .continue)
            case "finish":
                let payload = NodeFinished(nodeId: s(1), instanceId: s(2), output: try Self.jsonText(step[3]), durationMs: 1, status: .ok)
                try await host.emit(.nodeFinished(payload: payload), run: run)
            default:
                throw HarnessError("unknown step \(step)")
            }
        }
        try await host.finishRun(run)
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        return try String(contentsOf: listener.record, encoding: .utf8).split(separator: "\n").map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    static func kind(_ wire: String) throws -> NodeKind {
        switch wire {
        case "llm": return .llm
        case "tool": return .tool
        case "agent": return .agent
        default: throw HarnessError("no node kind \(wire) in the scenarios")
        }
    }

    /// A scenario value as JSON text; JSON `null` means absent.
    static func jsonText(_ value: Any) throws -> String? {
        if value is NSNull { return nil }
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]), as: UTF8.self)
    }

    /// The app's frames after the handshake as `{type, runId, payload}`, volatile members replaced
    /// (the Python `normalize`), as JSON text with sorted keys.
    static func normalize(_ log: [[String: Any]]) throws -> String {
        var runs: [String: String] = [:]
        var out: [Any] = []
        for entry in log where entry["dir"] as? String == "app->viewer" {
            let frame = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(entry["frame"] as? String).utf8)) as? [String: Any])
            let type = frame["type"] as? String ?? ""
            if type == "hello" { continue }
            let runId = frame["runId"] as? String ?? ""
            let placeholder = runs[runId] ?? "<run\(runs.count)>"
            runs[runId] = placeholder
            out.append(["type": type, "runId": placeholder, "payload": scrub(frame["payload"] ?? NSNull(), runId, placeholder)])
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: out, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self)
    }

    static func scrub(_ value: Any, _ runId: String, _ placeholder: String) -> Any {
        if let object = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (k, v) in object {
                out[k] = volatile.contains(k) ? "<\(k)>" : (v as? String == runId ? placeholder : scrub(v, runId, placeholder))
            }
            return out
        }
        if let array = value as? [Any] {
            return array.map { scrub($0, runId, placeholder) }
        }
        return value
    }
}
