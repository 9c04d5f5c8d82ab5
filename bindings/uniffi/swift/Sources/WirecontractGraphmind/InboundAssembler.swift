// Whole inbound viewer messages out of what `URLSessionWebSocketTask.receive()` returns, with the
// host's inbound size cap. Hand-written, used only by SessionHost.swift.
//
// Why: swift-corelibs-foundation (FoundationNetworking, Linux; measured with Swift 6.0.3) returns
// one WebSocket text message longer than about 4 KiB as several `.string` results, each a
// consecutive piece of it (5,000 bytes came as 4,086 + 914), and does not enforce
// `maximumMessageSize` (2,000,000 bytes came as 489 pieces, no error). Apple's URLSession returns
// whole messages (up to the socket's `maximumMessageSize`, twice the cap; it fails the receive of
// a larger one); there the assembler only checks the cap.
//
// How (Linux): every viewer frame is one JSON object text, so the pieces of one message are
// joined until the text seen so far is a complete JSON value: a byte scanner tracks the nesting
// depth outside strings (escapes inside strings skipped) and, at the end of each piece, a text
// that has begun a value and is back at depth 0 outside a string is the whole message. A piece
// boundary inside a value never looks complete, because a proper prefix of one JSON object text
// is never a complete value. Limits, by design of this workaround: a malformed message with more
// opening than closing brackets joins the messages after it until the cap ends the connection,
// and a message that is only a JSON scalar split at a piece boundary reaches the core as
// several (invalid) frames; neither is a valid viewer frame, and the core rejects both.

/// Joins the pieces of inbound text messages (on Linux) and enforces the inbound cap.
struct InboundAssembler {
    /// What one received piece completed.
    enum Outcome: Equatable {
        /// More pieces of this message are to come.
        case partial
        /// A whole message.
        case message(String)
        /// The message exceeds the cap: refuse it and close with 1009. The UTF-8 bytes received
        /// of it (on Linux, of a message in pieces: those received when the cap was passed).
        case tooBig(Int)
    }

    /// The largest message accepted, in UTF-8 bytes.
    let cap: Int
    /// Whether received pieces may be parts of one message (FoundationNetworking on Linux).
    let joinsPieces: Bool
    private var buffer: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false

    init(cap: Int, joinsPieces: Bool = InboundAssembler.platformSplitsMessages) {
        self.cap = cap
        self.joinsPieces = joinsPieces
    }

    /// Whether this platform's `URLSessionWebSocketTask` returns messages in pieces.
    #if canImport(FoundationNetworking)
    static let platformSplitsMessages = true
    #else
    static let platformSplitsMessages = false
    #endif

    /// Takes one result of `receive()`.
    mutating func add(_ piece: String) -> Outcome {
        let bytes = Array(piece.utf8)
        let size = buffer.count + bytes.count
        guard size <= cap else {
            reset()
            return .tooBig(size)
        }
        guard joinsPieces else { return .message(piece) }
        for byte in bytes { scan(byte) }
        buffer += bytes
        guard !started || (depth <= 0 && !inString) else { return .partial }
        let whole = String(decoding: buffer, as: UTF8.self)
        reset()
        return .message(whole)
    }

    private mutating func scan(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            started = true
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            started = true
        case UInt8(ascii: "\""):
            inString = true
            started = true
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            break
        default:
            started = true
        }
    }

    private mutating func reset() {
        buffer = []
        depth = 0
        inString = false
        escaped = false
        started = false
    }
}
