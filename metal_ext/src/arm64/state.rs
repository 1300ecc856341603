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
    /// Address of the exclusive monitor's reservation (LDXR/STXR), if any.
    pub exclusive: Option<u64>,
}

pub const SP: usize = 31;

impl CpuState {
    pub fn sp(&self) -> u64 {
        self.x[SP]
    }
}
