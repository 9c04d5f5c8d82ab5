// Mirrors the Kotlin suite (bindings/uniffi/kotlin/src/test/kotlin/dev/wirecontract/graphorin)
// and contract/tests/integration/graphorin_conformance.rs: every shared and extra Graphorin vector (verdict,
// variant, exactly one guard, syntax vs schema), the byte-for-byte round trip of every canonical
// ok frame, ids keeping their JSON type, coded issues and the raw id, building legal frames only,
// the catalogues, the subprotocol helpers, and a 1,000,000-deep frame on a 256 KiB thread.
//
// Run by scripts/steps/45-swift.sh on Linux (Swift 6.0.3, Swift 5 and 6 modes); on macOS,
// `swift test` in bindings/uniffi/swift after build-xcframework.sh.

import Foundation
import WirecontractGraphorin
import XCTest

struct GraphorinVector {
    let id: String
    let name: String
    let direction: String
    let frame: String
    let expect: String
    let variant: String?
    let why: String
}

/// The shared vectors and this repository's extra vectors (every `.jsonl` in
/// `vectors/graphorin`). `shared/` is `<repo>/../shared` unless `WIRECONTRACT_SHARED` says
/// otherwise.
enum GraphorinVectors {
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

    static func vector(_ label: String, _ o: [String: Any]) -> GraphorinVector {
        let name = o["name"] as? String ?? "?"
        return GraphorinVector(
            id: "\(label)/\(name)", name: name, direction: o["direction"] as? String ?? "",
            frame: o["frame"] as? String ?? "", expect: o["expect"] as? String ?? "",
            variant: o["variant"] as? String, why: o["why"] as? String ?? ""
        )
    }

    static func all() throws -> [GraphorinVector] {
        var out = try lines(shared.appendingPathComponent("vectors/graphorin/conformance.jsonl")).map { vector("conformance", $0) }
        precondition(out.count == 110, "expected the 110 shared Graphorin vectors, found \(out.count)")
        let dir = repo.appendingPathComponent("vectors/graphorin")
        let own = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        for file in own {
            out += try lines(dir.appendingPathComponent(file)).map { vector(String(file.dropLast(6)), $0) }
        }
        precondition(out.count >= 160, "our extra Graphorin vectors are missing")
        return out
    }
}

/// A parsed frame of either direction, or the parse error.
enum Parsed: Equatable {
    case server(ServerMessage)
    case client(ClientMessage)
    case failed(ParseError)
}

func parse(_ direction: String, _ frame: String) -> Parsed {
    do {
        return direction == "server" ? .server(try parseServerMessage(frame: frame)) : .client(try parseClientMessage(frame: frame))
    } catch let e as ParseError {
        return .failed(e)
    } catch {
        fatalError("not a ParseError: \(error)")
    }
}

func parseBytes(_ direction: String, _ frame: Data) -> Parsed {
    do {
        return direction == "server" ? .server(try parseServerMessageBytes(frame: frame)) : .client(try parseClientMessageBytes(frame: frame))
    } catch let e as ParseError {
        return .failed(e)
    } catch {
        fatalError("not a ParseError: \(error)")
    }
}

extension ServerMessage {
    /// The wire name of the variant, spelled here independently of the library.
    var wire: String {
        switch self {
        case .rpcSuccess: return "rpc-success"
        case .rpcFailure: return "rpc-failure"
        case .subscribed: return "subscribed"
        case .unsubscribed: return "unsubscribed"
        case .event: return "event"
        case .lifecycle: return "lifecycle"
        case .errorFrame: return "error"
        case .pong: return "pong"
        case .replayMarker: return "replay-marker"
        }
    }
}

extension ClientMessage {
    /// The wire name of the variant (its `method`), spelled here independently.
    var wire: String {
        switch self {
        case .initialize: return "initialize"
        case .subscribe: return "subscription.subscribe"
        case .unsubscribe: return "subscription.unsubscribe"
        case .runCancel: return "run.cancel"
        case .ping: return "ping"
        case .cancelledNotification: return "notifications/cancelled"
        }
    }
}

let serverGuards: [(String, @Sendable (ServerMessage) -> Bool)] = [
    ("rpc-success", { isRpcSuccess(message: $0) }),
    ("rpc-failure", { isRpcFailure(message: $0) }),
    ("subscribed", { isSubscribedFrame(message: $0) }),
    ("unsubscribed", { isUnsubscribedFrame(message: $0) }),
    ("event", { isEventFrame(message: $0) }),
    ("lifecycle", { isLifecycleFrame(message: $0) }),
    ("error", { isErrorFrame(message: $0) }),
    ("pong", { isPongFrame(message: $0) }),
    ("replay-marker", { isReplayMarkerFrame(message: $0) }),
]

let clientGuards: [(String, @Sendable (ClientMessage) -> Bool)] = [
    ("initialize", { isInitializeRequest(message: $0) }),
    ("subscription.subscribe", { isSubscribeRequest(message: $0) }),
    ("subscription.unsubscribe", { isUnsubscribeRequest(message: $0) }),
    ("run.cancel", { isRunCancelRequest(message: $0) }),
    ("ping", { isPingRequest(message: $0) }),
    ("notifications/cancelled", { isCancelledNotification(message: $0) }),
]

/// The result a thread hands back; the semaphore orders the write before the read.
final class GraphorinResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Runs `body` on a fresh thread whose stack is only 256 KiB.
func onSmallStackGraphorin<T>(_ body: @escaping @Sendable () -> T) -> T {
    let result = GraphorinResultBox<T>()
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

/// The `ContractError.Build` issues' dotted paths, or a test failure.
func graphorinBuildIssues(_ error: Error, file: StaticString = #filePath, line: UInt = #line) -> [String] {
    guard let e = error as? ContractError, case .Build(_, let issues) = e else {
        XCTFail("expected ContractError.Build, got \(error)", file: file, line: line)
        return []
    }
    return issues.map { $0.dottedPath() }
}

final class GraphorinTests: XCTestCase {
    /// The `ok` vectors whose text is not what the serializer writes; the same list as the Rust
    /// and Kotlin tests.
    let nonCanonical: Set<String> = [
        "srv.duplicate_key_last_wins",
        "srv.whitespace_and_key_order",
        "srv.rpc.id_integral_float_literal",
        "srv.rpc.id_negative_zero",
        "cli.id_integral_float_literal",
        "own.srv.escaped_key_v",
        "own.srv.escaped_literal_value",
        "own.srv.duplicate_kind_last_wins",
        "own.srv.rpc.id_exponent",
        "own.srv.rpc_failure.code_exponent",
        "own.srv.event.subject_lone_surrogate",
        "own.srv.event.type_escaped",
        "own.srv.replay_marker.dropped_negative_zero",
        "own.srv.replay_marker.dropped_integral_float",
    ]

    func notJson(_ v: GraphorinVector) -> Bool {
        v.why.hasPrefix("not JSON") || v.why.contains("is not JSON")
    }

    func testEveryVectorGivesTheExpectedVerdictAndVariant() throws {
        for v in try GraphorinVectors.all() {
            let r = parse(v.direction, v.frame)
            switch r {
            case .server(let m):
                XCTAssertEqual(v.expect, "ok", v.id)
                XCTAssertEqual(m.wire, v.variant, v.id)
                XCTAssertEqual(m.variant().wireValue(), v.variant, v.id)
                XCTAssertEqual(serverGuards.filter { $0.1(m) }.map { $0.0 }, [v.variant ?? ""], v.id)
            case .client(let m):
                XCTAssertEqual(v.expect, "ok", v.id)
                XCTAssertEqual(m.wire, v.variant, v.id)
                XCTAssertEqual(m.variant().wireValue(), v.variant, v.id)
                XCTAssertEqual(clientGuards.filter { $0.1(m) }.map { $0.0 }, [v.variant ?? ""], v.id)
            case .failed(let e):
                XCTAssertEqual(v.expect, "invalid", v.id)
                switch e {
                case .Json:
                    XCTAssertTrue(notJson(v), "\(v.id): a syntax failure where the vector says: \(v.why)")
                case .Schema(let issues, let id, let replyId):
                    XCTAssertFalse(notJson(v), "\(v.id): a schema failure where the vector says: \(v.why)")
                    XCTAssertFalse(issues.isEmpty, v.id)
                    if id == nil {
                        XCTAssertEqual(replyId, .intId(value: 0), v.id)
                    }
                case .Internal(let reason):
                    XCTFail("\(v.id): panic: \(reason)")
                }
            }
            // Bytes and text give the same result.
            XCTAssertEqual(parseBytes(v.direction, Data(v.frame.utf8)), r, v.id)
        }
    }

    func testEveryOkFrameRoundTripsByteForByteWhenCanonical() throws {
        let ok = try GraphorinVectors.all().filter { $0.expect == "ok" }
        for name in nonCanonical {
            XCTAssertTrue(ok.contains { $0.name == name }, "nonCanonical names an unknown ok vector: \(name)")
        }
        for v in ok {
            let text: String
            switch parse(v.direction, v.frame) {
            case .server(let m):
                text = try serializeServerMessage(message: m)
                let again = try parseServerMessage(frame: text)
                XCTAssertEqual(again, m, v.id)
                XCTAssertEqual(try serializeServerMessage(message: again), text, v.id)
            case .client(let m):
                text = try serializeClientMessage(message: m)
                let again = try parseClientMessage(frame: text)
                XCTAssertEqual(again, m, v.id)
                XCTAssertEqual(try serializeClientMessage(message: again), text, v.id)
            case .failed(let e):
                XCTFail("\(v.id): \(e)")
                continue
            }
            if nonCanonical.contains(v.name) {
                XCTAssertNotEqual(text, v.frame, "\(v.name) is canonical after all")
            } else {
                XCTAssertEqual(text, v.frame, "\(v.id): a canonical frame comes back byte for byte")
            }
        }
    }

    func rpc(_ id: String) -> String {
        "{\"v\":\"1\",\"jsonrpc\":\"2.0\",\"id\":\(id),\"result\":null}"
    }

    func testRpcIdsKeepTheirJsonTypeAndExactDigits() throws {
        let stringOne = try parseServerMessage(frame: #"{"v":"1","jsonrpc":"2.0","id":"1","result":null}"#)
        let numberOne = try parseServerMessage(frame: rpc("1"))
        XCTAssertEqual(stringOne.rpcId(), .stringId(value: "1"))
        XCTAssertEqual(numberOne.rpcId(), .intId(value: 1))
        XCTAssertNotEqual(stringOne, numberOne)
        XCTAssertTrue(try serializeServerMessage(message: stringOne).contains(#""id":"1""#))
        XCTAssertEqual(try RpcId.stringId(value: "1").toJson(), "\"1\"")
        // An id no frame can carry is refused by the contract's reader, not written.
        XCTAssertThrowsError(try RpcId.stringId(value: "").toJson())
        XCTAssertEqual(try parseServerMessage(frame: rpc("9007199254740993")).rpcId(), .intId(value: 9_007_199_254_740_993))
        let spellings: [(String, Int64)] = [("1.0", 1), ("1e3", 1000), ("-0", 0), ("10E-1", 1), ("-3.27e4", -32700), ("9223372036854775807", Int64.max)]
        for (spelling, value) in spellings {
            let m = try parseServerMessage(frame: rpc(spelling))
            XCTAssertEqual(m.rpcId(), .intId(value: value), spelling)
            XCTAssertEqual(try serializeServerMessage(message: m), rpc(String(value)))
        }
        let refused: [(String, IssueCode)] = [("9223372036854775808", .tooBig), ("1e19", .tooBig), ("1.5", .invalidType), ("1e400", .invalidType)]
        for (spelling, code) in refused {
            XCTAssertThrowsError(try parseServerMessage(frame: rpc(spelling))) { error in
                guard case .Schema(let issues, _, _)? = error as? ParseError else { return XCTFail("\(error)") }
                XCTAssertEqual(issues.first?.code, code, spelling)
                XCTAssertEqual(issues.first?.path, [.key(key: "id")])
            }
        }
    }

    func testIssuesCarryStableCodesAndPaths() {
        let cases: [(String, String, IssueCode, String)] = [
            ("server", #"{"v":"1","kind":"pong","surprise":true}"#, .unrecognizedKeys, "surprise"),
            ("server", #"{"v":"2","kind":"pong"}"#, .invalidLiteral, "v"),
            ("server", #"{"v":"1","kind":"bogus"}"#, .invalidDiscriminator, "kind"),
            ("server", #"{"v":"1","kind":"pong","nonce":""}"#, .tooSmall, "nonce"),
            ("server", #"{"v":"1","kind":"lifecycle","subscriptionId":"s","status":"done"}"#, .invalidEnum, "status"),
            ("server", #"{"v":"1","jsonrpc":"2.0","id":1}"#, .invalidType, "result"),
            ("server", "[1]", .invalidType, ""),
            ("client", #"{"v":"1","jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"n","version":""}}}"#, .tooSmall, "params.clientInfo.version"),
            ("client", #"{"v":"1","jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}"#, .invalidType, "params.requestId"),
            ("client", #"{"v":"1","jsonrpc":"2.0","id":1,"method":"notifications/cancelled","params":{"requestId":"r"}}"#, .unrecognizedKeys, "id"),
        ]
        for (direction, frame, code, path) in cases {
            guard case .failed(.Schema(let issues, _, _)) = parse(direction, frame) else {
                XCTFail("\(frame) did not fail on the schema")
                continue
            }
            XCTAssertEqual(issues.count, 1, frame)
            XCTAssertEqual(issues.first?.code, code, frame)
            XCTAssertEqual(issues.first?.dottedPath(), path, frame)
        }
    }

    func testARejectedRequestCarriesItsRawIdWithItsJsonType() {
        func rawId(_ frame: String) -> JsonText? {
            guard case .failed(.Schema(_, let id, _)) = parse("client", frame) else { return nil }
            return id
        }
        func replyId(_ frame: String) -> RpcId? {
            guard case .failed(.Schema(_, _, let replyId)) = parse("client", frame) else { return nil }
            return replyId
        }
        XCTAssertEqual(rawId(#"{"v":"1","jsonrpc":"2.0","id":2.5,"method":"ping"}"#), "2.5")
        XCTAssertEqual(rawId(#"{"v":"1","jsonrpc":"2.0","id":"","method":"ping"}"#), "\"\"")
        XCTAssertEqual(rawId(#"{"v":"1","jsonrpc":"2.0","id":1,"id":"last","method":"x"}"#), "\"last\"")
        XCTAssertNil(rawId(#"{"v":"1","jsonrpc":"2.0","method":"ping"}"#))
        XCTAssertEqual(replyId(#"{"v":"1","jsonrpc":"2.0","id":9,"method":"unknown.method","params":{}}"#), .intId(value: 9))
        XCTAssertEqual(replyId(#"{"v":"1","jsonrpc":"2.0","id":2.5,"method":"ping"}"#), .intId(value: 0))
        guard case .failed(.Json) = parse("client", "ping") else { return XCTFail("ping is not JSON") }
        var bytes = Data(#"{"v":"1","kind":"pong","nonce":""#.utf8)
        bytes.append(0xff)
        bytes.append(contentsOf: Array(#""}"#.utf8))
        guard case .failed(.Json(_, let offset)) = parseBytes("server", bytes) else { return XCTFail("invalid UTF-8 is a JSON failure") }
        XCTAssertEqual(offset, 32)
    }

    func testRoutingAccessorsFollowTheSpec() throws {
        XCTAssertEqual(try parseServerMessage(frame: #"{"v":"1","kind":"unsubscribed","subscriptionId":"s-1"}"#).subscriptionId(), "s-1")
        XCTAssertNil(try parseServerMessage(frame: #"{"v":"1","kind":"error","code":"c","message":"m"}"#).subscriptionId())
        let pong = try parseServerMessage(frame: #"{"v":"1","kind":"pong"}"#)
        XCTAssertEqual(pong.variant(), .pong)
        XCTAssertNil(pong.rpcId())
        let notification = try parseClientMessage(frame: #"{"v":"1","jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r"}}"#)
        XCTAssertNil(notification.id())
        XCTAssertEqual(methods(), ClientVariant.allCases.map { $0.wireValue() })
        XCTAssertEqual(["rpc-success", "rpc-failure"] + kinds(), ServerVariant.allCases.map { $0.wireValue() })
    }

    func testBuiltMessagesSerializeToLegalFramesOnly() throws {
        XCTAssertEqual(try serializeServerMessage(message: .pong(frame: ServerPongFrame())), #"{"v":"1","kind":"pong"}"#)
        let event = ServerMessage.event(frame: ServerEventFrame(eventId: "e", subscriptionId: "s", subject: "x", eventType: "t", payload: "null"))
        XCTAssertEqual(try serializeServerMessage(message: event), #"{"v":"1","kind":"event","eventId":"e","subscriptionId":"s","subject":"x","type":"t","payload":null}"#)
        let ping = ClientMessage.ping(frame: ClientPingRequest(id: .stringId(value: "graphorin-1")))
        XCTAssertEqual(try serializeClientMessage(message: ping), #"{"v":"1","jsonrpc":"2.0","id":"graphorin-1","method":"ping"}"#)
        XCTAssertEqual(try parseClientMessage(frame: try serializeClientMessage(message: ping)), ping)
        let bad = ServerMessage.event(frame: ServerEventFrame(eventId: "", subscriptionId: "s", subject: "x", eventType: "t", payload: "{nope"))
        XCTAssertThrowsError(try serializeServerMessage(message: bad)) { error in
            XCTAssertEqual(graphorinBuildIssues(error), ["eventId", "payload"])
        }
        XCTAssertThrowsError(try formatTicket(ticket: "")) { error in
            guard case .EmptyTicket? = error as? ContractError else { return XCTFail("\(error)") }
        }
    }

    func testCataloguesAndSubprotocolHelpers() throws {
        // The catalogue (spec graphorin-v1 §5): distinct names and codes, PARSE_ERROR first (the
        // Kotlin suite compares the whole table with the spec's).
        XCTAssertEqual(Set(rpcErrorCodes().map { $0.name }).count, rpcErrorCodes().count)
        XCTAssertEqual(Set(rpcErrorCodes().map { $0.code }).count, rpcErrorCodes().count)
        XCTAssertEqual(rpcErrorCodes().first?.name, "PARSE_ERROR")
        XCTAssertEqual(rpcErrorCodeValue(name: "SCOPE_DENIED"), -32003)
        XCTAssertNil(rpcErrorCodeName(code: -32099))
        XCTAssertEqual(clientErrorKind(code: 7), .protocolViolation)
        XCTAssertEqual(closeCodeValues().map { $0.code }, Array(4001...4008).map { Int64($0) })
        for reason in CloseReason.allCases {
            XCTAssertEqual(closeCodeReason(code: closeCodeFor(reason: reason)), reason)
        }
        XCTAssertNil(closeCodeReason(code: 1000))
        XCTAssertEqual(closeCodeValues().filter { $0.fatal }.map { $0.code }, [4001, 4002, 4003, 4008])
        XCTAssertEqual(try negotiate(offer: ["ticket.abc, graphorin.protocol.v1"]), subprotocolName())
        XCTAssertNil(try negotiate(offer: ["Graphorin.Protocol.V1"]))
        XCTAssertEqual(try parseTicket(offer: [subprotocolName(), try formatTicket(ticket: "t-123")]), "t-123")
        XCTAssertEqual(try parseTicket(offer: ["ticket., ticket.second"]), "second")
        XCTAssertEqual(protocolVersion(), "1")
        XCTAssertEqual(ticketSubprotocolPrefix(), "ticket.")
        let schema = try String(contentsOf: GraphorinVectors.repo.appendingPathComponent("generated/schema/graphorin.v1.schema.json"), encoding: .utf8)
        XCTAssertEqual(exportJsonSchema(), schema)
        // Every object the schema defines, and only those, is a record of this module.
        let defs = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(schema.utf8)) as? [String: Any])?["$defs"] as? [String: [String: Any]])
        XCTAssertEqual(Set(defs.filter { $0.value["type"] as? String == "object" }.keys), Set(objectTypes()))
    }

    func testAMillionDeepFrameOnASmallStackIsAParseErrorNotACrash() {
        let depth = 1_000_000
        let frame = #"{"v":"1","kind":"event","eventId":"e","subscriptionId":"s","subject":"x","type":"t","payload":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let r = onSmallStackGraphorin { parse("server", frame) }
        guard case .failed(.Json) = r else { return XCTFail("expected a JSON failure") }
    }
}
