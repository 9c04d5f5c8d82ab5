//! Writes the `object_classes!` invocation (one Python class per contract object of every
//! registered protocol) into `OUT_DIR/object_classes.rs` from the contract's registry, so a new
//! object or protocol needs no edit in this crate.

use std::fmt::Write as _;

fn main() {
    let mut text = String::from("object_classes! {\n");
    for p in wirecontract::registry::protocols() {
        for o in p.objects() {
            let _ = writeln!(text, "    {:?}, {} => wirecontract::{}::{};", p.name, o.name, p.name, o.name);
        }
    }
    text.push_str("}\n");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("object_classes.rs"), text).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=build.rs");
}
