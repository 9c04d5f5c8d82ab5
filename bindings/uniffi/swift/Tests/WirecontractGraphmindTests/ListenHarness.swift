// What SessionHostTests drive the host against: `wirecontract listen` as a child process with a
// record file, a loopback TCP relay that can drop every connection (an outage), and the checks
// every record gets (the ones bindings/cli/tests/listen_real_client.py makes of the Python
// client's records, that apply to any app).

import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Polls `cond` every 5 ms until it holds; throws after `seconds`.
func until(_ what: String, seconds: Double = 10, _ cond: () async -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !(await cond()) {
        guard Date() < deadline else { throw HarnessError("timed out waiting for \(what)") }
        try await Task.sleep(nanoseconds: 5_000_000)
    }
}

/// Text guarded by a lock, appended from a reader thread.
final class SharedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func append(_ more: String) {
        lock.lock()
        text += more
        lock.unlock()
    }

    var value: String {
        lock.lock()
        defer { lock.unlock() }
        return text
    }
}

/// `wirecontract listen --listen 127.0.0.1:0 --record DIR/record.jsonl --exit-after-runs N FLAGS`;
/// the CLI is `WIRECONTRACT_CLI` (45-swift.sh passes the one cargo built).
final class Listener: @unchecked Sendable {
    let record: URL
    let url: String
    let port: UInt16
    private let process = Process()
    private let output = SharedText()

    init(_ dir: URL, _ flags: [String], runs: Int = 1) throws {
        guard let cli = ProcessInfo.processInfo.environment["WIRECONTRACT_CLI"], FileManager.default.isExecutableFile(atPath: cli) else {
            throw HarnessError("WIRECONTRACT_CLI does not name the wirecontract CLI (45-swift.sh sets it)")
        }
        record = dir.appendingPathComponent("record.jsonl")
        process.executableURL = URL(fileURLWithPath: cli)
        process.arguments = ["listen", "--listen", "127.0.0.1:0", "--record", record.path, "--exit-after-runs", String(runs)] + flags
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        var first = Data()
        while true {
            let byte = reader.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            first.append(byte)
        }
        let line = String(decoding: first, as: UTF8.self)
        guard line.hasPrefix("listening on ws://") else {
            process.terminate()
            throw HarnessError("listener said: \(line)")
        }
        url = String(line.dropFirst("listening on ".count))
        guard let port = UInt16(url.split(separator: ":").last?.split(separator: "/").first ?? "") else {
            throw HarnessError("no port in \(url)")
        }
        self.port = port
        let output = self.output
        Thread {
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return }
                output.append(String(decoding: chunk, as: UTF8.self))
            }
        }.start()
    }

    var text: String { output.value }

    /// Waits (10 s at most) for the listener to exit by itself; its exit status.
    func waitExit() async throws -> Int32 {
        try await until("the listener's exit:\n\(text)") { !process.isRunning }
        return process.terminationStatus
    }

    /// The record, one object per frame, each with its parsed `frame` under `env`.
    func rows() throws -> [[String: Any]] {
        try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map { line in
            guard var row = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let frame = row["frame"] as? String,
                  let env = try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any]
            else { throw HarnessError("bad record line \(line)") }
            row["env"] = env
            return row
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

extension Dictionary where Key == String, Value == Any {
    var dir: String { self["dir"] as? String ?? "" }
    var type: String { self["type"] as? String ?? "" }
    var conn: Int { self["conn"] as? Int ?? 0 }
    var replayed: Bool { self["replayed"] as? Bool ?? false }
    var duplicate: Bool { self["duplicate"] as? Bool ?? false }
    var env: [String: Any] { self["env"] as? [String: Any] ?? [:] }
    var seq: Int { env["seq"] as? Int ?? -1 }
    var runId: String { env["runId"] as? String ?? "" }
    var payload: [String: Any] { env["payload"] as? [String: Any] ?? [:] }
}

/// The message types of the record in one direction (`app->viewer`, `viewer->app`).
func types(_ rows: [[String: Any]], _ dir: String) -> [String] {
    rows.filter { $0.dir == dir }.map(\.type)
}

/// The checks every record gets: each frame parsed `ok` with the type its envelope names; each
/// hello acknowledged on its connection; per connection and run, app seqs strictly increase, and a
/// frame is `replayed` exactly when its seq is below its connection's hello seq; a `duplicate`
/// repeats a first-seen frame byte for byte; every first-seen `exec.paused` gets exactly one
/// `exec.resumed` after it, and the listener resumes only live pauses, each once, on their
/// connection.
func checkCommon(_ rows: [[String: Any]], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertFalse(rows.isEmpty, "empty record", file: file, line: line)
    for (n, row) in rows.enumerated() {
        XCTAssertEqual(row["expect"] as? String, "ok", "line \(n + 1): \(row["frame"] ?? "")", file: file, line: line)
        XCTAssertEqual(row.type, row.env["type"] as? String, "type of line \(n + 1)", file: file, line: line)
        if row.type == "hello" {
            let ack = rows[(n + 1)...].first { $0.conn == row.conn && $0.dir == "viewer->app" }
            XCTAssertEqual(ack?.type, "hello.ack", "hello on line \(n + 1) has no ack", file: file, line: line)
        }
    }
    var helloSeq: [Int: Int] = [:]
    var last: [String: Int] = [:]
    var first: [String: String] = [:]
    for row in rows where row.dir == "app->viewer" {
        if row.type == "hello" {
            helloSeq[row.conn] = row.seq
            continue
        }
        let key = "\(row.conn) \(row.runId)"
        XCTAssertGreaterThan(row.seq, last[key] ?? -1, "seq not increasing on conn \(row.conn) run \(row.runId)", file: file, line: line)
        last[key] = row.seq
        XCTAssertEqual(row.replayed, row.seq < (helloSeq[row.conn] ?? Int.max), "replayed flag of seq \(row.seq)", file: file, line: line)
        let id = "\(row.runId) \(row.seq)"
        if row.duplicate {
            XCTAssertEqual(first[id], row["frame"] as? String, "a duplicate differs from its first sending", file: file, line: line)
        } else {
            XCTAssertNil(first[id], "\(id) repeated but not marked duplicate", file: file, line: line)
            first[id] = row["frame"] as? String
        }
    }
    let seen = rows.filter { $0.dir == "app->viewer" && !$0.duplicate }
    let paused = seen.filter { $0.type == "exec.paused" }
    for pause in paused {
        let id = pause.payload["pauseId"] as? String
        let resumed = seen.filter { $0.type == "exec.resumed" && $0.payload["pauseId"] as? String == id }
        XCTAssertEqual(resumed.count, 1, "pause \(id ?? "?") has \(resumed.count) exec.resumed", file: file, line: line)
    }
    let live = Dictionary(paused.filter { !$0.replayed }.map { ($0.payload["pauseId"] as? String ?? "", $0.conn) }, uniquingKeysWith: { a, _ in a })
    let resumes = rows.filter { $0.dir == "viewer->app" && $0.type == "exec.resume" }.map { ($0.payload["pauseId"] as? String ?? "", $0.conn) }
    XCTAssertEqual(Set(resumes.map(\.0)).count, resumes.count, "a pause resumed twice", file: file, line: line)
    for (id, conn) in resumes {
        XCTAssertEqual(live[id], conn, "resume of \(id) on conn \(conn)", file: file, line: line)
    }
}

/// A loopback TCP relay to `targetPort` that can go down (drop every relayed connection and
/// refuse new ones, like a network outage) and come back up while the listener keeps running;
/// that can stop reading from the app (a viewer that stops reading); that can slip raw bytes
/// to the app right after the listener's handshake response (a hostile viewer's frame); and that
/// can let the WebSocket upgrade through and swallow everything the app sends after it (a viewer
/// that never answers `hello`).
final class Proxy: @unchecked Sendable {
    let url: String
    private let server: Int32
    private let lock = NSLock()
    private var open: [Int32] = []
    private var apps: [Int32] = []
    private var isDown = false
    private var isStalled = false
    private var isMuted = false
    private var injection: Data?
    private var count = 0

    init(targetPort: UInt16) throws {
        // A write to a connection the app already dropped must fail, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let server = socket(AF_INET, Proxy.stream, 0)
        guard server >= 0, Proxy.bind(server, port: 0), listen(server, 16) == 0 else { throw HarnessError("proxy: cannot listen") }
        var addr = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(server, $0, &len) } }
        self.server = server
        url = "ws://127.0.0.1:\(UInt16(bigEndian: addr.sin_port))/ingest"
        Thread { [self, server] in
            while true {
                let client = accept(server, nil, nil)
                if client < 0 { return }
                let upstream = socket(AF_INET, Proxy.stream, 0)
                lock.lock()
                let refuse = isDown
                lock.unlock()
                if refuse || !Proxy.connect(upstream, port: targetPort) {
                    _ = sysClose(client)
                    _ = sysClose(upstream)
                    continue
                }
                lock.lock()
                count += 1
                open += [client, upstream]
                apps.append(client)
                lock.unlock()
                Thread { [self] in pump(client, upstream, toApp: false) }.start()
                Thread { [self] in pump(upstream, client, toApp: true) }.start()
            }
        }.start()
    }

    /// How many connections were relayed.
    var connections: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    /// Writes `text` as one unmasked WebSocket text frame (RFC 6455 §5.2, as a server sends it)
    /// to the app's side of the newest connection, in the background (a large frame outlasts the
    /// app's reading when the app refuses it). Call it only while the listener sends nothing.
    func sendToApp(_ text: String) {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(127)
            frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (8 * UInt64($0))) & 0xFF) }
        }
        frame += payload
        let bytes = frame
        lock.lock()
        let app = apps.last
        lock.unlock()
        guard let app = app else { return }
        Thread {
            var sent = 0
            while sent < bytes.count {
                let m = bytes.withUnsafeBytes { write(app, $0.baseAddress! + sent, bytes.count - sent) }
                if m <= 0 { return }
                sent += m
            }
        }.start()
    }

    func goDown() {
        lock.lock()
        isDown = true
        let sockets = open
        open = []
        lock.unlock()
        for fd in sockets { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }

    /// Stops (`true`) or restarts relaying what the app sends: the app's writes back up.
    func stall(_ on: Bool) {
        lock.lock()
        isStalled = on
        lock.unlock()
    }

    /// Swallows (`true`) what the app sends after its upgrade request, on every connection, or
    /// relays it again: the listener never sees the app's `hello`.
    func mute(_ on: Bool) {
        lock.lock()
        isMuted = on
        lock.unlock()
    }

    private var muted: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isMuted
    }

    /// Sends `bytes` to the next app connection right after the listener's handshake response.
    func inject(_ bytes: Data) {
        lock.lock()
        injection = bytes
        lock.unlock()
    }

    private var stalled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isStalled
    }

    private func takeInjection() -> Data? {
        lock.lock()
        defer { lock.unlock() }
        let bytes = injection
        injection = nil
        return bytes
    }

    func comeUp() {
        lock.lock()
        isDown = false
        lock.unlock()
    }

    func close() {
        goDown()
        _ = shutdown(server, Int32(SHUT_RDWR))
        _ = sysClose(server)
    }

    #if os(Linux)
    private static let stream = Int32(SOCK_STREAM.rawValue)
    #else
    private static let stream = SOCK_STREAM
    #endif

    private static func address(_ port: UInt16) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return addr
    }

    private static func bind(_ fd: Int32, port: UInt16) -> Bool {
        var addr = address(port)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sysBind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func connect(_ fd: Int32, port: UInt16) -> Bool {
        var addr = address(port)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sysConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private func pump(_ from: Int32, _ to: Int32, toApp: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Toward the app: the handshake response until its blank line, then any injection.
        var head: [UInt8]? = toApp ? [] : nil
        // From the app: its upgrade request until the blank line (then `mute` may swallow the rest).
        var request: [UInt8]? = toApp ? nil : []
        while true {
            while !toApp && stalled { usleep(5000) }
            let n = buffer.withUnsafeMutableBytes { read(from, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var chunk = Array(buffer[0..<n])
            if !toApp {
                if var seen = request {
                    let start = seen.count
                    seen += chunk
                    if let end = (max(0, start - 3)..<seen.count).first(where: { i in i + 4 <= seen.count && Array(seen[i..<i + 4]) == [13, 10, 13, 10] }) {
                        request = nil
                        if muted { chunk = Array(chunk[0..<(end + 4 - start)]) }
                    } else {
                        request = seen
                    }
                } else if muted {
                    continue
                }
            }
            if var seen = head {
                let start = seen.count
                seen += chunk
                let end = (max(0, start - 3)..<seen.count).first { i in i + 4 <= seen.count && Array(seen[i..<i + 4]) == [13, 10, 13, 10] }
                if let end = end {
                    let split = end + 4 - start
                    if let extra = takeInjection() {
                        // The response alone first, so the app's client reads the injection as one piece.
                        if !Proxy.writeAll(to, Array(chunk[0..<split])) { break }
                        usleep(50_000)
                        chunk = [UInt8](extra) + chunk[split...]
                    }
                    head = nil
                } else {
                    head = seen
                }
            }
            if !Proxy.writeAll(to, chunk) { break }
        }
        _ = shutdown(from, Int32(SHUT_RDWR))
        _ = shutdown(to, Int32(SHUT_RDWR))
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let m = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + sent, bytes.count - sent) }
            if m <= 0 { return false }
            sent += m
        }
        return true
    }
}

// The C functions whose names the Proxy's own methods shadow.
private func sysClose(_ fd: Int32) -> Int32 { close(fd) }
private func sysBind(_ fd: Int32, _ addr: UnsafePointer<sockaddr>, _ len: socklen_t) -> Int32 { bind(fd, addr, len) }
private func sysConnect(_ fd: Int32, _ addr: UnsafePointer<sockaddr>, _ len: socklen_t) -> Int32 { connect(fd, addr, len) }

/// An unmasked WebSocket text frame (a server's) holding `payload`.
func serverTextFrame(_ payload: Data) -> Data {
    var frame = Data([0x81])
    if payload.count < 126 {
        frame.append(UInt8(payload.count))
    } else if payload.count < 65536 {
        frame += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    } else {
        frame.append(127)
        frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (8 * UInt64($0))) & 0xff) }
    }
    return frame + payload
}

/// Warnings given to a host's `onWarn`, kept for the test.
final class Warnings: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(rule: String, text: String)] = []

    func add(_ rule: String, _ text: String) {
        lock.lock()
        entries.append((rule, text))
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries.map { "\($0.rule): \($0.text)" }
    }

    func texts(_ rule: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return entries.filter { $0.rule == rule }.map(\.text)
    }
}
