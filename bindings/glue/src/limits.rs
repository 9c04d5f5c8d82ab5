//! The numbers bindings share: the host thresholds, and JavaScript's safe-integer limit as the
//! contract defines it (never restated as a literal in a binding).

use wirecontract::wire::SafeUInt;

/// The largest integer JavaScript (and so a JSON reader of the reference) holds exactly,
/// `2^53 − 1` (`Number.MAX_SAFE_INTEGER`): the contract's [`SafeUInt::MAX`].
pub const MAX_SAFE_INTEGER: u64 = SafeUInt::MAX.get();

/// [`MAX_SAFE_INTEGER`] as a double (exact: `2^53 − 1` is representable).
pub const MAX_SAFE_INTEGER_F64: f64 = MAX_SAFE_INTEGER as f64;

/// Inputs (frames, payloads) at least this many bytes long run with the host's interpreter lock
/// released (Python's GIL), so other host threads progress; shorter ones cost less than the
/// release and re-acquire.
pub const RELEASE_HOST_LOCK_BYTES: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_safe_integer_limit_is_the_contracts() {
        assert_eq!(MAX_SAFE_INTEGER, (1 << 53) - 1);
        assert_eq!(MAX_SAFE_INTEGER_F64 as u64, MAX_SAFE_INTEGER);
        assert_eq!(wirecontract::wire::from_json::<SafeUInt>(&MAX_SAFE_INTEGER.to_string()).map(SafeUInt::get), Ok(MAX_SAFE_INTEGER));
        assert!(wirecontract::wire::from_json::<SafeUInt>(&(MAX_SAFE_INTEGER + 1).to_string()).is_err());
    }
}
