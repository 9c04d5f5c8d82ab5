// Mirrors the Kotlin ShrinkTest (bindings/uniffi/kotlin/src/test/kotlin/dev/wirecontract/graphmind):
// every vector of shared/vectors/graphmind/shrink.jsonl (graphmind-shrink §15), text byte for byte
// and tier, from JSON text and from a JsonValue tree; createEnvelope/createEnvelopeJson with
// maxPayloadBytes; bad input gives ContractError, huge depth a result. Swift strings cannot hold
// lone surrogates, so the Kotlin lone-surrogate checks have no counterpart here.
//
// Run by scripts/steps/45-swift.sh on Linux (Swift 6.0.3, Swift 5 and 6 modes); on macOS,
// `swift test` in bindings/uniffi/swift after build-xcframework.sh.

import Foundation
import WirecontractGraphmind
import XCTest

struct ShrinkVector {
    let name: String
    let type: String?
    let maxBytes: Int64
    let payloadJson: String
    let expectJson: String
    let tier: Int
}

enum ShrinkVectors {
    static func all() throws -> [ShrinkVector] {
        let file = Vectors.shared.appendingPathComponent("vectors/graphmind/shrink.jsonl")
        return try Vectors.lines(file).map { o in
            ShrinkVector(
                name: o["name"] as? String ?? "?",
                type: o["type"] as? String,
                maxBytes: (o["max_bytes"] as? NSNumber)?.int64Value ?? 0,
                payloadJson: o["payload_json"] as? String ?? "",
                expectJson: o["expect_json"] as? String ?? "",
                tier: (o["tier"] as? NSNumber)?.intValue ?? 0
            )
        }
    }
}

/// Whether `error` is a `ContractError.Json`.
func isJsonError(_ error: Error) -> Bool {
    if let e = error as? ContractError, case .Json = e {
        return true
    }
    return false
}

final class ShrinkTests: XCTestCase {
    func testEveryShrinkVectorFromJsonTextByteForByteAndTier() throws {
        let vectors = try ShrinkVectors.all()
        XCTAssertEqual(vectors.count, 233)
        for v in vectors {
            let got = try shrinkPayloadJson(payloadJson: v.payloadJson, maxBytes: v.maxBytes, messageType: v.type)
            XCTAssertEqual(got.json, v.expectJson, v.name)
            XCTAssertEqual(Int(got.tier), v.tier, v.name)
        }
        XCTAssertEqual(Set(vectors.map(\.tier)), [1, 2, 3, 4])
    }

    func testEveryShrinkVectorFromAJsonValueTreeExceptWhatATreeCannotHold() throws {
        // decodeJson turns a lone-surrogate escape into U+FFFD and refuses values nested deeper
        // than jsonValueMaxDepth() (the depth-cap vectors).
        let lone = try NSRegularExpression(pattern: #"\\u[dD][89a-fA-F][0-9a-fA-F]{2}"#)
        var checked = 0
        for v in try ShrinkVectors.all() {
            let range = NSRange(v.payloadJson.startIndex..., in: v.payloadJson)
            if lone.firstMatch(in: v.payloadJson, range: range) != nil {
                continue
            }
            guard let tree = try? decodeJson(text: v.payloadJson) else {
                continue
            }
            let got = try shrinkPayload(value: tree, maxBytes: v.maxBytes, messageType: v.type)
            XCTAssertEqual(got.json, v.expectJson, v.name)
            XCTAssertEqual(Int(got.tier), v.tier, v.name)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 200)
    }

    func testDefaultsAreTheReferences512KiBAndNoType() throws {
        XCTAssertEqual(defaultMaxPayloadBytes(), 524_288)
        let s = try shrinkPayloadJson(payloadJson: #"{"b":1.0,"1":1e400, "a":-0}"#)
        XCTAssertEqual(s, Shrunk(json: #"{"1":null,"b":1,"a":0}"#, tier: 1))
        let big = "\"" + String(repeating: "x", count: 600_000) + "\""
        XCTAssertEqual(try shrinkPayloadJson(payloadJson: big).tier, 4)
    }

    func bigNodeFinished(_ chars: Int) -> NodeFinished {
        NodeFinished(nodeId: "n", output: "\"" + String(repeating: "é", count: chars) + "\"", durationMs: 2.5, status: .ok)
    }

    func testCreateEnvelopeWithMaxPayloadBytesShrinksAnOversizePayloadAndTheFrameParsesOk() throws {
        let payload = bigNodeFinished(1_000_000)
        let whole = try serializeEnvelope(envelope: try createEnvelope(message: .nodeFinished(payload: payload), seq: 1, runId: "r", ts: 0))
        XCTAssertGreaterThan(whole.utf8.count, 1_000_000)

        let envelope = try createEnvelope(message: .nodeFinished(payload: payload), seq: 1, runId: "r", ts: 0, maxPayloadBytes: defaultMaxPayloadBytes())
        let frame = try serializeEnvelope(envelope: envelope)
        XCTAssertLessThan(frame.utf8.count, 524_288)
        guard case .ok(let parsed) = parseEnvelopeJson(frame: frame), case .nodeFinished(let shrunk) = parsed.message else {
            return XCTFail("a shrunk frame must parse ok as node.finished")
        }
        XCTAssertTrue(shrunk.output?.hasSuffix("…[graphmind: truncated]\"") ?? false)
        XCTAssertTrue(shrunk.extraJson.hasPrefix(#"{"__graphmindTruncated":true,"bytes":"#))
        XCTAssertEqual(parsed, envelope)

        // The JSON form takes the same route, and agrees with shrinkPayloadJson's text.
        let payloadJson = #"{"nodeId":"n","output":""# + String(repeating: "é", count: 1_000_000) + #"","durationMs":2.5,"status":"ok"}"#
        let fromJson = try createEnvelopeJson(messageType: "node.finished", payloadJson: payloadJson, seq: 1, runId: "r", ts: 0, maxPayloadBytes: 524_288)
        XCTAssertEqual(fromJson, envelope)
        let reference = try shrinkPayloadJson(payloadJson: payloadJson, maxBytes: 524_288, messageType: "node.finished")
        XCTAssertEqual(reference.tier, 2)
        XCTAssertEqual(try serializeEnvelope(envelope: fromJson), #"{"gm":1,"seq":1,"ts":0,"runId":"r","type":"node.finished","payload":"# + reference.json + "}")

        // Within budget nothing changes.
        let small = try createEnvelope(message: .nodeFinished(payload: bigNodeFinished(10)), seq: 1, runId: "r", ts: 0, maxPayloadBytes: 524_288)
        XCTAssertEqual(small, try createEnvelope(message: .nodeFinished(payload: bigNodeFinished(10)), seq: 1, runId: "r", ts: 0))
    }

    func testOnlyTheTier4MarkerFittingAKnownTypeIsABuildError() throws {
        let invalid = #"{"nodeId":"n","durationMs":-1,"status":"ok","output":""# + String(repeating: "a", count: 100) + #""}"#
        XCTAssertThrowsError(try createEnvelopeJson(messageType: "node.finished", payloadJson: invalid, seq: 1, runId: "r", ts: 0, maxPayloadBytes: 60)) { error in
            XCTAssertEqual(buildIssues(error), ["payload"])
        }
        XCTAssertEqual(try shrinkPayloadJson(payloadJson: invalid, maxBytes: 60, messageType: "node.finished").tier, 4)
    }

    func testBadInputIsAContractError() throws {
        for text in ["{", "", "[1] [2]"] {
            XCTAssertThrowsError(try shrinkPayloadJson(payloadJson: text)) { error in
                XCTAssertTrue(isJsonError(error), "\(error)")
            }
        }
        XCTAssertThrowsError(try shrinkPayload(value: .numberValue(text: "NaN"))) { error in
            XCTAssertTrue(isJsonError(error), "\(error)")
        }
        // A surrogate pair is a character, and escapes of lone surrogates are JSON.
        XCTAssertEqual(try shrinkPayloadJson(payloadJson: "\"😀\"").json, "\"😀\"")
        XCTAssertEqual(try shrinkPayloadJson(payloadJson: #""\uD800""#).json, #""\ud800""#)
    }

    func testAMillionDeepPayloadShrinksOnA256KiBThread() throws {
        let depth = 1_000_000
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let payload = #"{"nodeId":"n","output":"# + nested + #","durationMs":1,"status":"ok"}"#
        let s = onSmallStack { try? shrinkPayloadJson(payloadJson: payload, maxBytes: 4096, messageType: "node.finished") }
        XCTAssertEqual(s?.tier, 2)
        XCTAssertTrue(s?.json.hasPrefix(#"{"nodeId":"n","output":[],"durationMs":1,"status":"ok","__graphmindTruncated":true"#) ?? false)
        let whole = onSmallStack { try? shrinkPayloadJson(payloadJson: nested, maxBytes: 10_000_000) }
        XCTAssertEqual(whole?.tier, 1)
        XCTAssertEqual(whole?.json.utf8.count, 2 * depth)
    }
}
