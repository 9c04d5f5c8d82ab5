package dev.wirecontract.graphorin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.json.JSONObject
import java.io.File

/** The JSON Schema's definitions: the registry's contents, as the tests' expected sets. */
private val schemaDefs: JSONObject by lazy { JSONObject(exportJsonSchema()).getJSONObject("\$defs") }

/** The `const` of `member` in every frame definition of the union `union`, in order. */
private fun schemaConsts(union: String, member: String): List<String> {
    val refs = schemaDefs.getJSONObject(union).getJSONArray("oneOf")
    return (0 until refs.length()).mapNotNull { i ->
        val def = schemaDefs.getJSONObject(refs.getJSONObject(i).getString("\$ref").substringAfterLast('/'))
        def.getJSONObject("properties").optJSONObject(member)?.getString("const")
    }
}

/** Ids, errors, accessors, building, catalogues, subprotocol helpers and the schema. */
class ApiTest {
    private fun rpc(id: String) = """{"v":"1","jsonrpc":"2.0","id":$id,"result":null}"""

    @Test
    fun `rpc ids keep their JSON type and exact digits`() {
        val stringOne = parseServerMessage("""{"v":"1","jsonrpc":"2.0","id":"1","result":null}""")
        val numberOne = parseServerMessage(rpc("1"))
        assertEquals(RpcId.StringId("1"), stringOne.rpcId())
        assertEquals(RpcId.IntId(1L), numberOne.rpcId())
        assertNotEquals(stringOne, numberOne, "\"1\" and 1 are different ids")
        assertTrue(serializeServerMessage(stringOne).contains(""""id":"1""""))
        assertTrue(serializeServerMessage(numberOne).contains(""""id":1,"""))
        assertEquals("\"1\"", RpcId.StringId("1").toJson())
        assertEquals("1", RpcId.IntId(1L).toJson())
        // Beyond 2^53 the digits are kept (JSON.parse would round to 9007199254740992).
        assertEquals(RpcId.IntId(9_007_199_254_740_993L), parseServerMessage(rpc("9007199254740993")).rpcId())
        // Integral spellings read as the integer and are written canonically.
        val spellings = listOf("1.0" to 1L, "1e3" to 1000L, "-0" to 0L, "10E-1" to 1L, "-3.27e4" to -32700L, "9223372036854775807" to Long.MAX_VALUE, "-9223372036854775808" to Long.MIN_VALUE)
        for ((spelling, value) in spellings) {
            val msg = parseServerMessage(rpc(spelling))
            assertEquals(RpcId.IntId(value), msg.rpcId(), spelling)
            assertEquals(rpc(value.toString()), serializeServerMessage(msg))
        }
        val refused = listOf("9223372036854775808" to IssueCode.TOO_BIG, "-9223372036854775809" to IssueCode.TOO_SMALL, "1e19" to IssueCode.TOO_BIG, "1.5" to IssueCode.INVALID_TYPE, "1e400" to IssueCode.INVALID_TYPE)
        for ((spelling, code) in refused) {
            val e = assertThrows<ParseException.Schema> { parseServerMessage(rpc(spelling)) }
            assertEquals(code, e.issues[0].code, spelling)
            assertEquals(listOf<PathSegment>(PathSegment.Key("id")), e.issues[0].path)
        }
    }

    private fun onlyIssue(direction: String, frame: String): Pair<IssueCode?, String> {
        val r = parse(direction, frame) as Parsed.Failed
        val e = r.error as ParseException.Schema
        assertEquals(1, e.issues.size, "$frame: ${e.issues}")
        return e.issues[0].code to e.issues[0].dottedPath()
    }

    @Test
    fun `issues carry stable codes and paths`() {
        val cases = listOf(
            Triple("server", """{"v":"1","kind":"pong","surprise":true}""", IssueCode.UNRECOGNIZED_KEYS to "surprise"),
            Triple("server", """{"v":"1","kind":"pong","__proto__":{"x":1}}""", IssueCode.UNRECOGNIZED_KEYS to "__proto__"),
            Triple("server", """{"v":"2","kind":"pong"}""", IssueCode.INVALID_LITERAL to "v"),
            Triple("server", """{"kind":"pong"}""", IssueCode.INVALID_LITERAL to "v"),
            Triple("server", """{"v":1,"kind":"pong"}""", IssueCode.INVALID_LITERAL to "v"),
            Triple("server", """{"v":"1","jsonrpc":"1.0","id":1,"result":{}}""", IssueCode.INVALID_LITERAL to "jsonrpc"),
            Triple("server", """{"v":"1","kind":"bogus"}""", IssueCode.INVALID_DISCRIMINATOR to "kind"),
            Triple("server", """{"v":"1","kind":"Pong"}""", IssueCode.INVALID_DISCRIMINATOR to "kind"),
            Triple("server", """{"v":"1","kind":"pong","nonce":""}""", IssueCode.TOO_SMALL to "nonce"),
            Triple("server", """{"v":"1","kind":"lifecycle","subscriptionId":"s","status":"done"}""", IssueCode.INVALID_ENUM to "status"),
            Triple("server", """{"v":"1","kind":"event","eventId":"e","subject":"x","type":"t"}""", IssueCode.INVALID_TYPE to "subscriptionId"),
            Triple("server", """{"v":"1","kind":"replay-marker","subscriptionId":"s","eventId":"e","droppedCount":-1}""", IssueCode.TOO_SMALL to "droppedCount"),
            Triple("server", """{"v":"1","jsonrpc":"2.0","id":1,"error":{"code":-32000.5,"message":"x"}}""", IssueCode.INVALID_TYPE to "error.code"),
            Triple("server", """{"v":"1","jsonrpc":"2.0","id":"r","result":1,"error":{"code":0,"message":"no"}}""", IssueCode.UNRECOGNIZED_KEYS to "error"),
            Triple("server", """{"v":"1","jsonrpc":"2.0","id":1}""", IssueCode.INVALID_TYPE to "result"),
            Triple("server", """{"v":"1","jsonrpc":"2.0","id":1,"result":{},"kind":"pong"}""", IssueCode.UNRECOGNIZED_KEYS to "kind"),
            Triple("server", "[1]", IssueCode.INVALID_TYPE to ""),
            Triple("client", """{"v":"1","jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"n","version":""}}}""", IssueCode.TOO_SMALL to "params.clientInfo.version"),
            Triple("client", """{"v":"1","jsonrpc":"2.0","id":9,"method":"unknown.method","params":{}}""", IssueCode.INVALID_DISCRIMINATOR to "method"),
            Triple("client", """{"v":"1","kind":"pong"}""", IssueCode.INVALID_DISCRIMINATOR to "method"),
            Triple("client", """{"v":"1","jsonrpc":"2.0","id":1,"method":"ping","params":null}""", IssueCode.INVALID_TYPE to "params"),
            Triple("client", """{"v":"1","jsonrpc":"2.0","id":3,"method":"run.cancel","params":{"runId":"r","onPendingApprovals":"approve"}}""", IssueCode.INVALID_ENUM to "params.onPendingApprovals"),
            Triple("client", """{"v":"1","jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}""", IssueCode.INVALID_TYPE to "params.requestId"),
            Triple("client", """{"v":"1","jsonrpc":"2.0","id":1,"method":"notifications/cancelled","params":{"requestId":"r"}}""", IssueCode.UNRECOGNIZED_KEYS to "id"),
            Triple("client", """{"v":"1","jsonrpc":"2.0","id":"s","method":"subscription.subscribe","params":{"subject":"x","lastSequenceId":3}}""", IssueCode.UNRECOGNIZED_KEYS to "params.lastSequenceId"),
        )
        for ((direction, frame, expected) in cases) assertEquals(expected, onlyIssue(direction, frame), frame)
        // Every issue is reported, in frame order, unrecognized keys last.
        val e = assertThrows<ParseException.Schema> { parseServerMessage("""{"x":1,"kind":"event","eventId":"","subject":5,"type":"t"}""") }
        assertEquals(
            listOf(IssueCode.INVALID_LITERAL to "v", IssueCode.TOO_SMALL to "eventId", IssueCode.INVALID_TYPE to "subscriptionId", IssueCode.INVALID_TYPE to "subject", IssueCode.UNRECOGNIZED_KEYS to "x"),
            e.issues.map { it.code to it.dottedPath() },
        )
        assertEquals("""invalid literal: expected "1", received undefined""", e.issues[0].message)
        assertEquals("unrecognized_keys", e.issues[4].code?.wireValue())
        assertEquals(Issue(listOf(PathSegment.Key("x")), IssueCode.UNRECOGNIZED_KEYS, "unrecognized key \"x\" (the object is strict)"), e.issues[4])
    }

    @Test
    fun `a rejected request carries its raw id with its JSON type`() {
        fun rawId(frame: String) = (assertThrows<ParseException> { parseClientMessage(frame) } as? ParseException.Schema)?.id
        assertEquals("2.5", rawId("""{"v":"1","jsonrpc":"2.0","id":2.5,"method":"ping"}"""))
        assertEquals("\"\"", rawId("""{"v":"1","jsonrpc":"2.0","id":"","method":"ping"}"""))
        assertEquals("""{"n":1}""", rawId("""{"v":"1","jsonrpc":"2.0","id": {"n" : 1},"method":"x"}"""))
        assertEquals("\"last\"", rawId("""{"v":"1","jsonrpc":"2.0","id":1,"id":"last","method":"x"}"""))
        assertNull(rawId("""{"v":"1","jsonrpc":"2.0","method":"ping"}"""))
        assertNull(rawId("""[{"id":1}]"""), "only a top-level object has an id")
        // The reply id is the id when valid, else 0, so the reply is always a legal frame.
        fun replyId(frame: String) = assertThrows<ParseException.Schema> { parseClientMessage(frame) }.replyId
        assertEquals(RpcId.IntId(9L), replyId("""{"v":"1","jsonrpc":"2.0","id":9,"method":"unknown.method","params":{}}"""))
        assertEquals(RpcId.StringId("9"), replyId("""{"v":"1","jsonrpc":"2.0","id":"9","method":"Ping"}"""))
        assertEquals(RpcId.IntId(0L), replyId("""{"v":"1","jsonrpc":"2.0","id":2.5,"method":"ping"}"""))
        assertEquals(RpcId.IntId(0L), replyId("""{"v":"1","jsonrpc":"2.0","id":null,"method":"ping"}"""))
        // Syntax failures: -32700 with id 0, no issues, no id.
        val json = assertThrows<ParseException.Json> { parseClientMessage("ping") }
        assertTrue(json.reason.isNotEmpty())
        assertFalse(json.message.isNullOrEmpty())
    }

    @Test
    fun `bytes that are not UTF-8 are a JSON failure`() {
        val bytes = "{\"v\":\"1\",\"kind\":\"pong\",\"nonce\":\"".toByteArray() + byteArrayOf(0xff.toByte()) + "\"}".toByteArray()
        val e = assertThrows<ParseException.Json> { parseServerMessageBytes(bytes) }
        assertEquals(32L, e.offset)
        assertTrue(e.reason.contains("UTF-8"), e.reason)
        assertThrows<ParseException.Json>("a binary message reads as the empty string") { parseClientMessageBytes(byteArrayOf()) }
    }

    @Test
    fun `routing accessors follow the spec`() {
        assertEquals("s-1", parseServerMessage("""{"v":"1","kind":"unsubscribed","subscriptionId":"s-1"}""").subscriptionId())
        assertNull(parseServerMessage("""{"v":"1","kind":"error","code":"c","message":"m"}""").subscriptionId())
        assertEquals("s", parseServerMessage("""{"v":"1","kind":"error","code":"c","message":"m","subscriptionId":"s"}""").subscriptionId())
        val pong = parseServerMessage("""{"v":"1","kind":"pong"}""")
        assertEquals(ServerVariant.PONG, pong.variant())
        assertNull(pong.rpcId())
        assertNull(pong.subscriptionId())
        val notification = parseClientMessage("""{"v":"1","jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r"}}""")
        assertNull(notification.id())
        assertEquals("notifications/cancelled", notification.variant().wireValue())
        assertEquals(RpcId.StringId("g-1"), parseClientMessage("""{"v":"1","jsonrpc":"2.0","id":"g-1","method":"ping"}""").id())
        assertEquals(schemaConsts("ServerMessage", "kind"), kinds())
        assertEquals(schemaConsts("ClientMessage", "method"), methods())
        assertEquals(methods(), ClientVariant.entries.map { it.wireValue() })
        assertEquals(listOf("rpc-success", "rpc-failure") + kinds(), ServerVariant.entries.map { it.wireValue() })
        val statuses = schemaDefs.getJSONObject("LifecycleStatus").getJSONArray("oneOf")
        assertEquals((0 until statuses.length()).map { statuses.getJSONObject(it).getString("const") }, LifecycleStatus.entries.map { it.wireValue() })
    }

    @Test
    fun `built messages serialize to legal frames only`() {
        val pong = ServerMessage.Pong(ServerPongFrame())
        assertEquals("""{"v":"1","kind":"pong"}""", serializeServerMessage(pong))
        val event = ServerMessage.Event(ServerEventFrame(eventId = "e", subscriptionId = "s", subject = "x", eventType = "t"))
        assertEquals("""{"v":"1","kind":"event","eventId":"e","subscriptionId":"s","subject":"x","type":"t"}""", serializeServerMessage(event))
        // Absent and null differ for opaque values.
        val nullPayload = ServerMessage.Event(ServerEventFrame("e", "s", "x", "t", payload = "null"))
        assertEquals("""{"v":"1","kind":"event","eventId":"e","subscriptionId":"s","subject":"x","type":"t","payload":null}""", serializeServerMessage(nullPayload))
        val success = ServerMessage.RpcSuccess(ServerRpcSuccess(RpcId.IntId(0L), result = "null"))
        assertEquals("""{"v":"1","jsonrpc":"2.0","id":0,"result":null}""", serializeServerMessage(success))
        val failure = ServerMessage.RpcFailure(ServerRpcFailure(RpcId.StringId("r"), RpcError(code = -32099L, message = "m", data = """{ "a" : [1e400] }""")))
        assertEquals("""{"v":"1","jsonrpc":"2.0","id":"r","error":{"code":-32099,"message":"m","data":{"a":[1e400]}}}""", serializeServerMessage(failure))
        val request = ClientMessage.Ping(ClientPingRequest(RpcId.StringId("graphorin-1")))
        assertEquals("""{"v":"1","jsonrpc":"2.0","id":"graphorin-1","method":"ping"}""", serializeClientMessage(request))
        val init = ClientMessage.Initialize(
            ClientInitializeRequest(RpcId.IntId(1L), InitializeParams(ClientInfo("graphorin-client", "0.15.0"), capabilities = """{"":1,"x":{"y":null}}""")),
        )
        val initText = serializeClientMessage(init)
        assertEquals(
            """{"v":"1","jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"graphorin-client","version":"0.15.0"},"capabilities":{"":1,"x":{"y":null}}}}""",
            initText,
        )
        val cancel = ClientMessage.RunCancel(ClientRunCancelRequest(RpcId.IntId(2L), RunCancelParams("run-1", drain = true, onPendingApprovals = PendingApprovals.PRESERVE)))
        assertEquals("""{"v":"1","jsonrpc":"2.0","id":2,"method":"run.cancel","params":{"runId":"run-1","drain":true,"onPendingApprovals":"preserve"}}""", serializeClientMessage(cancel))
        val notification = ClientMessage.CancelledNotification(ClientCancelledNotification(CancelledParams("run-1")))
        assertEquals("""{"v":"1","jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"run-1"}}""", serializeClientMessage(notification))
        for (m in listOf(pong, event, nullPayload, success)) assertEquals(m, parseServerMessage(serializeServerMessage(m)))
        // Opaque text keeps its tokens byte for byte; whitespace between them is dropped once.
        assertEquals(failure.copy(failure.frame.copy(error = failure.frame.error.copy(data = """{"a":[1e400]}"""))), parseServerMessage(serializeServerMessage(failure)))
        for (m in listOf(request, init, cancel, notification)) assertEquals(m, parseClientMessage(serializeClientMessage(m)))
        // A marker counts up to 2^64 - 1, more than a Java long holds: a BigInteger, checked by
        // the contract's reader on the way in.
        val max = java.math.BigInteger("18446744073709551615")
        val marker = ServerMessage.ReplayMarker(ServerReplayMarkerFrame("s", "e", droppedCount = max))
        assertTrue(serializeServerMessage(marker).contains(""""droppedCount":18446744073709551615"""))
        assertEquals(marker, parseServerMessage(serializeServerMessage(marker)))
    }

    @Test
    fun `opaque JSON text with a lone surrogate is an issue at its field, never an encoder exception`() {
        val e = assertThrows<ContractException.Build> {
            serializeServerMessage(ServerMessage.Event(ServerEventFrame("s", "e", "subj", "t", "{\"a\":\"\uD800\"}")))
        }
        assertTrue(e.reason.contains("lone surrogate at UTF-16 index 6"), e.reason)
        assertTrue(e.issues.single().dottedPath().endsWith("payload"), e.issues.toString())
        // As a HostString field gets: the issue at the field's wire path, with the index.
        val failure = ServerMessage.RpcFailure(dev.wirecontract.graphorin.jvm.Records.serverRpcFailure(RpcId.IntId(1L), dev.wirecontract.graphorin.jvm.Records.rpcError(-32600L, "m", "\"\uD800\"")))
        val f = assertThrows<ContractException.Build> { serializeServerMessage(failure) }
        assertEquals(listOf("error.data"), f.issues.map { it.dottedPath() })
        assertEquals("lone surrogate at UTF-16 index 1: not representable in UTF-8", f.issues.single().message)
        val params = dev.wirecontract.graphorin.jvm.Records.initializeParams(ClientInfo("c", "1"), "{\"\uD800\":1}")
        val i = assertThrows<ContractException.Build> { serializeClientMessage(ClientMessage.Initialize(ClientInitializeRequest(RpcId.IntId(1L), params))) }
        assertEquals(listOf("params.capabilities"), i.issues.map { it.dottedPath() })
    }

    @Test
    fun `an exact count outside 0 until 2^64 is a build error with the parser's code`() {
        for ((n, code) in listOf("-1" to IssueCode.TOO_SMALL, "18446744073709551616" to IssueCode.TOO_BIG)) {
            val e = assertThrows<ContractException.Build> {
                serializeServerMessage(ServerMessage.ReplayMarker(ServerReplayMarkerFrame("s", "e", droppedCount = java.math.BigInteger(n))))
            }
            assertEquals(listOf("droppedCount"), e.issues.map { it.dottedPath() })
            assertEquals(listOf(code), e.issues.map { it.code })
        }
    }

    @Test
    fun `host values no frame can carry are build errors naming path and code`() {
        val e = assertThrows<ContractException.Build> {
            serializeServerMessage(ServerMessage.Event(ServerEventFrame(eventId = "", subscriptionId = "s", subject = "x", eventType = "t", payload = "{nope")))
        }
        assertEquals(listOf("eventId", "payload"), e.issues.map { it.dottedPath() })
        assertEquals(listOf(IssueCode.TOO_SMALL, IssueCode.CUSTOM), e.issues.map { it.code })
        assertTrue(e.reason.startsWith("this event frame is not a legal frame"), e.reason)
        assertThrows<ContractException.Build> { serializeClientMessage(ClientMessage.Ping(ClientPingRequest(RpcId.StringId("")))) }
        val caps = assertThrows<ContractException.Build> {
            serializeClientMessage(ClientMessage.Initialize(ClientInitializeRequest(RpcId.IntId(1L), InitializeParams(ClientInfo("n", "1"), capabilities = "[]"))))
        }
        assertEquals(listOf(listOf<PathSegment>(PathSegment.Key("params"), PathSegment.Key("capabilities"))), caps.issues.map { it.path })
        assertEquals(IssueCode.INVALID_TYPE, caps.issues[0].code)
        val nested = assertThrows<ContractException.Build> {
            serializeClientMessage(ClientMessage.Initialize(ClientInitializeRequest(RpcId.IntId(1L), InitializeParams(ClientInfo("", "")))))
        }
        assertEquals(listOf("params.clientInfo.name", "params.clientInfo.version"), nested.issues.map { it.dottedPath() })
    }

    @Test
    fun `rpc error codes are the twelve of the catalogue`() {
        assertEquals(
            listOf(
                Triple("PARSE_ERROR", -32700L, ClientErrorKind.PROTOCOL_VIOLATION),
                Triple("INVALID_REQUEST", -32600L, ClientErrorKind.PROTOCOL_VIOLATION),
                Triple("METHOD_NOT_FOUND", -32601L, ClientErrorKind.PROTOCOL_VIOLATION),
                Triple("INVALID_PARAMS", -32602L, ClientErrorKind.PROTOCOL_VIOLATION),
                Triple("INTERNAL_ERROR", -32603L, ClientErrorKind.SERVER_ERROR),
                Triple("AUTH_REQUIRED", -32001L, ClientErrorKind.AUTH_FAILED),
                Triple("AUTH_INVALID", -32002L, ClientErrorKind.AUTH_FAILED),
                Triple("SCOPE_DENIED", -32003L, ClientErrorKind.SCOPE_DENIED),
                Triple("RATE_LIMITED", -32004L, ClientErrorKind.RATE_LIMITED),
                Triple("PROTOCOL_VIOLATION", -32005L, ClientErrorKind.PROTOCOL_VIOLATION),
                Triple("RUN_NOT_FOUND", -32010L, ClientErrorKind.RUN_NOT_FOUND),
                Triple("SUBSCRIPTION_NOT_FOUND", -32011L, ClientErrorKind.SUBSCRIPTION_NOT_FOUND),
            ),
            rpcErrorCodes().map { Triple(it.name, it.code, it.clientKind) },
        )
        for (entry in rpcErrorCodes()) {
            assertEquals(entry.name, rpcErrorCodeName(entry.code))
            assertEquals(entry.code, rpcErrorCodeValue(entry.name))
            assertEquals(entry.clientKind, clientErrorKind(entry.code))
            assertTrue(entry.meaning.isNotEmpty())
        }
        // Unknown codes stay representable and map to protocol-violation.
        assertNull(rpcErrorCodeName(-32099L))
        assertNull(rpcErrorCodeValue("NOPE"))
        assertEquals(ClientErrorKind.PROTOCOL_VIOLATION, clientErrorKind(7L))
        val failure = parseServerMessage("""{"v":"1","jsonrpc":"2.0","id":1,"error":{"code":7,"message":"m"}}""") as ServerMessage.RpcFailure
        assertEquals(7L, failure.frame.error.code)
        assertEquals("""{"v":"1","jsonrpc":"2.0","id":1,"error":{"code":7,"message":"m"}}""", serializeServerMessage(failure))
    }

    @Test
    fun `close codes are 4001 to 4008 with lookups both ways`() {
        assertEquals(
            listOf("auth.required", "auth.invalid", "auth.revoked", "auth.scope_denied", "rate.limited", "flow.throttled", "server.shutdown", "protocol.violation"),
            closeCodeValues().map { it.reason.wireValue() },
        )
        assertEquals((4001..4008).map { it.toLong() }, closeCodeValues().map { it.code })
        for (reason in CloseReason.entries) {
            assertEquals(reason, closeCodeReason(closeCodeFor(reason)))
            assertEquals(closeCodeValues().single { it.reason == reason }.fatal, closeReasonIsFatal(reason))
        }
        for (outside in listOf(1000, 4000, 4009, 4999, 0)) assertNull(closeCodeReason(outside.toLong()), "$outside")
        assertEquals(listOf(4001, 4002, 4003, 4008).map { it.toLong() }, closeCodeValues().filter { it.fatal }.map { it.code })
    }

    @Test
    fun `subprotocol negotiation and tickets follow the reference`() {
        assertEquals(Triple("graphorin.protocol.v1", "1", "ticket."), Triple(subprotocolName(), protocolVersion(), ticketSubprotocolPrefix()))
        assertEquals("/v1/ws", wsPath())
        assertEquals("2.0", jsonrpcVersion())
        assertEquals(subprotocolName(), negotiate(listOf("graphorin.protocol.v1")))
        assertEquals(subprotocolName(), negotiate(listOf("ticket.abc, graphorin.protocol.v1")), "from a comma-separated string")
        assertEquals(subprotocolName(), negotiate(listOf("x", "ticket.t,graphorin.protocol.v1")), "list entries are split too")
        assertEquals(subprotocolName(), negotiate(listOf("  graphorin.protocol.v1  ")), "tokens are trimmed")
        assertNull(negotiate(listOf("Graphorin.Protocol.V1")), "case-sensitive")
        assertNull(negotiate(listOf("graphorin.protocol.v2")))
        assertNull(negotiate(listOf()))
        assertNull(negotiate(listOf("")))
        assertNull(negotiate(listOf("ticket.graphorin.protocol.v1")), "a ticket token is not the protocol")
        assertEquals(listOf("a", "b", "c"), normalizeOffer(listOf("a, ,b", "", " c ")))
        assertEquals("ticket.t-123", formatTicket("t-123"))
        val empty = assertThrows<ContractException.EmptyTicket> { formatTicket("") }
        assertTrue(empty.reason.contains("non-empty"))
        assertEquals("t-123", parseTicket(listOf(subprotocolName(), formatTicket("t-123"))), "round trip")
        assertNull(parseTicket(listOf(subprotocolName())), "absent")
        assertEquals("second", parseTicket(listOf("ticket., ticket.second")), "a bare ticket. is skipped")
        assertEquals("first", parseTicket(listOf("ticket.first", "ticket.second")), "the first ticket wins")
        assertNull(parseTicket(listOf("Ticket.x")), "the prefix is case-sensitive")
    }

    @Test
    fun `the schema and the object tables match the contract`() {
        assertEquals(File(Vectors.repo, "generated/schema/graphorin.v1.schema.json").readText(), exportJsonSchema())
        assertTrue(exportJsonSchema().contains(schemaId()))
        // Every contract object is a record of this package; the unions and enums too.
        assertEquals(schemaDefs.keySet().filter { schemaDefs.getJSONObject(it).optString("type") == "object" }.toSet(), objectTypes().toSet())
        for (name in objectTypes() + listOf("ServerMessage", "ClientMessage", "RpcId", "Issue", "PathSegment", "IssueCode")) {
            Class.forName("dev.wirecontract.graphorin.$name")
        }
        // Strict objects have no extraJson and store no constant member.
        val fields = ServerPongFrame::class.java.declaredFields.map { it.name }.filter { !it.startsWith("$") && it != "Companion" }
        assertEquals(listOf("nonce"), fields)
    }
}
