//! `wirecontract-gen OUT_DIR`: writes every artifact generated from the contract crate into
//! `OUT_DIR` (laid out like `generated/`). Deterministic: two runs are byte-identical.
//! `scripts/regen` runs it on `generated/`; `scripts/check-drift` on a temporary directory.

mod asyncapi;
mod examples;
mod kotlin_jvm;
mod markdown;
mod prose;
mod pyi;
mod pyi_session;
mod swift_wire;
mod ts;
mod yaml;

use std::path::{Path, PathBuf};

use wirecontract::{graphmind, graphorin};

fn write(out: &Path, rel: &str, text: &str) -> std::io::Result<()> {
    let path = out.join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&path, text)
}

fn main() -> std::process::ExitCode {
    let Some(out) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: wirecontract-gen OUT_DIR");
        return std::process::ExitCode::from(2);
    };
    let artifacts: Vec<(&str, String)> = vec![
        ("schema/graphmind.v1.schema.json", graphmind::export_json_schema_string()),
        ("python/wirecontract/graphmind/__init__.pyi", pyi::graphmind_stub()),
        ("python/wirecontract/graphmind/session.pyi", pyi_session::session_stub()),
        ("schema/graphorin.v1.schema.json", graphorin::export_json_schema_string()),
        ("python/wirecontract/graphorin.pyi", pyi::graphorin_stub()),
        ("python/wirecontract/_native.pyi", pyi::native_stub()),
        ("python/stubtest-allowlist.txt", pyi::stubtest_allowlist()),
        ("asyncapi/graphmind.v1.asyncapi.yaml", asyncapi::graphmind_document()),
        ("asyncapi/graphorin.v1.asyncapi.yaml", asyncapi::graphorin_document()),
        ("docs/graphmind.v1.md", markdown::graphmind_reference()),
        ("docs/graphorin.v1.md", markdown::graphorin_reference()),
        ("typescript/index.d.ts", ts::declarations()),
        ("typescript/contract-id.json", ts::contract_id_json()),
        ("kotlin-jvm/dev/wirecontract/graphmind/jvm/Enums.kt", kotlin_jvm::enums()),
        ("kotlin-jvm/dev/wirecontract/graphmind/jvm/Breakpoints.kt", kotlin_jvm::breakpoints()),
        ("kotlin-jvm/dev/wirecontract/graphmind/jvm/Records.kt", kotlin_jvm::records()),
        ("kotlin-jvm/dev/wirecontract/graphorin/jvm/Records.kt", kotlin_jvm::graphorin_records()),
        ("swift-ext/WirecontractGraphmindWire.swift", swift_wire::wire_extensions()),
    ];
    for (rel, text) in &artifacts {
        if let Err(e) = write(&out, rel, text) {
            eprintln!("wirecontract-gen: cannot write {rel}: {e}");
            return std::process::ExitCode::from(1);
        }
    }
    std::process::ExitCode::SUCCESS
}
