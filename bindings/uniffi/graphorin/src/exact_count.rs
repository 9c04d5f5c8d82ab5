//! `ExactCount`: an exact unsigned 64-bit integer on the host (Graphorin's
//! `replay-marker.droppedCount`, spec graphorin-v1 §2 and our bound of `2^64 − 1`).
//!
//! Java has no unsigned `long`, and a Kotlin `ULong` parameter hides a constructor from Java
//! (mangled, synthetic). The count crosses as its decimal text instead: Kotlin sees
//! `java.math.BigInteger`, Swift `UInt64` (`uniffi.toml`). Host → contract goes through the
//! contract's own reader ([`wirecontract::wire::from_json_coded`]), so a negative count is
//! `too small` and one of `2^64` or more `too big`, with the parser's messages and codes.
//!
//! Only Graphorin declares an exact unsigned field: GraphMind's integers are JS safe integers,
//! so its bindings carry no such type.

/// An exact unsigned 64-bit integer as decimal text (`"18446744073709551615"`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ExactCount(pub String);

uniffi::custom_newtype!(ExactCount, String);

impl From<u64> for ExactCount {
    fn from(n: u64) -> Self {
        ExactCount(n.to_string())
    }
}
