package dev.wirecontract.graphorin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory

/**
 * Every shared and extra Graphorin vector gives the expected verdict and variant in Kotlin, and
 * every `ok` frame round-trips: byte for byte when it was already canonical (ids keep their JSON
 * type, opaque values their raw text), and to a fixed point otherwise. Mirrors
 * contract/tests/integration/graphorin_conformance.rs.
 */
class ConformanceTest {
    /**
     * The `ok` vectors whose text is not what the serializer writes (whitespace, key order,
     * duplicate keys, non-canonical numbers or escapes); the same list as the Rust test. Every
     * other `ok` vector must come back byte for byte; each of these must really differ.
     */
    private val nonCanonical = setOf(
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
    )

    private fun notJson(v: Vector) = v.why.startsWith("not JSON") || v.why.contains("is not JSON")

    @TestFactory
    fun `every vector gives the expected verdict and variant`(): List<DynamicTest> = Vectors.all.map { v ->
        dynamicTest(v.id) {
            val r = parse(v.direction, v.frame)
            when (r) {
                is Parsed.Server -> {
                    assertEquals("ok", v.expect, r.summary)
                    assertEquals(v.variant, r.message.wire)
                    assertEquals(v.variant, r.message.variant().wireValue())
                    assertEquals(listOf(v.variant), serverGuards.filter { it.second(r.message) }.map { it.first }, "exactly one guard")
                }
                is Parsed.Client -> {
                    assertEquals("ok", v.expect, r.summary)
                    assertEquals(v.variant, r.message.wire)
                    assertEquals(v.variant, r.message.variant().wireValue())
                    assertEquals(listOf(v.variant), clientGuards.filter { it.second(r.message) }.map { it.first }, "exactly one guard")
                }
                is Parsed.Failed -> {
                    assertEquals("invalid", v.expect, r.summary)
                    when (val e = r.error) {
                        is ParseException.Json -> assertTrue(notJson(v), "a syntax failure where the vector says: ${v.why}")
                        is ParseException.Schema -> {
                            assertTrue(!notJson(v), "a schema failure where the vector says: ${v.why}")
                            assertTrue(e.issues.isNotEmpty(), "a schema failure names at least one issue")
                            // The reply id is the raw id when it is a valid RpcId, else 0.
                            if (e.id == null) assertEquals(RpcId.IntId(0L), e.replyId)
                        }
                        is ParseException.Internal -> throw AssertionError("panic: ${e.reason}")
                    }
                }
            }
            // Bytes and text give the same result.
            assertEquals(r.summary, parseBytes(v.direction, v.frame.toByteArray(Charsets.UTF_8)).summary)
        }
    }

    @TestFactory
    fun `every ok frame round-trips, byte for byte when canonical`(): List<DynamicTest> = Vectors.ok.map { v ->
        dynamicTest(v.id) {
            val text: String
            when (val r = parse(v.direction, v.frame)) {
                is Parsed.Server -> {
                    text = serializeServerMessage(r.message)
                    val again = parseServerMessage(text)
                    assertEquals(r.message, again, "re-parse of $text")
                    assertEquals(text, serializeServerMessage(again), "serializing is a fixed point")
                }
                is Parsed.Client -> {
                    text = serializeClientMessage(r.message)
                    val again = parseClientMessage(text)
                    assertEquals(r.message, again, "re-parse of $text")
                    assertEquals(text, serializeClientMessage(again), "serializing is a fixed point")
                }
                is Parsed.Failed -> throw AssertionError("${v.id}: ${r.summary}")
            }
            if (v.name in nonCanonical) {
                assertNotEquals(v.frame, text, "${v.name} is canonical after all: remove it from nonCanonical")
            } else {
                assertEquals(v.frame, text, "a canonical frame comes back byte for byte")
            }
        }
    }

    @Test
    fun `the vectors cover both directions, every variant, and the non-canonical list is exact`() {
        for (direction in listOf("server", "client")) {
            assertTrue(Vectors.all.any { it.direction == direction && it.expect == "ok" })
            assertTrue(Vectors.all.any { it.direction == direction && it.expect == "invalid" })
        }
        assertEquals(ServerVariant.entries.map { it.wireValue() }.toSet(), Vectors.ok.filter { it.direction == "server" }.map { it.variant }.toSet())
        assertEquals(ClientVariant.entries.map { it.wireValue() }.toSet(), Vectors.ok.filter { it.direction == "client" }.map { it.variant }.toSet())
        for (name in nonCanonical) assertTrue(Vectors.ok.any { it.name == name }, "nonCanonical names an unknown ok vector: $name")
    }
}
