//! Register access shared by the SIMD & FP instruction families: vector lanes, general registers
//! as these instructions name them (31 is XZR), and the bit the dispatcher tests.

use crate::arm64::state::CpuState;

pub fn bit(word: u32, n: u32) -> bool {
    word >> n & 1 == 1
}

pub fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// Element `i` of `esize` bits.
pub fn lane(v: u128, i: usize, esize: u32) -> u64 {
    (v >> (i as u32 * esize)) as u64 & ones(esize)
}

pub fn with_lane(v: u128, i: usize, esize: u32, x: u64) -> u128 {
    let shift = i as u32 * esize;
    let m = (ones(esize) as u128) << shift;
    (v & !m) | ((x as u128 & ones(esize) as u128) << shift)
}

/// Sign-extends the low `bits` of `x`.
pub fn sext(x: u64, bits: u32) -> i64 {
    ((x << (64 - bits)) as i64) >> (64 - bits)
}

/// `x` (already `esize` bits, esize <= 64) in every lane of a 128-bit vector.
pub fn broadcast(x: u64, esize: u32) -> u128 {
    // 2^128 - 1 = (2^e - 1)(1 + 2^e + 2^2e + ...): the quotient has a 1 at the bottom of each lane.
    x as u128 * (u128::MAX / ((1u128 << esize) - 1))
}

/// Applies `f(a, b, d)` to corresponding lanes of three vectors. Lanes are addressed as bytes
/// with the lane width a constant, so each instantiation is a tight loop.
pub fn map_lanes(shape: Shape, va: u128, vb: u128, vd: u128, f: impl FnMut(u64, u64, u64) -> u64) -> u128 {
    match shape.esize {
        8 => map_lanes_of::<1>(shape.lanes, va, vb, vd, f),
        16 => map_lanes_of::<2>(shape.lanes, va, vb, vd, f),
        32 => map_lanes_of::<4>(shape.lanes, va, vb, vd, f),
        _ => map_lanes_of::<8>(shape.lanes, va, vb, vd, f),
    }
}

fn map_lanes_of<const B: usize>(
    lanes: usize,
    va: u128,
    vb: u128,
    vd: u128,
    mut f: impl FnMut(u64, u64, u64) -> u64,
) -> u128 {
    let (a, b, d) = (va.to_le_bytes(), vb.to_le_bytes(), vd.to_le_bytes());
    let get = |v: &[u8; 16], i: usize| {
        let mut buf = [0u8; 8];
        buf[..B].copy_from_slice(&v[i * B..i * B + B]);
        u64::from_le_bytes(buf)
    };
    let mut out = [0u8; 16];
    for i in 0..lanes.min(16 / B) {
        let r = f(get(&a, i), get(&b, i), get(&d, i));
        out[i * B..i * B + B].copy_from_slice(&r.to_le_bytes()[..B]);
    }
    u128::from_le_bytes(out)
}

/// The even (`part` 0) or odd (`part` 1) lanes of the concatenation Vm:Vn, as one vector.
pub fn unzip(va: u128, vb: u128, shape: Shape, part: usize) -> u128 {
    match shape.esize {
        8 => unzip_of::<1>(va, vb, shape, part),
        16 => unzip_of::<2>(va, vb, shape, part),
        32 => unzip_of::<4>(va, vb, shape, part),
        _ => unzip_of::<8>(va, vb, shape, part),
    }
}

fn unzip_of<const B: usize>(va: u128, vb: u128, shape: Shape, part: usize) -> u128 {
    let bytes = (shape.bits() / 8) as usize;
    let mut joined = [0u8; 32];
    joined[..16].copy_from_slice(&va.to_le_bytes());
    joined[bytes..bytes + 16].copy_from_slice(&vb.to_le_bytes());
    let mut out = [0u8; 16];
    for i in 0..shape.lanes.min(16 / B) {
        let j = 2 * i + part;
        out[i * B..i * B + B].copy_from_slice(&joined[j * B..j * B + B]);
    }
    u128::from_le_bytes(out)
}

/// Builds a vector from `count` lanes.
pub fn from_lanes(count: usize, esize: u32, mut f: impl FnMut(usize) -> u64) -> u128 {
    let mask = ones(esize);
    (0..count).fold(0, |v, i| v | ((f(i) & mask) as u128) << (i as u32 * esize))
}

pub fn read_x(cpu: &CpuState, n: usize) -> u64 {
    if n == 31 {
        0
    } else {
        cpu.x[n]
    }
}

/// Writes a general register (W forms zero-extend; 31 is XZR, the write is dropped).
pub fn write_x(cpu: &mut CpuState, d: usize, value: u64, wide: bool) {
    if d != 31 {
        cpu.x[d] = if wide { value } else { value & 0xFFFF_FFFF };
    }
}

/// Writes a result of `bits` (128, 64, or one scalar element): the rest of the register is cleared.
pub fn write_v(cpu: &mut CpuState, d: usize, value: u128, bits: u32) {
    cpu.v[d] = if bits >= 128 { value } else { value & ((1u128 << bits) - 1) };
}

/// Element size and count of an operation: a vector arrangement, or one scalar element.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub esize: u32,
    pub lanes: usize,
}

impl Shape {
    /// The arrangement for `size` (bits 23..22) and Q (bit 30).
    pub fn vector(size: u32, q: bool) -> Shape {
        let esize = 8 << size;
        Shape { esize, lanes: (if q { 128 } else { 64 } / esize) as usize }
    }
    pub fn scalar(esize: u32) -> Shape {
        Shape { esize, lanes: 1 }
    }
    pub fn bits(&self) -> u32 {
        self.esize * self.lanes as u32
    }
}
