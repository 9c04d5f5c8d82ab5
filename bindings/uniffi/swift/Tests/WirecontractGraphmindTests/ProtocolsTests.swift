// Any registered protocol by name (protocols(), parseFrame, parseFrameBytes), as the Kotlin
// ProtocolsTest: every protocol the registry lists parses its generated examples
// (generated/examples/<name>.jsonl, one accepted frame of every message type), with no code
// naming it.

import Foundation
import WirecontractGraphmind
import XCTest

final class ProtocolsTests: XCTestCase {
    func testEveryRegisteredProtocolParsesItsExamplesByName() throws {
        let names = protocols()
        XCTAssertFalse(names.isEmpty)
        XCTAssertEqual(Set(names).count, names.count)
        for name in names {
            let examples = try Vectors.lines(Vectors.repo.appendingPathComponent("generated/examples/\(name).jsonl"))
            XCTAssertFalse(examples.isEmpty, name)
            for o in examples {
                let frame = o["frame"] as? String ?? ""
                let v = try parseFrame(protocolName: name, frame: frame)
                XCTAssertEqual(v.kind, "ok", "\(name) \(o["name"] ?? ""): \(v)")
                XCTAssertEqual(v.message, o["type"] as? String)
                XCTAssertNil(v.reason)
                XCTAssertTrue(v.issues.isEmpty)
                let object = try XCTUnwrap(v.objectJson)
                XCTAssertTrue(try JSONSerialization.jsonObject(with: Data(object.utf8)) is [String: Any], object)
                XCTAssertEqual(try parseFrameBytes(protocolName: name, frame: Data(frame.utf8)), v)
            }
        }
    }

    func testBadFramesAreVerdictsAndAnUnknownProtocolThrows() throws {
        for name in protocols() {
            let v = try parseFrame(protocolName: name, frame: "{")
            XCTAssertEqual(v.kind, "invalid", name)
            XCTAssertNotNil(v.reason)
            let bytes = try parseFrameBytes(protocolName: name, frame: Data([UInt8(ascii: "{"), 0xFF]))
            XCTAssertEqual(bytes.kind, "invalid", name)
            XCTAssertTrue(bytes.reason?.contains("invalid UTF-8 at byte 1") ?? false, "\(name): \(bytes)")
        }
        XCTAssertEqual(try parseFrame(protocolName: "graphmind", frame: #"{"gm":2,"seq":1,"ts":2,"runId":"r","type":"x","payload":{}}"#).kind, "version-mismatch")
        // Issues carry the code the contract recorded (Graphorin records zod's).
        let noResult = try parseFrame(protocolName: "graphorin", frame: #"{"v":"1","jsonrpc":"2.0","id":1}"#)
        XCTAssertEqual(noResult.kind, "invalid")
        XCTAssertFalse(noResult.issues.isEmpty)
        XCTAssertTrue(noResult.issues.allSatisfy { $0.code != nil }, "\(noResult.issues)")
        XCTAssertThrowsError(try parseFrame(protocolName: "no-such-protocol", frame: "{}")) { error in
            guard case let ContractError.Build(reason, _) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(reason.contains("\"no-such-protocol\""), reason)
        }
    }
}
