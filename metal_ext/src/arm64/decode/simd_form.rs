//! The decoded form of SIMD&FP data processing (op0 = x111), read by the interpreter and the
//! disassembler: scalar floating point and the Advanced SIMD families (modified immediates,
//! reductions, copies, permutes, shifts by immediate, by element, two-register miscellaneous,
//! three same, three different, AES and SHA), vector and scalar.
//!
//! The form holds every encoding capstone names in these families, including a few the core
//! does not execute (half-precision arithmetic, BFCVT, BFCVTN, FJCVTZS, FRINT32/64, SQRDMLAH):
//! the interpreter rejects those, the disassembler prints them.

/// A SIMD&FP register number (v0..v31) or, where the operand is a general register, its field
/// value (31 is XZR/WZR there).
pub type VReg = u8;

/// The precision of a scalar FP operand (ftype 11, 00, 01).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpType {
    H,
    S,
    D,
}

impl FpType {
    /// The register letter: "h", "s", "d".
    pub fn letter(self) -> &'static str {
        match self {
            FpType::H => "h",
            FpType::S => "s",
            FpType::D => "d",
        }
    }
}

/// A rounding mode written in the encoding: to nearest with ties to even (N), towards plus
/// infinity (P), minus infinity (M), zero (Z), to nearest with ties away from zero (A).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundMode {
    N,
    P,
    M,
    Z,
    A,
}

impl RoundMode {
    /// The letter in the mnemonics (FRINTN, FCVTPS...).
    pub fn letter(self) -> &'static str {
        ["n", "p", "m", "z", "a"][self as usize]
    }
}

/// FP data processing with one source (besides FCVT between precisions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpUnaryOp {
    Mov,
    Abs,
    Neg,
    Sqrt,
    /// FRINTN, FRINTP, FRINTM, FRINTZ, FRINTA.
    Round(RoundMode),
    /// FRINTX (`exact`: raises Inexact) and FRINTI, in FPCR's rounding mode.
    RoundCurrent { exact: bool },
    /// FRINT32Z, FRINT32X, FRINT64Z, FRINT64X (Armv8.5; by their opcode's low two bits).
    RoundToInt { op: u8 },
}

/// FP data processing with two sources, by opcode (bits 15..12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpBinaryOp {
    Mul,
    Div,
    Add,
    Sub,
    Max,
    Min,
    MaxNm,
    MinNm,
    Nmul,
}

impl FpBinaryOp {
    pub fn name(self) -> &'static str {
        ["fmul", "fdiv", "fadd", "fsub", "fmax", "fmin", "fmaxnm", "fminnm", "fnmul"][self as usize]
    }
}

/// The FP register side of FMOV (general): a scalar of `FpType`, or the upper half of a vector
/// register (`V.D[1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FmovReg {
    H,
    S,
    D,
    Upper,
}

/// What an Advanced SIMD modified immediate does with its pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VectorImmOp {
    Movi,
    /// MOVI's pattern inverted.
    Mvni,
    /// ORR (vector, immediate): the pattern ORed into the register.
    Orr,
    /// BIC (vector, immediate): the pattern cleared from the register.
    Bic,
    Fmov,
}

/// The operation of a reduction: integer sum (ADDV, ADDP), sum into a lane twice as wide
/// (SADDLV, UADDLV), maximum and minimum (signed or unsigned), and the FP forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    Add,
    AddLong,
    Max,
    Min,
    FAdd,
    FMax,
    FMin,
    FMaxNm,
    FMinNm,
}

impl ReduceOp {
    /// The mnemonic without its suffix ("v" across lanes, "p" pairwise) and sign letter.
    pub fn stem(self) -> &'static str {
        ["add", "addl", "max", "min", "fadd", "fmax", "fmin", "fmaxnm", "fminnm"][self as usize]
    }
}

/// UZP (unzip: the even or odd elements of rm:rn), TRN (transpose: even or odd elements of each
/// pair interleaved), ZIP (interleave the low or high halves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermuteOp {
    Uzp,
    Trn,
    Zip,
}

/// The operation of an Advanced SIMD shift by immediate; `unsigned` (U) picks the S or U form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShiftImmOp {
    /// SSHR, USHR, SRSHR, URSHR, SSRA, USRA, SRSRA, URSRA.
    ShiftRight { round: bool, accumulate: bool },
    /// SRI.
    ShiftRightInsert,
    /// SHL.
    ShiftLeft,
    /// SLI.
    ShiftLeftInsert,
    /// SQSHLU: signed in, unsigned saturated out.
    SatShiftLeftUnsigned,
    /// SQSHL, UQSHL (immediate).
    SatShiftLeft,
    /// SHRN, RSHRN.
    ShiftRightNarrow { round: bool },
    /// SQSHRUN, SQRSHRUN: signed in, unsigned saturated out.
    SatShiftRightNarrowUnsigned { round: bool },
    /// SQSHRN, UQSHRN, SQRSHRN, UQRSHRN.
    SatShiftRightNarrow { round: bool },
    /// SSHLL, USHLL.
    ShiftLeftLong,
    /// SCVTF, UCVTF (vector or scalar, fixed point).
    FixedToFp,
    /// FCVTZS, FCVTZU (vector or scalar, fixed point).
    FpToFixed,
}

/// The integer operations of Advanced SIMD "three same", by opcode (bits 15..11) and, where the
/// two differ in more than signedness, U; otherwise `unsigned` (U) picks the S or U form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreeSameOp {
    /// SHADD, UHADD.
    HalvingAdd,
    /// SQADD, UQADD.
    SatAdd,
    /// SRHADD, URHADD.
    RoundingHalvingAdd,
    HalvingSub,
    SatSub,
    /// CMGT, CMHI.
    CompareGreater,
    /// CMGE, CMHS.
    CompareGreaterEqual,
    /// SSHL, USHL (by a signed register amount).
    ShiftLeft,
    SatShiftLeft,
    RoundingShiftLeft,
    SatRoundingShiftLeft,
    Max,
    Min,
    /// SABD, UABD.
    AbsDiff,
    /// SABA, UABA.
    AbsDiffAcc,
    Add,
    Sub,
    /// CMTST.
    Test,
    /// CMEQ.
    CompareEqual,
    /// MLA.
    MulAcc,
    /// MLS.
    MulSub,
    Mul,
    /// PMUL (polynomial, bytes).
    PolyMul,
    /// SMAXP, UMAXP.
    MaxPairwise,
    MinPairwise,
    /// SQDMULH.
    DoublingMulHigh,
    /// SQRDMULH.
    RoundingDoublingMulHigh,
    /// ADDP (vector).
    AddPairwise,
}

/// The bitwise operations of "three same" (opcode 00011; U and size select).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitwiseOp {
    And,
    Bic,
    Orr,
    Orn,
    Eor,
    /// BSL: rd selects between rn (ones) and rm (zeros).
    Bsl,
    /// BIT: rn inserted where rm is one.
    Bit,
    /// BIF: rn inserted where rm is zero.
    Bif,
}

/// The floating-point operations of "three same" (opcodes 11xxx).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpThreeSameOp {
    /// FMAXNM.
    MaxNum,
    /// FMLA.
    MulAdd,
    Add,
    Mulx,
    /// FCMEQ.
    CompareEqual,
    Max,
    /// FRECPS.
    RecipStep,
    /// FMINNM.
    MinNum,
    /// FMLS.
    MulSub,
    Sub,
    Min,
    /// FRSQRTS.
    RsqrtStep,
    /// FMAXNMP.
    MaxNumPairwise,
    /// FADDP.
    AddPairwise,
    Mul,
    /// FCMGE.
    CompareGreaterEqual,
    /// FACGE.
    AbsCompareGreaterEqual,
    /// FMAXP.
    MaxPairwise,
    Div,
    /// FMINNMP.
    MinNumPairwise,
    /// FABD.
    AbsDiff,
    /// FCMGT.
    CompareGreater,
    /// FACGT.
    AbsCompareGreater,
    /// FMINP.
    MinPairwise,
}

/// The integer operations of Advanced SIMD "two-register miscellaneous"; `unsigned` (U) picks
/// the S or U form where the two differ only in signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MiscOp {
    Rev64,
    Rev32,
    Rev16,
    /// SADDLP, UADDLP.
    AddLongPairwise,
    /// SADALP, UADALP.
    AddAccLongPairwise,
    /// SUQADD, USQADD: saturating accumulate of an operand of the other signedness.
    SatAccumulateOther,
    /// CLS.
    CountLeadingSign,
    /// CLZ.
    CountLeadingZeros,
    /// CNT.
    PopCount,
    /// NOT (MVN).
    Not,
    /// RBIT.
    ReverseBits,
    /// SQABS.
    SatAbs,
    /// SQNEG.
    SatNeg,
    /// CMGT #0.
    CompareGreaterZero,
    /// CMGE #0.
    CompareGreaterEqualZero,
    /// CMEQ #0.
    CompareEqualZero,
    /// CMLE #0.
    CompareLessEqualZero,
    /// CMLT #0.
    CompareLessZero,
    Abs,
    Neg,
    /// XTN.
    ExtractNarrow,
    /// SQXTUN.
    SatExtractUnsignedNarrow,
    /// SQXTN, UQXTN.
    SatExtractNarrow,
    /// SHLL (by the element size).
    ShiftLeftLong,
}

/// The floating-point operations of "two-register miscellaneous".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FpMiscOp {
    /// FCVTN: double to single, or (`double` false) single to half precision.
    Narrow,
    /// FCVTXN: double to single, rounding to odd.
    NarrowOdd,
    /// FCVTL: single to double, or half to single precision.
    Widen,
    /// BFCVTN (single to BFloat16; Armv8.6).
    Bfcvtn,
    /// FRINTN, FRINTM, FRINTP, FRINTZ, FRINTA.
    Round(RoundMode),
    /// FRINTX (`exact`: raises Inexact) and FRINTI, in FPCR's rounding mode.
    RoundCurrent { exact: bool },
    /// FRINT32Z, FRINT32X, FRINT64Z, FRINT64X (Armv8.5).
    RoundToInt { bits64: bool, exact: bool },
    /// FCVTNS, FCVTMS, FCVTAS, FCVTPS, FCVTZS and their unsigned forms.
    ToInt(RoundMode),
    /// SCVTF, UCVTF.
    FromInt,
    /// FCMGT #0.0.
    CompareGreaterZero,
    /// FCMGE #0.0.
    CompareGreaterEqualZero,
    /// FCMEQ #0.0.
    CompareEqualZero,
    /// FCMLE #0.0.
    CompareLessEqualZero,
    /// FCMLT #0.0.
    CompareLessZero,
    Abs,
    Neg,
    /// URECPE (unsigned fixed point, 32-bit lanes).
    UnsignedRecipEstimate,
    /// URSQRTE.
    UnsignedRsqrtEstimate,
    /// FRECPE.
    RecipEstimate,
    /// FRSQRTE.
    RsqrtEstimate,
    /// FRECPX.
    RecipExponent,
    Sqrt,
}

/// The operation of an Advanced SIMD "by element" instruction: a "three same" or "three
/// different" integer multiply or an FP multiply (FMLA, FMLS, FMUL, FMULX) with one element of Vm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementOp {
    /// MUL, MLA, MLS, SQDMULH, SQRDMULH.
    Same(ThreeSameOp),
    /// SMLAL, UMLAL, SMLSL, UMLSL, SMULL, UMULL, SQDMLAL, SQDMLSL, SQDMULL.
    Different(ThreeDifferentOp),
    /// SQRDMLAH, SQRDMLSH (`sub`) (Armv8.1).
    RoundingDoublingMulAccHigh { sub: bool },
    Fp(FpThreeSameOp),
}

/// The operation of an Advanced SIMD "three different" instruction, by opcode (bits 15..12).
/// `unsigned` (U) picks the S or U form, or for the narrowing-high forms the rounding one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreeDifferentOp {
    /// SADDL, UADDL.
    AddLong,
    /// SADDW, UADDW: a wide first operand.
    AddWide,
    SubLong,
    SubWide,
    /// ADDHN, RADDHN: wide operands, the high halves of the sums.
    AddHighNarrow,
    /// SABAL, UABAL.
    AbsDiffAccLong,
    /// SUBHN, RSUBHN.
    SubHighNarrow,
    /// SABDL, UABDL.
    AbsDiffLong,
    /// SMLAL, UMLAL.
    MulAccLong,
    /// SQDMLAL.
    SatDoublingMulAccLong,
    /// SMLSL, UMLSL.
    MulSubLong,
    /// SQDMLSL.
    SatDoublingMulSubLong,
    /// SMULL, UMULL.
    MulLong,
    /// SQDMULL.
    SatDoublingMulLong,
    /// PMULL (polynomial).
    PolyMulLong,
}

/// The AES rounds and SHA-1 / SHA-256 steps of the cryptographic extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CryptoOp {
    Aese,
    Aesd,
    Aesmc,
    Aesimc,
    Sha1h,
    Sha1su1,
    Sha256su0,
    Sha1c,
    Sha1p,
    Sha1m,
    Sha1su0,
    Sha256h,
    Sha256h2,
    Sha256su1,
}

impl CryptoOp {
    pub fn name(self) -> &'static str {
        [
            "aese", "aesd", "aesmc", "aesimc", "sha1h", "sha1su1", "sha256su0", "sha1c", "sha1p", "sha1m", "sha1su0",
            "sha256h", "sha256h2", "sha256su1",
        ][self as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdInsn {
    FpUnary { ty: FpType, op: FpUnaryOp, rd: VReg, rn: VReg },
    /// FCVT between precisions (`from` != `to`).
    FpConvert { from: FpType, to: FpType, rd: VReg, rn: VReg },
    /// BFCVT (single to BFloat16).
    Bfcvt { rd: VReg, rn: VReg },
    FpBinary { ty: FpType, op: FpBinaryOp, rd: VReg, rn: VReg, rm: VReg },
    /// FMADD, FMSUB (`sub`), FNMADD (`negate`), FNMSUB (both): rd = ±ra ± rn·rm.
    FpMulAdd { ty: FpType, negate: bool, sub: bool, rd: VReg, rn: VReg, rm: VReg, ra: VReg },
    /// FCMP, FCMPE (`signaling`) of rn with rm, or with +0.0 when `zero`.
    FpCompare { ty: FpType, signaling: bool, zero: bool, rn: VReg, rm: VReg },
    /// FCCMP, FCCMPE: compares when `cond` holds, otherwise sets NZCV to `nzcv`.
    FpCondCompare { ty: FpType, signaling: bool, cond: u8, nzcv: u8, rn: VReg, rm: VReg },
    /// FCSEL.
    FpSelect { ty: FpType, cond: u8, rd: VReg, rn: VReg, rm: VReg },
    /// FMOV (scalar, immediate) of the 8-bit encoded constant.
    FpMovImm { ty: FpType, imm8: u8, rd: VReg },
    /// FCVT{N,P,M,Z,A}{S,U} to a W (`sf` false) or X register, to fixed point with `fbits`
    /// fraction bits when nonzero (then `round` is Z).
    FpToInt { ty: FpType, sf: bool, unsigned: bool, round: RoundMode, fbits: u8, rd: VReg, rn: VReg },
    /// SCVTF, UCVTF from a W or X register, from fixed point with `fbits` fraction bits when
    /// nonzero.
    IntToFp { ty: FpType, sf: bool, unsigned: bool, fbits: u8, rd: VReg, rn: VReg },
    /// FMOV between a general register (W or X by `sf`) and an FP register, into the FP register
    /// when `to_fp`.
    FmovGeneral { sf: bool, fp: FmovReg, to_fp: bool, rd: VReg, rn: VReg },
    /// FJCVTZS (Armv8.3).
    Fjcvtzs { rd: VReg, rn: VReg },
    /// MOVI, MVNI, ORR, BIC and FMOV (vector, immediate) on `esize`-bit lanes of a 64-bit (`q`
    /// false) or 128-bit vector: imm8 shifted left by `shift`, with ones shifted in for `msl`
    /// (MSL rather than LSL); for `esize` 64 (MOVI only) each bit of imm8 is a byte of ones or
    /// zeros; FMOV expands imm8 as a floating-point constant of `esize` bits.
    VectorImm { q: bool, op: VectorImmOp, esize: u8, shift: u8, msl: bool, imm8: u8, rd: VReg },
    /// ADDV, SADDLV, UADDLV, SMAXV, UMAXV, SMINV, UMINV over the lanes of `size` (0..=2: 8 to
    /// 32 bits) of a 64-bit (`q` false) or 128-bit vector, and FMAXV, FMINV, FMAXNMV, FMINNMV
    /// (`size` 1 half, 2 single precision).
    AcrossLanes { op: ReduceOp, unsigned: bool, q: bool, size: u8, rd: VReg, rn: VReg },
    /// ADDP (scalar, `size` 3) and FADDP, FMAXP, FMINP, FMAXNMP, FMINNMP (scalar; `size` 1 half,
    /// 2 single, 3 double precision) of the two lowest lanes of rn.
    PairwiseScalar { op: ReduceOp, size: u8, rd: VReg, rn: VReg },
    /// DUP (element): element `index` of rn (lanes of `size`, 0..=3: 8 to 64 bits) into every
    /// lane of a 64-bit (`q` false) or 128-bit vector, or, `scalar`, into a scalar (MOV).
    DupElement { scalar: bool, q: bool, size: u8, index: u8, rd: VReg, rn: VReg },
    /// DUP (general): general register rn (31 is the zero register) into every lane.
    DupGeneral { q: bool, size: u8, rd: VReg, rn: VReg },
    /// INS (element), MOV: element `from` of rn into element `index` of rd.
    InsElement { size: u8, index: u8, from: u8, rd: VReg, rn: VReg },
    /// INS (general), MOV: general register rn into element `index` of rd.
    InsGeneral { size: u8, index: u8, rd: VReg, rn: VReg },
    /// UMOV, SMOV (`signed`): element `index` of rn into a W (`sf` false) or X register.
    MoveToGeneral { signed: bool, sf: bool, size: u8, index: u8, rd: VReg, rn: VReg },
    /// UZP1/2, TRN1/2, ZIP1/2 (`second` for the "2" forms) on lanes of `size`.
    Permute { op: PermuteOp, second: bool, q: bool, size: u8, rd: VReg, rn: VReg, rm: VReg },
    /// EXT: the bytes of rm:rn from byte `index` of rn.
    Extract { q: bool, index: u8, rd: VReg, rn: VReg, rm: VReg },
    /// TBL and TBX (`tbx`: out-of-range indices keep the destination byte rather than giving 0),
    /// with a table of `len` (1..=4) consecutive registers from rn, wrapping from v31 to v0.
    Table { q: bool, tbx: bool, len: u8, rd: VReg, rn: VReg, rm: VReg },
    /// A shift by immediate on lanes of `size` (0..=3: 8 to 64 bits; for the narrowing and
    /// lengthening forms the narrow side) of a 64-bit (`q` false) or 128-bit vector, or a
    /// `scalar`; `shift` is the amount (right or left as `op` says; the fraction bits for the
    /// conversions). Q picks the upper half ("2" forms) for the narrowing and lengthening forms.
    ShiftImm { op: ShiftImmOp, unsigned: bool, scalar: bool, q: bool, size: u8, shift: u8, rd: VReg, rn: VReg },
    /// "By element": element `index` of rm (lanes of `size`: 1 or 2 for the integer forms, 0
    /// half, 2 single, 3 double precision for the FP ones) as the second operand of `op`, on a
    /// 64-bit (`q` false) or 128-bit vector or a `scalar`; `unsigned` as in the three-different
    /// form.
    ByElement { op: ElementOp, unsigned: bool, scalar: bool, q: bool, size: u8, index: u8, rd: VReg, rn: VReg, rm: VReg },
    /// Integer "three same" on lanes of `size` (0..=3: 8 to 64 bits) of a 64-bit (`q` false) or
    /// 128-bit vector, or on a `scalar`.
    ThreeSame { op: ThreeSameOp, unsigned: bool, scalar: bool, q: bool, size: u8, rd: VReg, rn: VReg, rm: VReg },
    /// AND, BIC, ORR, ORN, EOR, BSL, BIT, BIF (vector) on 64 or 128 bits.
    Bitwise { op: BitwiseOp, q: bool, rd: VReg, rn: VReg, rm: VReg },
    /// FP "three same" on single or `double` precision lanes of a 64-bit (`q` false) or 128-bit
    /// vector, or on a `scalar`.
    FpThreeSame { op: FpThreeSameOp, scalar: bool, q: bool, double: bool, rd: VReg, rn: VReg, rm: VReg },
    /// Integer "two-register miscellaneous" on lanes of `size` (for the narrowing forms the narrow
    /// side; for the pairwise and SHLL forms the source) of a 64-bit (`q` false) or 128-bit
    /// vector, or on a `scalar`.
    TwoRegMisc { op: MiscOp, unsigned: bool, scalar: bool, q: bool, size: u8, rd: VReg, rn: VReg },
    /// FP "two-register miscellaneous" on single or `double` precision lanes, or a `scalar`.
    FpTwoRegMisc { op: FpMiscOp, unsigned: bool, scalar: bool, q: bool, double: bool, rd: VReg, rn: VReg },
    /// "Three different": lanes of `size` (the narrow side) from the low (`q` false) or high
    /// ("2" forms) half of the narrow operands, or a `scalar` (SQDMLAL, SQDMLSL, SQDMULL).
    ThreeDifferent { op: ThreeDifferentOp, unsigned: bool, scalar: bool, q: bool, size: u8, rd: VReg, rn: VReg, rm: VReg },
    /// AES and SHA instructions on whole registers (`rm` 0 for the two-register forms).
    Crypto { op: CryptoOp, rd: VReg, rn: VReg, rm: VReg },
}
