//! Computes the contract id at build time (the contract crate as a build-dependency), so the
//! WASM module carries it as a constant instead of generating every protocol's JSON Schema
//! at load to hash it (`wirecontract::contract_id` does that; schemars then stays unlinked).

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("contract_id.rs");
    std::fs::write(&out, format!("{:?}\n", wirecontract::contract_id())).expect("write contract_id.rs");
    println!("cargo:rerun-if-changed=build.rs");
}
