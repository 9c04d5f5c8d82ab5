//! Compiles in the picked example frames of every protocol that has them: writes
//! `OUT_DIR/picked_examples.rs`, a `picked_source(protocol)` over every
//! `vectors/examples/<name>.jsonl` (each `include_str!`-ed), so a new protocol's file is read
//! like GraphMind's and Graphorin's and generation still reads no file at run time.

use std::fmt::Write as _;

fn main() {
    let manifest = std::path::PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let dir = manifest.join("../../vectors/examples");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter_map(|n| n.strip_suffix(".jsonl").map(str::to_owned)).collect())
        .unwrap_or_default();
    names.sort();
    let mut text = String::from("/// The committed `vectors/examples/<protocol>.jsonl`, or `\"\"` when there is none.\nfn picked_source(protocol: &str) -> &'static str {\n    match protocol {\n");
    for name in &names {
        let path = dir.join(format!("{name}.jsonl"));
        let _ = writeln!(text, "        {name:?} => include_str!({:?}),", path.display().to_string());
    }
    text.push_str("        _ => \"\",\n    }\n}\n");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("picked_examples.rs"), text).expect("OUT_DIR is writable");
    // A directory: cargo reruns this when any file in it is added, removed or changed.
    println!("cargo:rerun-if-changed={}", dir.display());
    println!("cargo:rerun-if-changed=build.rs");
}
