//! The decoded form itself: what an integer, branch, system or load/store instruction is, with its
//! operands, widths and addressing mode worked out (see `decode` for how words become it).

/// A register operand: 0..=30 are x0..x30, 31 the stack pointer, `ZR` the zero register
/// (reads 0, writes vanish). The decoder resolves which of the last two field value 31 means.
pub type Reg = u8;
pub const ZR: Reg = 32;

/// How a loaded value reaches a general-purpose register.
pub const ZERO: u8 = 0;
pub const SIGN64: u8 = 1;
pub const SIGN32: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    Imm(u64),
    /// ADD/SUB's 12-bit immediate, shifted left by 12 when `lsl12` (see `value`).
    ShiftedImm { imm12: u16, lsl12: bool },
    /// Register shifted: kind 0 LSL, 1 LSR, 2 ASR, 3 ROR.
    Shifted { rm: Reg, kind: u8, amount: u8 },
    /// Register extended (UXTB..SXTX, option 0..7), then shifted left by `lsl`.
    Extended { rm: Reg, option: u8, lsl: u8 },
}

impl Operand {
    /// The value of an immediate operand.
    #[inline(always)]
    pub fn immediate(&self) -> Option<u64> {
        match *self {
            Operand::Imm(v) => Some(v),
            Operand::ShiftedImm { imm12, lsl12 } => Some((imm12 as u64) << (12 * lsl12 as u32)),
            _ => None,
        }
    }
}

/// Which instruction wrote a constant into a register, as it was written (for the disassembler).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConstOrigin {
    Adr,
    Adrp,
    /// MOVZ (`inverted` false) or MOVN of `imm16` shifted left by `shift`.
    MoveWide { sf: bool, inverted: bool, imm16: u16, shift: u8 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Address {
    /// base + imm; `unscaled` for the LDUR/STUR spelling (a signed 9-bit byte offset rather
    /// than an unsigned 12-bit one scaled by the access size).
    Offset { base: Reg, imm: u64, unscaled: bool },
    Pre { base: Reg, imm: u64 },
    Post { base: Reg, imm: u64 },
    /// base + extend(rm, option) << lsl; `shifted` when the encoding asks for the shift by the
    /// access size (LSL #0 for a byte).
    Indexed { base: Reg, rm: Reg, option: u8, lsl: u8, shifted: bool },
}

impl Address {
    /// The register written back, if any.
    pub fn writeback(&self) -> Option<Reg> {
        match *self {
            Address::Pre { base, .. } | Address::Post { base, .. } => Some(base),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unary {
    Rbit,
    Rev16,
    Rev32,
    Rev,
    Clz,
    Cls,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Insn {
    AddSub { sf: bool, sub: bool, flags: bool, rd: Reg, rn: Reg, op: Operand },
    /// opc 0 AND, 1 ORR, 2 EOR, 3 ANDS; `invert` negates the second operand (BIC, ORN, EON, BICS).
    Logic { sf: bool, opc: u8, invert: bool, rd: Reg, rn: Reg, op: Operand },
    /// rd = value (MOVZ, MOVN, ADR, ADRP).
    Const { rd: Reg, value: u64, origin: ConstOrigin },
    /// MOVK: rd = (rd & !mask) | value.
    Insert { sf: bool, rd: Reg, value: u64, mask: u64 },
    /// SBFM (opc 0), BFM (1), UBFM (2) with their decoded masks.
    Bitfield { sf: bool, opc: u8, rd: Reg, rn: Reg, immr: u8, imms: u8, wmask: u64, tmask: u64 },
    Extract { sf: bool, rd: Reg, rn: Reg, rm: Reg, lsb: u8 },
    /// LSLV, LSRV, ASRV, RORV (kind as in `Operand::Shifted`).
    ShiftVariable { sf: bool, kind: u8, rd: Reg, rn: Reg, rm: Reg },
    Divide { sf: bool, signed: bool, rd: Reg, rn: Reg, rm: Reg },
    /// MADD / MSUB.
    MultiplyAdd { sf: bool, sub: bool, rd: Reg, rn: Reg, rm: Reg, ra: Reg },
    /// ADC, ADCS, SBC, SBCS: rn + rm (inverted for `sub`) + C.
    AddCarry { sf: bool, sub: bool, flags: bool, rd: Reg, rn: Reg, rm: Reg },
    /// CRC32B..CRC32X and CRC32CB..CRC32CX (`castagnoli`) over the low `bytes` of rm.
    Crc32 { castagnoli: bool, bytes: u8, rd: Reg, rn: Reg, rm: Reg },
    /// SMADDL, SMSUBL, UMADDL, UMSUBL.
    MultiplyLong { signed: bool, sub: bool, rd: Reg, rn: Reg, rm: Reg, ra: Reg },
    /// SMULH, UMULH.
    MultiplyHigh { signed: bool, rd: Reg, rn: Reg, rm: Reg },
    Unary { sf: bool, op: Unary, rd: Reg, rn: Reg },
    /// CSEL, CSINC (`increment`), CSINV (`invert`), CSNEG (both).
    Select { sf: bool, cond: u8, invert: bool, increment: bool, rd: Reg, rn: Reg, rm: Reg },
    /// CCMP / CCMN (`add`) with a register or 5-bit immediate; `nzcv` when the condition fails.
    CondCompare { sf: bool, add: bool, cond: u8, nzcv: u8, rn: Reg, op: Operand },
    Branch { target: u64, link: bool },
    CondBranch { cond: u8, target: u64 },
    CompareBranch { sf: bool, nonzero: bool, rt: Reg, target: u64 },
    TestBranch { nonzero: bool, rt: Reg, bit: u8, target: u64 },
    /// BR, BLR, RET (`ret`: BR with a hint to branch prediction that it returns).
    Indirect { rn: Reg, link: bool, ret: bool },
    /// A hint (NOP, YIELD, BTI...: CRm:op2), a no-op for a user program here.
    Hint { number: u8 },
    /// `ext`: how the value reaches the register (`ZERO`, `SIGN64`, `SIGN32`).
    Load { size: u8, ext: u8, rt: Reg, addr: Address },
    Store { size: u8, rt: Reg, addr: Address },
    /// Pairs; `non_temporal` for LDNP/STNP (offset addressing with a hint to caches).
    LoadPair { size: u8, rt: Reg, rt2: Reg, addr: Address, non_temporal: bool },
    StorePair { size: u8, rt: Reg, rt2: Reg, addr: Address, non_temporal: bool },
    /// SIMD&FP registers (v0..v31), 1 to 16 bytes, zero-extended into the whole register on loads.
    LoadVector { size: u8, vt: u8, addr: Address },
    StoreVector { size: u8, vt: u8, addr: Address },
    LoadVectorPair { size: u8, vt: u8, vt2: u8, addr: Address, non_temporal: bool },
    StoreVectorPair { size: u8, vt: u8, vt2: u8, addr: Address, non_temporal: bool },
    /// MRS and MSR of a system register the core knows.
    ReadSystem { reg: SystemRegister, rt: Reg },
    WriteSystem { reg: SystemRegister, rt: Reg },
    /// CLREX, DSB, DMB, ISB with their CRm `option`.
    Barrier { kind: Barrier, option: u8 },
    /// DC ZVA and the cache maintenance operations that do nothing here, on the address in rt.
    Cache { op: CacheOperation, rt: Reg },
    /// SVC #imm: a system call.
    Supervisor { imm: u16 },
    /// BRK #imm.
    Breakpoint { imm: u16 },
    /// PRFM, PRFUM: `op` names the prefetch (PLDL1KEEP...); nothing is accessed.
    Prefetch { op: u8, addr: Address },
    /// LDR (literal) and LDRSW (literal) at the absolute address `target`.
    LoadLiteral { size: u8, ext: u8, rt: Reg, target: u64 },
    LoadVectorLiteral { size: u8, vt: u8, target: u64 },
    PrefetchLiteral { op: u8, target: u64 },
    /// LDPSW: two sign-extended words (there is no non-temporal form).
    LoadPairSigned { rt: Reg, rt2: Reg, addr: Address },
    /// LDTR, STTR and their kinds (unprivileged: at EL0, plain accesses at base + imm).
    LoadUnprivileged { size: u8, ext: u8, rt: Reg, base: Reg, imm: u64 },
    StoreUnprivileged { size: u8, rt: Reg, base: Reg, imm: u64 },
    /// LDXR, LDAXR (`acquire`) and with `pair` LDXP, LDAXP: `size` bytes a register. `rs`, and
    /// `rt2` of a single register, are fields the architecture wants all ones, as encoded.
    LoadExclusive { size: u8, pair: bool, acquire: bool, rt: Reg, rt2: Reg, rs: Reg, base: Reg },
    /// STXR, STLXR (`release`), STXP, STLXP: `rs` gets 0 where it stored, 1 where the monitor
    /// was lost.
    StoreExclusive { size: u8, pair: bool, release: bool, rs: Reg, rt: Reg, rt2: Reg, base: Reg },
    /// LDAR and STLR; `rs` and `rt2` as for `LoadExclusive`.
    LoadAcquire { size: u8, rt: Reg, rs: Reg, rt2: Reg, base: Reg },
    StoreRelease { size: u8, rt: Reg, rs: Reg, rt2: Reg, base: Reg },
    /// LDAPR (FEAT_LRCPC).
    LoadAcquirePc { size: u8, rt: Reg, base: Reg },
    /// CAS{A}{L}{B,H}: memory compared with rs, rt stored where equal; rs gets the old value.
    CompareSwap { size: u8, acquire: bool, release: bool, rs: Reg, rt: Reg, base: Reg },
    /// CASP{A}{L}: the same on the even-numbered pairs rs, rs + 1 and rt, rt + 1, `size` bytes
    /// a register.
    CompareSwapPair { size: u8, acquire: bool, release: bool, rs: Reg, rt: Reg, base: Reg },
    /// LDADD..LDUMIN and SWP: memory becomes op(memory, rs); rt gets the old value (the ST<op>
    /// aliases are rt = ZR without acquire).
    Atomic { op: AtomicOp, size: u8, acquire: bool, release: bool, rs: Reg, rt: Reg, base: Reg },
    /// LD1..LD4, ST1..ST4 and LD1R..LD4R from vt on (wrapping after v31), at base; `post` the
    /// post-increment register, ZR for the bytes moved.
    Structures { load: bool, vt: u8, base: Reg, post: Option<Reg>, layout: Structure },
}

impl Insn {
    /// Whether the instruction may leave the straight line (its region's exit or a jump).
    pub fn is_branch(&self) -> bool {
        matches!(
            self,
            Insn::Branch { .. }
                | Insn::CondBranch { .. }
                | Insn::CompareBranch { .. }
                | Insn::TestBranch { .. }
                | Insn::Indirect { .. }
        )
    }

    /// The direct branch target, if any.
    pub fn target(&self) -> Option<u64> {
        match *self {
            Insn::Branch { target, .. }
            | Insn::CondBranch { target, .. }
            | Insn::CompareBranch { target, .. }
            | Insn::TestBranch { target, .. } => Some(target),
            _ => None,
        }
    }
}

/// The LSE atomic memory operations: LD<op> in the encoding's opc order, then SWP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Clear,
    Eor,
    Set,
    Smax,
    Smin,
    Umax,
    Umin,
    Swap,
}

/// What a structure load or store moves; elements of 1 << `scale` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// Whole registers (`q`: 16 bytes, else 8), `registers` of them, in structures of `selem`
    /// elements interleaved across `selem` consecutive registers.
    Multiple { q: bool, scale: u8, selem: u8, registers: u8 },
    /// Lane `index` of `selem` registers.
    Lane { scale: u8, index: u8, selem: u8 },
    /// LD1R..LD4R: one structure, each element into every lane of its register.
    Replicate { q: bool, scale: u8, selem: u8 },
}

impl Structure {
    /// The bytes moved (the immediate post-increment).
    pub fn bytes(self) -> u64 {
        match self {
            Structure::Multiple { q, registers, .. } => registers as u64 * if q { 16 } else { 8 },
            Structure::Lane { scale, selem, .. } | Structure::Replicate { scale, selem, .. } => (selem as u64) << scale,
        }
    }
}

/// The system registers MRS reads and MSR (where `writable`) writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SystemRegister {
    Nzcv,
    Fpcr,
    Fpsr,
    TpidrEl0,
    TpidrroEl0,
    CtrEl0,
    DczidEl0,
    MidrEl1,
    MpidrEl1,
    RevidrEl1,
    CntfrqEl0,
    CntvctEl0,
}

/// Each register's op0:op1:CRn:CRm:op2 (bits 20..5 of MRS/MSR), its name, and whether MSR
/// writes it.
pub(super) const REGISTERS: [(u32, SystemRegister, &str, bool); 12] = [
    (0xda10, SystemRegister::Nzcv, "nzcv", true),
    (0xda20, SystemRegister::Fpcr, "fpcr", true),
    (0xda21, SystemRegister::Fpsr, "fpsr", true),
    (0xde82, SystemRegister::TpidrEl0, "tpidr_el0", true),
    (0xde83, SystemRegister::TpidrroEl0, "tpidrro_el0", false),
    (0xd801, SystemRegister::CtrEl0, "ctr_el0", false),
    (0xd807, SystemRegister::DczidEl0, "dczid_el0", false),
    (0xc000, SystemRegister::MidrEl1, "midr_el1", false),
    (0xc005, SystemRegister::MpidrEl1, "mpidr_el1", false),
    (0xc006, SystemRegister::RevidrEl1, "revidr_el1", false),
    (0xdf00, SystemRegister::CntfrqEl0, "cntfrq_el0", false),
    (0xdf02, SystemRegister::CntvctEl0, "cntvct_el0", false),
];

impl SystemRegister {
    /// The name MRS and MSR show, e.g. "tpidr_el0".
    pub fn name(self) -> &'static str {
        REGISTERS.iter().find(|entry| entry.1 == self).map_or("", |entry| entry.2)
    }
}

/// CLREX and the barriers, by op2 of their encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Barrier {
    ClearExclusive,
    /// DSB (with CRm 0 and 4 the speculation barriers SSBB and PSSBB).
    DataSynchronization,
    DataMemory,
    Instruction,
}

/// The cache maintenance operations the core executes (caches are not modelled: only DC ZVA,
/// which zeroes a block, does anything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheOperation {
    ZeroBlock,
    InvalidateInstructions,
    CleanData,
    CleanDataToUnification,
    CleanInvalidateData,
}

impl CacheOperation {
    pub fn name(self) -> &'static str {
        match self {
            CacheOperation::ZeroBlock => "dc zva",
            CacheOperation::InvalidateInstructions => "ic ivau",
            CacheOperation::CleanData => "dc cvac",
            CacheOperation::CleanDataToUnification => "dc cvau",
            CacheOperation::CleanInvalidateData => "dc civac",
        }
    }
}
