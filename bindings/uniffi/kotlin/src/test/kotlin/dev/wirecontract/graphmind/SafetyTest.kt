package dev.wirecontract.graphmind

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.io.File
import kotlin.random.Random

/** Hostile input on hostile threads, and names that cannot clash in Kotlin or Swift. */
class SafetyTest {
    private fun unknownWithPayload(payload: String) =
        """{"gm":1,"seq":1,"ts":0,"runId":"r","type":"future.x","payload":$payload}"""

    @Test
    fun `a 1,000,000-deep frame on a 256 KiB thread stack is Invalid, not a crash`() {
        val depth = 1_000_000
        val frame = unknownWithPayload("[".repeat(depth) + "]".repeat(depth))
        val r = onSmallStack { parseEnvelopeJson(frame) }
        assertTrue(r is ParseResult.Invalid && r.reason.contains("deeper than"), r.toString())
        val rb = onSmallStack { parseEnvelopesJsonBytes(listOf(frame.toByteArray())) }
        assertEquals("invalid", rb.single().kind)
    }

    @Test
    fun `a 10,000-deep opaque payload parses, serializes and refuses a tree on a small stack`() {
        val depth = 10_000
        val frame = unknownWithPayload("[".repeat(depth) + "]".repeat(depth))
        onSmallStack {
            val envelope = (parseEnvelopeJson(frame) as ParseResult.UnknownType).envelope
            assertEquals(frame, serializeEnvelope(envelope))
            val payload = (envelope.message as Message.Unknown).payload!!
            assertThrows<ContractException.Json> { decodeJson(payload) }
        }
    }

    @Test
    fun `garbage never throws from a parse`() {
        val random = Random(7)
        val samples = listOf(byteArrayOf(), byteArrayOf(0xff.toByte()), "{\"gm\":1".toByteArray(), "\u0000".toByteArray()) +
            List(200) { random.nextBytes(random.nextInt(0, 64)) }
        for (bytes in samples) assertEquals("invalid", parseEnvelopeJsonBytes(bytes).kind)
        assertTrue((parseEnvelopeJsonBytes(byteArrayOf(0x7b, 0xff.toByte())) as ParseResult.Invalid).reason.contains("invalid UTF-8 at byte 1"))
    }

    // ---- naming safety -----------------------------------------------------------------------

    /** Source text without comments, so doc text never counts as a declaration. */
    private fun code(path: String) =
        File(Vectors.repo, path).readText().replace(Regex("""/\*[\s\S]*?\*/"""), " ").replace(Regex("""//[^\n]*"""), "")

    private val kotlinSource = code("generated/kotlin/dev/wirecontract/graphmind/wirecontract_uniffi.kt")
    private val swiftSource = code("generated/swift/WirecontractGraphmind.swift")

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

    /**
     * Wire names of the protocol that are Swift keywords. They are kept (every language uses the
     * spec's name): uniffi declares them with backticks, Swift accepts them after a dot (SE-0071:
     * `versions.protocol`, `.continue`), and Kotlin compiles them here. The test keeps this list exact.
     */
    private val wireNamesThatAreSwiftKeywords = setOf("protocol", "continue", "repeat")

    private fun names(regex: String, text: String, group: Int = 1) =
        Regex(regex, RegexOption.MULTILINE).findAll(text).map { it.groupValues[group] }.toSet()

    @Test
    fun `no exported type shadows a standard Kotlin or Swift type or a keyword`() {
        val kotlinTypes = names("""^\s*(?:public )?(?:(?:data|sealed|enum|open|abstract|internal) )*(?:class|interface|object|typealias) (\w+)""", kotlinSource)
        val swiftTypes = names("""(?:public )?(?:final )?(?:struct|enum|class|protocol|typealias|actor) (\w+)""", swiftSource)
        assertTrue(kotlinTypes.containsAll(listOf("Envelope", "ParseResult", "Message", "ContractException", "JsonValue", "NodeStarted")), kotlinTypes.toString())
        assertTrue(swiftTypes.containsAll(listOf("Envelope", "ParseResult", "Message", "ContractError", "JsonValue", "NodeStarted")), swiftTypes.toString())
        val clashes = (kotlinTypes + swiftTypes).filter { it in standardTypes || it in keywords }
        assertEquals(listOf<String>(), clashes)
    }

    @Test
    fun `no exported function or member is a keyword, except wire names Swift escapes`() {
        val functions = names("""fun `(\w+)`\(""", kotlinSource) + names("""func (\w+)\(""", swiftSource)
        assertTrue(functions.containsAll(listOf("parseEnvelopeJson", "serializeEnvelope", "createEnvelope", "matchersEqual")))
        assertEquals(listOf<String>(), functions.filter { it in keywords })

        val kotlinMembers = names("""`(\w+)`\s*:""", kotlinSource)
        val swiftMembers = names("""public (?:var|let) `?(\w+)`?\s*:""", swiftSource) + names("""^\s*case `?(\w+)`?\s*(?:\(|$)""", swiftSource)
        assertTrue(kotlinMembers.containsAll(listOf("extraJson", "messageType", "runId", "loopInfo")))
        val keywordMembers = (kotlinMembers + swiftMembers).filter { it in keywords }.toSet()
        assertEquals(wireNamesThatAreSwiftKeywords, keywordMembers, "members named like keywords")
        for (name in keywordMembers) {
            assertTrue(Regex("""(?:var|case) `$name`""").containsMatchIn(swiftSource), "$name must be escaped in Swift")
            assertTrue(!Regex("""(?:var|case) $name\b""").containsMatchIn(swiftSource), "$name appears unescaped in Swift")
        }
    }

    @Test
    fun `no error field is named message`() {
        val kotlinError = kotlinSource.substringAfter("sealed class ContractException").substringBefore("\n}\n")
        val kotlinFields = names("""val `(\w+)`""", kotlinError)
        assertEquals(setOf("reason", "issues"), kotlinFields)
        val swiftError = swiftSource.substringAfter("enum ContractError").substringBefore("errorDescription")
        val swiftFields = names("""[(,]\s*(\w+):""", swiftError)
        assertEquals(setOf("reason", "issues"), swiftFields)
    }
}
