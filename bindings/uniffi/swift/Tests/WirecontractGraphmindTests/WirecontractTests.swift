// Mirrors the Kotlin suite (bindings/uniffi/kotlin/src/test/kotlin/dev/wirecontract/graphmind):
// every conformance vector, round trips, a frame of every registry type, range checks, matcher
// equality, the JSON helpers and a 1,000,000-deep frame on a 256 KiB thread.
//
// Run by scripts/steps/45-swift.sh on Linux (Swift 6.0.3, Swift 5 and 6 modes); on macOS,
// `swift test` in bindings/uniffi/swift after build-xcframework.sh.

import Foundation
import WirecontractGraphmind
import XCTest

struct Vector {
    let id: String
    let frame: String
    let expect: String
    let type: String?
}

/// The conformance material: shared vectors, this repository's extra vectors and every frame
/// the real graphmind-ai client sent. `shared/` is `<repo>/../shared` unless
/// `WIRECONTRACT_SHARED` says otherwise.
enum Vectors {
    /// The repository root, six levels above this file.
    static let repo: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<6 {
            url.deleteLastPathComponent()
        }
        return url
    }()

    static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["WIRECONTRACT_SHARED"] {
            return URL(fileURLWithPath: path)
        }
        return repo.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    static func lines(_ url: URL) throws -> [[String: Any]] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").compactMap { line -> [String: Any]? in
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                return nil
            }
            return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    static func vector(_ id: String, _ o: [String: Any]) -> Vector {
        Vector(id: id, frame: o["frame"] as? String ?? "", expect: o["expect"] as? String ?? "", type: o["type"] as? String)
    }

    /// `generated/examples/graphmind.jsonl`: one accepted frame of every message type the
    /// registry lists, written by `scripts/gen`.
    static func examples() throws -> [Vector] {
        try lines(repo.appendingPathComponent("generated/examples/graphmind.jsonl")).map { vector("examples/\($0["name"] as? String ?? "?")", $0) }
    }

    static func all() throws -> [Vector] {
        var out: [Vector] = []
        let files: [(String, URL)] = [
            ("conformance", shared.appendingPathComponent("vectors/graphmind/conformance.jsonl")),
            ("extra", repo.appendingPathComponent("vectors/graphmind/extra.jsonl")),
        ]
        for (label, file) in files {
            for o in try lines(file) {
                out.append(vector("\(label)/\(o["name"] as? String ?? "?")", o))
            }
        }
        let dir = shared.appendingPathComponent("real-client")
        let captures = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        precondition(captures.count >= 8, "real-client captures missing in \(dir.path)")
        for name in captures {
            for (i, o) in try lines(dir.appendingPathComponent(name)).enumerated() {
                out.append(vector("real-client/\(name.dropLast(6)):\(i + 1)", o))
            }
        }
        return out
    }
}

extension ParseResult {
    /// The verdict as the vector files spell it.
    var kind: String {
        switch self {
        case .ok: return "ok"
        case .unknownType: return "unknown-type"
        case .versionMismatch: return "version-mismatch"
        case .invalid: return "invalid"
        }
    }

    /// The envelope of an `ok` or `unknownType` result.
    var envelope: Envelope? {
        switch self {
        case .ok(let envelope), .unknownType(let envelope): return envelope
        case .versionMismatch, .invalid: return nil
        }
    }
}

/// The result a thread hands back; the semaphore orders the write before the read.
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Runs `body` on a fresh thread whose stack is only 256 KiB.
func onSmallStack<T>(_ body: @escaping @Sendable () -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.value = body()
        done.signal()
    }
    thread.stackSize = 256 * 1024
    thread.start()
    done.wait()
    return result.value!
}

/// The issues of a `ContractError.Build`, or a test failure.
func buildIssues(_ error: Error, file: StaticString = #filePath, line: UInt = #line) -> [String] {
    guard let e = error as? ContractError, case .Build(_, let issues) = e else {
        XCTFail("expected ContractError.Build, got \(error)", file: file, line: line)
        return []
    }
    return issues.map { $0.dottedPath() }
}

final class WirecontractTests: XCTestCase {
    let maxSafe: Int64 = 9_007_199_254_740_991

    func testEveryVectorGivesTheExpectedVerdictAndType() throws {
        let vectors = try Vectors.all()
        XCTAssertGreaterThan(vectors.count, 500)
        for v in vectors {
            let r = parseEnvelopeJson(frame: v.frame)
            XCTAssertEqual(r.kind, v.expect, v.id)
            if v.expect == "ok" || v.expect == "unknown-type" {
                XCTAssertEqual(r.envelope?.messageType, v.type, v.id)
            }
            // Bytes and text give the same result.
            XCTAssertEqual(parseEnvelopeJsonBytes(frame: Data(v.frame.utf8)), r, v.id)
            if case .invalid(let reason, let issues, _, _, _, _) = r {
                // No issues exactly when the frame is not JSON, too big or too deep.
                XCTAssertEqual(issues == nil, reason.hasPrefix("frame "), v.id)
            }
        }
    }

    func testEveryOkFrameRoundTripsWithUnknownFieldsAndOpaqueValuesKept() throws {
        for v in try Vectors.all() where v.expect == "ok" || v.expect == "unknown-type" {
            let r = parseEnvelopeJson(frame: v.frame)
            let envelope = try XCTUnwrap(r.envelope, v.id)
            let text = try serializeEnvelope(envelope: envelope)
            let again = parseEnvelopeJson(frame: text)
            XCTAssertEqual(again.kind, r.kind, v.id)
            XCTAssertEqual(again.envelope, envelope, v.id)
            XCTAssertEqual(try serializeEnvelope(envelope: try XCTUnwrap(again.envelope)), text, v.id)
        }
    }

    func testUnknownFieldsAtEveryLevelSurviveInWireOrder() throws {
        let frame = #"{"gm":1,"seq":7,"ts":1,"runId":"r","type":"node.finished","payload":{"nodeId":"n","usage":{"inputTokens":1,"outputTokens":2,"z":[1e400]},"durationMs":1.5,"status":"ok","x":{"\udc00":"\ud800"},"__proto__":{}},"hub":true}"#
        guard case .ok(let envelope) = parseEnvelopeJson(frame: frame) else {
            return XCTFail("not ok")
        }
        XCTAssertEqual(envelope.extraJson, #"{"hub":true}"#)
        guard case .nodeFinished(let payload) = envelope.message else {
            return XCTFail("not node.finished")
        }
        XCTAssertEqual(payload.extraJson, #"{"x":{"\udc00":"\ud800"},"__proto__":{}}"#)
        XCTAssertEqual(payload.usage?.extraJson, #"{"z":[1e400]}"#)
        XCTAssertEqual(try serializeEnvelope(envelope: envelope), frame)
    }

    func testTheBatchApiGivesTheSameResultsAsOneCallPerFrame() throws {
        let vectors = try Vectors.all()
        let frames = vectors.map(\.frame)
        let batch = parseEnvelopesJson(frames: frames)
        let batchBytes = parseEnvelopesJsonBytes(frames: frames.map { Data($0.utf8) })
        for (i, frame) in frames.enumerated() {
            let single = parseEnvelopeJson(frame: frame)
            XCTAssertEqual(batch[i], single, vectors[i].id)
            XCTAssertEqual(batchBytes[i], single, vectors[i].id)
        }
    }

    /// One message of every known type, with most optional fields set.
    /// Hand-built messages with every optional field set, on top of `everyType()`.
    var rich: [Message] {
        let sdk = SdkInfo(name: "python", version: "0.5.1")
        let loopInfo = LoopInfo(repeats: 3, firstSeq: 1, lastSeq: 5, fingerprint: "f", kind: .cycle, period: 2, laps: 1)
        let usage = TokenUsage(inputTokens: 1, outputTokens: 2, inclusive: true, cacheReadTokens: 0, reasoningTokens: maxSafe)
        return [
            .runStarted(payload: RunStarted(app: "a", sdk: sdk, meta: #"{"k":[1,"x"],"big":1e400}"#)),
            .runFinished(payload: RunFinished(status: .error, error: ErrorInfo(name: "E", message: "m", stack: "s"))),
            .graphHint(payload: GraphHint(nodes: [GraphNodeHint(nodeId: "n", kind: .tool, name: "t", parentId: "p")])),
            .nodeStarted(payload: NodeStarted(
                nodeId: "n", parentId: "root", kind: .llm, name: "m", instanceId: "i",
                input: #"{"q":"hi"}"#, collapsed: false, redaction: RedactionSummary(count: 1, keys: ["k"])
            )),
            .nodeToken(payload: NodeToken(nodeId: "n", deltas: [TokenDelta(t: .toolArgs, v: "{\"a\":")])),
            .nodeFinished(payload: NodeFinished(
                nodeId: "n", instanceId: "i", output: "null", usage: usage, durationMs: 12.5, heldMs: 0, status: .ok
            )),
            .nodeError(payload: NodeError(nodeId: "n", error: ErrorInfo(name: "E", message: "m"), heldMs: 3.25)),
            .execPaused(payload: ExecPaused(
                pauseId: "p", nodeId: "n", point: .after, reason: .loop, loopInfo: loopInfo,
                smart: SmartInfo(rule: .errorResult, detail: "d"), editable: true, instanceId: "i"
            )),
            .execRefused(payload: ExecRefused(pauseId: "p", code: .schema, message: "bad", requestId: "q")),
            .execResumed(payload: ExecResumed(pauseId: "p", action: .inject, edited: EditedValue(after: "null"), principal: "me")),
            .execResume(payload: ExecResume(pauseId: "p", action: .continue, output: "[1]", input: "{}", requestId: "q")),
            .breakpointSet(payload: BreakpointSet(matcher: BreakpointMatcher(kind: .tool))),
            .breakpointClear(payload: BreakpointClear(matcher: BreakpointMatcher(name: "x", point: .error))),
            .modeSet(payload: ModeSet(mode: .step)),
            .hello(payload: Hello(
                versions: ClientVersions(protocol: 1, client: "0.5.1"), capabilities: knownCapabilities(), app: "a", sdk: sdk
            )),
            .helloAck(payload: HelloAck(
                versions: ViewerVersions(protocol: 1, viewer: "v"), capabilities: ["pause"],
                breakpoints: [BreakpointMatcher()], mode: .run, sessionToken: "s", hubCapabilities: []
            )),
        ]
    }

    /// One message of every type the registry lists (`messageTypes()`), so that a new message
    /// type is covered without editing this file or a data file: the first accepted frame of each
    /// type in the conformance material (`Vectors.all()`), else in the generated
    /// `Vectors.examples()`, then `rich`.
    func everyType() throws -> [Message] {
        var byType: [String: Message] = [:]
        for v in try Vectors.all() + Vectors.examples() where v.expect == "ok" {
            guard case .ok(let envelope) = parseEnvelopeJson(frame: v.frame) else { continue }
            if byType[envelope.messageType] == nil { byType[envelope.messageType] = envelope.message }
        }
        let missing = messageTypes().filter { byType[$0] == nil }
        XCTAssertEqual(missing, [], "no accepted frame of \(missing) in the conformance material or generated/examples/graphmind.jsonl: run scripts/regen")
        let richTypes = try rich.map { try createEnvelope(message: $0, seq: 0, runId: "r", ts: 0).messageType }
        XCTAssertTrue(Set(richTypes).isSubset(of: Set(messageTypes())))
        return messageTypes().compactMap { byType[$0] } + rich
    }

    func testAFrameOfEveryRegistryTypeBuildsSerializesAndParsesBackEqual() throws {
        let messages = try everyType()
        XCTAssertGreaterThanOrEqual(messages.count, messageTypes().count)
        for (i, message) in messages.enumerated() {
            let envelope = try createEnvelope(message: message, seq: Int64(i), runId: "run-1", ts: 1_756_200_000_000)
            XCTAssertEqual(envelope.extraJson, "{}")
            let text = try serializeEnvelope(envelope: envelope)
            let prefix = #"{"gm":1,"seq":\#(i),"ts":1756200000000,"runId":"run-1","type":"\#(envelope.messageType)","payload":{"#
            XCTAssertTrue(text.hasPrefix(prefix), text)
            guard case .ok(let back) = parseEnvelopeJson(frame: text) else {
                return XCTFail(text)
            }
            XCTAssertEqual(back, envelope)
            XCTAssertEqual(back.message, message)
        }
    }

    func testNegativeCountersAreBuildErrorsNeverWrapped() {
        XCTAssertThrowsError(try createEnvelopeJson(messageType: "mode.set", payloadJson: #"{"mode":"step"}"#, seq: -1, runId: "r")) { error in
            XCTAssertEqual(buildIssues(error), ["seq"])
        }
        XCTAssertThrowsError(try shrinkPayloadJson(payloadJson: "{}", maxBytes: -1)) { error in
            XCTAssertEqual(buildIssues(error), ["maxBytes"])
        }
        guard case .invalid(let reason, _, _, _, _, _) = parseEnvelopeJson(frame: "{}", options: ParseOptions(maxFrameBytes: -1)) else {
            return XCTFail("a negative option is an Invalid verdict")
        }
        XCTAssertTrue(reason.hasPrefix("options.maxFrameBytes: too small"), reason)
    }

    func testCountersAbove2To53Minus1AreRefusedNeverWrapped() throws {
        let modeSet = Message.modeSet(payload: ModeSet(mode: .run))
        _ = try createEnvelope(message: modeSet, seq: maxSafe, runId: "r", ts: maxSafe)
        XCTAssertThrowsError(try createEnvelope(message: modeSet, seq: maxSafe + 1, runId: "r", ts: Int64.max)) { error in
            XCTAssertEqual(buildIssues(error), ["seq", "ts"])
        }
        var envelope = try createEnvelope(message: modeSet, seq: 1, runId: "r", ts: 0)
        envelope.ts = -1
        XCTAssertThrowsError(try serializeEnvelope(envelope: envelope)) { error in
            XCTAssertEqual(buildIssues(error), ["ts"])
        }
        let usage = TokenUsage(inputTokens: maxSafe + 1, outputTokens: -1)
        let finished = Message.nodeFinished(payload: NodeFinished(nodeId: "n", usage: usage, durationMs: 1, status: .ok))
        XCTAssertThrowsError(try createEnvelope(message: finished, seq: 1, runId: "r")) { error in
            XCTAssertEqual(buildIssues(error), ["payload.usage.inputTokens", "payload.usage.outputTokens"])
        }
        let tooBig = #"{"gm":1,"seq":9007199254740992,"ts":0,"runId":"r","type":"mode.set","payload":{"mode":"run"}}"#
        XCTAssertEqual(parseEnvelopeJson(frame: tooBig).kind, "invalid")
    }

    func testInvalidPayloadsAndUnknownTypesAreBuildErrorsNamingPathAndRule() throws {
        let deltas = #"{"nodeId":"n","deltas":[{"t":"bogus","v":"x"}]}"#
        XCTAssertThrowsError(try createEnvelopeJson(messageType: "node.token", payloadJson: deltas, seq: 1, runId: "r")) { error in
            XCTAssertEqual(buildIssues(error), ["payload.deltas.0.t"])
            guard case ContractError.Build(let reason, _)? = error as? ContractError else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, #"invalid payload for message type "node.token""#)
        }
        // One builder: any type string; unknown types are built opaque.
        XCTAssertEqual(try createEnvelopeJson(messageType: "future.x", payloadJson: "{}", seq: 1, runId: "r").message, .unknown(messageType: "future.x", payload: "{}"))
        let opaque = try createEnvelope(message: .unknown(messageType: "future.x", payload: "1"), seq: 1, runId: "r")
        XCTAssertEqual(parseEnvelopeJson(frame: try serializeEnvelope(envelope: opaque)).kind, "unknown-type")
        let known = try createEnvelope(message: .unknown(messageType: "mode.set", payload: #"{"mode":"run"}"#), seq: 1, runId: "r")
        XCTAssertEqual(known.message, .modeSet(payload: ModeSet(mode: .run)))
        XCTAssertThrowsError(try createUnknownEnvelope(messageType: "mode.set", payloadJson: "{}", seq: 1, runId: "r"))
        let unknown = try createUnknownEnvelope(messageType: "future.x", payloadJson: nil, seq: 1, runId: "r", ts: 5)
        XCTAssertEqual(unknown.message, .unknown(messageType: "future.x", payload: nil))
        XCTAssertEqual(try serializeEnvelope(envelope: unknown), #"{"gm":1,"seq":1,"ts":5,"runId":"r","type":"future.x"}"#)
        XCTAssertEqual(parseEnvelopeJson(frame: try serializeEnvelope(envelope: unknown)).kind, "unknown-type")
        let bad = Message.execResume(payload: ExecResume(pauseId: "p", action: .inject, output: "{nope"))
        XCTAssertThrowsError(try createEnvelope(message: bad, seq: 1, runId: "r")) { error in
            XCTAssertEqual(buildIssues(error), ["payload.output"])
        }
        let repeated = Message.modeSet(payload: ModeSet(mode: .run, extraJson: #"{"mode":"step"}"#))
        XCTAssertThrowsError(try createEnvelope(message: repeated, seq: 1, runId: "r")) { error in
            XCTAssertEqual(buildIssues(error), ["payload.mode"])
        }
        let envelope = try createEnvelope(message: .modeSet(payload: ModeSet(mode: .run)), seq: 1, runId: "r", ts: 0)
        var copy = envelope
        copy.messageType = "hello"
        XCTAssertThrowsError(try serializeEnvelope(envelope: copy))
        for extra in [#"{"seq":2}"#, "[]"] {
            copy = envelope
            copy.extraJson = extra
            XCTAssertThrowsError(try serializeEnvelope(envelope: copy))
        }
        copy = envelope
        copy.runId = "a\u{0}b"
        XCTAssertThrowsError(try serializeEnvelope(envelope: copy))
        copy = envelope
        copy.extraJson = #"{ "x" : 1e400 }"#
        XCTAssertEqual(try serializeEnvelope(envelope: copy), #"{"gm":1,"seq":1,"ts":0,"runId":"r","type":"mode.set","payload":{"mode":"run"},"x":1e400}"#)
    }

    func testMatcherEqualityTreatsAnAbsentPointAsBeforeAndIgnoresUnknownKeys() throws {
        XCTAssertTrue(try matchersEqual(a: BreakpointMatcher(name: "x"), b: BreakpointMatcher(name: "x", point: .before)))
        XCTAssertTrue(try matchersEqual(a: BreakpointMatcher(kind: .tool, extraJson: #"{"a":1}"#), b: BreakpointMatcher(kind: .tool)))
        XCTAssertFalse(try matchersEqual(a: BreakpointMatcher(name: "x"), b: BreakpointMatcher(name: "x", point: .after)))
        XCTAssertFalse(try matchersEqual(a: BreakpointMatcher(), b: BreakpointMatcher(kind: .tool)))
        XCTAssertTrue(try BreakpointMatcher(name: "x").sameAs(other: BreakpointMatcher(name: "x", point: .before)))
        XCTAssertEqual(BreakpointMatcher().effectivePoint(), .before)
        XCTAssertTrue(try matcherMatches(matcher: BreakpointMatcher(), kind: .llm, name: "m", point: .before))
        XCTAssertFalse(try matcherMatches(matcher: BreakpointMatcher(), kind: .llm, name: "m", point: .after))
        XCTAssertTrue(try shouldPause(mode: .step, breakpoints: [], kind: .tool, name: "t", point: .error))
        XCTAssertFalse(try shouldPause(mode: .step, breakpoints: [], kind: .tool, name: "t", point: .after))
    }

    func testOpaqueValuesCrossAsExactJsonTextAndDecodeOnRequest() throws {
        let payload = #"{"nodeId":"n","kind":"tool","name":"t","instanceId":"i","input":{"big":1e400}}"#
        let envelope = try createEnvelopeJson(messageType: "node.started", payloadJson: payload, seq: 1, runId: "r", ts: 0)
        guard case .nodeStarted(let started) = envelope.message, let input = started.input else {
            return XCTFail("no input")
        }
        XCTAssertEqual(input, #"{"big":1e400}"#)
        let tree = try decodeJson(text: input)
        XCTAssertEqual(tree, .objectValue(members: [JsonMember(name: "big", value: .numberValue(text: "1e400"))]))
        XCTAssertEqual(try encodeJson(value: tree), input)
        XCTAssertThrowsError(try decodeJson(text: "{"))
    }

    func testConstantsMatchTheContract() throws {
        XCTAssertEqual(protocolVersion(), 1)
        XCTAssertEqual(wildcardRunId(), "*")
        XCTAssertEqual(defaultMaxFrameBytes(), 16 * 1024 * 1024)
        // Expected sets from the JSON Schema (schemars' path from the declarations), not counts:
        // one `anyOf` branch per message type plus the unknown type's.
        let schema = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(exportJsonSchema().utf8)) as? [String: Any])
        XCTAssertEqual(messageTypes().count + 1, (schema["anyOf"] as? [Any])?.count)
        XCTAssertEqual(messageTypes(), eventTypes() + controlTypes() + handshakeTypes())
        let defs = try XCTUnwrap(schema["$defs"] as? [String: Any])
        let nodeKinds = try XCTUnwrap((defs["NodeKind"] as? [String: Any])?["enum"] as? [String])
        XCTAssertEqual(NodeKind.allCases.map { $0.wireValue() }, nodeKinds)
        XCTAssertEqual(payloadTypeName(messageType: "node.started"), "NodeStarted")
    }

    func testAMillionDeepFrameOnA256KiBThreadIsInvalidNotACrash() {
        let depth = 1_000_000
        let open = String(repeating: "[", count: depth)
        let close = String(repeating: "]", count: depth)
        let frame = #"{"gm":1,"seq":1,"ts":0,"runId":"r","type":"future.x","payload":"# + open + close + "}"
        let r = onSmallStack { parseEnvelopeJson(frame: frame) }
        guard case .invalid(let reason, _, _, _, _, _) = r else {
            return XCTFail(r.kind)
        }
        XCTAssertTrue(reason.contains("deeper than"), reason)
    }

    func testGarbageNeverThrowsFromAParse() {
        for bytes in [Data(), Data([0xff]), Data("{\"gm\":1".utf8), Data([0x7b, 0xff])] {
            XCTAssertEqual(parseEnvelopeJsonBytes(frame: bytes).kind, "invalid")
        }
    }
}
