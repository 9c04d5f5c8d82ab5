package dev.wirecontract.graphmind

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory

/**
 * Every shared vector, extra vector and real-client frame gives the expected verdict and type
 * in Kotlin; every `ok`/`unknown-type` frame round-trips with unknown fields and opaque values
 * kept byte for byte.
 */
class ConformanceTest {
    @TestFactory
    fun `every vector gives the expected verdict and type`(): List<DynamicTest> = Vectors.all.map { v ->
        dynamicTest(v.id) {
            val r = parseEnvelopeJson(v.frame)
            assertEquals(v.expect, r.kind, v.id)
            if (v.expect == "ok" || v.expect == "unknown-type") {
                assertEquals(v.type, r.envelopeOrNull!!.messageType)
            }
            // Bytes and text give the same result.
            assertEquals(r, parseEnvelopeJsonBytes(v.frame.toByteArray(Charsets.UTF_8)))
            when (r) {
                is ParseResult.Invalid -> {
                    assertTrue(r.reason.isNotEmpty())
                    // No issues exactly when the frame is not JSON, too big or too deep.
                    if (r.reason.startsWith("frame ")) assertNull(r.issues) else assertNotNull(r.issues)
                }
                is ParseResult.VersionMismatch -> {
                    assertEquals(1L, r.supported)
                    assertNotEquals(1L, r.received)
                }
                is ParseResult.Ok, is ParseResult.UnknownType -> {}
            }
        }
    }

    @TestFactory
    fun `every ok and unknown-type frame round-trips with unknown fields and opaque values kept`(): List<DynamicTest> =
        Vectors.all.filter { it.expect == "ok" || it.expect == "unknown-type" }.map { v ->
            dynamicTest(v.id) {
                val r = parseEnvelopeJson(v.frame)
                val envelope = r.envelopeOrNull!!
                val text = serializeEnvelope(envelope)
                val again = parseEnvelopeJson(text)
                assertEquals(r.kind, again.kind)
                assertEquals(envelope, again.envelopeOrNull)
                // Serializing is a fixed point: opaque values and unknown fields byte for byte.
                assertEquals(text, serializeEnvelope(again.envelopeOrNull!!))
            }
        }

    @Test
    fun `unknown fields at every level survive in wire order`() {
        val frame = """{"gm":1,"seq":7,"ts":1,"runId":"r","type":"node.finished",""" +
            """"payload":{"nodeId":"n","usage":{"inputTokens":1,"outputTokens":2,"z":[1e400]},"durationMs":1.5,""" +
            """"status":"ok","x":{"\udc00":"\ud800"},"__proto__":{}},"hub":true}"""
        val envelope = (parseEnvelopeJson(frame) as ParseResult.Ok).envelope
        assertEquals("""{"hub":true}""", envelope.extraJson)
        val payload = (envelope.message as Message.NodeFinished).payload
        assertEquals("""{"x":{"\udc00":"\ud800"},"__proto__":{}}""", payload.extraJson)
        assertEquals("""{"z":[1e400]}""", payload.usage!!.extraJson)
        assertEquals(frame, serializeEnvelope(envelope))
    }

    @Test
    fun `the batch API gives the same results as one call per frame`() {
        val frames = Vectors.all.map { it.frame }
        val batch = parseEnvelopesJson(frames)
        val batchBytes = parseEnvelopesJsonBytes(frames.map { it.toByteArray(Charsets.UTF_8) })
        assertEquals(frames.size, batch.size)
        assertEquals(frames.size, batchBytes.size)
        frames.forEachIndexed { i, f ->
            val single = parseEnvelopeJson(f)
            assertEquals(single, batch[i], Vectors.all[i].id)
            assertEquals(single, batchBytes[i], Vectors.all[i].id)
        }
    }
}
