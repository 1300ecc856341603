//! Guest paths are held as Rust strings, but a Linux name is any bytes but '/' and NUL. Bytes that
//! are not UTF-8 are kept as the private-use characters U+10FF00 + byte, so every name round-trips
//! from the guest or a host folder to a string and back to the same bytes.

const ESCAPE_BASE: u32 = 0x10FF00;

/// Bytes from the guest or the host as a string (valid UTF-8 unchanged).
pub fn from_bytes(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(good).expect("checked"));
                let bad = e.error_len().unwrap_or(rest.len());
                out.extend(rest[..bad].iter().map(|&b| char::from_u32(ESCAPE_BASE + b as u32).expect("a valid char")));
                bytes = &rest[bad..];
            }
        }
    }
}

/// The bytes a string made by `from_bytes` came from.
pub fn to_bytes(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        match c as u32 {
            v if (ESCAPE_BASE + 0x80..=ESCAPE_BASE + 0xff).contains(&v) => out.push((v - ESCAPE_BASE) as u8),
            _ => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_string_round_trips() {
        let cases: [&[u8]; 6] = [b"plain", "caf\u{e9}".as_bytes(), b"latin1 caf\xe9", b"\xff\xfe\x80", b"half \xe2\x82 end", b""];
        for bytes in cases {
            assert_eq!(to_bytes(&from_bytes(bytes)), bytes);
        }
        assert_eq!(from_bytes("caf\u{e9}".as_bytes()), "caf\u{e9}");
        for b in 0..=255u8 {
            assert_eq!(to_bytes(&from_bytes(&[b'a', b, b'z'])), [b'a', b, b'z']);
        }
    }
}
