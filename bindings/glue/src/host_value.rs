//! Host scalars read through the contract's own readers, so every bound, rule and message is
//! the parser's and none is restated in a binding: a value crosses as the JSON text that means
//! it and is read by the contract's reader for the target type.

use wirecontract::wire::{self, from_json, from_json_coded, IssuePath, WireValue};

use crate::{Codes, HostPath};

/// A contract value from JSON text through the contract's own reader for `T` (its rule, message
/// and, where the protocol promises them ([`Codes::Promised`]), code), its issues moved under
/// `path` and appended to `issues`.
pub fn read<T: WireValue>(text: &str, issues: &mut Vec<wire::Issue>, path: &HostPath<'_>, codes: Codes) -> Option<T> {
    let found = match if codes == Codes::Promised { from_json_coded::<T>(text) } else { from_json::<T>(text) } {
        Ok(v) => return Some(v),
        Err(found) => found,
    };
    let path = path.dotted();
    for i in found {
        let mut at = IssuePath::from_dotted(&path);
        for seg in i.path.segments() {
            match seg {
                wire::PathSegment::Key(k) => at.push_key(&k),
                wire::PathSegment::Index(n) => at.push_index(n),
            }
        }
        issues.push(wire::Issue { path: at, code: i.code, message: i.message });
    }
    None
}

/// A host integer (`Long`/`Int64`) through the contract's reader for `T`: every bound and
/// message is the parser's (a negative counter is `too small`, one above 2^53 − 1 `too big`;
/// nothing wraps).
pub fn read_int<T: WireValue>(host: i64, issues: &mut Vec<wire::Issue>, path: &HostPath<'_>, codes: Codes) -> Option<T> {
    read(&host.to_string(), issues, path, codes)
}

/// A host double through the contract's reader for `T` (`f64`: finite; `NonNegativeF64`:
/// finite and ≥ 0). The value crosses as the JSON text that means it: a finite number its
/// shortest spelling, ±Infinity `1e400`/`-1e400` (what `JSON.parse` reads as Infinity), NaN
/// `null` (what `JSON.stringify` writes for it; JSON has no NaN).
pub fn read_f64<T: WireValue>(host: f64, issues: &mut Vec<wire::Issue>, path: &HostPath<'_>, codes: Codes) -> Option<T> {
    let text = if host.is_infinite() {
        if host > 0.0 { "1e400" } else { "-1e400" }.to_owned()
    } else {
        let mut out = Vec::new();
        wirecontract_json::write_f64(&mut out, host);
        String::from_utf8(out).unwrap_or_default()
    };
    read(&text, issues, path, codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_numbers_are_read_by_the_contract_reader() {
        let mut issues = Vec::new();
        let c = Codes::AsRecorded;
        assert_eq!(read_f64::<f64>(1.5, &mut issues, &HostPath::root("x"), c), Some(1.5));
        assert_eq!(read_f64::<f64>(-0.0, &mut issues, &HostPath::root("x"), c), Some(0.0));
        assert_eq!(read_f64::<f64>(1e300, &mut issues, &HostPath::root("x"), c), Some(1e300));
        assert_eq!(read_f64::<f64>(f64::INFINITY, &mut issues, &HostPath::root("a.b"), c), None);
        assert_eq!(read_f64::<f64>(f64::NEG_INFINITY, &mut issues, &HostPath::root("c"), c), None);
        assert_eq!(read_f64::<f64>(f64::NAN, &mut issues, &HostPath::root("d"), c), None);
        assert_eq!(read_f64::<wirecontract::wire::NonNegativeF64>(-1.0, &mut issues, &HostPath::root("e"), c), None);
        let got: Vec<(String, bool)> = issues.iter().map(|i| (i.dotted_path(), i.message.is_empty())).collect();
        assert_eq!(got, [("a.b".into(), false), ("c".into(), false), ("d".into(), false), ("e".into(), false)]);
        // The messages are the reader's: compare with what a frame holding the same text gets.
        let direct = from_json::<f64>("1e400").unwrap_err();
        assert_eq!(issues[0].message, direct[0].message);
        assert_eq!(read_int::<wirecontract::wire::SafeUInt>(-1, &mut Vec::new(), &HostPath::root("seq"), c), None);
    }

    #[test]
    fn a_protocol_that_promises_codes_gets_them_and_issues_move_under_the_path() {
        let mut issues = Vec::new();
        assert_eq!(read_int::<wirecontract::wire::SafeUInt>(-1, &mut issues, &HostPath::root("a.0"), Codes::Promised), None);
        assert_eq!(issues[0].dotted_path(), "a.0");
        assert!(issues[0].code.is_some());
    }
}
