//! Scalar floating point and Advanced SIMD.

use super::fields::bit;
use super::{fp_scalar, simd};

/// Arrangement specifier for element size `size` (0..=3) and register width `q`: "8b" .. "2d".
pub fn arrangement(size: u32, q: u32) -> &'static str {
    ["8b", "16b", "4h", "8h", "2s", "4s", "1d", "2d"][(size << 1 | q) as usize]
}

/// SIMD&FP register `n` viewed as `kind` ("b", "h", "s", "d", "q").
pub fn fp_reg(kind: &str, n: u32) -> String {
    format!("{kind}{n}")
}

pub fn decode(w: u32) -> Option<String> {
    // Scalar FP has bit 28 set and bit 30 clear; everything else here is Advanced SIMD.
    if bit(w, 28) == 1 && bit(w, 30) == 0 {
        fp_scalar::decode(w)
    } else {
        simd::decode(w)
    }
}
