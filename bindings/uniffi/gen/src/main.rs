//! `wirecontract-uniffi-gen PROTOCOL [FILE]`: writes the generated uniffi declarations and
//! conversions of `graphmind` (for `bindings/uniffi/src/generated.rs`) or `graphorin` (for
//! `bindings/uniffi/graphorin/src/generated.rs`) to `FILE` (default: standard output).
//! `scripts/generators/uniffi.sh` runs it.

use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let protocol = match args.next().as_ref().and_then(|a| a.to_str()) {
        Some("graphmind") => wirecontract_uniffi_gen::graphmind(),
        Some("graphorin") => wirecontract_uniffi_gen::graphorin(),
        other => {
            eprintln!("usage: wirecontract-uniffi-gen graphmind|graphorin [FILE] (got {other:?})");
            return ExitCode::from(2);
        }
    };
    let text = wirecontract_uniffi_gen::generate(&protocol);
    let result = match args.next() {
        Some(path) => std::fs::write(&path, text),
        None => std::io::stdout().write_all(text.as_bytes()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wirecontract-uniffi-gen: {e}");
            ExitCode::FAILURE
        }
    }
}
