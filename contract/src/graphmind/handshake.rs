//! Handshake helpers for viewers (spec graphmind-v1 §1 Handshake, graphmind-session §5.1):
//! negotiate an app's `hello`, build the `hello.ack` that arms it. The session runtime's
//! viewer ([`super::session::ViewerSession`]) answers through these, so a host without the
//! session runtime applies the same rules.

use super::{add_breakpoint, BreakpointMatcher, Hello, HelloAck, RunMode, ViewerVersions, PROTOCOL_VERSION, PROTOCOL_VERSION_FIELD};

/// Longest `resumeToken` a viewer reuses as the session token, in UTF-16 code units (the
/// HUB's 128, graphmind-session §5.1).
pub const MAX_RESUME_TOKEN_LEN: usize = 128;

/// What a viewer accepted of an app's `hello` ([`negotiate_hello`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelloAccepted {
    /// The protocol both speak: [`PROTOCOL_VERSION`].
    pub protocol: i64,
    /// The capabilities both sides implement: the app's `hello.capabilities` that the viewer
    /// also supports, in the app's order, each once.
    pub capabilities: Vec<String>,
    /// The hello's `resumeToken` when the viewer may reuse it as `sessionToken` (non-empty,
    /// at most [`MAX_RESUME_TOKEN_LEN`] UTF-16 units); `None` means mint a new token.
    pub resume_token: Option<String>,
}

/// The outcome of [`negotiate_hello`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelloNegotiation {
    /// The app speaks this viewer's protocol.
    Accepted(HelloAccepted),
    /// The app speaks another protocol version; the reason names it. A viewer closes the
    /// connection (WebSocket 1002, spec graphmind-v1 §5.5) instead of answering.
    Refused(String),
}

/// The `resumeToken` of a `hello` when a viewer may reuse it as the session token: non-empty
/// and at most `max_len` UTF-16 code units (graphmind-session §5.1).
pub fn reusable_resume_token(hello: &Hello, max_len: usize) -> Option<&str> {
    hello.resume_token.as_deref().filter(|t| !t.is_empty() && t.encode_utf16().count() <= max_len)
}

/// Negotiates an app's `hello` for a viewer (spec graphmind-v1 §1 Handshake: the parser
/// accepts any `versions.protocol`, so this is where a viewer checks it).
///
/// `viewer_capabilities` are the capability strings the viewer implements (open strings;
/// [`super::KNOWN_CAPABILITIES`] for a viewer implementing all known ones).
/// Refused when `hello.versions.protocol` is not [`PROTOCOL_VERSION`]; otherwise accepted
/// with the capabilities intersection and the reusable resume token.
pub fn negotiate_hello(hello: &Hello, viewer_capabilities: &[String]) -> HelloNegotiation {
    let protocol = hello.versions.protocol;
    if protocol != PROTOCOL_VERSION {
        return HelloNegotiation::Refused(format!("app speaks GraphMind protocol {protocol}; this viewer speaks {PROTOCOL_VERSION}"));
    }
    let mut capabilities: Vec<String> = Vec::new();
    for c in &hello.capabilities {
        if viewer_capabilities.contains(c) && !capabilities.contains(c) {
            capabilities.push(c.clone());
        }
    }
    let resume_token = reusable_resume_token(hello, MAX_RESUME_TOKEN_LEN).map(str::to_owned);
    HelloNegotiation::Accepted(HelloAccepted { protocol: protocol.get(), capabilities, resume_token })
}

/// Builds the `hello.ack` payload that arms an app with the viewer's desired state
/// (graphmind-session §5.1): `versions {protocol: 1, viewer}`, the app's capabilities echoed
/// (the HUB's behavior; the app ignores them), the full breakpoint set with equal matchers
/// (§5.12) kept once in first-seen order, the mode, the session token and, when given, the
/// viewer's own `hubCapabilities`. Wrap it with [`super::create_envelope`] (`runId "*"`,
/// the connection's next viewer seq).
pub fn hello_ack(
    hello: &Hello,
    viewer: &str,
    breakpoints: &[BreakpointMatcher],
    mode: RunMode,
    session_token: Option<&str>,
    hub_capabilities: Option<&[String]>,
) -> HelloAck {
    let mut armed = Vec::with_capacity(breakpoints.len());
    for m in breakpoints {
        add_breakpoint(&mut armed, m.clone());
    }
    HelloAck {
        session_token: session_token.map(str::to_owned),
        hub_capabilities: hub_capabilities.map(<[String]>::to_vec),
        ..HelloAck::from_required(ViewerVersions::from_required(PROTOCOL_VERSION_FIELD, viewer.to_owned()), hello.capabilities.clone(), armed, mode)
    }
}
