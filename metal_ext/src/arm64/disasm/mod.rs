//! A64 disassembler producing capstone's text for every instruction the machine executes.
//!
//! The text is capstone 5's `"{mnemonic} {op_str}"` for the same word at the same address:
//! lowercase; immediates as `#9` up to nine and `#0xa` above (negative ones `#-0x10`); shift and
//! extend amounts and post-increments of structure loads in decimal; branch and literal targets
//! as absolute addresses; the preferred aliases (`mov`, `cmp`, `lsl`, `ubfx`, `cset`, `mvn`, ...).
//! capstone's own quirks are reproduced where they are consistent: 64-bit ANDS/TST masks and MOV
//! immediates as signed numbers, single-register post-index offsets as unsigned 64-bit numbers,
//! lane indices in immediate style (`v1.b[0xd]`), the 64-bit MOVI mask in C's `%#016llx`, and
//! STGP (which capstone does not decode) as `.inst`.
//!
//! What it covers: the classes the core executes (`exec/`), each whole: the base A64 integer,
//! branch and load/store instructions with LSE atomics, scalar FP, Armv8.0 Advanced SIMD with the
//! AES and SHA-1/SHA-256 instructions, structure loads and stores, and the system instructions
//! the core models (hints, barriers, a few cache operations, MRS/MSR of the registers it knows).
//! Neighbours in those classes that capstone names and the core does not run (PAC, MTE, MOPS,
//! RCpc, FP16...) keep capstone's text too, and so do the few SVE forms and MTE cache operations
//! that glibc's string routines carry (`sve.rs`), so that BusyBox and the C test programs read
//! exactly as capstone prints them. Four groups the core never executes read
//! `.inst 0x%08x // <group>: not executed here` instead: SVE and SVE2 (op0 = 0010), SME (op0 =
//! 0000 with bit 31 set), the system encodings outside the modelled set, and the Advanced SIMD
//! additions after Armv8.0 (dot products, complex numbers, BFloat16, SHA-3...). `//` is the A64
//! assembler's comment, so a listing still assembles; the debugger shows the word and why. This
//! is simpler than a fallback to capstone (which only the Python side could reach, and not the
//! Rust core's own messages), and the machine raises an undefined-instruction exception at each
//! of these words anyway. Words that are unallocated read a plain `.inst 0x%08x`, as capstone's.
//! (It used to print all of SVE, SVE2, SME and every system register name that
//! capstone knows, in 7,314 lines; it is now about 3,100.)
//!
//! Deliberate difference from capstone (the allow-list in tests/test_arm64_disasm.py): `prfm`
//! and `prfum` with a prefetch operation that has no name: capstone prints an empty operand
//! (`prfm , [x1]`); this prints its number (`prfm #6, [x1]`), as the Arm ARM does.
//!
//! tests/test_arm64_disasm.py holds the oracle: BusyBox and the C test programs read exactly as
//! capstone prints them, and for random words, every word the core executes does too, while every
//! `.inst` with a note is a word the core rejects as undefined.

mod branch_system;
mod data_imm;
mod data_reg;
mod fields;
mod fp_scalar;
mod load_store;
mod simd;
mod simd_crypto;
mod simd_immediate;
mod sve;
mod transfers;

/// Text of the instruction `word` at address `pc`, e.g. "add x0, x1, #4".
pub fn disassemble(word: u32, pc: u64) -> String {
    decode(word, pc).unwrap_or_else(|| format!(".inst 0x{word:08x}"))
}

fn decode(w: u32, pc: u64) -> Option<String> {
    match fields::bits(w, 28, 25) {
        0b0000 if fields::bits(w, 31, 16) == 0 => {
            Some(format!("udf {}", fields::uimm(fields::bits(w, 15, 0) as u64)))
        }
        0b0000 if fields::bit(w, 31) == 1 => fields::not_executed(w, "SME"),
        0b0010 => sve::decode(w).or_else(|| fields::not_executed(w, "SVE")),
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
    fn load_store_class_from_the_form() {
        assert_eq!(disassemble(0xc85f7c20, 0), "ldxr x0, [x1]");
        assert_eq!(disassemble(0xc8027c20, 0), "stxr w2, x0, [x1]");
        assert_eq!(disassemble(0x88dffc20, 0), "ldar w0, [x1]");
        assert_eq!(disassemble(0x38bfc041, 0), "ldaprb w1, [x2]");
        assert_eq!(disassemble(0xf8200041, 0), "ldadd x0, x1, [x2]");
        assert_eq!(disassemble(0xf820005f, 0), "stadd x0, [x2]");
        assert_eq!(disassemble(0x48207c82, 0), "casp x0, x1, x2, x3, [x4]");
        // CASP wants even registers: Rs = 31 is odd.
        assert_eq!(disassemble(0x483f7e2e, 0), ".inst 0x483f7e2e");
        assert_eq!(disassemble(0x58000040, 0x1000), "ldr x0, #0x1008");
        assert_eq!(disassemble(0x69400440, 0), "ldpsw x0, x1, [x2]");
        assert_eq!(disassemble(0xb8404820, 0), "ldtr w0, [x1, #4]");
        assert_eq!(disassemble(0x4c402000, 0), "ld1 {v0.16b, v1.16b, v2.16b, v3.16b}, [x0]");
        assert_eq!(disassemble(0x4d40c420, 0), "ld1r {v0.8h}, [x1]");
        assert_eq!(disassemble(0x0ddf8420, 0), "ld1 {v0.d}[0], [x1], #8");
    }

    #[test]
    fn sve_forms_glibc_carries() {
        assert_eq!(disassemble(0xe40de087, 0), "st1b {z7.b}, p0, [x4, #-3, mul vl]");
        assert_eq!(disassemble(0xa4024421, 0), "ld1b {z1.b}, p1/z, [x1, x2]");
        assert_eq!(disassemble(0x25221d20, 0), "whilelo p0.b, x9, x2");
        assert_eq!(disassemble(0x0421e3e6, 0), "cntb x6, all, mul #2");
        assert_eq!(disassemble(0x2518e3e0, 0), "ptrue p0.b");
        assert_eq!(disassemble(0x05203820, 0), "mov z0.b, w1");
        assert_eq!(disassemble(0xd50b7482, 0), "dc gzva, x2");
    }

    #[test]
    fn groups_not_executed() {
        assert_eq!(disassemble(0xc4d3c54c, 0), ".inst 0xc4d3c54c // SVE: not executed here");
        assert_eq!(disassemble(0x05c1c267, 0), ".inst 0x05c1c267 // SVE: not executed here");
        assert_eq!(disassemble(0x809891a0, 0), ".inst 0x809891a0 // SME: not executed here");
        assert_eq!(disassemble(0xc0080070, 0), ".inst 0xc0080070 // SME: not executed here");
        // MRS DAIF, MSR SPSel, TLBI VMALLE1: system state a user program does not reach here.
        assert_eq!(disassemble(0xd53b4220, 0), ".inst 0xd53b4220 // system instruction: not executed here");
        assert_eq!(disassemble(0xd50041bf, 0), ".inst 0xd50041bf // system instruction: not executed here");
        assert_eq!(disassemble(0xd508871f, 0), ".inst 0xd508871f // system instruction: not executed here");
    }

    #[test]
    fn system_registers_the_core_knows() {
        assert_eq!(disassemble(0xd53bd041, 0), "mrs x1, tpidr_el0");
        assert_eq!(disassemble(0xd53be041, 0), "mrs x1, cntvct_el0");
        assert_eq!(disassemble(0xd5380001, 0), "mrs x1, midr_el1");
        assert_eq!(disassemble(0xd51b4421, 0), "msr fpsr, x1");
        assert_eq!(disassemble(0xd50b7420, 0), "dc zva, x0");
        assert_eq!(disassemble(0xd503233f, 0), "paciasp");
        // MSR of a register the core only reads: not executed.
        assert_eq!(disassemble(0xd51be041, 0), ".inst 0xd51be041 // system instruction: not executed here");
    }

    #[test]
    fn later_simd_is_not_executed() {
        let note = "// Advanced SIMD after Armv8.0: not executed here";
        assert_eq!(disassemble(0x4e829420, 0), format!(".inst 0x4e829420 {note}")); // sdot
        assert_eq!(disassemble(0xce020c20, 0), format!(".inst 0xce020c20 {note}")); // eor3
        assert_eq!(disassemble(0x4e284820, 0), "aese v0.16b, v1.16b");
    }

    /// The core is the oracle for the note: no word it executes reads as "not executed here".
    #[test]
    fn noted_words_are_the_ones_the_core_rejects() {
        use crate::arm64::exec::{execute_word, Exception};
        use crate::arm64::mem::{Memory, EXEC, READ};
        use crate::arm64::state::CpuState;
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut noted = 0;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let word = seed as u32;
            if !disassemble(word, 0).ends_with(": not executed here") {
                continue;
            }
            noted += 1;
            let mut mem = Memory::new();
            mem.map(0x1_0000, 0x1000, READ | EXEC);
            let mut cpu = CpuState { pc: 0x1_0000, lse: true, ..CpuState::default() };
            let result = execute_word(&mut cpu, &mut mem, word);
            assert!(matches!(result, Err(Exception::Undefined { .. })), "{word:08x} executes: {result:?}");
        }
        assert!(noted > 10_000, "{noted}");
    }

    #[test]
    fn unknown_words() {
        assert_eq!(disassemble(0x0600_0000, 0), ".inst 0x06000000");
        assert_eq!(disassemble(0xffff_ffff, 0), ".inst 0xffffffff");
    }
}
