//! A64 disassembler producing capstone's text (modulo documented alias choices).
//!
//! The text is capstone 5's `"{mnemonic} {op_str}"` for the same word at the same address:
//! lowercase; immediates as `#9` up to nine and `#0xa` above (negative ones `#-0x10`); shift and
//! extend amounts and post-increments of structure loads in decimal; branch and literal targets
//! as absolute addresses; the preferred aliases (`mov`, `cmp`, `lsl`, `ubfx`, `cset`, `mvn`, ...).
//! Words capstone cannot decode, and encodings this disassembler does not know, read
//! `.inst 0x%08x`. capstone's own quirks are reproduced where they are consistent: 64-bit
//! ANDS/TST masks and MOV immediates as signed numbers, single-register post-index offsets as
//! unsigned 64-bit numbers, lane indices in immediate style (`v1.b[0xd]`), the 64-bit MOVI mask
//! in C's `%#016llx`, and STGP (which capstone does not decode) as `.inst`.
//!
//! Deliberate differences from capstone (the allow-list in tests/test_arm64_disasm.py):
//! - `prfm`, `prfum` and SVE's `prfb`/`prfh`/`prfw`/`prfd` with a prefetch operation that has
//!   no name: capstone prints an empty operand (`prfm , [x1]`); this prints its number
//!   (`prfm #6, [x1]`), as the Arm ARM does.
//!
//! Coverage: everything capstone 5 decodes: the base A64 instruction set with LSE, LS64, pointer
//! authentication, MTE, MOPS; scalar FP; Advanced SIMD with FP16, dot product, complex, BF16,
//! int8 matrix multiply and the crypto extensions; SVE and SVE2; the SME instructions capstone
//! knows (outer products, tile loads, stores, moves, ZERO, ADDHA/ADDVA). Encodings are matched
//! with their fixed bits and field constraints, so unallocated words read `.inst` as capstone's.

mod branch_system;
mod data_imm;
mod data_reg;
mod fields;
mod fp_scalar;
mod load_store;
mod simd;
mod simd_crypto;
mod simd_extra;
mod sme;
mod sve;
mod sve2;
mod sve_data;
mod sve_indexed;
mod sve_memory;
mod sve_misc;
mod sve_move;
mod sve_unary;
mod system_names;

/// Text of the instruction `word` at address `pc`, e.g. "add x0, x1, #4".
pub fn disassemble(word: u32, pc: u64) -> String {
    decode(word, pc).unwrap_or_else(|| format!(".inst 0x{word:08x}"))
}

fn decode(w: u32, pc: u64) -> Option<String> {
    match fields::bits(w, 28, 25) {
        0b0000 if fields::bits(w, 31, 16) == 0 => {
            Some(format!("udf {}", fields::uimm(fields::bits(w, 15, 0) as u64)))
        }
        0b0000 if fields::bit(w, 31) == 1 => sme::decode(w),
        0b0010 => sve::decode(w),
        0b1000 | 0b1001 => data_imm::decode(w, pc),
        0b1010 | 0b1011 => branch_system::decode(w, pc),
        0b0101 | 0b1101 => data_reg::decode(w),
        // Scalar FP has bit 28 set and bit 30 clear; everything else here is Advanced SIMD.
        0b0111 | 0b1111 if fields::bit(w, 28) == 1 && fields::bit(w, 30) == 0 => fp_scalar::decode(w),
        0b0111 | 0b1111 => simd::decode(w),
        _ if fields::bit(w, 27) == 1 && fields::bit(w, 25) == 0 => load_store::decode(w, pc),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::disassemble;

    #[test]
    fn integer_aliases() {
        assert_eq!(disassemble(0xaa1503e2, 0), "mov x2, x21");
        assert_eq!(disassemble(0xeb14003f, 0), "cmp x1, x20");
        assert_eq!(disassemble(0xd37be962, 0), "lsl x2, x11, #5");
        assert_eq!(disassemble(0x1a9f17e0, 0), "cset w0, eq");
        assert_eq!(disassemble(0xd2a00019, 0), "movz x25, #0, lsl #16");
        assert_eq!(disassemble(0x9287fdc0, 0), "mov x0, #-0x3fef");
    }

    #[test]
    fn addresses() {
        assert_eq!(disassemble(0x17ffffff, 0x400000), "b #0x3ffffc");
        assert_eq!(disassemble(0xd0000461, 0x4003f4), "adrp x1, #0x48e000");
        assert_eq!(disassemble(0xb8a17800, 0), "ldrsw x0, [x0, x1, lsl #2]");
        assert_eq!(disassemble(0x3860ca81, 0), "ldrb w1, [x20, w0, sxtw]");
    }

    #[test]
    fn system_and_simd() {
        assert_eq!(disassemble(0xd51bd053, 0), "msr tpidr_el0, x19");
        assert_eq!(disassemble(0xd5033bbf, 0), "dmb ish");
        assert_eq!(disassemble(0x4cdf7041, 0), "ld1 {v1.16b}, [x2], #16");
        assert_eq!(disassemble(0x0f044400, 0), "movi v0.2s, #0x80, lsl #16");
        assert_eq!(disassemble(0x1e602058, 0), "fcmpe d2, #0.0");
    }

    #[test]
    fn sve_and_sme() {
        assert_eq!(disassemble(0xe40de087, 0), "st1b {z7.b}, p0, [x4, #-3, mul vl]");
        assert_eq!(disassemble(0x25221d20, 0), "whilelo p0.b, x9, x2");
        assert_eq!(disassemble(0x0421e3e6, 0), "cntb x6, all, mul #2");
        assert_eq!(disassemble(0xc4d3c54c, 0), "ld1h {z12.d}, p1/z, [x10, z19.d]");
        assert_eq!(disassemble(0x05c1c267, 0), "mov z7.s, #0xfffff000fffff00");
        assert_eq!(disassemble(0x809891a0, 0), "fmopa za0.s, p4/m, p4/m, z13.s, z24.s");
        assert_eq!(disassemble(0xc0080070, 0), "zero {za4.d, za5.d, za6.d}");
    }

    #[test]
    fn unknown_words() {
        assert_eq!(disassemble(0x0600_0000, 0), ".inst 0x06000000");
        assert_eq!(disassemble(0xffff_ffff, 0), ".inst 0xffffffff");
    }
}
