//! The floating-point environment: formats, FPCR controls (rounding mode, DN, FZ), FPSR cumulative
//! flags, unpacking (with input flushing) and the single correctly-rounding pack routine every
//! operation ends in. Values are handled as exact integers scaled by powers of two, so results are
//! bit-exact in every rounding mode without relying on the host's floating point.

/// FPSR cumulative exception bits.
pub const IOC: u32 = 1 << 0;
pub const DZC: u32 = 1 << 1;
pub const OFC: u32 = 1 << 2;
pub const UFC: u32 = 1 << 3;
pub const IXC: u32 = 1 << 4;
pub const IDC: u32 = 1 << 7;
/// Saturation (AdvSIMD integer saturating arithmetic).
pub const QC: u32 = 1 << 27;

const FPCR_AHP: u32 = 1 << 26;
const FPCR_DN: u32 = 1 << 25;
const FPCR_FZ: u32 = 1 << 24;

/// An IEEE binary interchange format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fmt {
    H,
    S,
    D,
    /// Arm's alternative half precision (FPCR.AHP): no infinities or NaNs, exponent 31 is normal.
    AltH,
}

impl Fmt {
    pub const fn frac_bits(self) -> u32 {
        match self {
            Fmt::H | Fmt::AltH => 10,
            Fmt::S => 23,
            Fmt::D => 52,
        }
    }
    const fn exp_bits(self) -> u32 {
        match self {
            Fmt::H | Fmt::AltH => 5,
            Fmt::S => 8,
            Fmt::D => 11,
        }
    }
    pub const fn width(self) -> u32 {
        1 + self.exp_bits() + self.frac_bits()
    }
    const fn bias(self) -> i32 {
        (1 << (self.exp_bits() - 1)) - 1
    }
    const fn exp_max(self) -> u64 {
        (1 << self.exp_bits()) - 1
    }
    pub const fn sign_bit(self) -> u64 {
        1 << (self.width() - 1)
    }
    const fn quiet_bit(self) -> u64 {
        1 << (self.frac_bits() - 1)
    }
    /// S for 32-bit elements, D for 64-bit ones, H for 16-bit ones.
    pub fn of_bits(bits: u32) -> Fmt {
        match bits {
            16 => Fmt::H,
            32 => Fmt::S,
            _ => Fmt::D,
        }
    }
    pub fn infinity(self, sign: bool) -> u64 {
        self.pack(sign, self.exp_max(), 0)
    }
    pub fn zero(self, sign: bool) -> u64 {
        self.pack(sign, 0, 0)
    }
    pub fn max_normal(self, sign: bool) -> u64 {
        self.pack(sign, self.max_biased(), (1 << self.frac_bits()) - 1)
    }
    /// The largest biased exponent of a finite value.
    fn max_biased(self) -> u64 {
        if self == Fmt::AltH {
            self.exp_max()
        } else {
            self.exp_max() - 1
        }
    }
    pub fn default_nan(self) -> u64 {
        self.pack(false, self.exp_max(), self.quiet_bit())
    }
    fn pack(self, sign: bool, exp: u64, frac: u64) -> u64 {
        (sign as u64) << (self.width() - 1) | exp << self.frac_bits() | frac
    }
    pub fn is_nan(self, bits: u64) -> bool {
        (bits >> self.frac_bits()) & self.exp_max() == self.exp_max() && bits & ((1 << self.frac_bits()) - 1) != 0
    }
}

/// A rounding rule: FPCR.RMode's four plus the two instructions name explicitly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rounding {
    TiesEven,
    PlusInf,
    MinusInf,
    Zero,
    TiesAway,
    /// Von Neumann rounding (FCVTXN): truncate, then set the lsb if anything was lost.
    Odd,
}

impl Rounding {
    /// The two-bit RMode field as FPCR and the FCVT*/FRINT* encodings use it.
    pub fn from_rmode(rmode: u32) -> Rounding {
        match rmode & 3 {
            0 => Rounding::TiesEven,
            1 => Rounding::PlusInf,
            2 => Rounding::MinusInf,
            _ => Rounding::Zero,
        }
    }
}

/// What an operand is, after unpacking. Finite values are exactly `mant * 2^exp` (`mant` nonzero).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Zero,
    Finite { mant: u64, exp: i32 },
    Inf,
    QNaN,
    SNaN,
}

#[derive(Clone, Copy, Debug)]
pub struct Unpacked {
    pub sign: bool,
    pub kind: Kind,
}

impl Unpacked {
    pub fn is_nan(&self) -> bool {
        matches!(self.kind, Kind::QNaN | Kind::SNaN)
    }
}

/// Runs `f` under the core's FPCR and adds the flags it raised to FPSR.
pub fn with_fp_env<T>(cpu: &mut crate::arm64::state::CpuState, f: impl FnOnce(&mut FpEnv) -> T) -> T {
    let mut env = FpEnv::new(cpu.fpcr);
    let r = f(&mut env);
    cpu.fpsr |= env.flags;
    r
}

/// FPCR controls in force for one instruction and the FPSR flags it raises.
pub struct FpEnv {
    pub fpcr: u32,
    pub flags: u32,
}

impl FpEnv {
    pub fn new(fpcr: u32) -> FpEnv {
        FpEnv { fpcr, flags: 0 }
    }
    pub fn rounding(&self) -> Rounding {
        Rounding::from_rmode(self.fpcr >> 22)
    }
    pub fn default_nan_mode(&self) -> bool {
        self.fpcr & FPCR_DN != 0
    }
    /// FZ flushes single and double denormals; half precision has its own FZ16 control, and the
    /// half-precision operations implemented here (conversions) never flush.
    fn flushes(&self, fmt: Fmt) -> bool {
        self.fpcr & FPCR_FZ != 0 && matches!(fmt, Fmt::S | Fmt::D)
    }
    /// The half-precision format conversions use: IEEE, or the alternative one under FPCR.AHP.
    pub fn half_format(&self) -> Fmt {
        if self.fpcr & FPCR_AHP != 0 {
            Fmt::AltH
        } else {
            Fmt::H
        }
    }
    pub fn raise(&mut self, flags: u32) {
        self.flags |= flags;
    }

    pub fn unpack(&mut self, fmt: Fmt, bits: u64) -> Unpacked {
        let fb = fmt.frac_bits();
        let sign = bits & fmt.sign_bit() != 0;
        let exp = (bits >> fb) & fmt.exp_max();
        let frac = bits & ((1 << fb) - 1);
        let kind = if exp == 0 {
            if frac == 0 {
                Kind::Zero
            } else if self.flushes(fmt) {
                self.raise(IDC);
                Kind::Zero
            } else {
                Kind::Finite { mant: frac, exp: 1 - fmt.bias() - fb as i32 }
            }
        } else if exp == fmt.exp_max() && fmt != Fmt::AltH {
            if frac == 0 {
                Kind::Inf
            } else if frac & fmt.quiet_bit() != 0 {
                Kind::QNaN
            } else {
                Kind::SNaN
            }
        } else {
            Kind::Finite { mant: frac | 1 << fb, exp: exp as i32 - fmt.bias() - fb as i32 }
        };
        Unpacked { sign, kind }
    }

    /// A NaN operand becoming the result: signalling NaNs raise Invalid Operation and are quieted;
    /// with DN set every NaN result is the default NaN.
    pub fn process_nan(&mut self, fmt: Fmt, bits: u64, u: &Unpacked) -> u64 {
        if u.kind == Kind::SNaN {
            self.raise(IOC);
        }
        if self.default_nan_mode() {
            fmt.default_nan()
        } else {
            bits | fmt.quiet_bit()
        }
    }

    /// Arm's NaN priority for several operands: the first signalling NaN, else the first quiet one.
    pub fn process_nans(&mut self, fmt: Fmt, ops: &[(u64, Unpacked)]) -> Option<u64> {
        let pick = ops
            .iter()
            .find(|(_, u)| u.kind == Kind::SNaN)
            .or_else(|| ops.iter().find(|(_, u)| u.kind == Kind::QNaN))?;
        let (bits, u) = *pick;
        Some(self.process_nan(fmt, bits, &u))
    }

    /// An invalid operation's result: Invalid Operation raised, the default NaN returned.
    pub fn invalid(&mut self, fmt: Fmt) -> u64 {
        self.raise(IOC);
        fmt.default_nan()
    }

    /// Rounds the exact value `(-1)^sign * (mant + s) * 2^exp` to `fmt`, where `s` is in (0, 1) when
    /// `sticky` is set and 0 otherwise, raising Overflow, Underflow and Inexact as Arm does
    /// (tininess detected before rounding; FZ flushes tiny results to zero raising only Underflow).
    /// A set `sticky` needs `mant` to carry at least two bits beyond the format's precision.
    pub fn round_pack(&mut self, fmt: Fmt, sign: bool, exp: i32, mant: u128, sticky: bool, mode: Rounding) -> u64 {
        if mant == 0 {
            debug_assert!(!sticky);
            return fmt.zero(sign);
        }
        let fb = fmt.frac_bits() as i32;
        debug_assert!(!sticky || 127 - mant.leading_zeros() as i32 >= fb + 2);
        let top = exp + 127 - mant.leading_zeros() as i32; // value is in [2^top, 2^(top+1))
        let emin = 1 - fmt.bias();
        let tiny = top < emin;
        if tiny && self.flushes(fmt) {
            self.raise(UFC);
            return fmt.zero(sign);
        }
        let mut lsb_exp = top.max(emin) - fb;
        let (mut kept, inexact) = shift_round(mant, sticky, lsb_exp - exp, sign, mode);
        if kept >> (fb + 1) != 0 {
            kept >>= 1;
            lsb_exp += 1;
        }
        let biased = if kept >> fb != 0 { (lsb_exp + fb + fmt.bias()) as u64 } else { 0 };
        if biased > fmt.max_biased() && fmt == Fmt::AltH {
            // Out of range of the alternative format: saturate, Invalid Operation, nothing else.
            self.raise(IOC);
            return fmt.max_normal(sign);
        }
        if tiny && inexact {
            self.raise(UFC);
        }
        if inexact {
            self.raise(IXC);
        }
        if biased > fmt.max_biased() {
            self.raise(OFC | IXC);
            let to_inf = match mode {
                Rounding::TiesEven | Rounding::TiesAway => true,
                Rounding::PlusInf => !sign,
                Rounding::MinusInf => sign,
                Rounding::Zero | Rounding::Odd => false,
            };
            return if to_inf { fmt.infinity(sign) } else { fmt.max_normal(sign) };
        }
        fmt.pack(sign, biased, kept as u64 & ((1 << fb) - 1))
    }
}

/// `(mant + s) / 2^shift` rounded to an integer under `mode` (`s` as in `round_pack`; a negative
/// shift multiplies exactly). Returns the magnitude and whether anything was lost.
pub fn shift_round(mant: u128, sticky: bool, shift: i32, sign: bool, mode: Rounding) -> (u128, bool) {
    if shift <= 0 {
        debug_assert!(!sticky || shift == 0);
        let kept = if shift <= -128 { 0 } else { mant << -shift };
        return round_up(kept, false, false, sticky, sign, mode);
    }
    let (kept, rest) = if shift >= 128 { (0, mant) } else { (mant >> shift, mant & ((1u128 << shift) - 1)) };
    let half = if shift > 128 { 0 } else { 1u128 << (shift - 1) };
    let round_bit = shift <= 128 && rest & half != 0;
    let below = rest & half.wrapping_sub(1) != 0 || sticky || (shift > 128 && rest != 0);
    round_up(kept, round_bit, below, false, sign, mode)
}

/// Applies `mode` to an integer `kept` followed by a round bit and a sticky bit.
/// `lsb_sticky` is a fraction strictly below half of the last kept unit without a round bit.
fn round_up(kept: u128, round_bit: bool, below: bool, lsb_sticky: bool, sign: bool, mode: Rounding) -> (u128, bool) {
    let inexact = round_bit || below || lsb_sticky;
    let up = match mode {
        Rounding::TiesEven => round_bit && (below || kept & 1 == 1),
        Rounding::TiesAway => round_bit,
        Rounding::PlusInf => inexact && !sign,
        Rounding::MinusInf => inexact && sign,
        Rounding::Zero => false,
        Rounding::Odd => return (kept | inexact as u128, inexact),
    };
    (kept + up as u128, inexact)
}
