package dev.wirecontract.graphmind

import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File

/**
 * The LLM conventions (normalizeFinishReason, readUsage, the FinishReason enum) on the
 * project's own cases in vectors/graphmind/llm.jsonl, which the Rust, Python, Swift and
 * Node.js suites run too. Lines are read with org.json.
 */
class LlmTest {
    private val cases: List<JSONObject> by lazy {
        File(Vectors.repo, "vectors/graphmind/llm.jsonl").readLines(Charsets.UTF_8).filter { it.isNotBlank() }.map { JSONObject(it) }
    }

    private fun shown(v: UsageView?): Map<String, Any>? = v?.let {
        val m = linkedMapOf<String, Any>("inputTokens" to it.inputTokens, "outputTokens" to it.outputTokens, "basis" to it.basis.name.lowercase())
        it.cacheReadTokens?.let { x -> m["cacheReadTokens"] = x }
        it.cacheWriteTokens?.let { x -> m["cacheWriteTokens"] = x }
        it.reasoningTokens?.let { x -> m["reasoningTokens"] = x }
        m
    }

    private fun expected(c: JSONObject): Map<String, Any>? {
        if (c.isNull("expect")) return null
        val e = c.getJSONObject("expect")
        return e.keySet().associateWith { k -> e.get(k).let { v -> if (v is Number) v.toDouble() else v } }
    }

    @Test
    fun `every llm case`() {
        assertTrue(cases.size >= 90, "${cases.size}")
        for (c in cases) {
            val name = c.getString("name")
            if (c.getString("fn") == "normalizeFinishReason") {
                val raw = c.opt("raw")
                val got = if (raw is String) normalizeFinishReason(raw, c.getBoolean("hasToolCalls"))?.wireValue() else null
                assertEquals(if (c.isNull("expect")) null else c.getString("expect"), got, name)
            } else {
                val text = if (c.has("usageJson")) c.getString("usageJson") else JSONObject.valueToString(c.get("usage"))
                assertEquals(expected(c), shown(readUsage(text)), name)
            }
        }
    }

    @Test
    fun `finish reasons are the registry's closed enum`() {
        assertEquals(listOf("stop", "length", "tool-calls", "content-filter", "error", "other"), FinishReason.values().map { it.wireValue() })
        assertEquals(FinishReason.STOP, normalizeFinishReason("end_turn"))
        assertNull(normalizeFinishReason("  "))
        assertNull(readUsage("{not json"))
    }
}
