//! The `wirecontract` command: judge wire frames and print schemas from the contract crate.
//!
//! - `wirecontract parse [FILE|-] [--protocol NAME]` reads one frame per line (split on
//!   `\n` only, nothing trimmed) and writes one compact JSON verdict per frame to stdout.
//!   `NAME` is any protocol of the contract's registry (`graphmind` by default). GraphMind's
//!   verdict is `{"kind", "type"?, "seq"?, "ts"?, "runId"?, "received"?, "supported"?,
//!   "reason"?, "issues"?}` (`seq`, `ts`, `runId` salvaged from an envelope whose payload alone
//!   failed); Graphorin's is [`GraphorinVerdict`] (it needs `--direction`); any other
//!   protocol's is [`RegistryVerdict`], through the registry's generic parse.
//! - `wirecontract shrink [--max-bytes N] [--type T] [FILE|-]` shrinks one GraphMind payload
//!   JSON per line to a byte budget (graphmind-shrink) and writes `{"tier":n,"json":"<text>"}`
//!   per line; see [`shrink`].
//! - `wirecontract schema NAME` prints a registry protocol's JSON Schema exactly as the contract
//!   exports it.
//! - `wirecontract diff OLD NEW` (or `--git REV1 [REV2] [--schema PATH]`) lists every change
//!   between two schemas of the contract with a verdict per direction, as a table, JSON,
//!   Markdown, GitHub workflow commands or JUnit XML (`--format`), with breaking changes
//!   accepted in a suppression file set aside; see [`diff`]. Its exit codes are its own: 0 no
//!   (unaccepted) breaking change, 1 breaking change(s), 2 nothing compared (a usage error,
//!   or an input that cannot be read or used).
//! - `wirecontract listen [--listen HOST:PORT] [--break SPEC]… [--step] [--on-pause POLICY]
//!   [--record FILE] [--exit-after-runs N]` is a headless GraphMind viewer for testing an
//!   adapter: a thin tokio host over the contract's `ViewerSession`; see [`listen`].
//! - `wirecontract conform [--scenario NAME]… [--json FILE] [--junit FILE] -- APP…` is an
//!   adapter conformance kit: the viewer for a scripted set of scenarios, judging each app
//!   guarantee of docs/session.md from the recorded frames; see [`conform`].
//!
//! The command adds no rules of its own: every verdict comes from the contract's parser.
//! Exit codes: 0 when it ran (whatever the verdicts), 2 on usage errors, 1 on I/O errors.
//! A closed stdout (`| head -1`) ends the command quietly with 0.
//!
//! A protocol added to the registry is accepted by `parse` and `schema` with no edit here. A
//! protocol whose verdict should carry more than the generic one gets a [`Judge`] variant (with
//! any options it needs, such as a direction, checked in [`Judge::from_args`]) and an arm in
//! [`Judge::write_verdict`].

mod conform;
mod diff;
mod env_config;
mod listen;
mod shrink;

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde::Serialize;
use wirecontract::graphmind::{self, ParseOutcome};
use wirecontract::registry::{self, AnyOutcome};
use wirecontract::wire::Issue;

/// Size of the input and output buffers.
const IO_BUFFER_BYTES: usize = 64 * 1024;

/// Check wire frames against the wirecontract protocol contracts.
#[derive(Debug, Parser)]
#[command(name = "wirecontract", version, propagate_version = true)]
#[command(after_help = "Exit codes: 0 when the command ran (whatever the verdicts), 1 on I/O errors, 2 on usage errors.")]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Parse frames, one per line, and print one JSON verdict per frame.
    ///
    /// Each line's bytes (split on `\n` only; nothing is trimmed, an empty line is a frame) go
    /// to the protocol's parser; each verdict is one compact JSON line on stdout. GraphMind:
    /// {"kind", "type"?, "seq"?, "ts"?, "runId"?, "received"?, "supported"?, "reason"?, "issues"?}
    /// (seq, ts and runId salvaged from an envelope whose payload alone failed). Graphorin
    /// (with --direction): {"kind", "variant"?, "reason"?, "issues"?, "id"?}. Any other protocol
    /// of the contract: {"kind", "message"?, "reason"?, "issues"?}.
    Parse(ParseArgs),
    /// Print a protocol's JSON Schema (draft 2020-12), exactly as the contract exports it.
    Schema {
        /// The protocol whose schema to print.
        #[arg(value_parser = protocol_names())]
        protocol: String,
    },
    /// Compare two JSON Schemas of the contract: every change, safe or breaking per direction.
    ///
    /// OLD and NEW are schema files, or with --git two revisions of the committed schema file.
    /// Each change is listed with its JSON Pointer, what changed, and whether it is safe for
    /// old receivers (peers on OLD reading frames written to NEW) and for old senders (peers
    /// on OLD writing frames NEW reads). A breaking change accepted in the suppression file
    /// (.wirecontract-evolution.toml) is reported as accepted, with its reason, and does not
    /// fail. Exit codes: 0 no (unaccepted) breaking change, 1 breaking change(s) (with
    /// --policy: breaking without a protocol-version bump), 2 nothing compared (a usage error,
    /// or an input that cannot be read or used, such as a refused suppression file).
    Diff(diff::DiffArgs),
    /// Shrink GraphMind payloads, one JSON per line, to a byte budget (graphmind-shrink).
    ///
    /// Each line is read with JSON.parse semantics and shrunk exactly as the reference's
    /// serializePayload does; each result is one compact JSON line {"tier":n,"json":"<text>"}
    /// (tier 1 unchanged, 2 field trim, 3 skeleton, 4 marker), or {"error"} for a line that is
    /// not JSON or is longer than --max-input-bytes (1 GiB by default; payloads are not held to
    /// the 16 MiB frame cap).
    Shrink(shrink::ShrinkArgs),
    /// Listen as a headless GraphMind viewer: answer hello, arm breakpoints, print and record
    /// every frame, resume pauses.
    ///
    /// Apps connect to ws://HOST:PORT/ingest (the reference client's default URL is
    /// ws://127.0.0.1:4747/ingest). Every frame is printed as one line and, with --record,
    /// appended to an NDJSON file; each run's tree is printed when it finishes. The
    /// protocol (handshake, de-duplication of replays, pause bookkeeping, resume routing) is
    /// the contract's ViewerSession; this command only carries frames and prints.
    Listen(listen::ListenArgs),
    /// Print the app-session configuration the environment resolves to (GRAPHMIND_DISABLED,
    /// production detection, GRAPHMIND_URL, GRAPHMIND_LOOP_*, GRAPHMIND_HIDE_*), as one JSON
    /// object: what an instrumented app built on this contract would run with.
    EnvConfig,
    /// Test a GraphMind adapter: act as the viewer, run the app command once per scenario
    /// (or wait for an app that connects on its own), and judge each app guarantee of
    /// docs/session.md pass or fail, citing the frames.
    ///
    /// Writes a human report (standard output or --report), and JSON (--json) and JUnit XML
    /// (--junit); --out keeps each scenario's recording and app output. The app plays the
    /// workload of docs/conform.md. The viewer side is the contract's ViewerSession; the kit
    /// adds faults (acks withheld, delayed or replaced, raw and binary frames, frames in any
    /// state, chosen close codes) and judges only what crossed the wire.
    Conform(conform::ConformArgs),
}

/// Arguments of `wirecontract parse`.
#[derive(Debug, Args)]
struct ParseArgs {
    /// File to read, one frame per line; `-` reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    file: PathBuf,
    /// The protocol the frames belong to (any protocol of the contract's registry).
    #[arg(long, value_parser = protocol_names(), default_value = "graphmind")]
    protocol: String,
    /// Graphorin only, and required there: which side sent the frames (`server` or `client`).
    #[arg(long, value_enum)]
    direction: Option<Direction>,
}

/// Who sent a Graphorin frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Direction {
    /// Frames a Graphorin server sends (`ServerMessage`).
    Server,
    /// Frames a Graphorin client sends (`ClientMessage`).
    Client,
}

/// The protocol names `--protocol` and `schema` accept: every protocol of the registry, each
/// with its title and spec as help.
fn protocol_names() -> PossibleValuesParser {
    PossibleValuesParser::new(registry::protocols().iter().map(|p| PossibleValue::new(p.name).help(format!("{} ({})", p.title, p.spec))))
}

/// Why the command stopped early; each maps to an exit code.
#[derive(Debug)]
enum Failure {
    /// The command line asked for something impossible (exit 2).
    Usage(String),
    /// Reading or writing failed (exit 1).
    Io(String),
    /// Stdout was closed by the reader (exit 0, silently).
    BrokenPipe,
}

impl Failure {
    /// Classifies a failed write to stdout.
    fn from_write(e: &io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Io(format!("cannot write to standard output: {e}"))
        }
    }
}

/// A protocol's frame parser together with its options, chosen once from the command line.
#[derive(Debug, Clone, Copy)]
enum Judge {
    /// `graphmind` v1 envelopes.
    GraphMind,
    /// `graphorin` v1 frames from one side.
    Graphorin(Direction),
    /// Any other protocol of the registry, through its generic parse.
    Registry(&'static registry::Protocol),
}

impl Judge {
    /// Picks the judge for `wirecontract parse`; option combinations a protocol does not
    /// accept are usage errors.
    fn from_args(args: &ParseArgs) -> Result<Self, Failure> {
        let unknown = || Failure::Usage(format!("no protocol named {:?} in the contract", args.protocol));
        match (args.protocol.as_str(), args.direction) {
            ("graphorin", Some(d)) => Ok(Judge::Graphorin(d)),
            ("graphorin", None) => Err(Failure::Usage("--protocol graphorin needs --direction server|client".into())),
            (_, Some(_)) => Err(Failure::Usage("--direction applies to --protocol graphorin only".into())),
            ("graphmind", None) => Ok(Judge::GraphMind),
            (name, None) => registry::protocol(name).map(Judge::Registry).ok_or_else(unknown),
        }
    }

    /// The largest frame the protocol accepts; a longer line is only read this far (plus
    /// one byte, so the parser still reports it as too big) to keep memory bounded.
    fn max_frame_bytes(self) -> usize {
        match self {
            // Graphorin and the registry's generic parse set no frame cap of their own; the
            // same bound keeps memory safe.
            Judge::GraphMind | Judge::Graphorin(_) | Judge::Registry(_) => graphmind::DEFAULT_MAX_FRAME_BYTES,
        }
    }

    /// Parses one frame and writes its verdict as one JSON line.
    fn write_verdict(self, frame: &[u8], out: &mut impl Write) -> io::Result<()> {
        match self {
            Judge::GraphMind => {
                let outcome = graphmind::parse(frame, &graphmind::ParseOptions::default());
                Verdict::from_graphmind(&outcome).write_line(out)
            }
            Judge::Graphorin(direction) => {
                let verdict = graphorin_verdict(direction, frame);
                serde_json::to_writer(&mut *out, &verdict).map_err(io::Error::other)?;
                out.write_all(b"\n")
            }
            Judge::Registry(protocol) => {
                serde_json::to_writer(&mut *out, &registry_verdict(protocol, frame, self.max_frame_bytes())).map_err(io::Error::other)?;
                out.write_all(b"\n")
            }
        }
    }
}

/// A frame's verdict from a protocol's generic parse: `{"kind":"ok","message"}`,
/// `{"kind":"invalid","reason","issues"}`, or another verdict of the protocol by its name
/// (`{"kind":"version-mismatch"}`, with `message` when known). Every declared version of the
/// protocol reads its own frames (the registry's router); a version none declares adds
/// `received` and `supported` (the declared versions) and a `reason` naming both.
#[derive(Debug, Serialize)]
struct RegistryVerdict {
    /// `ok`, `invalid`, or the protocol's own verdict name.
    kind: &'static str,
    /// The message's wire name, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// Why the frame is invalid.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// Every issue found, for `invalid`.
    #[serde(skip_serializing_if = "Option::is_none")]
    issues: Option<Vec<VerdictIssue>>,
    /// The version the frame carries, for a version no declared one matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    received: Option<String>,
    /// Every declared version of the protocol, oldest first, beside `received`.
    #[serde(skip_serializing_if = "Option::is_none")]
    supported: Option<Vec<&'static str>>,
}

/// Parses one frame with `protocol`'s generic parse (bytes that are not UTF-8 are the registry's
/// `invalid`). A line longer than the command reads (`limit`, the GraphMind frame cap: the
/// command's own memory bound, which the protocol may not share) gets `invalid` saying so
/// instead of a verdict on its first `limit` bytes.
fn registry_verdict(protocol: &registry::Protocol, frame: &[u8], limit: usize) -> RegistryVerdict {
    let verdict = |kind, message, reason, issues| RegistryVerdict { kind, message, reason, issues, received: None, supported: None };
    if frame.len() > limit {
        let reason = format!("line longer than {limit} bytes: wirecontract parse reads no more of a line");
        return verdict("invalid", None, Some(reason), None);
    }
    let text = match std::str::from_utf8(frame) {
        Ok(text) => text,
        Err(e) => return verdict("invalid", None, Some(registry::not_utf8_reason(e.valid_up_to())), None),
    };
    let Some(routed) = registry::parse_any_version(protocol.name, text) else {
        return verdict("invalid", None, Some(registry::unknown_protocol(protocol.name)), None);
    };
    let mismatch = routed.mismatch();
    let mut v = match routed.outcome {
        AnyOutcome::Ok { message, .. } => verdict("ok", Some(message), None, None),
        // No issues: the frame is not JSON (as GraphMind's verdict leaves `issues` out then).
        AnyOutcome::Invalid { reason, issues } if issues.is_empty() => verdict("invalid", None, Some(reason), None),
        AnyOutcome::Invalid { reason, issues } => verdict("invalid", None, Some(reason), Some(issues.iter().map(VerdictIssue::from).collect())),
        AnyOutcome::Other { kind, message } => verdict(kind, message, None, None),
    };
    if let Some(reason) = mismatch {
        v.reason = Some(reason);
        v.received = routed.received;
        v.supported = Some(routed.supported);
    }
    v
}

/// A Graphorin frame's verdict: `{"kind":"ok","variant"}` or `{"kind":"invalid","reason",
/// "issues"?:[{path,code,message}],"id"?}` (`issues` absent for a JSON syntax failure; `id` is
/// the frame's raw id with its JSON type, when it had one). `kind` comes first, as in a
/// GraphMind verdict.
#[derive(Debug, Serialize)]
struct GraphorinVerdict {
    /// `ok` or `invalid`.
    kind: &'static str,
    /// The frame variant's wire name, for `ok`.
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<&'static str>,
    /// Why the frame is invalid.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// Every schema issue (absent for a syntax failure).
    #[serde(skip_serializing_if = "Option::is_none")]
    issues: Option<Vec<VerdictIssue>>,
    /// The frame's raw id, JSON type kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<serde_json::Value>,
}

/// One issue of a verdict, members in this order: `{path, code?, message}` (`code` where the
/// protocol gives one: Graphorin).
#[derive(Debug, Serialize)]
struct VerdictIssue {
    /// Dotted path from the frame's root.
    path: String,
    /// The stable issue code (`invalid_type`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    /// What is wrong.
    message: String,
}

impl From<&Issue> for VerdictIssue {
    fn from(i: &Issue) -> Self {
        VerdictIssue { path: i.dotted_path(), code: i.code.map(wirecontract::wire::IssueCode::as_str), message: i.message.clone() }
    }
}

/// Parses one Graphorin frame into its [`GraphorinVerdict`].
fn graphorin_verdict(direction: Direction, frame: &[u8]) -> GraphorinVerdict {
    use serde_json::json;
    use wirecontract::graphorin;
    let result = match direction {
        Direction::Server => graphorin::parse::<graphorin::ServerMessage>(frame, &graphorin::ParseOptions::default()).map(|m| m.variant().as_str()),
        Direction::Client => graphorin::parse::<graphorin::ClientMessage>(frame, &graphorin::ParseOptions::default()).map(|m| m.variant().as_str()),
    };
    match result {
        Ok(variant) => GraphorinVerdict { kind: "ok", variant: Some(variant), reason: None, issues: None, id: None },
        Err(e) => GraphorinVerdict {
            kind: "invalid",
            variant: None,
            reason: Some(e.to_string()),
            issues: (!e.is_syntax_error()).then(|| e.issues().iter().map(VerdictIssue::from).collect()),
            // The raw id keeps its JSON type; text serde_json cannot hold stays a string.
            id: e.raw_id().map(|id| serde_json::from_str(id.as_str()).unwrap_or_else(|_| json!(id.as_str()))),
        },
    }
}

/// One frame's verdict as printed: `kind` plus the fields that kind carries.
#[derive(Debug, Serialize)]
struct Verdict<'a> {
    /// `ok`, `unknown-type`, `version-mismatch` or `invalid`.
    kind: &'static str,
    /// The message type, for `ok` and `unknown-type`; for `invalid`, the salvaged type when
    /// only the payload failed.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    message_type: Option<&'a str>,
    /// Salvaged `seq`, for an `invalid` frame whose envelope passed and payload failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    seq: Option<u64>,
    /// Salvaged `ts` (epoch ms), under the same condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    ts: Option<u64>,
    /// Salvaged `runId`, under the same condition.
    #[serde(rename = "runId", skip_serializing_if = "Option::is_none")]
    run_id: Option<&'a str>,
    /// The version received, for `version-mismatch`.
    #[serde(skip_serializing_if = "Option::is_none")]
    received: Option<i64>,
    /// The version supported, for `version-mismatch`.
    #[serde(skip_serializing_if = "Option::is_none")]
    supported: Option<i64>,
    /// Why the frame is invalid.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    /// Every issue found, for an `invalid` frame that was JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    issues: Option<Vec<VerdictIssue>>,
}

impl<'a> Verdict<'a> {
    /// The verdict of a `graphmind` parse outcome.
    fn from_graphmind(outcome: &'a ParseOutcome) -> Self {
        let mut v = Verdict {
            kind: outcome.kind(),
            message_type: None,
            seq: None,
            ts: None,
            run_id: None,
            received: None,
            supported: None,
            reason: None,
            issues: None,
        };
        match outcome {
            ParseOutcome::Ok(env) | ParseOutcome::UnknownType(env) => {
                v.message_type = Some(env.message_type());
            }
            ParseOutcome::VersionMismatch { received, supported } => {
                v.received = Some(*received);
                v.supported = Some(*supported);
            }
            ParseOutcome::Invalid { reason, issues, seq, ts, run_id, message_type } => {
                v.reason = Some(reason);
                v.issues = issues.as_ref().map(|list| list.iter().map(VerdictIssue::from).collect());
                (v.seq, v.ts, v.run_id, v.message_type) = (*seq, *ts, run_id.as_deref(), message_type.as_deref());
            }
        }
        v
    }

    /// Writes the verdict as compact JSON followed by `\n`.
    fn write_line(&self, out: &mut impl Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        out.write_all(b"\n")
    }
}

/// Reads the next frame, the bytes before the next `\n` (or before the end of input), into
/// `buf`, keeping at most `limit` bytes of it; the rest of a longer line is read and dropped.
/// Returns `false` at the end of input, so a final `\n` does not make an extra empty frame.
fn read_frame(input: &mut impl BufRead, buf: &mut Vec<u8>, limit: usize) -> io::Result<bool> {
    buf.clear();
    let mut started = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(started);
        }
        started = true;
        let (line, used, complete) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = limit.saturating_sub(buf.len());
        buf.extend_from_slice(&line[..line.len().min(room)]);
        input.consume(used);
        if complete {
            return Ok(true);
        }
    }
}

/// Opens the input of `parse`: standard input for `-`, otherwise the named file.
fn open_input(file: &Path) -> Result<BufReader<Box<dyn Read>>, Failure> {
    let reader: Box<dyn Read> = if file == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        match File::open(file) {
            Ok(f) => Box::new(f),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(Failure::Usage(format!("no such file: {}", file.display()))),
            Err(e) => return Err(Failure::Io(format!("cannot open {}: {e}", file.display()))),
        }
    };
    Ok(BufReader::with_capacity(IO_BUFFER_BYTES, reader))
}

/// `wirecontract parse`: one verdict line per input line, streamed.
///
/// Output is flushed whenever the input has nothing buffered, so a live producer sees each
/// verdict as soon as its frame is read, while a file is written in large blocks.
fn run_parse(args: &ParseArgs) -> Result<(), Failure> {
    let judge = Judge::from_args(args)?;
    let mut input = open_input(&args.file)?;
    let name = if args.file == Path::new("-") { "standard input".to_owned() } else { args.file.display().to_string() };
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(IO_BUFFER_BYTES, stdout.lock());
    let limit = judge.max_frame_bytes().saturating_add(1);
    let mut frame = Vec::new();
    loop {
        if input.buffer().is_empty() {
            out.flush().map_err(|e| Failure::from_write(&e))?;
        }
        match read_frame(&mut input, &mut frame, limit) {
            Ok(true) => judge.write_verdict(&frame, &mut out).map_err(|e| Failure::from_write(&e))?,
            Ok(false) => break,
            Err(e) => {
                // Verdicts already produced still go out before the error is reported.
                out.flush().map_err(|e| Failure::from_write(&e))?;
                return Err(Failure::Io(format!("cannot read {name}: {e}")));
            }
        }
    }
    out.flush().map_err(|e| Failure::from_write(&e))
}

/// `wirecontract schema <protocol>`: the registry's schema text of the protocol.
fn run_schema(name: &str) -> Result<(), Failure> {
    let protocol = registry::protocol(name).ok_or_else(|| Failure::Usage(format!("no protocol named {name:?} in the contract")))?;
    let mut out = io::stdout().lock();
    out.write_all(protocol.schema_string().as_bytes()).and_then(|()| out.flush()).map_err(|e| Failure::from_write(&e))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // clap prints the message (or the help) and exits 2 on errors, 0 for --help/--version.
        Err(e) => e.exit(),
    };
    let result = match &cli.command {
        Command::Parse(args) => run_parse(args),
        Command::Schema { protocol } => run_schema(protocol),
        Command::Diff(args) => return diff::run(args),
        Command::Shrink(args) => shrink::run(args),
        Command::Listen(args) => listen::run(args),
        Command::EnvConfig => env_config::run(),
        Command::Conform(args) => match conform::run(args) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) | Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            let _ = writeln!(io::stderr(), "error: {msg}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
        Err(Failure::Io(msg)) => {
            let _ = writeln!(io::stderr(), "error: {msg}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::registry_verdict;
    use wirecontract::registry;

    /// The generic verdict of any registry protocol (GraphMind's generic parse stands in: the
    /// checkout declares no protocol without a hand-written judge; `scripts/contract-change`
    /// runs the command on its scratch `demo`).
    #[test]
    fn the_generic_verdict_names_the_message_or_the_reason() {
        let p = registry::protocol("graphmind").expect("registered");
        let ok = registry_verdict(p, br#"{"gm":1,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"step"}}"#, 1000);
        assert_eq!((ok.kind, ok.message.as_deref()), ("ok", Some("mode.set")));
        let bad = registry_verdict(p, b"{\"gm\":1,\xff}", 1000);
        assert_eq!((bad.kind, bad.reason.as_deref()), ("invalid", Some(registry::not_utf8_reason(8).as_str())));
        assert!(bad.issues.is_none());
        let cut = registry_verdict(p, &[b' '; 11], 10);
        assert!(cut.kind == "invalid" && cut.reason.as_deref().is_some_and(|r| r.contains("longer than 10 bytes")), "{cut:?}");
        let issues = registry_verdict(p, br#"{"gm":1,"seq":-1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"step"}}"#, 1000);
        assert_eq!(issues.kind, "invalid");
        assert_eq!(issues.issues.expect("issues")[0].path, "seq");
        // Another version than the declared ones: both named.
        let v2 = registry_verdict(p, br#"{"gm":2,"seq":1,"ts":2,"runId":"r","type":"mode.set","payload":{"mode":"step"}}"#, 1000);
        assert_eq!((v2.kind, v2.received.as_deref(), v2.supported.as_deref()), ("version-mismatch", Some("2"), Some(&["1"][..])));
        assert_eq!(v2.reason.as_deref(), Some("the frame carries gm 2; graphmind declares 1"));
    }
}
