// The Swift session host (SessionHost.swift) against `wirecontract listen` (ListenHarness.swift):
// the handshake and a pause answered `continue`, a pause answered `abort`, a disconnect while held
// (fail-open, then the reconnect's replay), the actor used from several tasks at once, and the
// docs' adapter (Examples/AdapterExample.swift); each record gets the common checks. Without a
// viewer: how runs end and which arguments the core refuses.

import Foundation
import WirecontractGraphmind
import XCTest

final class SessionHostTests: XCTestCase {
    /// Generous deadlines: a busy CI machine must not turn a slow first connect into a 10 s retry.
    let patient = AppSessionConfig(connectTimeoutMs: 5000, handshakeTimeoutMs: 5000)
    let tool = GateNode(nodeId: "tool:lookup", kind: .tool, name: "lookup", instanceId: "call_1")

    static func started(_ node: GateNode) -> Message {
        .nodeStarted(payload: NodeStarted(nodeId: node.nodeId, kind: node.kind, name: node.name, instanceId: node.instanceId ?? ""))
    }

    static func finished(_ node: GateNode, _ output: String) -> Message {
        .nodeFinished(payload: NodeFinished(nodeId: node.nodeId, instanceId: node.instanceId, output: output, durationMs: 1.5, status: .ok))
    }

    func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swift-host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The payloads of the buffered frames of `type` (nothing attached: every frame stays in the ring).
    func buffered(_ core: AppSession, _ type: String) throws -> [[String: Any]] {
        try core.bufferedFrames().compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["type"] as? String == type }.map { $0["payload"] as? [String: Any] ?? [:] }
    }

    func testHandshakeAndAPauseAnsweredContinue() async throws {
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "continue"])
        var config = patient
        config.app = "swift-host"
        let host = try SessionHost(url: listener.url, config: config)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("pause")
        try await host.emit(Self.started(tool), run: run)
        let before = await host.gate(.before, tool, run: run)
        XCTAssertEqual(before, .continue)
        let after = await host.gate(.after, tool, run: run)  // not armed
        XCTAssertEqual(after, .continue)
        try await host.emit(Self.finished(tool, "7"), run: run)
        try await host.finishRun(run)
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        checkCommon(rows)
        // The run's root node (agent:<name>) wraps the tool's.
        XCTAssertEqual(types(rows, "app->viewer"), ["hello", "run.started", "node.started", "node.started", "exec.paused", "exec.resumed", "node.finished", "node.finished", "run.finished"])
        XCTAssertEqual(types(rows, "viewer->app"), ["hello.ack", "exec.resume"])
        let start = rows.first { $0.type == "run.started" }?.payload
        XCTAssertEqual(start?["app"] as? String, "swift-host")
        XCTAssertNotNil(rows.first { $0.type == "node.finished" }?.payload["heldMs"])
        XCTAssertEqual(rows.first { $0.type == "run.finished" }?.payload["status"] as? String, "ok")
    }

    func testAPauseAnsweredAbortEndsTheRunAborted() async throws {
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "abort"])
        let host = try SessionHost(url: listener.url, config: patient)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("abort")
        try await host.emit(Self.started(tool), run: run)
        let decision = await host.gate(.before, tool, run: run)
        XCTAssertEqual(decision, .abort)
        let aborted = await host.isAborted(run)
        XCTAssertTrue(aborted)
        try await host.finishRun(run, error: RunAbortedError(runId: run))
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        checkCommon(rows)
        XCTAssertEqual(types(rows, "app->viewer"), ["hello", "run.started", "node.started", "node.started", "exec.paused", "exec.resumed", "node.finished", "run.finished"])
        XCTAssertEqual(rows.first { $0.type == "exec.resumed" }?.payload["action"] as? String, "abort")
        XCTAssertEqual(rows.first { $0.type == "run.finished" }?.payload["status"] as? String, "aborted")
    }

    func testADisconnectWhileHeldFailsOpenAndTheReconnectReplays() async throws {
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "hold"])
        let proxy = try Proxy(targetPort: listener.port)
        defer { proxy.close() }
        let host = try SessionHost(url: proxy.url, config: patient)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("fail-open")
        try await host.emit(Self.started(tool), run: run)
        let tool = self.tool
        let held = Task { await host.gate(.before, tool, run: run) }
        try await until("the hold") { !host.core.heldPauseIds().isEmpty && listener.text.contains("exec.paused") }
        let pauseId = host.core.heldPauseIds().first ?? ""
        proxy.goDown()
        let released = await held.value
        XCTAssertEqual(released, .continue)  // fail-open
        XCTAssertTrue(host.core.heldPauseIds().isEmpty)
        try await until("the detach") { !host.core.isAttached() }
        let detached = await host.gate(.after, tool, run: run)  // detached: no hold
        XCTAssertEqual(detached, .continue)
        try await host.emit(Self.finished(tool, "1"), run: run)
        proxy.comeUp()
        let back = try await host.ready(timeoutMs: 5000)
        XCTAssertTrue(back, listener.text)
        try await host.finishRun(run)
        // run.finished travels through the proxy; closing first would race it.
        try await until("the run.finished") { listener.text.contains("run.finished") }
        await host.close()
        XCTAssertGreaterThanOrEqual(proxy.connections, 2)
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        checkCommon(rows)
        var conns: [Int] = []
        for row in rows where !conns.contains(row.conn) { conns.append(row.conn) }
        XCTAssertEqual(conns.count, 2)
        let hello = rows.first { $0.conn == conns.last && $0.type == "hello" }
        XCTAssertNotNil(hello?.payload["resumeToken"])
        let resumed = rows.filter { $0.type == "exec.resumed" }
        XCTAssertEqual(Set(resumed.map(\.seq)).count, 1)
        let first = resumed.first
        XCTAssertEqual(first?.conn, conns.last)
        XCTAssertEqual(first?.replayed, true)
        XCTAssertEqual(first?.payload["action"] as? String, "continue")
        XCTAssertEqual(first?.payload["pauseId"] as? String, pauseId)
        XCTAssertLessThan(first?.seq ?? .max, hello?.seq ?? -1)
        // Everything the first connection delivered comes again in the replay, marked duplicate.
        let delivered = rows.filter { $0.conn == conns[0] && $0.dir == "app->viewer" && $0.type != "hello" }.map { $0["frame"] as? String }
        let again = rows.filter { $0.conn == conns.last && $0.duplicate }.map { $0["frame"] as? String }
        XCTAssertEqual(again, delivered)
        XCTAssertEqual(types(rows, "viewer->app"), ["hello.ack", "hello.ack"])  // the listener never resumed
    }

    func testTheActorServesSeveralTasksAtOnce() async throws {
        let runs = 4
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "continue"], runs: runs)
        let host = try SessionHost(url: listener.url, config: patient)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let decisions = try await withThrowingTaskGroup(of: Decision.self) { group in
            for i in 0..<runs {
                group.addTask {
                    let node = GateNode(nodeId: "tool:t\(i)", kind: .tool, name: "t\(i)", instanceId: "call_\(i)")
                    let run = try await host.startRun("task-\(i)")
                    try await host.emit(Self.started(node), run: run)
                    let decision = await host.gate(.before, node, run: run)
                    try await host.emit(Self.finished(node, "\(i)"), run: run)
                    try await host.finishRun(run)
                    return decision
                }
            }
            var all: [Decision] = []
            for try await decision in group { all.append(decision) }
            return all
        }
        XCTAssertEqual(decisions, Array(repeating: .continue, count: runs))
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        checkCommon(rows)
        let app = rows.filter { $0.dir == "app->viewer" && $0.type != "hello" }
        XCTAssertEqual(Set(app.map(\.runId)).count, runs)
        XCTAssertEqual(app.filter { $0.type == "exec.resumed" }.count, runs)
        XCTAssertEqual(app.filter { $0.type == "run.finished" }.count, runs)
        // One seq counter for the session: every seq once.
        XCTAssertEqual(Set(app.map(\.seq)).count, app.count)
    }

    func testTheDocsAdapterRuns() async throws {
        let listener = try Listener(try tempDir(), ["--break", "tool", "--break", "llm", "--on-pause", "continue"])
        try await weatherAgent(url: listener.url) { city in #"{"city":"\#(city)","tempC":21}"# }
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        checkCommon(rows)
        let app = types(rows, "app->viewer")
        XCTAssertEqual(app.filter { $0 == "exec.paused" }.count, 2)
        XCTAssertEqual(app.filter { $0 == "exec.resumed" }.count, 2)
        XCTAssertEqual(app.last, "run.finished")
        // The tool's node.finished (the last one is the run's root node, agent:<name>).
        let tool = rows.last { $0.type == "node.finished" && $0.payload["nodeId"] as? String == "tool:get_weather" }
        XCTAssertEqual(tool?.payload["output"] as? String, nil)  // an object, not text
        XCTAssertNotNil(tool?.payload["output"] as? [String: Any])
        XCTAssertEqual((rows.last { $0.type == "node.finished" }?.payload["nodeId"] as? String)?.hasPrefix("agent:"), true)
    }

    func testCancellingTheTaskAwaitingAHeldGateContinues() async throws {
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "hold"])
        let host = try SessionHost(url: listener.url, config: patient)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("cancel")
        try await host.emit(Self.started(tool), run: run)
        let tool = self.tool
        let held = Task { await host.gate(.before, tool, run: run) }
        try await until("the hold") { !host.core.heldPauseIds().isEmpty && listener.text.contains("exec.paused") }
        held.cancel()
        let decision = await held.value
        XCTAssertEqual(decision, .continue)
        XCTAssertTrue(host.core.heldPauseIds().isEmpty)
        try await host.finishRun(run)
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        checkCommon(rows)
        XCTAssertEqual(rows.first { $0.type == "exec.resumed" }?.payload["action"] as? String, "continue")
        XCTAssertEqual(types(rows, "viewer->app"), ["hello.ack"])  // the listener never resumed
    }

    func testAnUnusableUrlIsAFailedConnectNotACrash() async throws {
        // Not a URL (URL(string:) is nil): the host reports a failed connect to the core, which
        // stays detached and retries later.
        let host = try SessionHost(url: "ws://[::1/ingest", config: AppSessionConfig(connectTimeoutMs: 100), onWarn: { _, _ in })
        let attached = try await host.ready(timeoutMs: 300)
        XCTAssertFalse(attached)
        XCTAssertFalse(host.core.isAttached())
        let decision = await host.gate(.before, tool)  // detached: continue at once
        XCTAssertEqual(decision, .continue)
        await host.close(flushTimeoutMs: 0)
    }

    func testRunPayloadsAreTheCores() async throws {
        // A port nothing listens on: the host stays detached, so every frame stays in the ring.
        let host = try SessionHost(url: "ws://127.0.0.1:9/ingest", config: AppSessionConfig(app: "demo"), onWarn: { _, _ in })
        struct Boom: Error {}
        let plain = try await host.startRun("plain")
        try await host.finishRun(plain)
        let ticket = try await host.startRun("ticket", metaJson: #"{"user":"u1","name":"inner"}"#)
        try await host.finishRun(ticket, error: Boom())
        let stopped = try await host.startRun("stopped")
        try await host.finishRun(stopped, error: RunAbortedError(runId: nil))
        let cancelled = try await host.startRun("cancelled")
        try await host.finishRun(cancelled, error: CancellationError())
        let started = try buffered(host.core, "run.started")
        XCTAssertEqual(started.first?["app"] as? String, "demo")
        XCTAssertTrue(host.core.bufferedFrames().contains { $0.contains(#""meta":{"name":"inner","user":"u1"}"#) })
        let finished = try buffered(host.core, "run.finished")
        XCTAssertEqual(finished.map { $0["status"] as? String }, ["ok", "error", "aborted", "aborted"])
        let error = finished[1]["error"] as? [String: Any]
        XCTAssertEqual(error?["name"] as? String, "Boom")
        XCTAssertNil(finished[2]["error"])
        await host.close(flushTimeoutMs: 0)
    }

    func testABadConfigOrTimeoutIsAContractErrorNotACrash() async throws {
        XCTAssertThrowsError(try SessionHost(config: AppSessionConfig(connectTimeoutMs: -1), onWarn: { _, _ in })) { error in
            XCTAssertTrue(error is ContractError, "\(error)")
        }
        let host = try SessionHost(url: "ws://127.0.0.1:9/ingest", onWarn: { _, _ in })
        do {
            _ = try await host.ready(timeoutMs: -1)
            XCTFail("a negative timeout was accepted")
        } catch {
            XCTAssertTrue(error is ContractError, "\(error)")
        }
        await host.close(flushTimeoutMs: 0)
    }

    func testRunArgumentsAreCheckedByTheCore() throws {
        let core = try AppSession(config: AppSessionConfig())
        XCTAssertThrowsError(try core.startRun(runId: "r", name: "n", metaJson: "[1]", nowMs: 1)) { error in
            XCTAssertEqual(buildIssues(error), ["meta"])
        }
        XCTAssertEqual(core.nextSeq(), 0)
        XCTAssertEqual(try core.startRun(runId: "r", name: "n", metaJson: nil, nowMs: 1), 0)
        // run.started 0 and the root node.started 1; the root's node.error 2 and node.finished 3.
        XCTAssertEqual(try core.finishRun(runId: "r", end: .failed(name: "E", message: "m", stack: nil), nowMs: 2), 4)
        try core.dispose(nowMs: 3)
        XCTAssertNil(try core.finishRun(runId: "r", end: .ok, nowMs: 4))
    }

    /// The host and what it hands across tasks are Sendable where the API promises it (a
    /// compile-time check: this function only builds if they are).
    func testTheSessionTypesAreSendable() {
        func sendable<T: Sendable>(_: T.Type) {}
        sendable(SessionHost.self)
        sendable(AppSession.self)
        sendable(MonotonicClock.self)
        sendable(RunAbortedError.self)
        sendable(Decision.self)
        sendable(GateNode.self)
        sendable(Message.self)
        sendable(AppSessionConfig.self)
    }
}
