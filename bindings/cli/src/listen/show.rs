//! What `wirecontract listen` writes about each frame: one terminal line, and one NDJSON
//! record in the format of the shared real-client captures.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::Serialize;
use wirecontract::graphmind::session::Received;
use wirecontract::graphmind::{BreakpointMatcher, Message, ParseOutcome};

use super::log::{field, one_line};

/// Which way a frame went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Sent by the app, received by the listener.
    AppToViewer,
    /// Sent by the listener.
    ViewerToApp,
}

impl Dir {
    /// The record's `dir` value.
    fn as_str(self) -> &'static str {
        match self {
            Dir::AppToViewer => "app->viewer",
            Dir::ViewerToApp => "viewer->app",
        }
    }

    /// The terminal line's arrow.
    fn arrow(self) -> &'static str {
        match self {
            Dir::AppToViewer => "<-",
            Dir::ViewerToApp => "->",
        }
    }
}

/// A frame's verdict and header, taken from its parse outcome before the outcome is handed
/// to the session (which consumes it).
#[derive(Debug, Clone)]
pub struct FrameInfo {
    /// `ok`, `unknown-type`, `version-mismatch` or `invalid`.
    pub verdict: &'static str,
    /// The message type, for `ok` and `unknown-type` (the record's `type`).
    pub message_type: Option<String>,
    /// The rest of the terminal line: run, seq, node and type-specific detail, or the reason.
    pub detail: String,
}

impl FrameInfo {
    /// Summarises one parse outcome.
    pub fn of(outcome: &ParseOutcome) -> Self {
        let verdict = outcome.kind();
        match outcome {
            ParseOutcome::Ok(env) | ParseOutcome::UnknownType(env) => {
                let mut detail = format!("run={} seq={}", field(&env.run_id), env.seq);
                describe(&env.message, &mut detail);
                FrameInfo { verdict, message_type: Some(env.message_type().to_owned()), detail }
            }
            ParseOutcome::VersionMismatch { received, supported } => {
                FrameInfo { verdict, message_type: None, detail: format!("gm {received}, this listener speaks gm {supported}") }
            }
            ParseOutcome::Invalid { reason, issues, .. } => {
                let mut detail = one_line(reason, 120);
                if let Some(first) = issues.as_deref().and_then(<[_]>::first) {
                    let path = if first.path.is_empty() { "<root>".to_owned() } else { first.dotted_path() };
                    let _ = write!(detail, " ({path}: {})", one_line(&first.message, 80));
                }
                FrameInfo { verdict, message_type: None, detail }
            }
        }
    }

    /// The terminal line: `[c1] <- ok exec.paused run=… seq=4 node=… pause=… point=before`.
    /// Every peer field in it is escaped and cut ([`field`]).
    pub fn line(&self, conn: u64, dir: Dir, received: Option<Received>) -> String {
        let mut line = format!("[c{conn}] {} {}", dir.arrow(), self.verdict);
        if let Some(t) = &self.message_type {
            let _ = write!(line, " {}", field(t));
        }
        let _ = write!(line, " {}", self.detail);
        match received {
            Some(Received::Accepted { replayed: true }) => line.push_str(" (replayed)"),
            Some(Received::Duplicate { replayed }) => {
                line.push_str(if replayed { " (replayed, already seen: ignored)" } else { " (seq reused, already seen: ignored)" });
            }
            Some(Received::Rejected) if self.verdict == "ok" || self.verdict == "unknown-type" => line.push_str(" (ignored)"),
            _ => {}
        }
        line
    }
}

/// Appends the fields worth a glance for each message type. The wildcard arm is on purpose:
/// a message type added to the contract must not break this command's build.
#[allow(clippy::match_wildcard_for_single_variants)]
fn describe(message: &Message, out: &mut String) {
    let _ = match message {
        Message::Hello(p) => write!(
            out,
            " app={} client={}{}",
            field(p.app.as_deref().unwrap_or("-")),
            field(&p.versions.client),
            p.resume_token.as_deref().map(|t| format!(" resumeToken={}", field(t))).unwrap_or_default()
        ),
        Message::HelloAck(p) => write!(
            out,
            " mode={} breakpoints=[{}]{}",
            p.mode,
            p.breakpoints.iter().map(matcher_text).collect::<Vec<_>>().join(", "),
            p.session_token.as_deref().map(|t| format!(" sessionToken={}", field(t))).unwrap_or_default()
        ),
        Message::RunStarted(p) => write!(out, " app={}", field(&p.app)),
        Message::RunFinished(p) => write!(out, " status={}", p.status),
        Message::GraphHint(p) => write!(out, " nodes={}", p.nodes.len()),
        Message::NodeStarted(p) => write!(out, " node={}", field(&p.node_id)),
        Message::NodeToken(p) => write!(out, " node={} deltas={}", field(&p.node_id), p.deltas.len()),
        Message::NodeFinished(p) => write!(out, " node={} status={}", field(&p.node_id), p.status),
        Message::NodeError(p) => write!(out, " node={} error={}", field(&p.node_id), one_line(&p.error.name, 40)),
        Message::ExecPaused(p) => write!(out, " node={} pause={} point={}", field(&p.node_id), field(&p.pause_id), p.point),
        Message::ExecRefused(p) => write!(out, " pause={} code={}", field(&p.pause_id), p.code),
        Message::ExecResumed(p) => write!(out, " pause={} action={}", field(&p.pause_id), p.action),
        Message::ExecResume(p) => write!(out, " pause={} action={}", field(&p.pause_id), p.action),
        Message::BreakpointSet(p) => write!(out, " matcher={}", matcher_text(&p.matcher)),
        Message::BreakpointClear(p) => write!(out, " matcher={}", matcher_text(&p.matcher)),
        Message::ModeSet(p) => write!(out, " mode={}", p.mode),
        // Unknown types, and any type added to the contract later: the header says enough.
        _ => Ok(()),
    };
}

/// A matcher in the `--break` grammar (`KIND[:NAME][@POINT]`, `*` for any kind).
pub fn matcher_text(m: &BreakpointMatcher) -> String {
    let mut s = m.kind.map_or_else(|| "*".to_owned(), |k| k.to_string());
    if let Some(name) = &m.name {
        let _ = write!(s, ":{}", field(name));
    }
    if let Some(point) = m.point {
        let _ = write!(s, "@{point}");
    }
    s
}

/// One record line: the shared captures' keys (`dir`, `frame`, `expect`, `type`) plus `conn`,
/// and for received event frames whether they arrived as a replay and whether they were
/// already seen (omitted when false).
#[derive(Debug, Serialize)]
struct RecordLine<'a> {
    dir: &'static str,
    frame: &'a str,
    expect: &'static str,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    message_type: Option<&'a str>,
    conn: u64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    replayed: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    duplicate: bool,
}

/// The `--record` file: one JSON object per frame, written and flushed as the frame passes,
/// so the file is complete up to the last frame even if the listener is killed.
#[derive(Debug, Default)]
pub struct Recorder {
    out: Option<BufWriter<File>>,
}

impl Recorder {
    /// Creates (truncates) `path`; `None` records nothing.
    pub fn create(path: Option<&Path>) -> io::Result<Self> {
        let out = path.map(File::create).transpose()?.map(BufWriter::new);
        Ok(Recorder { out })
    }

    /// Appends one frame.
    pub fn write(&mut self, conn: u64, dir: Dir, frame: &str, info: &FrameInfo, received: Option<Received>) -> io::Result<()> {
        let Some(out) = self.out.as_mut() else { return Ok(()) };
        let (replayed, duplicate) = match received {
            Some(Received::Accepted { replayed }) => (replayed, false),
            Some(Received::Duplicate { replayed }) => (replayed, true),
            _ => (false, false),
        };
        let line = RecordLine { dir: dir.as_str(), frame, expect: info.verdict, message_type: info.message_type.as_deref(), conn, replayed, duplicate };
        serde_json::to_writer(&mut *out, &line).map_err(io::Error::other)?;
        out.write_all(b"\n")?;
        out.flush()
    }
}
