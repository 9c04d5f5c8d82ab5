//! Writes this crate's uniffi records, enums, unions and conversions from the contract's
//! registry into `OUT_DIR/graphmind.rs` (included by `src/lib.rs`): generated glue is built, not
//! committed, so a contract change needs no edit here.

fn main() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let text = wirecontract_uniffi_gen::generate(&wirecontract_uniffi_gen::graphmind());
    std::fs::write(out.join("graphmind.rs"), text).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=build.rs");
}
