//! The cryptographic extension of Advanced SIMD the core executes: AES, SHA-1 and SHA-256,
//! printed from the decoded form (the later SHA-512, SHA-3, SM3 and SM4 read `.inst` with a
//! note).

use super::fields::v;
use crate::arm64::decode::{decode_simd_fp, CryptoOp, SimdInsn};

pub fn print(w: u32) -> Option<String> {
    let SimdInsn::Crypto { op, rd, rn, rm } = decode_simd_fp(w)? else {
        return None;
    };
    let name = op.name();
    let vec = |n: u8| v(n as u32, if matches!(op, CryptoOp::Aese | CryptoOp::Aesd | CryptoOp::Aesmc | CryptoOp::Aesimc) { "16b" } else { "4s" });
    Some(match op {
        CryptoOp::Sha1h => format!("{name} s{rd}, s{rn}"),
        CryptoOp::Sha1c | CryptoOp::Sha1p | CryptoOp::Sha1m => format!("{name} q{rd}, s{rn}, {}", vec(rm)),
        CryptoOp::Sha256h | CryptoOp::Sha256h2 => format!("{name} q{rd}, q{rn}, {}", vec(rm)),
        CryptoOp::Sha1su0 | CryptoOp::Sha256su1 => format!("{name} {}, {}, {}", vec(rd), vec(rn), vec(rm)),
        _ => format!("{name} {}, {}", vec(rd), vec(rn)),
    })
}
