//! The cryptographic extension: AES rounds (AESE, AESD, AESMC, AESIMC) and the SHA-1 and SHA-256
//! hash and schedule steps, as the Arm ARM defines them.

use super::lanes::write_v;
use crate::arm64::decode::{CryptoOp, SimdInsn};
use crate::arm64::state::CpuState;

/// Multiplication in GF(2^8) modulo the AES polynomial x^8 + x^4 + x^3 + x + 1.
const fn gf_mul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        a = (a << 1) ^ if a & 0x80 != 0 { 0x1B } else { 0 };
        b >>= 1;
    }
    p
}

/// The AES S-box: multiplicative inverse (x^254) followed by the affine map.
const fn sbox() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        let mut inv = 1u8;
        let mut k = 0;
        while k < 254 {
            inv = gf_mul(inv, x as u8);
            k += 1;
        }
        let inv = if x == 0 { 0 } else { inv };
        table[x] = inv ^ inv.rotate_left(1) ^ inv.rotate_left(2) ^ inv.rotate_left(3) ^ inv.rotate_left(4) ^ 0x63;
        x += 1;
    }
    table
}

const SBOX: [u8; 256] = sbox();

const fn inverse_sbox() -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        table[SBOX[x] as usize] = x as u8;
        x += 1;
    }
    table
}

const INV_SBOX: [u8; 256] = inverse_sbox();

/// The AES state is column-major: byte `row + 4 * column`.
fn shift_rows(s: [u8; 16], inverse: bool) -> [u8; 16] {
    let mut out = [0u8; 16];
    for c in 0..4 {
        for r in 0..4 {
            let moved = r + 4 * ((c + r) % 4);
            if inverse {
                out[moved] = s[r + 4 * c];
            } else {
                out[r + 4 * c] = s[moved];
            }
        }
    }
    out
}

fn mix_columns(s: [u8; 16], inverse: bool) -> [u8; 16] {
    let coefficients: [u8; 4] = if inverse { [14, 11, 13, 9] } else { [2, 3, 1, 1] };
    let mut out = [0u8; 16];
    for c in 0..4 {
        for r in 0..4 {
            out[r + 4 * c] = (0..4).fold(0, |acc, k| acc ^ gf_mul(coefficients[k], s[(r + k) % 4 + 4 * c]));
        }
    }
    out
}

/// AddRoundKey, SubBytes and ShiftRows (AESE) or their inverses (AESD) on Vd ^ Vn.
fn aes_round(vd: u128, vn: u128, inverse: bool) -> u128 {
    let box_ = if inverse { &INV_SBOX } else { &SBOX };
    u128::from_le_bytes(shift_rows((vd ^ vn).to_le_bytes(), inverse).map(|b| box_[b as usize]))
}

fn words(v: u128) -> [u32; 4] {
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

fn join(w: [u32; 4]) -> u128 {
    w.iter().rev().fold(0, |acc, &x| acc << 32 | x as u128)
}

fn choose(x: u32, y: u32, z: u32) -> u32 {
    ((y ^ z) & x) ^ z
}

fn majority(x: u32, y: u32, z: u32) -> u32 {
    (x & y) | ((x | y) & z)
}

/// Four SHA-1 rounds on abcd (`x`) and e (`y`) with schedule words `wk`.
fn sha1_rounds(x: u128, y: u32, wk: u128, f: fn(u32, u32, u32) -> u32) -> u128 {
    let (mut x, mut y) = (words(x), y);
    for k in words(wk) {
        let t = f(x[1], x[2], x[3]);
        y = y.wrapping_add(x[0].rotate_left(5)).wrapping_add(t).wrapping_add(k);
        x[1] = x[1].rotate_left(30);
        // Rotate the 160-bit value y:x left by 32 bits.
        let top = x[3];
        x = [y, x[0], x[1], x[2]];
        y = top;
    }
    join(x)
}

/// Four SHA-256 rounds; `part1` returns the new abcd (SHA256H), otherwise efgh (SHA256H2).
fn sha256_rounds(x: u128, y: u128, wk: u128, part1: bool) -> u128 {
    let (mut x, mut y) = (words(x), words(y));
    for k in words(wk) {
        let sigma1 = y[0].rotate_right(6) ^ y[0].rotate_right(11) ^ y[0].rotate_right(25);
        let sigma0 = x[0].rotate_right(2) ^ x[0].rotate_right(13) ^ x[0].rotate_right(22);
        let t = y[3].wrapping_add(sigma1).wrapping_add(choose(y[0], y[1], y[2])).wrapping_add(k);
        x[3] = t.wrapping_add(x[3]);
        y[3] = t.wrapping_add(sigma0).wrapping_add(majority(x[0], x[1], x[2]));
        // Rotate the 256-bit value y:x left by 32 bits.
        let (x_top, y_top) = (x[3], y[3]);
        x = [y_top, x[0], x[1], x[2]];
        y = [x_top, y[0], y[1], y[2]];
    }
    join(if part1 { x } else { y })
}

/// The AES and SHA instructions, from the decoded form.
pub fn execute(cpu: &mut CpuState, insn: SimdInsn) -> Option<()> {
    let SimdInsn::Crypto { op, rd, rn, rm } = insn else {
        return None;
    };
    let (d, n) = (rd as usize, rn as usize);
    let (vd, vn, vm) = (cpu.v[d], cpu.v[n], cpu.v[rm as usize]);
    let r = match op {
        CryptoOp::Aese => aes_round(vd, vn, false),
        CryptoOp::Aesd => aes_round(vd, vn, true),
        CryptoOp::Aesmc => u128::from_le_bytes(mix_columns(vn.to_le_bytes(), false)),
        CryptoOp::Aesimc => u128::from_le_bytes(mix_columns(vn.to_le_bytes(), true)),
        CryptoOp::Sha1h => (vn as u32).rotate_left(30) as u128,
        CryptoOp::Sha1su1 => {
            let t = words(vd ^ (vn >> 32));
            let mut r = t.map(|x| x.rotate_left(1));
            r[3] ^= t[0].rotate_left(2);
            join(r)
        }
        CryptoOp::Sha256su0 => {
            let (d4, t) = (words(vd), words(vn << 96 | vd >> 32));
            let sigma = |x: u32| x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3);
            join([0, 1, 2, 3].map(|e| sigma(t[e]).wrapping_add(d4[e])))
        }
        CryptoOp::Sha1c => sha1_rounds(vd, vn as u32, vm, choose),
        CryptoOp::Sha1p => sha1_rounds(vd, vn as u32, vm, |x, y, z| x ^ y ^ z),
        CryptoOp::Sha1m => sha1_rounds(vd, vn as u32, vm, majority),
        CryptoOp::Sha1su0 => (vn << 64 | vd >> 64) ^ vd ^ vm,
        CryptoOp::Sha256h => sha256_rounds(vd, vn, vm, true),
        CryptoOp::Sha256h2 => sha256_rounds(vn, vd, vm, false),
        CryptoOp::Sha256su1 => {
            let (d4, t0) = (words(vd), words(vm << 96 | vn >> 32));
            let sigma = |x: u32| x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10);
            let mut r = [0u32; 4];
            let t1 = words(vm >> 64);
            for e in 0..2 {
                r[e] = sigma(t1[e]).wrapping_add(d4[e]).wrapping_add(t0[e]);
            }
            for e in 2..4 {
                r[e] = sigma(r[e - 2]).wrapping_add(d4[e]).wrapping_add(t0[e]);
            }
            join(r)
        }
    };
    write_v(cpu, d, r, 128);
    Some(())
}
