// What the Swift session host receives: viewer messages longer than FoundationNetworking's ~4 KiB
// pieces reach the core whole (a hello.ack with many breakpoints, an inject output over 64 KiB),
// one over the inbound cap closes the socket with 1009 (InboundAssembler.swift), and timeouts up
// to the core's limit (2^53-1 ms) neither trap the timer nor keep a wait from ending otherwise.

import Foundation
import WirecontractGraphmind
import XCTest

final class InboundFrameTests: XCTestCase {
    let patient = AppSessionConfig(connectTimeoutMs: 5000, handshakeTimeoutMs: 5000)
    let tool = GateNode(nodeId: "tool:lookup", kind: .tool, name: "lookup", instanceId: "call_1")
    /// The largest timeout the core accepts.
    let most: Int64 = (1 << 53) - 1

    func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swift-inbound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func started(_ node: GateNode) -> Message {
        .nodeStarted(payload: NodeStarted(nodeId: node.nodeId, kind: node.kind, name: node.name, instanceId: node.instanceId ?? ""))
    }

    func testAHelloAckOverFourKiBHandshakes() async throws {
        let names = (0..<120).map { "a_rather_long_tool_name_number_\($0)" }
        let listener = try Listener(try tempDir(), names.flatMap { ["--break", "tool:\($0)"] } + ["--on-pause", "continue"])
        let host = try SessionHost(url: listener.url, config: patient)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let node = GateNode(nodeId: "tool:\(names[77])", kind: .tool, name: names[77], instanceId: "call_1")
        let run = try await host.startRun("long-ack")
        try await host.emit(started(node), run: run)
        let decision = await host.gate(.before, node, run: run)
        XCTAssertEqual(decision, .continue)
        try await host.finishRun(run)
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        checkCommon(rows)
        let ack = rows.first { $0.type == "hello.ack" }?["frame"] as? String ?? ""
        XCTAssertGreaterThan(ack.utf8.count, 4096)  // longer than one FoundationNetworking piece
        XCTAssertEqual(types(rows, "viewer->app"), ["hello.ack", "exec.resume"])
    }

    func testAnInjectOutputOver64KiBReachesTheAppWhole() async throws {
        // Multi-byte UTF-8 too: piece boundaries fall inside characters.
        let output = "\"" + String(repeating: "ab\u{e9}\u{1F600}", count: 9000) + "\""
        XCTAssertGreaterThan(output.utf8.count, 65536)
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "inject=" + output])
        var config = patient
        config.pauseTimeoutMs = 10_000  // a resume never read ends the wait (continue), not the suite
        let host = try SessionHost(url: listener.url, config: config)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("inject")
        try await host.emit(started(tool), run: run)
        let decision = await host.gate(.before, tool, run: run)
        guard case .inject(let json) = decision else { return XCTFail("not an inject: \(decision)") }
        let got = try JSONSerialization.jsonObject(with: Data((json ?? "").utf8), options: .fragmentsAllowed) as? String
        let want = try JSONSerialization.jsonObject(with: Data(output.utf8), options: .fragmentsAllowed) as? String
        XCTAssertEqual(got, want)
        try await host.finishRun(run)
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        checkCommon(rows)
        XCTAssertEqual(types(rows, "viewer->app"), ["hello.ack", "exec.resume"])
    }

    func testAMessageOverTheInboundCapClosesWith1009() async throws {
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "continue"])
        let proxy = try Proxy(targetPort: listener.port)
        defer { proxy.close() }
        // A cap far over one FoundationNetworking piece (~4 KiB): the pieces are counted together.
        let host = try SessionHost(url: proxy.url, config: patient, onWarn: { _, _ in }, maxFrameBytes: 100_000)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        // A JSON object one byte over the cap, as the viewer would send it.
        let filler = host.maxFrameBytes - #"{"x":""}"#.utf8.count + 1
        proxy.sendToApp(#"{"x":""# + String(repeating: "a", count: filler) + #""}"#)
        try await until("the app's 1009 close:\n\(listener.text)", seconds: 30) { listener.text.contains("closed by the app (1009") }
        // A lost connection to the core: it reconnects.
        try await until("the reconnect", seconds: 10) { proxy.connections >= 2 }
        let back = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(back, listener.text)
        await host.close()
    }

    func testAMessageOverTwiceTheInboundCapClosesWith1009() async throws {
        // Past the socket's maximumMessageSize (twice the cap): on Linux the pieces are still
        // counted and the message refused with 1009 once they pass the cap.
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "continue"])
        let proxy = try Proxy(targetPort: listener.port)
        defer { proxy.close() }
        let warnings = Warnings()
        let host = try SessionHost(url: proxy.url, config: patient, onWarn: { warnings.add($0, $1) }, maxFrameBytes: 100_000)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        proxy.sendToApp(#"{"x":""# + String(repeating: "a", count: 5 * host.maxFrameBytes) + #""}"#)
        try await until("the app's 1009 close:\n\(listener.text)", seconds: 30) { listener.text.contains("closed by the app (1009") }
        let refused = warnings.texts("frame-limit")
        XCTAssertEqual(refused.count, 1, "\(warnings.all)")
        XCTAssertTrue(refused.first?.hasSuffix("exceeded maxFrameBytes (100000); closed with 1009") ?? false, "\(refused)")
        XCTAssertTrue(warnings.texts("invalid-frame").isEmpty, "the core saw a piece: \(warnings.all)")
        try await until("the reconnect", seconds: 10) { proxy.connections >= 2 }
        let back = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(back, listener.text)
        await host.close()
    }

    func testTimeoutsAtTheCoresLimitDoNotTrap() async throws {
        let listener = try Listener(try tempDir(), ["--break", "tool", "--on-pause", "hold"])
        var config = patient
        config.pauseTimeoutMs = most
        config.readyTimeoutMs = most
        config.retryIntervalMs = most
        let host = try SessionHost(url: listener.url, config: config)
        let attached = try await host.ready()  // readyTimeoutMs 2^53-1: the timer is armed for it
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("huge-timeouts")
        try await host.emit(started(tool), run: run)
        let tool = self.tool
        let held = Task { await host.gate(.before, tool, run: run) }  // pauseTimeoutMs 2^53-1
        try await until("the hold") { !host.core.heldPauseIds().isEmpty && listener.text.contains("exec.paused") }
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertFalse(host.core.heldPauseIds().isEmpty)  // no early release
        held.cancel()  // ends the wait
        let decision = await held.value
        XCTAssertEqual(decision, .continue)
        try await host.finishRun(run)
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)

        // Nobody listens: ready(timeoutMs: 2^53-1) ends when the host closes.
        let port = listener.port  // the listener has exited: a refused connect
        let lonely = try SessionHost(url: "ws://127.0.0.1:\(port)/ingest", config: config, onWarn: { _, _ in })
        let most = self.most
        let waiting = Task { try await lonely.ready(timeoutMs: most) }
        try await Task.sleep(nanoseconds: 300_000_000)
        await lonely.close(flushTimeoutMs: 0)
        let result = try await waiting.value
        XCTAssertFalse(result)
    }
}
