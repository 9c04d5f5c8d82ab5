//! The writers: JSON text exactly as `JSON.stringify` writes it (strings, integers, numbers),
//! and validated text made compact.

/// Appends a JSON string literal for `s` as `JSON.stringify` writes it: `"` and `\` escaped,
/// `\b \f \n \r \t`, other control characters as lowercase `\u00xx`, everything else raw.
/// The plain runs between escapes are found sixteen bytes at a time and copied whole.
pub fn write_string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    let mut seg = 0;
    loop {
        // `plain_end` leaves a tail shorter than eight bytes unscanned: finish it byte by byte.
        let mut stop = crate::scan::plain_end(b, seg);
        while b.get(stop).is_some_and(|&c| c != b'"' && c != b'\\' && c >= 0x20) {
            stop += 1;
        }
        let Some(&c) = b.get(stop) else { break };
        out.extend_from_slice(&b[seg..stop]);
        // Fixed-length appends: no call to `memcpy` per escape.
        let short = match c {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            _ => 0,
        };
        if short == 0 {
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[usize::from(c >> 4)], HEX[usize::from(c & 0xf)]]);
        } else {
            out.extend_from_slice(&[b'\\', short]);
        }
        seg = stop + 1;
    }
    out.extend_from_slice(&b[seg..]);
    out.push(b'"');
}

/// Lowercase hex digits, for `\u00xx` escapes.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends an integer in decimal (no allocation: the digits are made on the stack).
#[inline]
pub fn write_int(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends a number as JavaScript's `Number.prototype.toString` writes it; NaN and ±Infinity
/// become `null`, `-0` becomes `0` (what `JSON.stringify` does).
pub fn write_f64(out: &mut Vec<u8>, x: f64) {
    if !x.is_finite() {
        out.extend_from_slice(b"null");
    } else if x == 0.0 {
        out.push(b'0');
    } else {
        let mut buf = ryu_js::Buffer::new();
        out.extend_from_slice(buf.format_finite(x).as_bytes());
    }
}

/// Appends validated raw JSON text without insignificant whitespace (the same tokens, byte
/// for byte, as compact `JSON.stringify` output would separate them).
pub fn write_compact(out: &mut Vec<u8>, raw: &str) {
    let b = raw.as_bytes();
    if !b.iter().any(|c| matches!(c, b' ' | b'\n' | b'\r' | b'\t')) {
        out.extend_from_slice(b);
        return;
    }
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let e = crate::reference::string_end(b, i);
                out.extend_from_slice(&b[i..e]);
                i = e;
            }
            b' ' | b'\n' | b'\r' | b'\t' => i += 1,
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `write_string` (and `cursor::is_plain_wire_name`) against serde_json's string writer,
    /// which escapes exactly as `JSON.stringify` does (`\u00xx` lowercase, the five short
    /// escapes, nothing else): every character below U+0080 and some beyond alone and inside
    /// plain runs of each length up to 40 (stops in the first block, the eight-byte word, the
    /// byte-by-byte tail, and after an earlier stop), and random strings dense and sparse in
    /// characters to escape.
    #[test]
    fn write_string_escapes_as_json_stringify() {
        let check = |s: &str| {
            let mut out = b"prefix".to_vec();
            write_string(&mut out, s);
            assert_eq!(&out[6..], serde_json::to_string(s).unwrap_or_default().as_bytes(), "{s:?}");
            // `is_plain_wire_name` (the enum writers' compile-time check) says when that is `"{s}"`.
            assert_eq!(crate::cursor::is_plain_wire_name(s), out[6..] == *format!("\"{s}\"").as_bytes(), "{s:?}");
        };
        let special: Vec<char> = (0u8..0x80).map(char::from).chain(['é', '型', '\u{1F642}', '\u{2028}', '\u{7F}']).collect();
        for &c in &special {
            for run in 0..=40 {
                let plain = "a".repeat(run);
                check(&format!("{plain}{c}"));
                check(&format!("{c}{plain}"));
                check(&format!("{plain}{c}{plain}{c}x"));
            }
        }
        let alphabet: Vec<char> = "aaaaaaaaaaaa\"\\\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}é型\u{1F642} /u".chars().collect();
        let mut next = crate::scan::tests::rng(0x5eed);
        for len in 0..300 {
            for plain_one_in in [1, 4, 40] {
                let s: String = (0..len).map(|_| if next(plain_one_in) == 0 { alphabet[next(alphabet.len())] } else { 'a' }).collect();
                check(&s);
            }
        }
    }

    #[test]
    fn numbers_are_written_as_javascript_does() {
        let mut out = Vec::new();
        write_f64(&mut out, 1e21);
        out.push(b' ');
        write_f64(&mut out, 0.125);
        out.push(b' ');
        write_f64(&mut out, -0.0);
        out.push(b' ');
        write_f64(&mut out, f64::NAN);
        out.push(b' ');
        write_int(&mut out, -42i64);
        assert_eq!(out, b"1e+21 0.125 0 null -42");
    }

    #[test]
    fn write_compact_drops_whitespace_outside_strings_only() {
        let mut out = Vec::new();
        write_compact(&mut out, " { \"a b\" : [ 1 , \" \\\" \" ] } ");
        assert_eq!(String::from_utf8(out).unwrap_or_default(), "{\"a b\":[1,\" \\\" \"]}");
    }
}
