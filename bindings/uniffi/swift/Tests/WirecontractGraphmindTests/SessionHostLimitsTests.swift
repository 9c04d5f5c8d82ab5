// The Swift session host's resource limits (docs/robustness.md, "Resource limits"): a viewer
// message over `maxFrameBytes` sent through a loopback relay, a viewer that stops reading
// (`maxQueueBytes`), a write that stalls (`writeStallTimeoutMs`), and hostile text and floods through the default warning printer.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSessionWebSocketTask on Linux
#endif
@testable import WirecontractGraphmind  // SessionHost's internal init takes the frame writer
import XCTest

/// A frame writer for `SessionHost` that writes on the socket until `stallThisConnection()`; from
/// then on each write on the socket of the next write waits, as Apple's URLSession `send` does for a
/// viewer that stopped reading, until the host cancels that socket (the write then fails, as
/// URLSession's does). Writes on later sockets (the reconnection) go through.
/// swift-corelibs-foundation's own `send` never waits for the peer, so this is how a stalled write
/// is made on Linux. Bounded: a write waits 30 s at most.
final class StallingWriter: @unchecked Sendable {
    private let lock = NSLock()
    private var armed = false
    private var stuck: ObjectIdentifier?
    private var stalled = 0

    /// The viewer stops reading on the connection of the next write.
    func stallThisConnection() {
        lock.lock()
        armed = true
        lock.unlock()
    }

    /// Writes that waited.
    var stalledWrites: Int {
        lock.lock()
        defer { lock.unlock() }
        return stalled
    }

    private func stalls(_ task: URLSessionWebSocketTask) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if armed && stuck == nil { stuck = ObjectIdentifier(task) }
        guard stuck == ObjectIdentifier(task) else { return false }
        stalled += 1
        return true
    }

    var writer: FrameWriter {
        { task, frame in try await self.write(task, frame) }
    }

    private func write(_ task: URLSessionWebSocketTask, _ frame: String) async throws {
        guard stalls(task) else {
            try await task.send(.string(frame))
            return
        }
        let deadline = Date().addingTimeInterval(30)
        while task.state == .running && Date() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        throw URLError(.cancelled)
    }
}

final class SessionHostLimitsTests: XCTestCase {
    let patient = AppSessionConfig(connectTimeoutMs: 5000, handshakeTimeoutMs: 5000)
    let tool = GateNode(nodeId: "tool:lookup", kind: .tool, name: "lookup", instanceId: "call_1")

    func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swift-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    func testAViewerMessageOverMaxFrameBytesIsDroppedAndClosedWith1009() async throws {
        let listener = try Listener(try tempDir(), [])
        let proxy = try Proxy(targetPort: listener.port)
        defer { proxy.close() }
        // 1.5 KiB of text, over a 1 KiB cap, right after the first handshake response.
        proxy.inject(serverTextFrame(Data(repeating: UInt8(ascii: "x"), count: 1536)))
        let warnings = Warnings()
        let host = try SessionHost(url: proxy.url, config: patient, onWarn: { warnings.add($0, $1) }, maxFrameBytes: 1024)
        XCTAssertEqual(host.maxFrameBytes, 1024)
        _ = try await host.ready(timeoutMs: 3000)  // connects; the first attachment may not complete
        try await until("the frame-limit warning (\(warnings.all))", seconds: 20) { !warnings.texts("frame-limit").isEmpty }
        XCTAssertEqual(warnings.texts("frame-limit").first,
                       "a viewer message of 1536 bytes exceeded maxFrameBytes (1024); closed with 1009")
        XCTAssertTrue(warnings.texts("invalid-frame").isEmpty, "the core saw the message: \(warnings.all)")
        // The close reached the listener through the relay, and the core came back on a new connection.
        try await until("the 1009 close at the listener:\n\(listener.text)") { listener.text.contains("closed by the app (1009") }
        let back = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(back, listener.text)
        XCTAssertGreaterThanOrEqual(proxy.connections, 2)
        let run = try await host.startRun("after")
        try await host.finishRun(run)
        try await until("the run.finished") { listener.text.contains("run.finished") }
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        checkCommon(try listener.rows())
    }

    func testAViewerThatStopsReadingIsDroppedAndTheRingReplays() async throws {
        let listener = try Listener(try tempDir(), [])
        let proxy = try Proxy(targetPort: listener.port)
        defer { proxy.close() }
        let warnings = Warnings()
        var config = patient
        config.ringMaxBytes = 64 * 1024
        let host = try SessionHost(url: proxy.url, config: config, onWarn: { warnings.add($0, $1) }, maxQueueBytes: 64 * 1024)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("stalled")
        try await until("run.started at the listener") { listener.text.contains("run.started") }
        proxy.stall(true)
        // 8 KiB events until the host gives up; the socket buffers take a few MiB first (once they
        // are full, a send on Linux may also fail by itself, dropping the connection without the
        // warning: the small bound makes the queue limit come first). Bounded:
        // 4,000 events (32 MiB) without a queue-limit warning fail the test.
        let output = "\"" + String(repeating: "y", count: 8 * 1024) + "\""  // JSON text
        var emitted = 0
        while warnings.texts("queue-limit").isEmpty && emitted < 4000 {
            try await host.emit(.nodeFinished(payload: NodeFinished(nodeId: tool.nodeId, instanceId: tool.instanceId, output: output, durationMs: 1, status: .ok)), run: run)
            emitted += 1
        }
        XCTAssertEqual(warnings.texts("queue-limit").first,
                       "the viewer stopped reading: over maxQueueBytes (65536) queued; connection dropped", "after \(emitted) events")
        XCTAssertFalse(host.core.isAttached())
        // The stuck connection goes; the viewer reads again; the core reconnects and replays its ring.
        proxy.goDown()
        proxy.stall(false)
        proxy.comeUp()
        let back = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(back, listener.text)
        try await host.finishRun(run)
        try await until("the run.finished") { listener.text.contains("run.finished") }
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        let last = rows.last { $0.type == "hello" }?.conn
        let replayed = rows.filter { $0.conn == last && $0.replayed && $0.type == "node.finished" }
        XCTAssertFalse(replayed.isEmpty, "no replay on the new connection")
        XCTAssertEqual(rows.last?.type, "run.finished")
    }

    func testAWriteThatStallsPastWriteStallTimeoutMsDropsTheConnectionAndTheRingReplays() async throws {
        let listener = try Listener(try tempDir(), [])
        let writes = StallingWriter()
        let warnings = Warnings()
        // A queue bound far above what is sent: only the stalled write can end the connection.
        let host = try SessionHost(url: listener.url, config: patient, onWarn: { warnings.add($0, $1) },
                                   maxQueueBytes: 256 * 1024 * 1024, writeStallTimeoutMs: 500, writer: writes.writer)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("stalled-write")
        try await until("run.started at the listener") { listener.text.contains("run.started") }
        // The viewer stops reading: the next write waits until the host gives the connection up.
        writes.stallThisConnection()
        let stalledAt = Date()
        for _ in 0..<3 {
            try await host.emit(.nodeFinished(payload: NodeFinished(nodeId: tool.nodeId, instanceId: tool.instanceId, output: "\"y\"", durationMs: 1, status: .ok)), run: run)
        }
        try await until("the write-stall warning (\(warnings.all))", seconds: 20) { !warnings.texts("write-stall").isEmpty }
        let waited = Date().timeIntervalSince(stalledAt)
        XCTAssertEqual(warnings.texts("write-stall"), ["a write to the viewer stalled for writeStallTimeoutMs (500); connection dropped"])
        XCTAssertGreaterThanOrEqual(waited, 0.45, "dropped before writeStallTimeoutMs")
        XCTAssertEqual(writes.stalledWrites, 1, "one write at a time: the later frames wait behind it")
        XCTAssertTrue(warnings.texts("queue-limit").isEmpty, "\(warnings.all)")
        try await until("the core detached") { !host.core.isAttached() }
        // A new connection reads: the core reconnects and replays its ring.
        let back = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(back, listener.text)
        try await host.finishRun(run)
        try await until("the run.finished") { listener.text.contains("run.finished") }
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        let last = rows.last { $0.type == "hello" }?.conn
        XCTAssertEqual(rows.filter { $0.conn == last && $0.replayed && $0.type == "node.finished" }.count, 3, "the three stuck events are replayed on the new connection")
        XCTAssertEqual(rows.last?.type, "run.finished")
    }

    func testAViewerThatNeverAnswersHelloHitsTheHandshakeTimeoutAndTheHostRetries() async throws {
        let listener = try Listener(try tempDir(), [])
        let proxy = try Proxy(targetPort: listener.port)
        defer { proxy.close() }
        proxy.mute(true)  // the upgrade goes through; the hello never reaches the listener
        let warnings = Warnings()
        let host = try SessionHost(url: proxy.url, config: AppSessionConfig(connectTimeoutMs: 5000, handshakeTimeoutMs: 300, retryIntervalMs: 200),
                                   onWarn: { warnings.add($0, $1) })
        let attached = try await host.ready(timeoutMs: 1000)
        XCTAssertFalse(attached)
        try await until("the handshake-timeout warning and a second attempt (\(warnings.all))", seconds: 20) {
            !warnings.texts("handshake-timeout").isEmpty && proxy.connections >= 2
        }
        XCTAssertFalse(host.core.isAttached())
        // The viewer answers again: the next attempt attaches.
        proxy.mute(false)
        let back = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(back, listener.text)
        await host.close()
    }

    func testBreakpointsPastMaxBreakpointsAreNotArmed() async throws {
        let flags = (0..<5).flatMap { ["--break", "tool:b\($0)"] }
        let listener = try Listener(try tempDir(), flags)
        let warnings = Warnings()
        var config = patient
        config.maxBreakpoints = 2
        let host = try SessionHost(url: listener.url, config: config, onWarn: { warnings.add($0, $1) })
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        // The hello.ack arms five matchers; the core keeps the first two, with one warning.
        XCTAssertEqual(host.core.breakpoints().map(\.name), ["b0", "b1"])
        XCTAssertEqual(warnings.texts("breakpoint-limit"), ["hello.ack: 3 breakpoints not armed: max_breakpoints is 2"])
        await host.close()
    }

    // Apple platforms only: on Linux, swift-corelibs-foundation's send does not wait for the
    // peer (measured with Swift 6.0.3: 16 MB of 8 KiB frames to a relay that stopped reading,
    // no send unfinished for 500 ms, until the core's ring bound warned buffer-overflow), so the
    // rule never fires there; maxQueueBytes and the ring bound what Linux holds
    // (docs/robustness.md, the Swift write-stall row). Not built or run on this project's CI.
    #if !canImport(FoundationNetworking)
    func testAWriteThatStallsPastWriteStallTimeoutMsDropsTheConnection() async throws {
        let listener = try Listener(try tempDir(), [])
        let proxy = try Proxy(targetPort: listener.port)
        defer { proxy.close() }
        let warnings = Warnings()
        // A queue bound far above what is sent: only the stalled write can end the connection.
        let host = try SessionHost(url: proxy.url, config: patient, onWarn: { warnings.add($0, $1) },
                                   maxQueueBytes: 256 * 1024 * 1024, writeStallTimeoutMs: 500)
        XCTAssertEqual(host.writeStallTimeoutMs, 500)
        let attached = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(attached, listener.text)
        let run = try await host.startRun("stalled-write")
        try await until("run.started at the listener") { listener.text.contains("run.started") }
        proxy.stall(true)
        // 8 KiB events, 16 MiB at most: far past the socket buffers, far below the queue bound.
        let output = "\"" + String(repeating: "y", count: 8 * 1024) + "\""
        var emitted = 0
        while warnings.texts("write-stall").isEmpty && emitted < 2000 {
            try await host.emit(.nodeFinished(payload: NodeFinished(nodeId: tool.nodeId, instanceId: tool.instanceId, output: output, durationMs: 1, status: .ok)), run: run)
            emitted += 1
            if emitted % 100 == 0 { try await Task.sleep(nanoseconds: 50_000_000) }
        }
        try await until("the write-stall warning (\(warnings.all))", seconds: 20) { !warnings.texts("write-stall").isEmpty }
        XCTAssertEqual(warnings.texts("write-stall").first,
                       "a write to the viewer stalled for writeStallTimeoutMs (500); connection dropped", "after \(emitted) events")
        XCTAssertTrue(warnings.texts("queue-limit").isEmpty, "\(warnings.all)")
        // The viewer reads again: the core reconnects and replays its ring.
        proxy.goDown()
        proxy.stall(false)
        proxy.comeUp()
        let back = try await host.ready(timeoutMs: 10_000)
        XCTAssertTrue(back, listener.text)
        try await host.finishRun(run)
        try await until("the run.finished") { listener.text.contains("run.finished") }
        await host.close()
        let status = try await listener.waitExit()
        XCTAssertEqual(status, 0, listener.text)
        let rows = try listener.rows()
        let last = rows.last { $0.type == "hello" }?.conn
        XCTAssertFalse(rows.filter { $0.conn == last && $0.replayed && $0.type == "node.finished" }.isEmpty, "no replay on the new connection")
    }
    #endif

    func testTheDefaultWarningPrinterEscapesPeerTextAndLimitsItsRate() async throws {
        let lines = SharedText()
        let printer = StderrWarnings(burst: 3, intervalMs: 200, write: { lines.append($0 + "\n") })
        printer.warn("unknown-type", "run\n== [c1] forged status line\u{1b}[31mred\u{7f}\u{9b}2J\r")
        XCTAssertEqual(lines.value, #"graphmind session: unknown-type: run\x0a== [c1] forged status line\x1b[31mred\x7f\x9b2J\x0d"# + "\n")
        for i in 0..<10 { printer.warn("flood", "\(i)") }
        XCTAssertEqual(lines.value.split(separator: "\n").count, 3)  // the burst: the first line and two of the flood
        try await Task.sleep(nanoseconds: 250_000_000)
        printer.warn("after", "quiet")
        XCTAssertEqual(lines.value.split(separator: "\n").last, "graphmind session: after: quiet (8 earlier warnings not printed: rate limit)")
        XCTAssertEqual(StderrWarnings.printable("é ok\u{2028}"), "é ok\u{2028}")  // only C0, DEL and C1
    }

    func testLimitsTheHostCannotWorkWithAreRefused() {
        XCTAssertThrowsError(try SessionHost(onWarn: { _, _ in }, maxFrameBytes: 0)) { XCTAssertTrue($0 is SessionHostError, "\($0)") }
        XCTAssertThrowsError(try SessionHost(onWarn: { _, _ in }, maxQueueBytes: -1)) { XCTAssertTrue($0 is SessionHostError, "\($0)") }
        // A replay queues the whole ring: a queue bound below it would drop every attachment.
        XCTAssertThrowsError(try SessionHost(config: AppSessionConfig(ringMaxBytes: 1 << 20), onWarn: { _, _ in }, maxQueueBytes: 1 << 19)) {
            XCTAssertTrue($0 is SessionHostError, "\($0)")
        }
        // With the ring's bound left to the core, its default (8 MiB, from the core) is checked too.
        XCTAssertEqual(WirecontractGraphmind.defaultRingMaxBytes(), 8 * 1024 * 1024)
        XCTAssertThrowsError(try SessionHost(onWarn: { _, _ in }, maxQueueBytes: 8 * 1024 * 1024 - 1)) {
            XCTAssertEqual("\($0)", "maxQueueBytes (8388607) must be at least ringMaxBytes (8388608)")
        }
        XCTAssertNoThrow(try SessionHost(onWarn: { _, _ in }, maxQueueBytes: 8 * 1024 * 1024))
        XCTAssertThrowsError(try SessionHost(onWarn: { _, _ in }, writeStallTimeoutMs: -1)) { XCTAssertTrue($0 is SessionHostError, "\($0)") }
        XCTAssertEqual(SessionHost.defaultMaxFrameBytes, 16 * 1024 * 1024)
        XCTAssertEqual(SessionHost.defaultMaxQueueBytes, 16 * 1024 * 1024)
        XCTAssertEqual(SessionHost.defaultWriteStallTimeoutMs, 30_000)
    }
}
