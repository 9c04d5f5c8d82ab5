package dev.wirecontract.graphmind

import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.io.File

/**
 * Any registered protocol by name (`protocols()`, `parseFrame`, `parseFrameBytes`): each
 * protocol the registry lists parses its generated examples (`generated/examples/<name>.jsonl`,
 * one accepted frame of every message type) with no code naming it, so a protocol added to the
 * contract is covered here by its declaration alone (scripts/contract-change's `demo` too).
 */
class ProtocolsTest {
    @Test
    fun everyRegisteredProtocolParsesItsExamplesByName() {
        val names = protocols()
        assertTrue(names.isNotEmpty() && names.distinct() == names, "protocols(): $names")
        for (name in names) {
            val file = File(Vectors.repo, "generated/examples/$name.jsonl")
            assertTrue(file.isFile, "no $file: run scripts/regen")
            val examples = file.readLines(Charsets.UTF_8).filter { it.isNotBlank() }.map { JSONObject(it) }
            assertTrue(examples.isNotEmpty(), "$file is empty")
            for (o in examples) {
                val frame = o.getString("frame")
                val v = parseFrame(name, frame)
                assertEquals("ok", v.kind, "$name ${o.getString("name")}: $v")
                assertEquals(o.getString("type"), v.message, "$name ${o.getString("name")}")
                assertNull(v.reason)
                assertTrue(v.issues.isEmpty())
                // The object's JSON is a JSON object: the frame, or the envelope's payload.
                assertNotNull(v.objectJson, "$name ${o.getString("name")}")
                JSONObject(v.objectJson!!)
                assertEquals(v, parseFrameBytes(name, frame.toByteArray(Charsets.UTF_8)))
            }
        }
    }

    @Test
    fun badFramesAreVerdictsAndAnUnknownProtocolThrows() {
        for (name in protocols()) {
            val v = parseFrame(name, "{")
            assertEquals("invalid", v.kind, "$name: $v")
            assertNotNull(v.reason)
            // A lone surrogate in a member: no UTF-8 frame carries it, so the frame is
            // invalid, naming where it is, not a throw.
            val lone = parseFrame(name, "{\"v\":\"1\",\"id\":\"\uD800\"}")
            assertEquals("invalid", lone.kind, name)
            assertTrue(lone.reason!!.contains("lone surrogate at UTF-16 index 15"), "$name: $lone")
            val bytes = parseFrameBytes(name, byteArrayOf('{'.code.toByte(), 0xff.toByte()))
            assertEquals("invalid", bytes.kind, name)
            assertTrue(bytes.reason!!.contains("invalid UTF-8 at byte 1"), "$name: $bytes")
        }
        val refused = parseFrame("graphmind", """{"gm":1,"seq":-1,"ts":2,"runId":"r","type":"run.finished","payload":{}}""")
        assertEquals("invalid", refused.kind)
        assertEquals("seq", refused.issues.first().dottedPath())
        assertEquals("version-mismatch", parseFrame("graphmind", """{"gm":2,"seq":1,"ts":2,"runId":"r","type":"x","payload":{}}""").kind)
        // The README's example.
        val ping = parseFrame("graphorin", """{"v":"1","jsonrpc":"2.0","id":1,"method":"ping"}""")
        assertEquals("ok" to "ping", ping.kind to ping.message)
        val e = assertThrows<ContractException.Build> { parseFrame("no-such-protocol", "{}") }
        assertTrue(e.reason.contains("\"no-such-protocol\"") && protocols().all { e.reason.contains(it) }, e.reason)
    }
}
