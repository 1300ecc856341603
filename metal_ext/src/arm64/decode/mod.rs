//! The one decoded form of the A64 integer, branch and load/store instructions (`form`) and of
//! SIMD&FP data processing (`simd_form`: scalar FP and the Advanced SIMD families): operands,
//! widths and addressing modes worked out once from the word, with every field combination the
//! architecture leaves unallocated rejected here. The interpreter, the code cache's handlers,
//! the block compiler and the disassembler all read this form, so that an instruction's meaning
//! is written once. Words outside it (`None`) are the ones each reader handles on its own or
//! rejects.

mod branches;
mod by_element;
mod copy;
mod crypto;
mod exclusives;
mod fields;
mod form;
mod fp_scalar;
mod immediates;
mod integer;
mod modified_immediate;
mod permute;
mod reduction;
mod shift_immediate;
mod simd_form;
mod structures;
mod system;
mod three_different;
mod three_same;
mod transfers;
mod two_register_misc;

pub use form::{Address, AtomicOp, Barrier, CacheOperation, ConstOrigin, Insn, Operand, Reg, Structure,
               SystemRegister, Unary, SIGN32, SIGN64, ZERO, ZR};
pub(crate) use fields::zr;
pub use immediates::{decode_bit_masks, move_wide};
pub use simd_form::{BitwiseOp, CryptoOp, ElementOp, FmovReg, MiscOp, FpBinaryOp, FpMiscOp, FpThreeSameOp, FpType, FpUnaryOp, PermuteOp, ReduceOp, RoundMode, ShiftImmOp, SimdInsn, ThreeDifferentOp, ThreeSameOp, VReg,
                    VectorImmOp};

/// Decodes `word` found at `pc` (branch targets and ADR/ADRP values are absolute), or None for
/// a word outside the form.
pub fn decode(word: u32, pc: u64) -> Option<Insn> {
    match (word >> 25) & 0xF {
        0b1000 | 0b1001 => integer::immediate(word, pc),
        0b0101 | 0b1101 => integer::register(word),
        0b1010 | 0b1011 => branches::decode(word, pc).or_else(|| system::decode(word)),
        0b0100 | 0b0110 | 0b1100 | 0b1110 => transfers::decode(word, pc),
        _ => None,
    }
}

/// The Advanced SIMD family decoders one by one, for a reader that has already told the families
/// apart by their fixed bits (the interpreter's dispatcher, sparing the hot path the chain of
/// tests in `decode_simd_fp`): each gives what `decode_simd_fp` gives for a word of its family.
pub(crate) mod simd_family {
    pub(crate) use super::by_element::decode as by_element;
    pub(crate) use super::copy::decode as copy;
    pub(crate) use super::modified_immediate::decode as modified_immediate;
    pub(crate) use super::reduction::decode as reduction;
    pub(crate) use super::shift_immediate::decode as shift_immediate;
    pub(crate) use super::three_different::decode as three_different;
    pub(crate) use super::three_same::decode as three_same;
    pub(crate) use super::two_register_misc::decode as two_register_misc;
}

/// Decodes a SIMD&FP data-processing word (bits 27..25 = 111): scalar floating point (bit 28
/// set, bit 30 clear) and the Advanced SIMD families, each recognised by its fixed bits (the
/// family files say which): modified immediates, reductions, copies, permutes, shifts by
/// immediate, by element, two-register miscellaneous, three same, three different, and the
/// AES/SHA instructions. None for a word no family allocates (the FP16 and post-Armv8.0 forms
/// the disassembler still names are its own business).
#[inline(always)]
pub fn decode_simd_fp(word: u32) -> Option<SimdInsn> {
    if word & (1 << 28) != 0 && word & (1 << 30) == 0 {
        fp_scalar::decode(word)
    } else if word & 0x9FF8_0400 == 0x0F00_0400 {
        modified_immediate::decode(word)
    } else if word & 0x8F3E_0C00 == 0x0E30_0800 {
        reduction::decode(word)
    } else if word & 0x8FE0_8400 == 0x0E00_0400 {
        copy::decode(word)
    } else if word & 0x9F20_8400 == 0x0E00_0000 {
        permute::decode(word)
    } else if word & 0x8F80_0400 == 0x0F00_0400 {
        shift_immediate::decode(word)
    } else if word & 0x8F00_0400 == 0x0F00_0000 {
        by_element::decode(word)
    } else if word & 0x8F3E_0C00 == 0x0E20_0800 {
        two_register_misc::decode(word)
    } else if word & 0x8F20_0400 == 0x0E20_0400 {
        three_same::decode(word)
    } else if word & 0x8F20_0C00 == 0x0E20_0000 {
        three_different::decode(word)
    } else if word & 0xEFFE_0C00 == 0x4E28_0800 {
        crypto::two_register(word)
    } else if word & 0xFFE0_8C00 == 0x5E00_0000 {
        crypto::three_register(word)
    } else {
        None
    }
}
