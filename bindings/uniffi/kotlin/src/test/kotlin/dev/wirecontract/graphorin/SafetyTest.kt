package dev.wirecontract.graphorin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.io.File
import kotlin.random.Random

/** Hostile input on hostile threads, and names that cannot clash in Kotlin or Swift. */
class SafetyTest {
    private fun event(payload: String) = """{"v":"1","kind":"event","eventId":"e","subscriptionId":"s","subject":"x","type":"t","payload":$payload}"""

    @Test
    fun `a 1,000,000-deep frame on a 256 KiB thread stack is a ParseException, not a crash`() {
        val depth = 1_000_000
        val frame = event("[".repeat(depth) + "]".repeat(depth))
        val e = onSmallStack { runCatching { parseServerMessage(frame) }.exceptionOrNull() }
        assertTrue(e is ParseException.Json && e.reason.contains("maximum depth"), e.toString())
        val eb = onSmallStack { runCatching { parseClientMessageBytes(frame.toByteArray()) }.exceptionOrNull() }
        assertTrue(eb is ParseException.Json, eb.toString())
    }

    @Test
    fun `a 10,000-deep opaque payload parses and serializes back byte for byte on a small stack`() {
        val depth = 10_000
        val frame = event("[".repeat(depth) + "]".repeat(depth))
        onSmallStack {
            val message = parseServerMessage(frame) as ServerMessage.Event
            assertEquals(frame, serializeServerMessage(message))
        }
    }

    @Test
    fun `a lone surrogate is a ParseException or a ContractException, never an encoder exception`() {
        val e = assertThrows<ParseException.Json> { parseServerMessage(event("\"a\uDC00\"")) }
        assertTrue(e.reason.contains("lone surrogate at UTF-16 index "), e.reason)
        assertThrows<ParseException.Json> { parseClientMessage("\uD800") }
        val ping = ClientMessage.Ping(ClientPingRequest(id = RpcId.StringId("p\uD800")))
        val b = assertThrows<ContractException.Build> { serializeClientMessage(ping) }
        assertEquals(listOf("id"), b.issues.map { it.dottedPath() })
        assertThrows<ContractException.Build> { formatTicket("t\uDC00") }.let { assertTrue(it.reason.startsWith("ticket: "), it.reason) }
        assertThrows<ContractException.Build> { negotiate(listOf("graphorin.protocol.v1", "\uDC00")) }.let { assertTrue(it.reason.startsWith("offer.1: "), it.reason) }
        assertThrows<ContractException.Build> { normalizeOffer(listOf("\uDC00")) }
        assertThrows<ContractException.Build> { parseTicket(listOf("ticket.\uDC00")) }
        assertEquals(null, rpcErrorCodeValue("PARSE_ERROR\uD800"))
    }

    @Test
    fun `an Issue built by hand with a lone surrogate answers dottedPath without throwing`() {
        val issue = Issue(listOf(PathSegment.Key("a\uD800"), PathSegment.Index(2)), IssueCode.CUSTOM, "m\uDC00")
        assertEquals("a\uD800.2", issue.dottedPath())
        assertEquals("", Issue(emptyList(), null, "").dottedPath())
    }

    @Test
    fun `RpcId toJson refuses an id no frame can carry instead of writing U+FFFD`() {
        assertEquals("\"req-1\"", RpcId.StringId("req-1").toJson())
        assertEquals("7", RpcId.IntId(7).toJson())
        val lone = assertThrows<ContractException.Build> { RpcId.StringId("\uD800").toJson() }
        assertEquals("not a legal RpcId: lone surrogate at UTF-16 index 0: not representable in UTF-8", lone.reason)
        // The empty string is refused by the contract's own reader (its code, its message).
        val empty = assertThrows<ContractException.Build> { RpcId.StringId("").toJson() }
        assertEquals(listOf(IssueCode.TOO_SMALL), empty.issues.map { it.code })
    }

    @Test
    fun `garbage never throws anything but ParseException`() {
        val random = Random(7)
        val samples = listOf(byteArrayOf(), byteArrayOf(0xff.toByte()), "{\"v\":\"1\"".toByteArray(), "\u0000".toByteArray()) +
            List(200) { random.nextBytes(random.nextInt(0, 64)) }
        for (bytes in samples) {
            assertThrows<ParseException> { parseServerMessageBytes(bytes) }
            assertThrows<ParseException> { parseClientMessageBytes(bytes) }
        }
    }

    // ---- naming safety -----------------------------------------------------------------------

    /** Source text without comments, so doc text never counts as a declaration. */
    private fun code(path: String) =
        File(Vectors.repo, path).readText().replace(Regex("""/\*[\s\S]*?\*/"""), " ").replace(Regex("""//[^\n]*"""), "")

    private val kotlinSource = code("generated/kotlin/dev/wirecontract/graphorin/wirecontract_uniffi_graphorin.kt")
    private val swiftSource = code("generated/swift/WirecontractGraphorin.swift")

    /** Types of kotlin.*, java.lang.* (auto-imported in Kotlin/JVM), Swift's stdlib and Foundation. */
    private val standardTypes = setOf(
        "Any", "AnyObject", "Array", "Boolean", "Bool", "Byte", "Bundle", "Calendar", "Char", "Character", "Class",
        "Codable", "Collection", "Comparable", "Data", "Date", "Decimal", "Dictionary", "Double", "Enum", "Equatable",
        "Error", "Exception", "Float", "Function", "Hashable", "Identifiable", "Int", "Integer", "Iterable", "Iterator",
        "Lazy", "List", "Locale", "Long", "Map", "Math", "Mirror", "Module", "Never", "Nothing", "Notification", "Number",
        "Object", "Operation", "Optional", "Package", "Pair", "Process", "Protocol", "Range", "Record", "Regex", "Result",
        "Runtime", "Self", "Sendable", "Sequence", "Set", "Short", "Stream", "String", "Substring", "System", "Task",
        "Thread", "Throwable", "Timer", "Triple", "Type", "UInt", "ULong", "URL", "UUID", "Unicode", "Unit", "Void",
    )

    /** Hard keywords of Kotlin and keywords of Swift, plus `type`, which both hosts reserve by habit. */
    private val keywords = setOf(
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is", "null",
        "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof", "val", "var",
        "when", "while",
        "associatedtype", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "case", "catch", "default", "defer", "fallthrough", "guard", "repeat", "switch", "where", "await",
        "nil", "self", "throws", "async", "some", "any", "type",
    )

    private fun names(regex: String, text: String, group: Int = 1) =
        Regex(regex, RegexOption.MULTILINE).findAll(text).map { it.groupValues[group] }.toSet()

    @Test
    fun `no exported type shadows a standard Kotlin or Swift type or a keyword`() {
        val kotlinTypes = names("""^\s*(?:public )?(?:(?:data|sealed|enum|open|abstract|internal) )*(?:class|interface|object|typealias) (\w+)""", kotlinSource)
        val swiftTypes = names("""(?:public )?(?:final )?(?:struct|enum|class|protocol|typealias|actor) (\w+)""", swiftSource)
        val expected = listOf("ServerMessage", "ClientMessage", "ParseException", "ContractException", "RpcId", "Issue", "ServerEventFrame", "ErrorFrame", "StringId", "IntId")
        assertTrue(kotlinTypes.containsAll(expected), kotlinTypes.toString())
        assertTrue(swiftTypes.containsAll(listOf("ServerMessage", "ClientMessage", "ParseError", "ContractError", "RpcId", "Issue", "ServerEventFrame")), swiftTypes.toString())
        val clashes = (kotlinTypes + swiftTypes).filter { it in standardTypes || it in keywords }
        assertEquals(listOf<String>(), clashes)
    }

    @Test
    fun `no exported function or member is a keyword`() {
        val functions = names("""fun `(\w+)`\(""", kotlinSource) + names("""func (\w+)\(""", swiftSource)
        assertTrue(functions.containsAll(listOf("parseServerMessage", "serializeClientMessage", "isReplayMarkerFrame", "negotiate", "formatTicket", "variant")))
        assertEquals(listOf<String>(), functions.filter { it in keywords })
        val kotlinMembers = names("""`(\w+)`\s*:""", kotlinSource)
        val swiftMembers = names("""public (?:var|let) `?(\w+)`?\s*:""", swiftSource) + names("""^\s*case `?(\w+)`?\s*(?:\(|$)""", swiftSource)
        assertTrue(kotlinMembers.containsAll(listOf("eventType", "subscriptionId", "replyId", "frame")))
        assertEquals(setOf<String>(), (kotlinMembers + swiftMembers).filter { it in keywords }.toSet(), "members named like keywords")
    }

    @Test
    fun `no error field is named message`() {
        val expected = mapOf("Parse" to setOf("reason", "offset", "issues", "id", "replyId"), "Contract" to setOf("reason", "issues"))
        for ((prefix, fields) in expected) {
            assertTrue(kotlinSource.contains("sealed class ${prefix}Exception"), prefix)
            val kotlinError = kotlinSource.substringAfter("sealed class ${prefix}Exception").substringBefore("\n}\n")
            assertEquals(fields, names("""val `(\w+)`""", kotlinError), "${prefix}Exception")
            assertTrue(swiftSource.contains("enum ${prefix}Error:"), prefix)
            val swiftError = swiftSource.substringAfter("enum ${prefix}Error:").substringBefore("errorDescription")
            assertEquals(fields, names("""[(,]\s*(\w+):""", swiftError), "${prefix}Error")
        }
    }
}
