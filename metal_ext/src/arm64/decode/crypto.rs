//! The cryptographic extension the core executes: AES (bits 31..24 = 01001110, 23..17 =
//! 0010100, 11..10 = 10), SHA two-register (the same with bits 31..24 = 01011110) and SHA
//! three-register (bits 31..21 = 01011110000, 15 and 11..10 clear).

use super::simd_form::{CryptoOp, SimdInsn};

/// AESE, AESD, AESMC, AESIMC, SHA1H, SHA1SU1, SHA256SU0 (opcode bits 16..12).
pub(super) fn two_register(w: u32) -> Option<SimdInsn> {
    let (rd, rn) = ((w & 31) as u8, ((w >> 5) & 31) as u8);
    let op = match (w >> 28 & 1, (w >> 12) & 31) {
        (0, 4) => CryptoOp::Aese,
        (0, 5) => CryptoOp::Aesd,
        (0, 6) => CryptoOp::Aesmc,
        (0, 7) => CryptoOp::Aesimc,
        (1, 0) => CryptoOp::Sha1h,
        (1, 1) => CryptoOp::Sha1su1,
        (1, 2) => CryptoOp::Sha256su0,
        _ => return None,
    };
    Some(SimdInsn::Crypto { op, rd, rn, rm: 0 })
}

/// SHA1C, SHA1P, SHA1M, SHA1SU0, SHA256H, SHA256H2, SHA256SU1 (opcode bits 14..12).
pub(super) fn three_register(w: u32) -> Option<SimdInsn> {
    let (rd, rn, rm) = ((w & 31) as u8, ((w >> 5) & 31) as u8, ((w >> 16) & 31) as u8);
    let op = match (w >> 12) & 7 {
        0 => CryptoOp::Sha1c,
        1 => CryptoOp::Sha1p,
        2 => CryptoOp::Sha1m,
        3 => CryptoOp::Sha1su0,
        4 => CryptoOp::Sha256h,
        5 => CryptoOp::Sha256h2,
        6 => CryptoOp::Sha256su1,
        _ => return None,
    };
    Some(SimdInsn::Crypto { op, rd, rn, rm })
}
