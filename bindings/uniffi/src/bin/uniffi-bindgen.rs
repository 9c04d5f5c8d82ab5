//! The uniffi bindgen CLI, pinned to the crate's uniffi version.

fn main() {
    uniffi::uniffi_bindgen_main();
}
