//! [`BuildError`], what every builder and writer refuses with (`build.rs`, `check.rs`,
//! `write.rs`, the payload budget in `shrink/`). A file of its own, imported by all of them, so
//! none of them imports another only for the error type.

use crate::wire::Issue;

/// Why [`create_envelope`](super::create_envelope) or [`create_envelope_json`](super::create_envelope_json) refused to build a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    /// What is wrong, in one line.
    pub reason: String,
    /// Path-and-rule issues (dotted paths from the frame root, like parse issues).
    pub issues: Vec<Issue>,
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)?;
        for i in &self.issues {
            write!(f, "; {i}")?;
        }
        Ok(())
    }
}

impl std::error::Error for BuildError {}
