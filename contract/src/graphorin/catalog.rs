//! Close codes (§6) and WebSocket subprotocol helpers (§7), as data and pure functions.

use std::fmt;

wire_enum! {
    /// Why a Graphorin WebSocket was closed (§6, `GraphorinCloseReason`): 8 reasons with codes
    /// 4001–4008 in RFC 6455's private range.
    pub enum CloseReason {
        /// 4001: upgrade with no credentials. Fatal.
        AuthRequired = "auth.required",
        /// 4002: bad bearer token, or an unknown or used ticket. Fatal.
        AuthInvalid = "auth.invalid",
        /// 4003: never sent. Fatal.
        AuthRevoked = "auth.revoked",
        /// 4004: scope denied (never produced by the current upgrade code). The client reconnects.
        AuthScopeDenied = "auth.scope_denied",
        /// 4005: never sent. The client reconnects.
        RateLimited = "rate.limited",
        /// 4006: dispatcher back-pressure. The client reconnects, resuming from lastEventId.
        FlowThrottled = "flow.throttled",
        /// 4007: graceful shutdown, after an `aborted` lifecycle frame per subscription. The
        /// client reconnects with backoff.
        ServerShutdown = "server.shutdown",
        /// 4008: subprotocol not offered, non-JSON or schema-invalid frame; also sent by the
        /// client when the server echoes the wrong subprotocol. Fatal.
        ProtocolViolation = "protocol.violation",
    }
}

/// `CLOSE_CODE_VALUES` (§6): every reason with its code, in code order.
pub const CLOSE_CODE_VALUES: &[(CloseReason, u16)] = &[
    (CloseReason::AuthRequired, 4001),
    (CloseReason::AuthInvalid, 4002),
    (CloseReason::AuthRevoked, 4003),
    (CloseReason::AuthScopeDenied, 4004),
    (CloseReason::RateLimited, 4005),
    (CloseReason::FlowThrottled, 4006),
    (CloseReason::ServerShutdown, 4007),
    (CloseReason::ProtocolViolation, 4008),
];

/// The close code for a reason (`closeCodeFor`, §6): 4001–4008.
pub fn close_code_for(reason: CloseReason) -> u16 {
    // CLOSE_CODE_VALUES is the one table; a test checks it covers every reason once.
    CLOSE_CODE_VALUES.iter().find(|(r, _)| *r == reason).map_or(4008, |(_, c)| *c)
}

/// The reason for a close code (`closeCodeReason`, §6); `None` outside 4001–4008 (1000, 4999…).
pub fn close_code_reason(code: u16) -> Option<CloseReason> {
    CLOSE_CODE_VALUES.iter().find(|(_, c)| *c == code).map(|(r, _)| *r)
}

impl CloseReason {
    /// The close code (4001–4008).
    pub fn code(self) -> u16 {
        close_code_for(self)
    }

    /// Whether the shipped client gives up instead of reconnecting (§6): 4001, 4002, 4003,
    /// 4008.
    pub fn is_fatal(self) -> bool {
        matches!(self, CloseReason::AuthRequired | CloseReason::AuthInvalid | CloseReason::AuthRevoked | CloseReason::ProtocolViolation)
    }
}

/// The WebSocket subprotocol identifier (§7, `SUBPROTOCOL_NAME`).
pub const SUBPROTOCOL_NAME: &str = "graphorin.protocol.v1";

/// The protocol version (§7, `PROTOCOL_VERSION`): also the `v` literal of every frame (§2).
pub const PROTOCOL_VERSION: &str = "1";

/// The prefix of the ticket token a browser offers as a second subprotocol (§7,
/// `TICKET_SUBPROTOCOL_PREFIX`).
pub const TICKET_SUBPROTOCOL_PREFIX: &str = "ticket.";

/// The WebSocket URL path (§7).
pub const WS_PATH: &str = "/v1/ws";

/// Normalizes a subprotocol offer (§7): every entry is split on commas, tokens are trimmed and
/// empty ones dropped. A single header value is a one-entry offer (`["a, b"]`); the
/// reference's "neither a string nor a list" case is the empty offer.
pub fn normalize_offer<I, S>(offer: I) -> Vec<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    offer.into_iter().flat_map(|entry| entry.as_ref().split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect::<Vec<_>>()).collect()
}

/// `negotiateSubprotocol` (§7): [`SUBPROTOCOL_NAME`] when the offer holds it exactly
/// (case-sensitive, after [`normalize_offer`]), else `None`. Ticket tokens are ignored; the
/// server echoes only the canonical name.
pub fn negotiate<I, S>(offer: I) -> Option<&'static str>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    normalize_offer(offer).iter().any(|t| t == SUBPROTOCOL_NAME).then_some(SUBPROTOCOL_NAME)
}

/// `parseTicketSubprotocol` (§7): the value of the **first** `ticket.<value>` token whose
/// value is non-empty (a bare `ticket.` is skipped), after [`normalize_offer`]; `None` when
/// there is none. The prefix is case-sensitive.
pub fn parse_ticket<I, S>(offer: I) -> Option<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    normalize_offer(offer).into_iter().find_map(|t| t.strip_prefix(TICKET_SUBPROTOCOL_PREFIX).filter(|v| !v.is_empty()).map(str::to_owned))
}

/// `formatTicketSubprotocol` (§7): `ticket.<ticket>`.
///
/// # Errors
/// [`EmptyTicketError`] for an empty ticket (the reference throws a TypeError). Like the
/// reference, nothing else is checked: a ticket holding a comma or surrounding whitespace will
/// not survive [`parse_ticket`].
pub fn format_ticket(ticket: &str) -> Result<String, EmptyTicketError> {
    if ticket.is_empty() {
        return Err(EmptyTicketError);
    }
    Ok(format!("{TICKET_SUBPROTOCOL_PREFIX}{ticket}"))
}

/// [`format_ticket`] was given an empty ticket (§7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmptyTicketError;

impl fmt::Display for EmptyTicketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the ticket must be a non-empty string (graphorin-v1 §7)")
    }
}

impl std::error::Error for EmptyTicketError {}
