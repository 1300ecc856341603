//! A64 disassembler producing capstone's text (modulo documented alias choices).

mod branch_system;
mod data_imm;
mod data_reg;
mod fields;
mod fp_scalar;
mod load_store;
mod simd;
mod simd_fp;
mod sve;
mod system_names;

/// Text of the instruction `word` at address `pc`, e.g. "add x0, x1, #4".
pub fn disassemble(word: u32, pc: u64) -> String {
    decode(word, pc).unwrap_or_else(|| format!(".inst 0x{word:08x}"))
}

fn decode(w: u32, pc: u64) -> Option<String> {
    match fields::bits(w, 28, 25) {
        0b0000 if fields::bits(w, 31, 16) == 0 => Some(format!("udf {}", fields::uimm(fields::bits(w, 15, 0) as u64))),
        0b0010 => sve::decode(w),
        0b1000 | 0b1001 => data_imm::decode(w, pc),
        0b1010 | 0b1011 => branch_system::decode(w, pc),
        0b0101 | 0b1101 => data_reg::decode(w),
        0b0111 | 0b1111 => simd_fp::decode(w),
        _ if fields::bit(w, 27) == 1 && fields::bit(w, 25) == 0 => load_store::decode(w, pc),
        _ => None,
    }
}
