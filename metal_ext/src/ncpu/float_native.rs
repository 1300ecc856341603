//! The float unit's operations by number, and fast mode: the host's binary32 arithmetic (Rust's `f32`).
//! The wired microprogram over an integer ALU (`float.rs`) computes the same results bit for bit.

/// Index of the first float operation in `ALU_NAMES`.
pub const FIRST: u8 = 14;
pub const FADD: u8 = 14;
pub const FSUB: u8 = 15;
pub const FMUL: u8 = 16;
pub const FDIV: u8 = 17;
pub const FSQRT: u8 = 18;
pub const FCMP: u8 = 19;
pub const ITOF: u8 = 20;
pub const FTOI: u8 = 21;

/// What `fcmp` returns (the word its ZF and SF come from, CF, OF) for less, equal, greater, unordered.
pub const LESS: (u32, bool, bool) = (u32::MAX, true, false);
pub const EQUAL: (u32, bool, bool) = (0, false, false);
pub const GREATER: (u32, bool, bool) = (1, false, false);
pub const UNORDERED: (u32, bool, bool) = (1, false, true);

pub const CANONICAL_NAN: u32 = 0x7FC0_0000;

/// Fast mode: the host's binary32 arithmetic, every NaN made the canonical one.
pub fn native(op: u8, a: u32, b: u32) -> (u32, bool, bool) {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let value = |r: f32| (if r.is_nan() { CANONICAL_NAN } else { r.to_bits() }, false, false);
    match op {
        FADD => value(x + y),
        FSUB => value(x - y),
        FMUL => value(x * y),
        FDIV => value(x / y),
        FSQRT => value(x.sqrt()),
        FCMP => match x.partial_cmp(&y) {
            Some(std::cmp::Ordering::Less) => LESS,
            Some(std::cmp::Ordering::Equal) => EQUAL,
            Some(std::cmp::Ordering::Greater) => GREATER,
            None => UNORDERED,
        },
        ITOF => value(a as i32 as f32),
        FTOI => ((x as i32) as u32, false, false), // truncates, saturates, NaN -> 0
        _ => (b, false, false),                    // fmov
    }
}
