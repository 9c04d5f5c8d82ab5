//! The contract's fingerprint: one short id that changes whenever the wire contract does.
//!
//! Bindings that ship generated artifacts beside a compiled library (the Node.js addon with
//! its `index.d.ts`) record this id when the artifacts are generated and compare it with the
//! library's at load, so that a library built from another contract is refused instead of
//! disagreeing silently with its declarations.

/// FNV-1a, 64 bits: stable across platforms and Rust versions (unlike `std`'s `Hasher`s).
fn fnv1a64(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that moving bytes between parts changes the id.
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The id of the contract compiled into this crate: 16 lowercase hex digits of a 64-bit
/// FNV-1a hash over the crate version and the JSON Schema of every registered protocol
/// ([`crate::PROTOCOLS`], in order; each spells out every message type, field, type, enum
/// value, required-ness and doc). Equal ids mean the
/// same contract; it is not a security hash.
pub fn contract_id() -> String {
    let schemas: Vec<String> = crate::PROTOCOLS.iter().map(|p| p.schema_string()).collect();
    let mut parts: Vec<&[u8]> = vec![env!("CARGO_PKG_VERSION").as_bytes()];
    parts.extend(schemas.iter().map(String::as_bytes));
    format!("{:016x}", fnv1a64(&parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_is_sixteen_hex_digits_and_stable_within_a_build() {
        let id = contract_id();
        assert_eq!(id.len(), 16);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        assert_eq!(id, contract_id());
    }

    #[test]
    fn separators_keep_parts_apart() {
        assert_ne!(fnv1a64(&[b"ab", b"c"]), fnv1a64(&[b"a", b"bc"]));
    }
}
