//! The fast ALU: exact 32-bit integer semantics, mirroring `ncpu_nb.isa.table.ALU_OPS`.

/// ALU operation names in the order of `ncpu_nb.isa.table.ALU_NAMES` (checked at import).
pub const ALU_NAMES: [&str; 23] = [
    "pass", "add", "sub", "mul", "div", "mod", "and", "or", "xor", "shl", "shr", "sar", "not", "neg",
    "fadd", "fsub", "fmul", "fdiv", "fsqrt", "fcmp", "itof", "ftoi", "fmov", // the float unit (float.rs)
];

#[inline(always)]
fn amount(b: u32) -> u32 {
    (b as i32).clamp(0, 31) as u32 // shift amounts clamp to 0..31
}

#[inline(always)]
fn sub(a: u32, b: u32) -> (u32, bool, bool) {
    let r = a.wrapping_sub(b);
    (r, a < b, ((a ^ b) & (a ^ r)) >> 31 != 0)
}

#[inline(always)]
fn div(a: u32, b: u32) -> u32 {
    match b as i32 {
        0 => 0,                                   // x / 0 = 0
        d => (a as i32).wrapping_div(d) as u32,   // truncates; INT_MIN / -1 wraps to INT_MIN
    }
}

/// What the executor needs from an ALU; fast and neural modes differ only here.
pub trait Alu {
    /// (result, carry, overflow) of operation `op` (an index into ALU_NAMES) on a, b.
    fn op(&self, op: u8, a: u32, b: u32) -> (u32, bool, bool);
    /// Whether a result is zero (ZF).
    fn is_zero(&self, r: u32) -> bool;
}

/// Fast mode: exact integer arithmetic, the host's binary32 for the float operations.
pub struct FastAlu;

impl Alu for FastAlu {
    #[inline(always)]
    fn op(&self, op: u8, a: u32, b: u32) -> (u32, bool, bool) {
        alu(op, a, b)
    }
    #[inline(always)]
    fn is_zero(&self, r: u32) -> bool {
        r == 0
    }
}

/// (result, carry, overflow) of operation `op` on a, b.
#[inline(always)]
pub fn alu(op: u8, a: u32, b: u32) -> (u32, bool, bool) {
    match op {
        0 => (b, false, false),
        1 => {
            let (r, c) = a.overflowing_add(b);
            (r, c, ((a ^ r) & (b ^ r)) >> 31 != 0)
        }
        2 => sub(a, b),
        3 => (a.wrapping_mul(b), false, false),
        4 => (div(a, b), false, false),
        5 => (a.wrapping_sub(div(a, b).wrapping_mul(b)), false, false), // x % 0 = x
        6 => (a & b, false, false),
        7 => (a | b, false, false),
        8 => (a ^ b, false, false),
        9 => (a << amount(b), false, false),
        10 => (a >> amount(b), false, false),
        11 => (((a as i32) >> amount(b)) as u32, false, false),
        12 => (!a, false, false),
        13 => sub(0, a),
        _ => super::float_native::native(op, a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::alu;

    #[test]
    fn division_truncates_toward_zero_and_by_zero_is_zero() {
        assert_eq!(alu(4, (-7i32) as u32, 2).0 as i32, -3);
        assert_eq!(alu(4, 7, 0).0, 0);
        assert_eq!(alu(4, i32::MIN as u32, (-1i32) as u32).0, i32::MIN as u32);
        assert_eq!(alu(5, (-7i32) as u32, 2).0 as i32, -1);
        assert_eq!(alu(5, 9, 0).0, 9);
    }

    #[test]
    fn shifts_clamp_their_amount() {
        assert_eq!(alu(9, 1, 40).0, 1 << 31);
        assert_eq!(alu(10, 0x8000_0000, (-3i32) as u32).0, 0x8000_0000);
        assert_eq!(alu(11, 0x8000_0000, 31).0, u32::MAX);
    }

    #[test]
    fn add_and_sub_report_carry_and_overflow() {
        assert_eq!(alu(1, u32::MAX, 1), (0, true, false));
        assert_eq!(alu(1, i32::MAX as u32, 1), (0x8000_0000, false, true));
        assert_eq!(alu(2, 0, 1), (u32::MAX, true, false));
        assert_eq!(alu(2, 0x8000_0000, 1), (i32::MAX as u32, false, true));
    }
}
