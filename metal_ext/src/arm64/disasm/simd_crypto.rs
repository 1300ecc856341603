//! The cryptographic extensions of Advanced SIMD: AES, SHA-1, SHA-256, SHA-512, SHA-3, SM3, SM4.

use super::fields::{bit, bits, lane, uimm, v};

pub fn sha3_sm3_sm4(w: u32) -> Option<String> {
    let (rm, ra, rn, rd) = (bits(w, 20, 16), bits(w, 14, 10), bits(w, 9, 5), bits(w, 4, 0));
    match bits(w, 23, 21) {
        0b000..=0b010 if bit(w, 15) == 0 => {
            let (name, arr) = [("eor3", "16b"), ("bcax", "16b"), ("sm3ss1", "4s")][bits(w, 22, 21) as usize];
            Some(format!(
                "{name} {}, {}, {}, {}",
                v(rd, arr),
                v(rn, arr),
                v(rm, arr),
                v(ra, arr)
            ))
        }
        0b100 => Some(format!(
            "xar {}, {}, {}, {}",
            v(rd, "2d"),
            v(rn, "2d"),
            v(rm, "2d"),
            uimm(bits(w, 15, 10) as u64)
        )),
        0b011 if bit(w, 15) == 1 && bits(w, 13, 12) == 0 => {
            let name = [
                "sha512h",
                "sha512h2",
                "sha512su1",
                "rax1",
                "sm3partw1",
                "sm3partw2",
                "sm4ekey",
                "",
            ][(bit(w, 14) << 2 | bits(w, 11, 10)) as usize];
            Some(match name {
                "" => return None,
                "sha512h" | "sha512h2" => format!("{name} q{rd}, q{rn}, {}", v(rm, "2d")),
                "sha512su1" | "rax1" => format!("{name} {}, {}, {}", v(rd, "2d"), v(rn, "2d"), v(rm, "2d")),
                _ => format!("{name} {}, {}, {}", v(rd, "4s"), v(rn, "4s"), v(rm, "4s")),
            })
        }
        0b010 if bits(w, 15, 14) == 0b10 => {
            let name = ["sm3tt1a", "sm3tt1b", "sm3tt2a", "sm3tt2b"][bits(w, 11, 10) as usize];
            Some(format!(
                "{name} {}, {}, v{rm}.s{}",
                v(rd, "4s"),
                v(rn, "4s"),
                lane(bits(w, 13, 12))
            ))
        }
        0b110 if bits(w, 20, 12) == 0b0_0000_1000 => match bits(w, 11, 10) {
            0 => Some(format!("sha512su0 {}, {}", v(rd, "2d"), v(rn, "2d"))),
            1 => Some(format!("sm4e {}, {}", v(rd, "4s"), v(rn, "4s"))),
            _ => None,
        },
        _ => None,
    }
}

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
