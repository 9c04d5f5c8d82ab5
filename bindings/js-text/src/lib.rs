//! `wirecontract-js-text`: what both JavaScript backends of `@wirecontract/node` (the Node-API
//! addon in `bindings/node`, the WASM build in `bindings/wasm`) hand to the package's
//! JavaScript layer, written once so both give it the same bytes. No Node-API or wasm-bindgen
//! type appears here; each backend wraps these texts and message strings in its own types.
//!
//! Files: `js_text.rs` (verdicts of GraphMind and of any registered protocol, build errors and Graphorin parse errors with their issues
//! built by the glue's one conversion, the registry and constants, the handshake answer, and
//! a JavaScript string's UTF-16 code units as the UTF-8 text `JSON.parse` would see);
//! `viewer_text.rs` (`ViewerSession`'s options, arguments and actions).

pub mod js_text;
pub mod viewer_text;
