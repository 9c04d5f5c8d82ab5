//! `wirecontract-gen OUT_DIR`: writes every artifact generated from the contract crate into
//! `OUT_DIR` (laid out like `generated/`). Deterministic: two runs are byte-identical.
//! `scripts/regen` runs it on `generated/`; `scripts/check-drift` on a temporary directory.

mod accept;
mod asyncapi;
mod examples;
mod kotlin_jvm;
mod markdown;
mod prose;
mod pyi;
mod pyi_session;
mod site;
mod swift_wire;
mod template;
mod ts;
mod yaml;
mod zod;

use std::path::{Path, PathBuf};

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
    // Every registered protocol gets its schema, reference and per-type examples from its
    // registry entry; the hand-curated Python modules and AsyncAPI documents of GraphMind and
    // Graphorin keep their own generators, any other protocol gets the generic stub and the
    // AsyncAPI document of a protocol told apart by one member.
    let mut artifacts: Vec<(String, String)> = Vec::new();
    for p in wirecontract::PROTOCOLS {
        let base = format!("{}.v{}", p.name, p.version.1);
        artifacts.push((format!("schema/{base}.schema.json"), p.schema_string()));
        artifacts.push((format!("docs/{base}.md"), markdown::reference(p)));
        artifacts.push((format!("examples/{}.jsonl", p.name), examples::jsonl(p)));
        match p.name {
            "graphmind" => {
                artifacts.push(("python/wirecontract/graphmind/__init__.pyi".into(), pyi::graphmind_stub()));
                artifacts.push(("python/wirecontract/graphmind/session.pyi".into(), pyi_session::session_stub()));
                artifacts.push((format!("asyncapi/{base}.asyncapi.yaml"), asyncapi::graphmind_document()));
            }
            "graphorin" => {
                artifacts.push(("python/wirecontract/graphorin.pyi".into(), pyi::graphorin_stub()));
                artifacts.push((format!("asyncapi/{base}.asyncapi.yaml"), asyncapi::graphorin_document()));
            }
            _ => {
                artifacts.push((format!("python/protocols/{}.pyi", p.name), pyi::generic_stub(p)));
                if p.key.is_some() {
                    artifacts.push((format!("asyncapi/{base}.asyncapi.yaml"), asyncapi::keyed_document(p)));
                }
            }
        }
    }
    let shared: Vec<(&str, String)> = vec![
        ("python/wirecontract/_native.pyi", pyi::native_stub()),
        ("python/stubtest-allowlist.txt", pyi::stubtest_allowlist()),
        ("typescript/index.d.ts", ts::declarations()),
        ("typescript/index.mjs", ts::esm_entry()),
        ("typescript/contract-id.json", ts::contract_id_json()),
        ("typescript/zod-schemas.js", zod::schemas()),
        ("typescript/accept.js", accept::acceptor()),
        ("kotlin-jvm/dev/wirecontract/graphmind/jvm/Enums.kt", kotlin_jvm::enums()),
        ("kotlin-jvm/dev/wirecontract/graphmind/jvm/Breakpoints.kt", kotlin_jvm::breakpoints()),
        ("kotlin-jvm/dev/wirecontract/graphmind/jvm/Records.kt", kotlin_jvm::records()),
        ("kotlin-jvm/dev/wirecontract/graphorin/jvm/Records.kt", kotlin_jvm::graphorin_records()),
        ("swift-ext/WirecontractGraphmindWire.swift", swift_wire::wire_extensions()),
    ];
    artifacts.extend(shared.into_iter().map(|(rel, text)| (rel.to_owned(), text)));
    artifacts.extend(site::files());
    for (rel, text) in &artifacts {
        if let Err(e) = write(&out, rel, text) {
            eprintln!("wirecontract-gen: cannot write {rel}: {e}");
            return std::process::ExitCode::from(1);
        }
    }
    std::process::ExitCode::SUCCESS
}
