//! Architectural state of one AArch64 hart as a Linux user program sees it.

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
    /// Address of the exclusive monitor's reservation (LDXR/STXR), if any.
    pub exclusive: Option<u64>,
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
