//! The Graphorin v1 API for Kotlin and Swift (spec graphorin-v1 §13): parse (throws
//! [`ParseError`]), serialize (legal frames only), the catalogues, the subprotocol helpers and
//! the constants. Parity with the Python binding's `wirecontract.graphorin`. The guards
//! (`isRpcSuccess`, …) and the routing accessors are generated with the unions.

// uniffi exports receive owned values from the host.
#![allow(clippy::needless_pass_by_value)]

use wirecontract::graphorin;

use crate::convert::{Convert, HostPath, Issues};
use crate::{arg, args, guard, parse_guard, ClientErrorKind, ClientMessage, CloseReason, ContractError, HostString, ParseError, ServerMessage};

/// A host string frame as text, or `ParseException.Json` for a Kotlin string holding a lone
/// surrogate (no UTF-8 form, so no WebSocket text frame carries it), naming its UTF-16 index.
fn frame_text(frame: &HostString) -> Result<&str, ParseError> {
    frame.to_str().map_err(|e| ParseError::Json { reason: e.message(), offset: i64::try_from(e.byte_offset).unwrap_or(i64::MAX) })
}

// ---- parsing --------------------------------------------------------------------------------

/// Parses one server → client frame from text (spec §3): JSON syntax first, then the schema.
/// Throws `ParseException.Json` when the text is not JSON, `ParseException.Schema` (every
/// issue, the raw `id`) when it is JSON but not a legal `ServerMessage`.
#[uniffi::export]
pub fn parse_server_message(frame: HostString) -> Result<ServerMessage, ParseError> {
    parse_guard(|| {
        graphorin::parse::<graphorin::ServerMessage>(frame_text(&frame)?, &graphorin::ParseOptions::default()).map(|m| m.to_host()).map_err(ParseError::from)
    })
}

/// [`parse_server_message`] on UTF-8 bytes: invalid UTF-8 is `ParseException.Json` naming the
/// byte offset.
#[uniffi::export]
pub fn parse_server_message_bytes(frame: Vec<u8>) -> Result<ServerMessage, ParseError> {
    parse_guard(|| graphorin::parse::<graphorin::ServerMessage>(&frame, &graphorin::ParseOptions::default()).map(|m| m.to_host()).map_err(ParseError::from))
}

/// Parses one client → server message from text (spec §4): JSON syntax, then `method`, then
/// the variant's schema. A server answers `ParseException.Json` with -32700 and id `0`, and
/// `ParseException.Schema` with -32600 and its `replyId`, then closes with 4008.
#[uniffi::export]
pub fn parse_client_message(frame: HostString) -> Result<ClientMessage, ParseError> {
    parse_guard(|| {
        graphorin::parse::<graphorin::ClientMessage>(frame_text(&frame)?, &graphorin::ParseOptions::default()).map(|m| m.to_host()).map_err(ParseError::from)
    })
}

/// [`parse_client_message`] on UTF-8 bytes: invalid UTF-8 is `ParseException.Json`.
#[uniffi::export]
pub fn parse_client_message_bytes(frame: Vec<u8>) -> Result<ClientMessage, ParseError> {
    parse_guard(|| graphorin::parse::<graphorin::ClientMessage>(&frame, &graphorin::ParseOptions::default()).map(|m| m.to_host()).map_err(ParseError::from))
}

// ---- serializing ----------------------------------------------------------------------------

/// Host values → contract values, or `ContractError::Build` naming every problem.
pub(crate) fn from_host<C: Convert>(host: &C::Host, what: &str) -> Result<C, ContractError> {
    let mut issues = Issues::new();
    match C::from_host(host, &mut issues, &HostPath::root("")) {
        Some(c) if issues.is_empty() => Ok(c),
        _ => {
            let first = issues
                .first()
                .map(|i| format!(": {}: {}", if i.path.is_empty() { "(root)".to_owned() } else { i.dotted_path() }, i.message))
                .unwrap_or_default();
            Err(ContractError::Build { reason: format!("{what} is not a legal frame{first}"), issues: crate::ffi_support::host_issues(&issues) })
        }
    }
}

/// A frame the contract refused to write (opaque values nested past the reader's depth cap).
fn written(e: graphorin::WriteError) -> ContractError {
    ContractError::Build { reason: e.reason, issues: Vec::new() }
}

/// The frame text as `JSON.stringify` writes it (spec §13): compact, keys in spec order (`v`,
/// then `jsonrpc` or `kind`, then the fields), absent optional fields omitted (never `null`),
/// opaque values byte for byte, ids with their JSON type. Throws `ContractException.Build` for
/// host values no frame can carry (an empty string, `JsonText` that is not JSON, opaque values
/// nesting the frame past the reader's depth cap of 100,000); nothing that would not parse back
/// is ever written.
#[uniffi::export]
pub fn serialize_server_message(message: ServerMessage) -> Result<String, ContractError> {
    guard(|| {
        let what = format!("this {} frame", message.variant().wire_value());
        from_host::<graphorin::ServerMessage>(&message, &what).and_then(|m| graphorin::try_serialize_server_message(&m).map_err(written))
    })
}

/// [`serialize_server_message`] for a client message (keys `v, jsonrpc, id, method, params`).
#[uniffi::export]
pub fn serialize_client_message(message: ClientMessage) -> Result<String, ContractError> {
    guard(|| {
        let what = format!("this {} message", message.variant().wire_value());
        from_host::<graphorin::ClientMessage>(&message, &what).and_then(|m| graphorin::try_serialize_client_message(&m).map_err(written))
    })
}

// ---- catalogues -----------------------------------------------------------------------------

/// One row of `RPC_ERROR_CODES` (spec §5).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct RpcErrorCodeInfo {
    /// The catalogue name (`PARSE_ERROR`).
    pub name: String,
    /// The integer on the wire (`-32700`).
    pub code: i64,
    /// How the shipped client classifies it.
    pub client_kind: ClientErrorKind,
    /// What it means, in a few words.
    pub meaning: String,
}

/// `RPC_ERROR_CODES` (spec §5): the 12 codes, in spec order. The schema accepts any integer
/// code: the catalogue is a convention, not a constraint.
#[uniffi::export]
pub fn rpc_error_codes() -> Vec<RpcErrorCodeInfo> {
    graphorin::RPC_ERROR_CODES
        .iter()
        .map(|c| RpcErrorCodeInfo { name: c.name.to_owned(), code: c.value, client_kind: c.client_kind.to_host(), meaning: c.meaning.to_owned() })
        .collect()
}

/// The catalogue name of a code (`-32700` → `PARSE_ERROR`); `null`/`nil` outside the catalogue.
#[uniffi::export]
pub fn rpc_error_code_name(code: i64) -> Option<String> {
    graphorin::RpcErrorCode::from_code(code).name().map(str::to_owned)
}

/// The code of a catalogue name (`PARSE_ERROR` → `-32700`); `null`/`nil` for any other name.
#[uniffi::export]
pub fn rpc_error_code_value(name: HostString) -> Option<i64> {
    // A name with a lone surrogate is no catalogue name.
    name.to_str().ok().and_then(graphorin::RpcErrorCode::from_name).map(graphorin::RpcErrorCode::code)
}

/// How the shipped client classifies a failure code (spec §5): every code outside the
/// catalogue is `PROTOCOL_VIOLATION`.
#[uniffi::export]
pub fn client_error_kind(code: i64) -> ClientErrorKind {
    graphorin::RpcErrorCode::from_code(code).client_kind().to_host()
}

/// One row of `CLOSE_CODE_VALUES` (spec §6).
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
pub struct CloseCodeInfo {
    /// The reason (`auth.required`).
    pub reason: CloseReason,
    /// The WebSocket close code (4001–4008).
    pub code: i64,
    /// Whether the shipped client gives up instead of reconnecting.
    pub fatal: bool,
}

fn close_reason(r: CloseReason) -> graphorin::CloseReason {
    <graphorin::CloseReason as Convert>::from_host(&r, &mut Issues::new(), &HostPath::root("")).unwrap_or(graphorin::CloseReason::ProtocolViolation)
}

/// `CLOSE_CODE_VALUES` (spec §6): every reason with its code, in code order.
#[uniffi::export]
pub fn close_code_values() -> Vec<CloseCodeInfo> {
    graphorin::CLOSE_CODE_VALUES.iter().map(|(r, code)| CloseCodeInfo { reason: r.to_host(), code: i64::from(*code), fatal: r.is_fatal() }).collect()
}

/// `closeCodeFor` (spec §6): the close code of a reason, 4001–4008.
#[uniffi::export]
pub fn close_code_for(reason: CloseReason) -> i64 {
    i64::from(graphorin::close_code_for(close_reason(reason)))
}

/// `closeCodeReason` (spec §6): the reason of a close code; `null`/`nil` outside 4001–4008
/// (1000, 4999, …).
#[uniffi::export]
pub fn close_code_reason(code: i64) -> Option<CloseReason> {
    // A code outside 0..=65535 is no WebSocket close code, so it names no reason.
    u16::try_from(code).ok().and_then(graphorin::close_code_reason).map(|r| r.to_host())
}

/// Whether the shipped client gives up on this close reason instead of reconnecting (spec §6):
/// 4001, 4002, 4003, 4008.
#[uniffi::export]
pub fn close_reason_is_fatal(reason: CloseReason) -> bool {
    close_reason(reason).is_fatal()
}

// ---- subprotocol ----------------------------------------------------------------------------

/// `SUBPROTOCOL_NAME` (spec §7): `graphorin.protocol.v1`.
#[uniffi::export]
pub fn subprotocol_name() -> String {
    graphorin::SUBPROTOCOL_NAME.to_owned()
}

/// `PROTOCOL_VERSION` (spec §7): `"1"`, also the `v` of every frame.
#[uniffi::export]
pub fn protocol_version() -> String {
    graphorin::PROTOCOL_VERSION.to_owned()
}

/// `TICKET_SUBPROTOCOL_PREFIX` (spec §7): `ticket.`.
#[uniffi::export]
pub fn ticket_subprotocol_prefix() -> String {
    graphorin::TICKET_SUBPROTOCOL_PREFIX.to_owned()
}

/// The WebSocket URL path (spec §7): `/v1/ws`.
#[uniffi::export]
pub fn ws_path() -> String {
    graphorin::WS_PATH.to_owned()
}

/// The `jsonrpc` literal of RPC frames: `"2.0"`.
#[uniffi::export]
pub fn jsonrpc_version() -> String {
    graphorin::JSONRPC_VERSION.to_owned()
}

/// Splits a subprotocol offer (spec §7): every entry on commas, tokens trimmed, empty ones
/// dropped. A header value is a one-entry offer.
#[uniffi::export]
pub fn normalize_offer(offer: Vec<HostString>) -> Result<Vec<String>, ContractError> {
    Ok(graphorin::normalize_offer(args(offer, "offer")?))
}

/// `negotiateSubprotocol` (spec §7): `graphorin.protocol.v1` when the offer holds it exactly
/// (case-sensitive, after [`normalize_offer`]), else `null`/`nil`. Ticket tokens are ignored.
#[uniffi::export]
pub fn negotiate(offer: Vec<HostString>) -> Result<Option<String>, ContractError> {
    Ok(graphorin::negotiate(args(offer, "offer")?).map(str::to_owned))
}

/// `parseTicketSubprotocol` (spec §7): the value of the first `ticket.<value>` token with a
/// non-empty value; `null`/`nil` when there is none.
#[uniffi::export]
pub fn parse_ticket(offer: Vec<HostString>) -> Result<Option<String>, ContractError> {
    Ok(graphorin::parse_ticket(args(offer, "offer")?))
}

/// `formatTicketSubprotocol` (spec §7): `ticket.<ticket>`. Throws
/// `ContractException.EmptyTicket` for an empty ticket.
#[uniffi::export]
pub fn format_ticket(ticket: HostString) -> Result<String, ContractError> {
    graphorin::format_ticket(&arg(ticket, "ticket")?).map_err(|e| ContractError::EmptyTicket { reason: e.to_string() })
}

// ---- tables and schema ----------------------------------------------------------------------

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// The 7 `kind` literals of kinded server frames, in spec order (§3.2).
#[uniffi::export]
pub fn kinds() -> Vec<String> {
    strings(graphorin::KINDS)
}

/// The 6 `method` literals, in spec order (§4).
#[uniffi::export]
pub fn methods() -> Vec<String> {
    strings(graphorin::METHODS)
}

/// Every contract object type name (each is a record here), frames last.
#[uniffi::export]
pub fn object_types() -> Vec<String> {
    graphorin::PROTOCOL.objects().iter().map(|o| o.name.to_owned()).collect()
}

/// The schema's `$id`.
#[uniffi::export]
pub fn schema_id() -> String {
    graphorin::SCHEMA_ID.to_owned()
}

/// The draft 2020-12 JSON Schema of Graphorin frames, pretty-printed with a trailing newline
/// (the committed `generated/schema/graphorin.v1.schema.json`).
#[uniffi::export]
pub fn export_json_schema() -> String {
    graphorin::export_json_schema_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Issue, JsonText, RpcId};

    struct Vector {
        name: String,
        direction: String,
        frame: String,
        expect: String,
        variant: Option<String>,
    }

    fn field(line: &str, key: &str) -> Option<String> {
        // The vector files are JSON lines; the contract's own reader extracts a string member.
        let v = wirecontract_json::Val::root(line);
        v.members()
            .find(|(k, _)| wirecontract_json::decode_string(k).text == key)
            .and_then(|(_, val)| val.string_raw().map(|r| wirecontract_json::decode_string(r).text.into_owned()))
    }

    fn vectors() -> Vec<Vector> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../..");
        let shared = std::env::var("WIRECONTRACT_SHARED").unwrap_or_else(|_| format!("{root}/../shared"));
        let mut files = vec![format!("{shared}/vectors/graphorin/conformance.jsonl")];
        let mut own: Vec<String> = std::fs::read_dir(format!("{root}/vectors/graphorin"))
            .map(|d| {
                d.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "jsonl")).map(|p| p.display().to_string()).collect()
            })
            .unwrap_or_default();
        own.sort();
        files.extend(own);
        let mut out = Vec::new();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{f}: {e} (set WIRECONTRACT_SHARED)"));
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                assert!(crate::convert::is_json(line), "{f}: not JSON: {line}");
                let get = |k: &str| field(line, k).unwrap_or_else(|| panic!("{f}: no {k} in {line}"));
                out.push(Vector {
                    name: get("name"),
                    direction: get("direction"),
                    frame: get("frame"),
                    expect: get("expect"),
                    variant: field(line, "variant"),
                });
            }
        }
        assert!(out.len() >= 160, "expected the shared and extra Graphorin vectors, found {}", out.len());
        out
    }

    #[test]
    fn every_vector_round_trips_through_host_types_byte_for_byte() {
        for v in vectors() {
            if v.direction == "server" {
                match (
                    graphorin::parse::<graphorin::ServerMessage>(&v.frame, &graphorin::ParseOptions::default()),
                    parse_server_message(v.frame.as_str().into()),
                ) {
                    (Ok(m), Ok(host)) => {
                        assert_eq!(v.expect, "ok", "{}", v.name);
                        assert_eq!(Some(host.variant().wire_value()), v.variant, "{}", v.name);
                        assert_eq!(host.subscription_id().map(|s| s.0), m.subscription_id().map(|s| s.as_bytes().to_vec()), "{}", v.name);
                        assert_eq!(host.rpc_id(), m.rpc_id().map(Convert::to_host), "{}", v.name);
                        let back: graphorin::ServerMessage = from_host(&host, "x").unwrap_or_else(|e| panic!("{}: {e:?}", v.name));
                        assert_eq!(back, m, "{}", v.name);
                        assert_eq!(serialize_server_message(host).unwrap(), graphorin::serialize_server_message(&m), "{}", v.name);
                    }
                    (Err(e), Err(host)) => {
                        assert_eq!(v.expect, "invalid", "{}", v.name);
                        assert_eq!(host, ParseError::from(e), "{}", v.name);
                    }
                    (a, b) => panic!("{}: contract {a:?} vs host {b:?}", v.name),
                }
            } else {
                match (
                    graphorin::parse::<graphorin::ClientMessage>(&v.frame, &graphorin::ParseOptions::default()),
                    parse_client_message(v.frame.as_str().into()),
                ) {
                    (Ok(m), Ok(host)) => {
                        assert_eq!(v.expect, "ok", "{}", v.name);
                        assert_eq!(Some(host.variant().wire_value()), v.variant, "{}", v.name);
                        assert_eq!(host.id(), m.id().map(Convert::to_host), "{}", v.name);
                        let back: graphorin::ClientMessage = from_host(&host, "x").unwrap_or_else(|e| panic!("{}: {e:?}", v.name));
                        assert_eq!(back, m, "{}", v.name);
                        assert_eq!(serialize_client_message(host).unwrap(), graphorin::serialize_client_message(&m), "{}", v.name);
                    }
                    (Err(e), Err(host)) => {
                        assert_eq!(v.expect, "invalid", "{}", v.name);
                        assert_eq!(host, ParseError::from(e), "{}", v.name);
                    }
                    (a, b) => panic!("{}: contract {a:?} vs host {b:?}", v.name),
                }
            }
        }
    }

    #[test]
    fn exactly_one_generated_guard_is_true_and_it_matches_the_contract_table() {
        type ServerGuard = fn(&ServerMessage) -> bool;
        type ClientGuard = fn(&ClientMessage) -> bool;
        let server: [ServerGuard; 9] = [
            crate::is_rpc_success,
            crate::is_rpc_failure,
            crate::is_subscribed_frame,
            crate::is_unsubscribed_frame,
            crate::is_event_frame,
            crate::is_lifecycle_frame,
            crate::is_error_frame,
            crate::is_pong_frame,
            crate::is_replay_marker_frame,
        ];
        let client: [ClientGuard; 6] = [
            crate::is_initialize_request,
            crate::is_subscribe_request,
            crate::is_unsubscribe_request,
            crate::is_run_cancel_request,
            crate::is_ping_request,
            crate::is_cancelled_notification,
        ];
        for v in vectors().into_iter().filter(|v| v.expect == "ok") {
            if v.direction == "server" {
                let m = graphorin::parse::<graphorin::ServerMessage>(&v.frame, &graphorin::ParseOptions::default()).unwrap();
                let host = m.to_host();
                let hits: Vec<bool> = server.iter().map(|g| g(&host)).collect();
                let expected: Vec<bool> = graphorin::SERVER_GUARDS.iter().map(|g| (g.3)(&m)).collect();
                assert_eq!(hits, expected, "{}", v.name);
                assert_eq!(hits.iter().filter(|h| **h).count(), 1, "{}", v.name);
            } else {
                let m = graphorin::parse::<graphorin::ClientMessage>(&v.frame, &graphorin::ParseOptions::default()).unwrap();
                let host = m.to_host();
                let hits: Vec<bool> = client.iter().map(|g| g(&host)).collect();
                let expected: Vec<bool> = graphorin::CLIENT_GUARDS.iter().map(|g| (g.3)(&m)).collect();
                assert_eq!(hits, expected, "{}", v.name);
            }
        }
    }

    #[test]
    fn host_values_no_frame_can_carry_are_build_errors() {
        let event = ServerMessage::Event {
            frame: crate::ServerEventFrame {
                event_id: HostString::default(),
                subscription_id: "s".into(),
                subject: "x".into(),
                event_type: "t".into(),
                payload: Some(JsonText("{nope".into())),
            },
        };
        let Err(ContractError::Build { issues, reason }) = serialize_server_message(event) else { panic!() };
        let paths: Vec<String> = issues.iter().map(Issue::dotted_text).collect();
        assert_eq!(paths, ["eventId", "payload"]);
        assert!(reason.starts_with("this event frame is not a legal frame: eventId: too small"), "{reason}");
        let ping = ClientMessage::Ping { frame: crate::ClientPingRequest { id: RpcId::StringId { value: HostString::default() }, params: None } };
        assert!(matches!(serialize_client_message(ping), Err(ContractError::Build { .. })));
        let init = ClientMessage::Initialize {
            frame: crate::ClientInitializeRequest {
                id: RpcId::IntId { value: 1 },
                params: crate::InitializeParams {
                    client_info: crate::ClientInfo { name: "n".into(), version: "1".into() },
                    capabilities: Some(JsonText("[]".into())),
                },
            },
        };
        let Err(ContractError::Build { issues, .. }) = serialize_client_message(init) else { panic!() };
        assert_eq!(issues[0].dotted_text(), "params.capabilities");
        assert_eq!(
            format_ticket(HostString::default()),
            Err(ContractError::EmptyTicket { reason: "the ticket must be a non-empty string (graphorin-v1 §7)".into() })
        );
    }

    #[test]
    fn rpc_id_to_json_refuses_what_no_frame_can_carry() {
        assert_eq!(RpcId::StringId { value: "req-1".into() }.to_json(), Ok("\"req-1\"".to_owned()));
        assert_eq!(RpcId::IntId { value: -7 }.to_json(), Ok("-7".to_owned()));
        // A Kotlin "\uD800" crosses as its generalized UTF-8 form: refused, never U+FFFD.
        let lone = RpcId::StringId { value: HostString(vec![0xED, 0xA0, 0x80]) };
        let Err(ContractError::Build { reason, issues }) = lone.to_json() else { panic!("lossy") };
        assert_eq!(reason, "not a legal RpcId: lone surrogate at UTF-16 index 0: not representable in UTF-8");
        assert_eq!(issues[0].code, Some(crate::IssueCode::Custom));
        // The empty string: the contract's reader decides (its message and code).
        let Err(ContractError::Build { issues, .. }) = RpcId::StringId { value: HostString::default() }.to_json() else { panic!() };
        assert_eq!(issues[0].code, Some(crate::IssueCode::TooSmall));
    }
    #[test]
    fn a_frame_nested_past_the_reader_cap_is_a_build_error_not_written() {
        let depth = graphorin::DEFAULT_MAX_DEPTH;
        let success = |d: usize| ServerMessage::RpcSuccess {
            frame: crate::ServerRpcSuccess { id: RpcId::StringId { value: "x".into() }, result: JsonText(format!("{}{}", "[".repeat(d), "]".repeat(d))) },
        };
        // The frame adds one level: a result of depth cap − 1 fits, one of depth cap does not.
        assert!(serialize_server_message(success(depth - 1)).is_ok());
        let Err(ContractError::Build { reason, .. }) = serialize_server_message(success(depth)) else { panic!("a frame that does not parse back") };
        assert!(reason.starts_with("the frame would not parse: nesting exceeds the maximum depth"), "{reason}");
    }
}
