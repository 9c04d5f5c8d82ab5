// The LLM conventions (normalizeFinishReason, readUsage, the FinishReason enum) on the project's
// own cases in vectors/graphmind/llm.jsonl, which the Rust, Python, Kotlin and Node.js suites run
// too. Lines are read with JSONSerialization.
//
// Run by scripts/steps/45-swift.sh on Linux (Swift 6.0.3, Swift 5 and 6 modes).

import Foundation
import WirecontractGraphmind
import XCTest

final class LlmTests: XCTestCase {
    private func cases() throws -> [[String: Any]] {
        let file = Vectors.repo.appendingPathComponent("vectors/graphmind/llm.jsonl")
        return try Vectors.lines(file)
    }

    private func shown(_ v: UsageView?) -> NSDictionary? {
        guard let v else { return nil }
        let basis: String
        switch v.basis {
        case .inclusive: basis = "inclusive"
        case .recomputed: basis = "recomputed"
        case .reported: basis = "reported"
        }
        var m: [String: Any] = ["inputTokens": NSNumber(value: v.inputTokens), "outputTokens": NSNumber(value: v.outputTokens), "basis": basis]
        if let x = v.cacheReadTokens { m["cacheReadTokens"] = NSNumber(value: x) }
        if let x = v.cacheWriteTokens { m["cacheWriteTokens"] = NSNumber(value: x) }
        if let x = v.reasoningTokens { m["reasoningTokens"] = NSNumber(value: x) }
        return m as NSDictionary
    }

    func testEveryLlmCase() throws {
        let all = try cases()
        XCTAssertGreaterThanOrEqual(all.count, 90)
        for c in all {
            let name = c["name"] as? String ?? "?"
            if c["fn"] as? String == "normalizeFinishReason" {
                let has = (c["hasToolCalls"] as? Bool) ?? false
                let got = try (c["raw"] as? String).flatMap { try normalizeFinishReason(raw: $0, hasToolCalls: has)?.wireValue() }
                XCTAssertEqual(got, c["expect"] as? String, name)
            } else {
                let text: String
                if let t = c["usageJson"] as? String {
                    text = t
                } else {
                    let data = try JSONSerialization.data(withJSONObject: ["u": c["usage"] ?? NSNull()], options: [.fragmentsAllowed])
                    let wrapped = String(decoding: data, as: UTF8.self)
                    text = String(wrapped.dropFirst(5).dropLast(1))
                }
                let want = c["expect"] as? NSDictionary
                XCTAssertEqual(shown(try readUsage(usageJson: text)), want, name)
            }
        }
    }

    func testFinishReasonsAreTheRegistryEnum() throws {
        XCTAssertEqual(try normalizeFinishReason(raw: "END_TURN"), .stop)
        XCTAssertEqual(try normalizeFinishReason(raw: "stop", hasToolCalls: true), .toolCalls)
        XCTAssertNil(try normalizeFinishReason(raw: ""))
        XCTAssertNil(try readUsage(usageJson: "{"))
    }
}
