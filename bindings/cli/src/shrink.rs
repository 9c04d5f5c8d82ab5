//! `wirecontract shrink [--max-bytes N] [--type T] [FILE|-]`: payload shrinking
//! (graphmind-shrink §3) over one payload JSON per line.
//!
//! Each line (split on `\n` only, like `parse`) is read with `JSON.parse` semantics and shrunk
//! by the contract's [`graphmind::shrink_payload_json`]; each result is one compact JSON line,
//! `{"tier":n,"json":"<text>"}`, where `json` is the shrunk payload text (a string). A line
//! that is not JSON gives `{"error":"<reason>"}` and the stream goes on. Exit codes as for
//! `parse`.
//!
//! The 16 MiB frame cap is a limit on frames, not on payloads: the shrinker exists for
//! payloads too big to send, so lines are read whole, as the Python and Node bindings take
//! them, up to `--max-input-bytes` (1 GiB by default, a memory bound); a longer line gets an
//! error line naming the flag, and a note on stderr.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;
use wirecontract::graphmind;

use super::{open_input, read_frame, Failure, IO_BUFFER_BYTES};

/// Arguments of `wirecontract shrink`.
#[derive(Debug, Args)]
pub struct ShrinkArgs {
    /// File to read, one payload JSON per line; `-` reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    file: PathBuf,
    /// Budget in UTF-8 bytes of payload JSON (default 524288, the reference's 512 KiB).
    #[arg(long, value_name = "N", default_value_t = graphmind::DEFAULT_MAX_PAYLOAD_BYTES)]
    max_bytes: usize,
    /// The message type; event types get the skeleton tier and validation (exact match).
    #[arg(long = "type", value_name = "T")]
    message_type: Option<String>,
    /// Longest payload line read, in bytes (a memory bound; not the 16 MiB frame cap).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_INPUT_BYTES)]
    max_input_bytes: usize,
}

/// `--max-input-bytes` by default: 1 GiB.
const DEFAULT_MAX_INPUT_BYTES: usize = 1 << 30;

/// One result line.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Line<'a> {
    /// The shrunk text and its tier (1 unchanged … 4 marker).
    Shrunk {
        /// 1–4.
        tier: u8,
        /// The payload JSON text.
        json: &'a str,
    },
    /// The line could not be read as JSON.
    Error {
        /// Why.
        error: String,
    },
}

/// Shrinks one line and writes its result line.
fn write_result(args: &ShrinkArgs, number: u64, line: &[u8], limit: usize, out: &mut impl Write) -> io::Result<()> {
    let result = if line.len() >= limit {
        let error = format!("payload line is over --max-input-bytes {} bytes; not shrunk (raise --max-input-bytes to shrink it)", limit - 1);
        let _ = writeln!(io::stderr(), "note: line {number}: {error}");
        Err(error)
    } else {
        std::str::from_utf8(line).map_err(|e| format!("payload is not valid JSON: invalid UTF-8 at byte {}", e.valid_up_to())).and_then(|text| {
            graphmind::shrink_payload_json(text, args.max_bytes, args.message_type.as_deref()).map_err(|e| format!("payload is not valid JSON: {e}"))
        })
    };
    match &result {
        Ok(s) => serde_json::to_writer(&mut *out, &Line::Shrunk { tier: s.tier, json: &s.json }),
        Err(error) => serde_json::to_writer(&mut *out, &Line::Error { error: error.clone() }),
    }
    .map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// `wirecontract shrink`: one result line per input line, streamed (flushed whenever the
/// input has nothing buffered, as `parse` does).
pub(crate) fn run(args: &ShrinkArgs) -> Result<(), Failure> {
    // Any type string is valid (custom and future types are shrunk without the skeleton
    // tier, as the reference does), but a typo would silently lose that tier: say so.
    if let Some(t) = args.message_type.as_deref() {
        if !graphmind::MESSAGE_TYPES.contains(&t) {
            let _ = writeln!(io::stderr(), "note: --type {t:?} is not a GraphMind message type; shrinking without the skeleton tier (graphmind-shrink §3)");
        }
    }
    let mut input = open_input(&args.file)?;
    let name = if args.file == Path::new("-") { "standard input".to_owned() } else { args.file.display().to_string() };
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(IO_BUFFER_BYTES, stdout.lock());
    // Lines are kept up to --max-input-bytes (plus one byte, to tell "too big") so memory
    // stays bounded whatever the input.
    let limit = args.max_input_bytes.saturating_add(1);
    let mut line = Vec::new();
    let mut number = 0_u64;
    loop {
        if input.buffer().is_empty() {
            out.flush().map_err(|e| Failure::from_write(&e))?;
        }
        match read_frame(&mut input, &mut line, limit) {
            Ok(true) => {
                number += 1;
                write_result(args, number, &line, limit, &mut out).map_err(|e| Failure::from_write(&e))?;
            }
            Ok(false) => break,
            Err(e) => {
                out.flush().map_err(|e| Failure::from_write(&e))?;
                return Err(Failure::Io(format!("cannot read {name}: {e}")));
            }
        }
    }
    out.flush().map_err(|e| Failure::from_write(&e))
}
