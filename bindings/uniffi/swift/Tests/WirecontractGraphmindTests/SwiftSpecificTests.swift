// What is Swift's own: Equatable/Hashable against the protocol's equality, the byte forms of a
// lone surrogate (a Swift String cannot hold one, so the raw form only arrives as bytes), and the
// host's inbound frame cap.

import Foundation
import WirecontractGraphmind
import XCTest

final class SwiftSpecificTests: XCTestCase {
    /// Every accepted envelope of the conformance material.
    func envelopes() throws -> [Envelope] {
        try Vectors.all().compactMap { v in
            if case .ok(let envelope) = parseEnvelopeJson(frame: v.frame) { return envelope }
            return nil
        }
    }

    func testEnvelopeEqualityIsWireEqualityAndEqualEnvelopesHashEqual() throws {
        let all = try envelopes()
        XCTAssertGreaterThan(all.count, 100)
        let frames = try all.map { try serializeEnvelope(envelope: $0) }
        var disagree: [String] = []
        for i in all.indices {
            for j in all.indices where (all[i] == all[j]) != (frames[i] == frames[j]) || (all[i] == all[j] && all[i].hashValue != all[j].hashValue) {
                disagree.append("\(frames[i]) vs \(frames[j])")
            }
        }
        XCTAssertEqual(disagree, [])
        XCTAssertEqual(Set(all).count, Set(frames).count)
        // A parse of the serialized frame is the same value, with the same hash.
        for (envelope, frame) in zip(all, frames) {
            guard case .ok(let back) = parseEnvelopeJson(frame: frame) else { return XCTFail(frame) }
            XCTAssertEqual(back, envelope)
            XCTAssertEqual(back.hashValue, envelope.hashValue)
        }
    }

    func testMatcherEqualityImpliesTheProtocolsMatcherIdentity() throws {
        let matchers = [
            BreakpointMatcher(),
            BreakpointMatcher(point: .before),
            BreakpointMatcher(kind: .tool),
            BreakpointMatcher(kind: .tool, point: .after),
            BreakpointMatcher(name: "x"),
            BreakpointMatcher(name: "x", point: .before),
            BreakpointMatcher(name: "x", point: .error),
            BreakpointMatcher(kind: .tool, extraJson: #"{"a":1}"#),
        ]
        for a in matchers {
            for b in matchers where a == b {
                XCTAssertTrue(try matchersEqual(a: a, b: b), "\(a) == \(b)")
                XCTAssertEqual(a.hashValue, b.hashValue)
            }
        }
        // Not conversely: `==` is field-by-field (the wire form), the spec's matcher identity
        // (an absent point is `before`, unknown keys do not count) is `matchersEqual`/`sameAs`.
        let bare = BreakpointMatcher(name: "x")
        let before = BreakpointMatcher(name: "x", point: .before)
        XCTAssertNotEqual(bare, before)
        XCTAssertTrue(try bare.sameAs(other: before))
    }

    /// A frame whose runId holds U+DC00 in generalized UTF-8 (`ED B0 80`, what a lone surrogate
    /// becomes as bytes): not UTF-8, so invalid, never a crash or a trap.
    func testALoneSurrogateInBytesIsInvalid() {
        let good = Data(#"{"gm":1,"seq":1,"ts":0,"runId":"r","type":"mode.set","payload":{"mode":"run"}}"#.utf8)
        XCTAssertEqual(parseEnvelopeJsonBytes(frame: good).kind, "ok")
        let marker = Data(#""r""#.utf8)
        guard let at = good.range(of: marker) else { return XCTFail("no runId") }
        var bad = good
        bad.replaceSubrange(at, with: Data([0x22, 0x72, 0xED, 0xB0, 0x80, 0x22]))
        XCTAssertEqual(parseEnvelopeJsonBytes(frame: bad).kind, "invalid")
        // High surrogate at the very end, and a surrogate pair spelled as two three-byte forms (CESU-8).
        XCTAssertEqual(parseEnvelopeJsonBytes(frame: good + Data([0xED, 0xA0, 0x80])).kind, "invalid")
        var cesu = good
        cesu.replaceSubrange(at, with: Data([0x22, 0x72, 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80, 0x22]))
        XCTAssertEqual(parseEnvelopeJsonBytes(frame: cesu).kind, "invalid")
        // The real character (U+1F600 as UTF-8) is fine.
        var pair = good
        pair.replaceSubrange(at, with: Data([0x22, 0x72, 0xF0, 0x9F, 0x98, 0x80, 0x22]))
        XCTAssertEqual(parseEnvelopeJsonBytes(frame: pair).kind, "ok")
        // One bad frame does not fail the batch.
        XCTAssertEqual(parseEnvelopesJsonBytes(frames: [good, bad, pair]).map(\.kind), ["ok", "invalid", "ok"])
        // As a Swift String the bytes decode to U+FFFD, a valid character: the frame is then ok.
        XCTAssertEqual(parseEnvelopeJson(frame: String(decoding: bad, as: UTF8.self)).kind, "ok")
    }

    func testTheHostCapsInboundMessagesAtTheContractsFrameLimit() throws {
        XCTAssertEqual(SessionHost.defaultMaxFrameBytes, 16 * 1024 * 1024)
        XCTAssertEqual(Int64(SessionHost.defaultMaxFrameBytes), defaultMaxFrameBytes())
        XCTAssertEqual(try SessionHost(onWarn: { _, _ in }).maxFrameBytes, SessionHost.defaultMaxFrameBytes)
    }
}
