// The app-side session host for Swift: the sans-IO AppSession (Rust, through uniffi) driven over
// URLSessionWebSocketTask with async gates. Hand-written, beside the generated bindings of this
// module. Spec: graphmind-session.md. No protocol rule lives here: seq, handshake, replay, gates,
// fail-open and heldMs are the core's; this file owns the socket, the clock and the waiting.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux
#endif

/// Epoch milliseconds read from a monotonic clock, fractions kept: never steps back (hold times
/// and deadlines survive wall-clock adjustments), resolves sub-millisecond holds for `heldMs`
/// (two decimals, spec §3.9), and its whole part still makes sensible frame `ts` values.
public struct MonotonicClock: Sendable {
    private let epochMs: Double
    private let start: UInt64

    /// Anchors the clock: the wall clock now, then the monotonic uptime from here on.
    public init() {
        epochMs = Date().timeIntervalSince1970 * 1000
        start = DispatchTime.now().uptimeNanoseconds
    }

    /// Now, in epoch milliseconds.
    public func nowMs() -> Double {
        epochMs + Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }
}

/// Thrown by an adapter when a gate answered `.abort`; `SessionHost.finishRun` ends the run `aborted`.
public struct RunAbortedError: Error {
    /// The aborted run (`nil`: the implicit run).
    public let runId: String?
    /// An abort of `runId`.
    public init(runId: String?) { self.runId = runId }
}

/// The host of one `AppSession` over `URLSessionWebSocketTask`.
///
/// Lazy like the core (spec T1): nothing connects until the first `emit`, `gate`, `startRun` or
/// `ready`. While detached, events are buffered by the core and gates continue (fail-open); after
/// a drop the core reconnects (200/400/800 ms, then `retryIntervalMs`) and replays its buffer.
/// An actor: every core call and every action runs on it, in order.
public actor SessionHost {
    /// Default `maxFrameBytes`: the contract's frame cap (`defaultMaxFrameBytes()`, 16 MiB).
    public static let defaultMaxFrameBytes = Int(WirecontractGraphmind.defaultMaxFrameBytes())
    /// Default `maxQueueBytes`: 16 MiB of UTF-8 frame text queued and not yet written.
    public static let defaultMaxQueueBytes = 16 * 1024 * 1024
    /// Default `writeStallTimeoutMs`: one write unfinished for 30 s (as `listen --slow-reader-timeout`).
    public static let defaultWriteStallTimeoutMs = 30_000

    /// The largest viewer message handed to the core, in UTF-8 bytes.
    public nonisolated let maxFrameBytes: Int
    /// The most frame text (UTF-8 bytes) queued for the socket and not yet written.
    public nonisolated let maxQueueBytes: Int
    /// How long one write may stay unfinished before the viewer counts as not reading (`0`: no limit).
    public nonisolated let writeStallTimeoutMs: Int

    /// The sans-IO core (state, seq, held pauses, buffered frames).
    public nonisolated let core: AppSession
    /// The clock every input is stamped with.
    public nonisolated let clock = MonotonicClock()

    private enum Outgoing {
        case text(String)
        case close(Int, String)
    }

    private let urlSession: URLSession
    private let delegate: SocketDelegate
    private let onWarn: @Sendable (String, String) -> Void
    /// Hands one frame to the socket and returns once it is written (`socketWriter` outside tests).
    private let writer: FrameWriter
    private var socket: URLSessionWebSocketTask?
    private var attempt = 0
    private var opened = false
    /// Frames and closes in the order the core produced them, each with the socket (and attempt) it is for.
    private var outbox: [(id: Int, task: URLSessionWebSocketTask, item: Outgoing)] = []
    private var sending = false
    /// UTF-8 bytes of the frames in `outbox` and the one being sent, for the current attempt.
    private var queuedBytes = 0
    /// Counts the frames handed to the socket; the watchdog of one send compares it.
    private var sendSerial = 0
    /// The serial of the send under way (`nil`: none).
    private var inFlight: Int?
    private var gates: [String: CheckedContinuation<Decision, Never>] = [:]
    private var settled: [String: Decision] = [:]
    private var waiters: [Int64: CheckedContinuation<Bool, Never>] = [:]
    private var readyResults: [Int64: Bool] = [:]
    private var aborted: Set<String> = []
    private var timer: Task<Void, Never>?
    private var timerAt: Double?

    /// - Parameters:
    ///   - url: the viewer's ingest endpoint (default `ws://127.0.0.1:4747/ingest`).
    ///   - config: the core's configuration (`idBase` defaults to random hex here).
    ///   - onWarn: called with each `warn` action's rule key and text, and with the host's own
    ///     `frame-limit`, `queue-limit` and `write-stall` warnings (default: `StderrWarnings().handler`, rate-limited,
    ///     control characters escaped).
    ///   - maxFrameBytes: the largest viewer message handed to the core, in UTF-8 bytes (default
    ///     16 MiB, the contract's frame limit). A larger one is dropped and the socket closed with
    ///     1009 (`frame-limit` warning); the core detaches (fail-open), reconnects and replays.
    ///     The socket's `maximumMessageSize` is twice this, so such a message may be buffered up to
    ///     that before it is dropped. Past it, Apple's URLSession fails the receive (a lost
    ///     connection, no warning). swift-corelibs-foundation (Linux) hands any message over
    ///     about 4 KiB over in pieces and enforces no size; the host joins them and counts the
    ///     bytes itself, refusing the message with 1009 as soon as they pass this cap
    ///     (InboundAssembler.swift).
    ///   - maxQueueBytes: frame text (UTF-8 bytes) queued for a viewer that does not read
    ///     (default 16 MiB; one frame alone is always queued). Past it the socket is cancelled
    ///     (`queue-limit` warning) and the core detaches; its ring replays on the next attachment.
    ///     At least the ring's byte bound (`ringMaxBytes`, or the core's `defaultRingMaxBytes()`,
    ///     8 MiB, when the config leaves it `nil`): a replay queues the whole ring at once.
    ///   - writeStallTimeoutMs: how long one write may stay unfinished (default 30 000 ms, as
    ///     `listen --slow-reader-timeout`; `0`: no limit). A viewer that reads too slowly for a write
    ///     to finish by then is dropped as a queue overflow is (socket cancelled, `write-stall`
    ///     warning, the core detaches, reconnects and replays its ring), so a slow reader cannot
    ///     hold the queue just under `maxQueueBytes` for ever.
    /// - Throws: `ContractError` for a configuration the core refuses (a negative timeout or
    ///   size); `SessionHostError` for a non-positive size limit, a negative `writeStallTimeoutMs`
    ///   or `maxQueueBytes` below the ring's byte bound.
    public init(
        url: String? = nil,
        config: AppSessionConfig = AppSessionConfig(),
        onWarn: @escaping @Sendable (String, String) -> Void = StderrWarnings().handler,
        maxFrameBytes: Int = SessionHost.defaultMaxFrameBytes,
        maxQueueBytes: Int = SessionHost.defaultMaxQueueBytes,
        writeStallTimeoutMs: Int = SessionHost.defaultWriteStallTimeoutMs
    ) throws {
        try self.init(url: url, config: config, onWarn: onWarn, maxFrameBytes: maxFrameBytes, maxQueueBytes: maxQueueBytes,
                      writeStallTimeoutMs: writeStallTimeoutMs, writer: SessionHost.socketWriter)
    }

    /// The public initializer's, with the frame writer given: tests pass one that stalls like a
    /// viewer that stopped reading (swift-corelibs-foundation's own `send` never waits for the
    /// peer, so on Linux only such a writer makes `writeStallTimeoutMs` fire).
    init(
        url: String? = nil,
        config: AppSessionConfig = AppSessionConfig(),
        onWarn: @escaping @Sendable (String, String) -> Void = StderrWarnings().handler,
        maxFrameBytes: Int = SessionHost.defaultMaxFrameBytes,
        maxQueueBytes: Int = SessionHost.defaultMaxQueueBytes,
        writeStallTimeoutMs: Int = SessionHost.defaultWriteStallTimeoutMs,
        writer: @escaping FrameWriter
    ) throws {
        guard maxFrameBytes > 0 else { throw SessionHostError("maxFrameBytes must be positive, got \(maxFrameBytes)") }
        guard maxQueueBytes > 0 else { throw SessionHostError("maxQueueBytes must be positive, got \(maxQueueBytes)") }
        guard writeStallTimeoutMs >= 0 else { throw SessionHostError("writeStallTimeoutMs must not be negative, got \(writeStallTimeoutMs)") }
        // A replay queues the whole ring at once: a smaller queue would drop every attachment.
        // The ring's default bound is the core's.
        let ring = config.ringMaxBytes ?? WirecontractGraphmind.defaultRingMaxBytes()
        if Int64(maxQueueBytes) < ring {
            throw SessionHostError("maxQueueBytes (\(maxQueueBytes)) must be at least ringMaxBytes (\(ring))")
        }
        self.maxFrameBytes = maxFrameBytes
        self.maxQueueBytes = maxQueueBytes
        self.writeStallTimeoutMs = writeStallTimeoutMs
        var config = config
        if config.url == nil { config.url = url }
        // The core reads the process environment (GRAPHMIND_URL, the kill switch,
        // GRAPHMIND_LOOP_*, GRAPHMIND_HIDE_*); an explicit url or config field beats it.
        if config.env == nil { config.env = ProcessInfo.processInfo.environment }
        if config.idBase == nil { config.idBase = String(format: "%06x", Int.random(in: 0..<0x1000000)) }
        core = try AppSession(config: config)
        delegate = SocketDelegate()
        urlSession = URLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
        self.onWarn = onWarn
        self.writer = writer
        delegate.host = self
    }

    /// Writes one frame on the socket: URLSession's `send`, which returns once the frame is written
    /// (on Apple platforms it waits while the viewer does not read; on Linux it does not wait).
    static let socketWriter: FrameWriter = { task, frame in try await task.send(.string(frame)) }

    /// Emits a typed event (spec §2.3) in `run` (`nil`: the implicit run). Returns the seq taken,
    /// `nil` after `close`. Throws `ContractError.Build` for a payload breaking a rule or a type
    /// the app may not send.
    @discardableResult
    public func emit(_ message: Message, run: String? = nil) throws -> Int64? {
        let seq = try core.emit(message: message, run: run, nowMs: clock.nowMs())
        pump()
        return seq
    }

    /// Queues one streamed delta of `nodeId` (`channel` `text`, `reasoning` or `tool-args`): the
    /// core batches deltas into one `node.token` per node per `tokenBatchMs` window (34 ms) and
    /// flushes a node's batch before its `node.finished`, at a run's end and at `close`.
    public func pushToken(_ nodeId: String, channel: String, value: String, run: String? = nil) throws {
        try core.pushToken(nodeId: nodeId, channel: channel, value: value, run: run, nowMs: clock.nowMs())
        pump()
    }

    /// The gate at `point` of `node` (spec §3): `.continue` at once when nothing pauses or the
    /// session is detached; otherwise when the viewer resumes, the pause times out, the connection
    /// drops (fail-open: continue) or the host closes. Cancelling the task settles the pause with
    /// `continue` (`exec.resumed` is sent). On `.abort` the run is already marked aborted: throw
    /// `RunAbortedError`.
    public func gate(_ point: PausePoint, _ node: GateNode, run: String? = nil) async -> Decision {
        // Throws only for a string holding a lone surrogate, which a Swift String cannot hold.
        guard let pauseId = try! core.gate(point: point, node: node, run: run, nowMs: clock.nowMs()) else {
            pump()
            return .continue
        }
        pump()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Decision, Never>) in
                if let decision = settled.removeValue(forKey: pauseId) {
                    continuation.resume(returning: decision)
                } else {
                    gates[pauseId] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelGate(pauseId) }
        }
    }

    /// `true` when attached (the `hello.ack`), `false` after `timeoutMs` (default the config's
    /// `readyTimeoutMs`, 2000) or when closed. Connects now when idle (spec T22). Throws
    /// `ContractError` for a timeout the core refuses (negative).
    public func ready(timeoutMs: Int64? = nil) async throws -> Bool {
        let waiter = try core.ready(nowMs: clock.nowMs(), timeoutMs: timeoutMs)
        pump()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            if let result = readyResults.removeValue(forKey: waiter) {
                continuation.resume(returning: result)
            } else {
                waiters[waiter] = continuation
            }
        }
    }

    /// Whether the viewer aborted `runId` (an `abortRun` action arrived).
    public func isAborted(_ runId: String) -> Bool { aborted.contains(runId) }

    /// Starts a run: the core emits `run.started` with the config's `app` and `sdk` and `meta`
    /// = `{"name": name}` followed by the members of `metaJson` (a JSON object text; its own
    /// `name` wins). Returns the run id for `emit`, `gate` and `finishRun`. Throws
    /// `ContractError.Build` when `metaJson` is not a JSON object.
    public func startRun(_ name: String, metaJson: String? = nil, runId: String? = nil) throws -> String {
        let id = runId ?? "run_" + String(format: "%012llx", UInt64.random(in: 0..<(1 << 48)))
        _ = try core.startRun(runId: id, name: name, metaJson: metaJson, nowMs: clock.nowMs())
        pump()
        return id
    }

    /// Ends a run: `ok` without `error`; `error` with it, or `aborted` for a `RunAbortedError` or
    /// a `CancellationError` (the task was cancelled).
    /// The core makes it `aborted` whenever the viewer aborted the run.
    public func finishRun(_ runId: String, error: Error? = nil) throws {
        let end: RunEnd
        if error is RunAbortedError || error is CancellationError {
            end = .aborted
        } else if let error = error {
            end = .failed(name: String(describing: type(of: error)), message: String(describing: error), stack: nil)
        } else {
            end = .ok
        }
        _ = try core.finishRun(runId: runId, end: end, nowMs: clock.nowMs())
        pump()
    }

    /// Disposes the core (spec §2.5: every held gate gets `exec.resumed{continue}`, the implicit
    /// run finishes, the socket closes with 1000) and waits up to `flushTimeoutMs` for the frames.
    public func close(flushTimeoutMs: Int64 = 1000) async {
        try! core.dispose(nowMs: clock.nowMs())
        pump()
        let deadline = clock.nowMs() + Double(flushTimeoutMs)
        while (sending || !outbox.isEmpty) && clock.nowMs() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        timer?.cancel()
        socket?.cancel(with: .normalClosure, reason: nil)
        socket = nil
        urlSession.invalidateAndCancel()
    }

    // MARK: carrying out actions

    private func pump() {
        for action in core.pollActions() {
            switch action {
            case .send(let frame):
                enqueue(.text(frame))
            case .release(let pauseId, let decision, _):
                if let continuation = gates.removeValue(forKey: pauseId) {
                    continuation.resume(returning: decision)
                } else {
                    settled[pauseId] = decision
                }
            case .connect(let url):
                connect(url)
            case .close(let code, let reason):
                enqueue(.close(Int(code), reason))
                attempt += 1
                opened = false
                socket = nil
                queuedBytes = 0
            case .abortRun(let runId):
                aborted.insert(runId)
            case .readySettled(let waiter, let attached):
                if let continuation = waiters.removeValue(forKey: waiter) {
                    continuation.resume(returning: attached)
                } else {
                    readyResults[waiter] = attached
                }
            case .warn(let rule, let text):
                onWarn(rule, text)
            }
        }
        follow(core.pollTimeout())
    }

    private func follow(_ deadline: Double?) {
        if deadline == timerAt { return }
        timer?.cancel()
        timerAt = deadline
        guard let deadline = deadline else { return }
        let now = clock.nowMs()
        let delay = deadline > now ? deadline - now : 0
        timer = Task { [weak self] in
            try? await Task.sleep(nanoseconds: SessionHost.sleepNanoseconds(delay))
            if Task.isCancelled { return }
            await self?.fire()
        }
    }

    /// The longest single timer sleep: 1 hour. The core accepts timeouts up to 2^53-1 ms, whose
    /// nanoseconds overflow `UInt64` (the conversion would trap) and whose huge sleeps the
    /// runtime may mishandle; a longer wait sleeps in steps, each ending in `fire`, where the
    /// core, not yet due, sets the same deadline again.
    static let maxSleepNanoseconds: UInt64 = 3_600_000_000_000

    /// `delayMs` as nanoseconds for one sleep, saturated at `maxSleepNanoseconds`.
    static func sleepNanoseconds(_ delayMs: Double) -> UInt64 {
        let nanoseconds = delayMs * 1_000_000
        return nanoseconds < Double(maxSleepNanoseconds) ? UInt64(max(nanoseconds, 0)) : maxSleepNanoseconds
    }

    private func fire() {
        timerAt = nil
        try! core.handleTimeout(nowMs: clock.nowMs())
        pump()
    }

    private func cancelGate(_ pauseId: String) {
        if let continuation = gates.removeValue(forKey: pauseId) {
            _ = try? core.cancel(pauseId: pauseId, nowMs: clock.nowMs())
            pump()
            if let decision = settled.removeValue(forKey: pauseId) {
                continuation.resume(returning: decision)
            } else {
                continuation.resume(returning: .continue)
            }
        }
    }

    private func connect(_ url: String) {
        attempt += 1
        opened = false
        queuedBytes = 0
        guard let endpoint = URL(string: url) else {
            try! core.transportFailed(nowMs: clock.nowMs())
            return
        }
        var request = URLRequest(url: endpoint)
        // FoundationNetworking (Linux) otherwise sends `Connection: keep-alive` with the upgrade,
        // which RFC 6455 §4.1 servers refuse; Apple's URLSession writes this header itself.
        request.setValue("Upgrade", forHTTPHeaderField: "Connection")
        let task = urlSession.webSocketTask(with: request)
        // Twice maxFrameBytes, so that a message somewhat over the cap reaches `receive` whole and
        // is refused there with 1009. Apple's URLSession fails the receive of a larger one (a lost
        // connection to the host); swift-corelibs-foundation only sizes libcurl's receive buffer
        // with it and hands a larger message over in pieces no bigger than the buffer.
        task.maximumMessageSize = maxFrameBytes > Int.max / 2 ? Int.max : 2 * maxFrameBytes
        delegate.register(task: task, attempt: attempt)
        socket = task
        task.resume()
    }

    /// The delegate saw the socket of `id` open.
    fileprivate func socketOpened(_ id: Int) {
        guard id == attempt, let task = socket else { return }
        opened = true
        try! core.transportOpened(nowMs: clock.nowMs())
        pump()
        Task { await self.receive(task, id) }
    }

    /// The socket of `id` failed or closed.
    fileprivate func socketLost(_ id: Int) {
        guard id == attempt else { return }
        attempt += 1
        let wasOpen = opened
        opened = false
        socket?.cancel()
        socket = nil
        outbox.removeAll { $0.id == id }
        queuedBytes = 0
        if wasOpen {
            try! core.transportClosed(nowMs: clock.nowMs())
        } else {
            try! core.transportFailed(nowMs: clock.nowMs())
        }
        pump()
    }

    private func receive(_ task: URLSessionWebSocketTask, _ id: Int) async {
        // Linux returns long messages in pieces and enforces no size limit: InboundAssembler.swift.
        var assembler = InboundAssembler(cap: maxFrameBytes)
        while id == attempt {
            do {
                let message = try await task.receive()
                guard id == attempt else { return }
                // Frames are text messages; a binary message is ignored, as the JVM host does.
                if case .string(let piece) = message {
                    switch assembler.add(piece) {
                    case .partial:
                        continue
                    case .message(let text):
                        try! core.frameReceived(frame: text, nowMs: clock.nowMs())
                    case .tooBig(let size):
                        frameTooBig(task, id, size)
                        return
                    }
                }
                pump()
            } catch {
                socketLost(id)
                return
            }
        }
    }

    /// A viewer message over `maxFrameBytes`: dropped unread, the socket closed with 1009, the
    /// core detached (fail-open; it reconnects and replays).
    private func frameTooBig(_ task: URLSessionWebSocketTask, _ id: Int, _ size: Int) {
        onWarn("frame-limit", "a viewer message of \(size) bytes exceeded maxFrameBytes (\(maxFrameBytes)); closed with 1009")
        task.cancel(with: .messageTooBig, reason: Data("message too big".utf8))
        socket = nil  // socketLost must not abort the socket before the close frame leaves
        socketLost(id)
    }

    private func enqueue(_ item: Outgoing) {
        guard let task = socket else { return }
        if case .text(let frame) = item {
            let size = frame.utf8.count
            if queuedBytes > 0 && queuedBytes + size > maxQueueBytes {
                // The viewer stopped reading: give the connection up (the core replays its ring on
                // the next attachment) instead of queueing without bound. No close frame can be
                // written behind the stuck sends, so the socket is cancelled outright.
                onWarn("queue-limit", "the viewer stopped reading: over maxQueueBytes (\(maxQueueBytes)) queued; connection dropped")
                let id = attempt
                task.cancel()
                socketLost(id)
                return
            }
            queuedBytes += size
        }
        outbox.append((id: attempt, task: task, item: item))
        if !sending {
            sending = true
            Task { await self.drain() }
        }
    }

    /// A watchdog on the send `serial` of attempt `id`: if it is still under way after
    /// `writeStallTimeoutMs`, the viewer reads too slowly; the socket is cancelled (no close frame
    /// can be written behind the stuck send) and the core detaches (it reconnects and replays).
    private func watchStall(_ serial: Int, _ id: Int, _ task: URLSessionWebSocketTask) -> Task<Void, Never>? {
        guard writeStallTimeoutMs > 0 else { return nil }
        let delay = SessionHost.sleepNanoseconds(Double(writeStallTimeoutMs))
        return Task { [weak self] in
            try? await Task.sleep(nanoseconds: delay)
            if Task.isCancelled { return }
            await self?.stalled(serial, id, task)
        }
    }

    private func stalled(_ serial: Int, _ id: Int, _ task: URLSessionWebSocketTask) {
        guard inFlight == serial, id == attempt else { return }
        onWarn("write-stall", "a write to the viewer stalled for writeStallTimeoutMs (\(writeStallTimeoutMs)); connection dropped")
        task.cancel()
        socketLost(id)
    }

    /// Sends the outbox in order, one item at a time (a socket takes one send at a time).
    private func drain() async {
        while !outbox.isEmpty {
            let next = outbox.removeFirst()
            switch next.item {
            case .text(let frame):
                sendSerial += 1
                let serial = sendSerial
                inFlight = serial
                let watchdog = watchStall(serial, next.id, next.task)
                do {
                    try await writer(next.task, frame)
                } catch {
                    socketLost(next.id)
                }
                inFlight = nil
                watchdog?.cancel()
                if next.id == attempt { queuedBytes -= frame.utf8.count }
            case .close(let code, let reason):
                let closeCode = URLSessionWebSocketTask.CloseCode(rawValue: code) ?? .normalClosure
                next.task.cancel(with: closeCode, reason: reason.data(using: .utf8))
                outbox.removeAll { $0.id == next.id }
            }
        }
        sending = false
    }
}

/// How `SessionHost` writes one text frame on a socket; returns once it is written, throws when the
/// socket fails. The write-stall rule (`writeStallTimeoutMs`) watches each call.
typealias FrameWriter = @Sendable (URLSessionWebSocketTask, String) async throws -> Void

/// Forwards `URLSession` socket events to the host, tagged with the attempt they belong to.
private final class SocketDelegate: NSObject, URLSessionWebSocketDelegate, @unchecked Sendable {
    weak var host: SessionHost?
    private let lock = NSLock()
    private var attempts: [Int: Int] = [:]

    func register(task: URLSessionWebSocketTask, attempt: Int) {
        lock.lock()
        attempts[task.taskIdentifier] = attempt
        lock.unlock()
    }

    private func attempt(of task: URLSessionTask) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return attempts[task.taskIdentifier]
    }

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?) {
        guard let id = attempt(of: webSocketTask), let host = host else { return }
        Task { await host.socketOpened(id) }
    }

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        guard let id = attempt(of: webSocketTask), let host = host else { return }
        Task { await host.socketLost(id) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let id = attempt(of: task), let host = host else { return }
        Task { await host.socketLost(id) }
    }
}

/// A limit given to `SessionHost.init` that it cannot work with.
public struct SessionHostError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The default `onWarn` of `SessionHost`: one stderr line per warning, control characters (C0,
/// DEL, C1) escaped as `\xNN` so peer text cannot forge lines or drive a terminal, at most `burst`
/// lines per `intervalMs`; the lines over it are counted and reported with the next line written.
public final class StderrWarnings: @unchecked Sendable {
    private let burst: Int
    private let intervalNs: UInt64
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private var windowStart = DispatchTime.now().uptimeNanoseconds
    private var used = 0
    private var suppressed = 0

    /// - Parameters:
    ///   - burst: lines written per interval (default 20).
    ///   - intervalMs: the interval (default 10 000 ms).
    ///   - write: where a line goes (default: standard error, with a newline).
    public init(burst: Int = 20, intervalMs: Int = 10_000, write: @escaping @Sendable (String) -> Void = StderrWarnings.standardError) {
        self.burst = burst
        intervalNs = UInt64(max(intervalMs, 0)) * 1_000_000
        self.write = write
    }

    /// Writes `line` and a newline to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// This printer as a `SessionHost` `onWarn` (a method reference is no `@Sendable` closure).
    public var handler: @Sendable (String, String) -> Void {
        { rule, text in self.warn(rule, text) }
    }

    /// Writes one warning line, or counts it when over the rate.
    public func warn(_ rule: String, _ text: String) {
        lock.lock()
        let now = DispatchTime.now().uptimeNanoseconds
        if now - windowStart >= intervalNs {
            windowStart = now
            used = 0
        }
        if used >= burst {
            suppressed += 1
            lock.unlock()
            return
        }
        used += 1
        let note = suppressed > 0 ? " (\(suppressed) earlier warnings not printed: rate limit)" : ""
        suppressed = 0
        lock.unlock()
        write("graphmind session: \(Self.printable(rule)): \(Self.printable(text))\(note)")
    }

    /// `s` with control characters (C0, DEL, C1) escaped as `\xNN`.
    public static func printable(_ s: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(s.unicodeScalars.count)
        for scalar in s.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                out += "\\x" + String(format: "%02x", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
