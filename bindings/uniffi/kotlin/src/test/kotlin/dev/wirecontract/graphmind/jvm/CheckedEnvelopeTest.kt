package dev.wirecontract.graphmind.jvm

import dev.wirecontract.graphmind.ContractException
import dev.wirecontract.graphmind.Message
import dev.wirecontract.graphmind.ModeSet
import dev.wirecontract.graphmind.NodeKind
import dev.wirecontract.graphmind.NodeStarted
import dev.wirecontract.graphmind.RunMode
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** The checked [Envelope]: an invalid copy is refused where it is made, never when it is sent. */
class CheckedEnvelopeTest {
    private val frame = """{"gm":1,"seq":7,"ts":9,"runId":"r","type":"mode.set","payload":{"mode":"step"}}"""

    @Test
    fun `factories, with-methods and parse give envelopes that serialize`() {
        val env = Envelope.of(Message.ModeSet(ModeSet(RunMode.STEP)), 7, "r", 9)
        assertEquals(frame, env.frame)
        assertEquals(env, Envelope.ofJson("mode.set", JsonText.of("""{"mode":"step"}"""), 7, "r", 9))
        assertEquals(env, Envelope.parse(frame))
        assertNull(Envelope.parse("{"))
        assertEquals(frame.replace("\"seq\":7", "\"seq\":8"), env.withSeq(8).frame)
        assertEquals("node.started", env.withMessage(Message.NodeStarted(NodeStarted("n", null, NodeKind.TOOL, "t", "i"))).type)
    }

    @Test
    fun `an invalid copy is a ContractException at the point of creation`() {
        val env = Envelope.of(Message.ModeSet(ModeSet(RunMode.STEP)), 7, "r", 9)
        val e = assertThrows<ContractException.Build> { env.withSeq(-1) }
        assertEquals(listOf("seq"), e.issues.map { it.dottedPath() })
        assertThrows<ContractException.Build> { env.withTs(1L shl 53) }
        assertThrows<ContractException.Build> { env.withRunId("a\u0000b") }
        assertThrows<ContractException.Build> { env.withRunId("\uDC00") }
        assertThrows<ContractException.Build> { Envelope.from(env.record.copy(messageType = "node.started")) }
        assertThrows<ContractException.Build> { Envelope.from(env.record.copy(extraJson = """{"seq":1}""")) }
        assertThrows<ContractException.Build> { env.withMessage(Message.NodeStarted(NodeStarted("", null, NodeKind.TOOL, "t", "i", extraJson = "[]"))) }
    }
}
