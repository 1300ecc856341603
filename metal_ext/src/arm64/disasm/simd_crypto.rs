//! The cryptographic extension of Advanced SIMD the core executes: AES, SHA-1 and SHA-256 (the
//! later SHA-512, SHA-3, SM3 and SM4 read `.inst` with a note).

use super::fields::{bit, bits, v};

pub fn aes(w: u32) -> Option<String> {
    if bits(w, 31, 24) != 0b0100_1110 || bits(w, 23, 22) != 0 {
        return None;
    }
    let name = match bits(w, 16, 12) {
        4 => "aese",
        5 => "aesd",
        6 => "aesmc",
        7 => "aesimc",
        _ => return None,
    };
    Some(format!(
        "{name} {}, {}",
        v(bits(w, 4, 0), "16b"),
        v(bits(w, 9, 5), "16b")
    ))
}

pub fn sha_two_register(w: u32) -> Option<String> {
    if bits(w, 31, 24) != 0b0101_1110 || bits(w, 23, 22) != 0 {
        return None;
    }
    let (rn, rd) = (bits(w, 9, 5), bits(w, 4, 0));
    match bits(w, 16, 12) {
        0 => Some(format!("sha1h s{rd}, s{rn}")),
        1 => Some(format!("sha1su1 {}, {}", v(rd, "4s"), v(rn, "4s"))),
        2 => Some(format!("sha256su0 {}, {}", v(rd, "4s"), v(rn, "4s"))),
        _ => None,
    }
}

pub fn sha_three_register(w: u32) -> Option<String> {
    if bits(w, 31, 24) != 0b0101_1110 || bit(w, 15) != 0 {
        return None;
    }
    let (rm, rn, rd) = (bits(w, 20, 16), bits(w, 9, 5), bits(w, 4, 0));
    let name = [
        "sha1c",
        "sha1p",
        "sha1m",
        "sha1su0",
        "sha256h",
        "sha256h2",
        "sha256su1",
        "",
    ][bits(w, 14, 12) as usize];
    Some(match name {
        "" => return None,
        "sha1c" | "sha1p" | "sha1m" => format!("{name} q{rd}, s{rn}, {}", v(rm, "4s")),
        "sha256h" | "sha256h2" => format!("{name} q{rd}, q{rn}, {}", v(rm, "4s")),
        _ => format!("{name} {}, {}, {}", v(rd, "4s"), v(rn, "4s"), v(rm, "4s")),
    })
}
