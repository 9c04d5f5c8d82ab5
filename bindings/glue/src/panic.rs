//! The one catch-the-panic guard of every binding and the one text of a caught panic.

use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What every binding's internal error says before the panic message.
pub const PANIC_PREFIX: &str = "internal error in wirecontract (please report): ";

/// A panic caught at the boundary: a bug in wirecontract. Its text ([`Panic::text`], also its
/// `Display`) is [`PANIC_PREFIX`] and the panic message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panic(String);

impl Panic {
    /// The panic of a caught payload (`&str` and `String` payloads give their text, any other
    /// `unknown panic`).
    pub fn from_payload(payload: &(dyn Any + Send)) -> Self {
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Panic(format!("{PANIC_PREFIX}{msg}"))
    }

    /// The text the host's internal error carries.
    pub fn text(self) -> String {
        self.0
    }
}

impl fmt::Display for Panic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Runs `f`; a panic inside it comes back as [`Panic`] instead of unwinding into the host.
/// Each binding maps the `Panic` into its host error (Python `InternalError`, a JavaScript
/// `Error`, uniffi's `Internal` variants).
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, Panic> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| Panic::from_payload(&*p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_the_one_text() {
        assert_eq!(catch(|| 7), Ok(7));
        let p = catch(|| panic!("boom {}", 1)).unwrap_err();
        assert_eq!(p.to_string(), "internal error in wirecontract (please report): boom 1");
        let p = catch(|| panic!("static")).unwrap_err();
        assert_eq!(p.text(), "internal error in wirecontract (please report): static");
        let p = catch(|| std::panic::panic_any(3_u8)).unwrap_err();
        assert_eq!(p.text(), "internal error in wirecontract (please report): unknown panic");
    }
}
