package dev.wirecontract.graphmind

import java.io.DataInputStream
import java.io.OutputStream
import java.net.InetAddress
import java.net.ServerSocket
import java.net.Socket
import java.security.MessageDigest
import java.util.Base64
import java.util.concurrent.CopyOnWriteArrayList
import kotlin.concurrent.thread

/**
 * A minimal WebSocket viewer on loopback for abuse tests of [SessionHost] (RFC 6455 by hand:
 * the JDK has a WebSocket client but no server). Each connection is upgraded, its `hello`
 * answered with a `hello.ack` (unless [ack] is false: a viewer that never completes the session
 * handshake), then [afterAck] runs with the connection on a thread of its own;
 * frames the app sends are read on unless [Conn.stopReading] was called. [closeCodes] collects the codes of the
 * app's close frames.
 */
class FakeViewer(
    receiveBuffer: Int? = null,
    private val ack: Boolean = true,
    private val afterAck: (Conn) -> Unit = {},
) : AutoCloseable {
    private val server = ServerSocket().apply {
        receiveBuffer?.let { receiveBufferSize = it }
        bind(java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
    }
    val url = "ws://127.0.0.1:${server.localPort}/ingest"
    val closeCodes = CopyOnWriteArrayList<Int>()
    val conns = CopyOnWriteArrayList<Conn>()

    inner class Conn(val socket: Socket) {
        private val input = DataInputStream(socket.getInputStream().buffered())
        private val output: OutputStream = socket.getOutputStream()
        @Volatile var reading = true

        fun stopReading() {
            reading = false
        }

        /** Sends [text] as one text message in [fragments] frames (server frames are unmasked). */
        @Synchronized
        fun sendText(text: String, fragments: Int = 1) {
            val bytes = text.toByteArray(Charsets.UTF_8)
            val step = (bytes.size + fragments - 1) / fragments
            var off = 0
            var first = true
            do {
                val end = minOf(bytes.size, off + step)
                val fin = end == bytes.size
                frame(if (first) 0x1 else 0x0, fin, bytes, off, end - off)
                first = false
                off = end
            } while (off < bytes.size)
            output.flush()
        }

        private fun frame(opcode: Int, fin: Boolean, bytes: ByteArray, off: Int, len: Int) {
            output.write((if (fin) 0x80 else 0) or opcode)
            when {
                len < 126 -> output.write(len)
                len < 65536 -> { output.write(126); output.write(len ushr 8); output.write(len and 0xFF) }
                else -> { output.write(127); for (i in 7 downTo 0) output.write(((len.toLong() ushr (8 * i)) and 0xFF).toInt()) }
            }
            output.write(bytes, off, len)
        }

        /** The next message's opcode and payload (continuations joined), or null at EOF. */
        fun read(): Pair<Int, ByteArray>? {
            val acc = java.io.ByteArrayOutputStream()
            var opcode = -1
            while (true) {
                val b0 = input.read()
                if (b0 < 0) return null
                val b1 = input.readUnsignedByte()
                var len = (b1 and 0x7F).toLong()
                if (len == 126L) len = input.readUnsignedShort().toLong()
                if (len == 127L) len = input.readLong()
                val mask = ByteArray(4).also { if (b1 and 0x80 != 0) input.readFully(it) }
                val payload = ByteArray(len.toInt()).also { input.readFully(it) }
                for (i in payload.indices) payload[i] = (payload[i].toInt() xor mask[i % 4].toInt()).toByte()
                if (opcode < 0 || (b0 and 0x0F) != 0) opcode = b0 and 0x0F
                acc.write(payload)
                if (b0 and 0x80 != 0) return opcode to acc.toByteArray()
            }
        }
    }

    init {
        thread(isDaemon = true) {
            while (!server.isClosed) {
                val socket = runCatching { server.accept() }.getOrNull() ?: break
                thread(isDaemon = true) { runCatching { serve(Conn(socket)) } }
            }
        }
    }

    private fun serve(c: Conn) {
        conns += c
        val head = StringBuilder()
        val raw = c.socket.getInputStream()
        while (!head.endsWith("\r\n\r\n")) {
            val b = raw.read()
            if (b < 0) return
            head.append(b.toChar())
        }
        val key = head.lines().first { it.lowercase().startsWith("sec-websocket-key:") }.substringAfter(':').trim()
        val accept = Base64.getEncoder().encodeToString(
            MessageDigest.getInstance("SHA-1").digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").toByteArray()),
        )
        c.socket.getOutputStream().apply {
            write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: $accept\r\n\r\n".toByteArray())
            flush()
        }
        var acked = false
        while (true) {
            if (!c.reading) {
                Thread.sleep(20)
                if (c.socket.isClosed) return
                continue
            }
            val (opcode, payload) = c.read() ?: return
            when (opcode) {
                0x8 -> {
                    closeCodes += if (payload.size >= 2) ((payload[0].toInt() and 0xFF) shl 8) or (payload[1].toInt() and 0xFF) else 1005
                    return
                }
                0x1 -> if (ack && !acked && String(payload, Charsets.UTF_8).contains("\"type\":\"hello\"")) {
                    acked = true
                    c.sendText(ACK)
                    // On its own thread: this one reads on (the app's close frame among them).
                    thread(isDaemon = true) { runCatching { afterAck(c) } }
                }
            }
        }
    }

    override fun close() {
        server.close()
        conns.forEach { runCatching { it.socket.close() } }
    }

    companion object {
        const val ACK =
            """{"gm":1,"seq":0,"ts":1,"runId":"*","type":"hello.ack","payload":{"versions":{"protocol":1,"viewer":"fake/1"},"capabilities":[],"breakpoints":[],"mode":"run"}}"""
    }
}
