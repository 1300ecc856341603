//! Architectural state of one AArch64 hart as a Linux user program sees it.

use std::num::NonZeroU64;

/// Registers and the few system registers EL0 code reads or writes.
#[derive(Clone, Debug, Default)]
pub struct CpuState {
    /// x0..x30; index 31 is the stack pointer (XZR reads are handled by the decoder).
    pub x: [u64; 32],
    pub pc: u64,
    /// N Z C V in bits 31..28, as in the NZCV system register.
    pub nzcv: u32,
    /// v0..v31, 128 bits each; scalar FP registers are their low bits.
    pub v: [u128; 32],
    pub fpcr: u32,
    pub fpsr: u32,
    pub tpidr_el0: u64,
    /// Read-only thread register at EL0 (Linux keeps it 0 for user threads).
    pub tpidrro_el0: u64,
    /// Address of the exclusive monitor's reservation (LDXR/STXR), if any. Never 0 (nothing is
    /// mapped there), so compiled code reads and writes it as a u64 with 0 for none.
    pub exclusive: Option<NonZeroU64>,
    /// The virtual counter CNTVCT_EL0: `step` advances it by one per retired instruction, so
    /// guest time is deterministic (ticking at `COUNTER_FREQUENCY`).
    pub counter: u64,
    /// Whether the FEAT_LSE atomics (CAS, CASP, SWP, LDADD...) and FEAT_LRCPC's LDAPR execute.
    /// A Cortex-A53 has neither, so by default they are undefined, as under
    /// `qemu-aarch64 -cpu cortex-a53` (glibc only uses them when AT_HWCAP says ATOMICS).
    pub lse: bool,
}

pub const SP: usize = 31;

/// CNTFRQ_EL0 as the guest reads it, in Hz (qemu-aarch64 reports the same).
pub const COUNTER_FREQUENCY: u64 = 62_500_000;

impl CpuState {
    pub fn sp(&self) -> u64 {
        self.x[SP]
    }

    /// Register `r` of a general-purpose operand where 31 means XZR.
    #[inline(always)]
    pub fn xr(&self, r: u32) -> u64 {
        if r == 31 {
            0
        } else {
            self.x[r as usize & 31]
        }
    }

    /// Writes register `r` where 31 means XZR (the value is discarded).
    #[inline(always)]
    pub fn set_xr(&mut self, r: u32, v: u64) {
        if r != 31 {
            self.x[r as usize & 31] = v;
        }
    }

    /// Register `r` where 31 means SP.
    #[inline(always)]
    pub fn xr_sp(&self, r: u32) -> u64 {
        self.x[r as usize & 31]
    }

    /// Writes register `r` where 31 means SP.
    #[inline(always)]
    pub fn set_xr_sp(&mut self, r: u32, v: u64) {
        self.x[r as usize & 31] = v;
    }

    /// Register `r` of the decoded form (`arm64::decode::Reg`: 31 is SP, `ZR` reads 0).
    #[inline(always)]
    pub fn reg(&self, r: u8) -> u64 {
        if r > 31 {
            0
        } else {
            self.x[r as usize]
        }
    }

    /// Writes register `r` of the decoded form (writes to `ZR` vanish).
    #[inline(always)]
    pub fn set_reg(&mut self, r: u8, v: u64) {
        if r <= 31 {
            self.x[r as usize] = v;
        }
    }
}

/// A register as the Python bindings name it: x0..x30, sp, pc, nzcv, v0..v31 (128 bits), fpcr,
/// fpsr, tpidr_el0, tpidrro_el0, counter (CNTVCT_EL0) and lse (the FEAT_LSE switch, 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegisterName {
    X(usize),
    Sp,
    Pc,
    Nzcv,
    V(usize),
    Fpcr,
    Fpsr,
    TpidrEl0,
    TpidrroEl0,
    Counter,
    Lse,
}

impl RegisterName {
    /// The register `name` names (lower case, as above), or None.
    pub fn parse(name: &str) -> Option<RegisterName> {
        Some(match name {
            "sp" => RegisterName::Sp,
            "pc" => RegisterName::Pc,
            "nzcv" => RegisterName::Nzcv,
            "fpcr" => RegisterName::Fpcr,
            "fpsr" => RegisterName::Fpsr,
            "tpidr_el0" => RegisterName::TpidrEl0,
            "tpidrro_el0" => RegisterName::TpidrroEl0,
            "counter" => RegisterName::Counter,
            "lse" => RegisterName::Lse,
            _ => {
                let index = |prefix: char| name.strip_prefix(prefix)?.parse::<usize>().ok();
                match (index('x'), index('v')) {
                    (Some(i), _) if i <= 30 => RegisterName::X(i),
                    (_, Some(i)) if i <= 31 => RegisterName::V(i),
                    _ => return None,
                }
            }
        })
    }
}

impl CpuState {
    /// The value of register `r`, zero-extended.
    pub fn register(&self, r: RegisterName) -> u128 {
        match r {
            RegisterName::X(i) => self.x[i] as u128,
            RegisterName::Sp => self.x[SP] as u128,
            RegisterName::Pc => self.pc as u128,
            RegisterName::Nzcv => self.nzcv as u128,
            RegisterName::V(i) => self.v[i],
            RegisterName::Fpcr => self.fpcr as u128,
            RegisterName::Fpsr => self.fpsr as u128,
            RegisterName::TpidrEl0 => self.tpidr_el0 as u128,
            RegisterName::TpidrroEl0 => self.tpidrro_el0 as u128,
            RegisterName::Counter => self.counter as u128,
            RegisterName::Lse => self.lse as u128,
        }
    }

    /// Sets register `r`, truncating `value` to its width (NZCV keeps only bits 31..28; lse is
    /// on for any nonzero value).
    pub fn set_register(&mut self, r: RegisterName, value: u128) {
        match r {
            RegisterName::X(i) => self.x[i] = value as u64,
            RegisterName::Sp => self.x[SP] = value as u64,
            RegisterName::Pc => self.pc = value as u64,
            RegisterName::Nzcv => self.nzcv = value as u32 & 0xF000_0000,
            RegisterName::V(i) => self.v[i] = value,
            RegisterName::Fpcr => self.fpcr = value as u32,
            RegisterName::Fpsr => self.fpsr = value as u32,
            RegisterName::TpidrEl0 => self.tpidr_el0 = value as u64,
            RegisterName::TpidrroEl0 => self.tpidrro_el0 = value as u64,
            RegisterName::Counter => self.counter = value as u64,
            RegisterName::Lse => self.lse = value != 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_names_parse_once_for_both_bindings() {
        assert_eq!(RegisterName::parse("x0"), Some(RegisterName::X(0)));
        assert_eq!(RegisterName::parse("x30"), Some(RegisterName::X(30)));
        assert_eq!(RegisterName::parse("v31"), Some(RegisterName::V(31)));
        assert_eq!(RegisterName::parse("tpidrro_el0"), Some(RegisterName::TpidrroEl0));
        for bad in ["x31", "v32", "x", "", "w0", "é", "X0"] {
            assert_eq!(RegisterName::parse(bad), None, "{bad:?}");
        }
        let mut cpu = CpuState::default();
        cpu.set_register(RegisterName::Nzcv, 0xFFFF_FFFF);
        cpu.set_register(RegisterName::Sp, 1 << 70 | 0x10);
        assert_eq!(cpu.register(RegisterName::Nzcv), 0xF000_0000);
        assert_eq!((cpu.x[SP], cpu.register(RegisterName::Sp)), (0x10, 0x10));
    }
}
