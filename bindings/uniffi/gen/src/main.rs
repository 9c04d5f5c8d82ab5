//! `wirecontract-uniffi-gen [FILE]`: writes the generated uniffi declarations and conversions
//! for GraphMind to `FILE` (default: standard output). `scripts/generators/uniffi.sh` runs it.

use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let text = wirecontract_uniffi_gen::generate(&wirecontract_uniffi_gen::graphmind());
    let result = match std::env::args_os().nth(1) {
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
