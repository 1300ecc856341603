//! SIMD&FP data processing in compiled code. The forms glibc's string routines run in their
//! inner loops (MOVI, DUP, FMOV to and from general registers, the bitwise operations, the
//! integer compares, UMAXP-style pairwise maxima and minima, SHRN) become host vector
//! instructions on the registers in memory; every other form is a call of the interpreter's
//! own executor. Either way the region goes on past the instruction.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I16X8, I32, I32X4, I64, I64X2, I8, I8X16};
use cranelift_codegen::ir::{ConstantData, Endianness, InstBuilder, MemFlagsData, Type, Value};

use super::{host, reads_flags, simd_registers, writes_flags, Emitter, Flags};
use crate::arm64::decode::{BitwiseOp, FmovReg, MiscOp, ShiftImmOp, SimdInsn, ThreeSameOp, VectorImmOp, VReg, ZR};
use crate::arm64::exec::jit::abi::{run_simd, simd_signature};
use crate::arm64::exec::jit::decode::Item;
use crate::arm64::exec::simd_fp;
use crate::arm64::state::CpuState;

/// The host vector type of lanes of `size` (0..=3: 8 to 64 bits).
fn lanes(size: u8) -> Type {
    [I8X16, I16X8, I32X4, I64X2][size as usize & 3]
}

/// A general register field of the SIMD&FP forms, where 31 is the zero register.
fn general(r: VReg) -> u8 {
    if r == 31 {
        ZR
    } else {
        r
    }
}

/// Whether `form` is translated into host instructions rather than an executor call.
pub(in crate::arm64::exec::jit) fn native(form: &SimdInsn) -> bool {
    match *form {
        SimdInsn::VectorImm { op, .. } => matches!(op, VectorImmOp::Movi | VectorImmOp::Mvni | VectorImmOp::Fmov),
        SimdInsn::DupGeneral { .. } | SimdInsn::Bitwise { .. } => true,
        SimdInsn::FmovGeneral { fp, .. } => matches!(fp, FmovReg::S | FmovReg::D),
        SimdInsn::ThreeSame { op, scalar: false, .. } => matches!(
            op,
            ThreeSameOp::CompareEqual
                | ThreeSameOp::CompareGreater
                | ThreeSameOp::CompareGreaterEqual
                | ThreeSameOp::Test
                | ThreeSameOp::MaxPairwise
                | ThreeSameOp::MinPairwise
        ),
        SimdInsn::TwoRegMisc { op, scalar: false, .. } => compare_with_zero(op).is_some(),
        SimdInsn::ShiftImm { op: ShiftImmOp::ShiftRightNarrow { round: false }, scalar: false, .. } => true,
        _ => false,
    }
}

fn compare_with_zero(op: MiscOp) -> Option<IntCC> {
    Some(match op {
        MiscOp::CompareEqualZero => IntCC::Equal,
        MiscOp::CompareGreaterZero => IntCC::SignedGreaterThan,
        MiscOp::CompareGreaterEqualZero => IntCC::SignedGreaterThanOrEqual,
        MiscOp::CompareLessEqualZero => IntCC::SignedLessThanOrEqual,
        MiscOp::CompareLessZero => IntCC::SignedLessThan,
        _ => return None,
    })
}

fn little() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

impl Emitter<'_, '_> {
    /// A SIMD&FP data-processing instruction; returns whether execution falls through (always).
    pub(super) fn simd(&mut self, word: u32, form: &SimdInsn, pc: u64) -> bool {
        if native(form) {
            self.native(word, form);
        } else {
            self.call_executor(word, form, pc);
        }
        self.pending += 1;
        true
    }

    /// A call of the interpreter's executor on the state in memory, with the general registers
    /// and flags it reads stored first and those it writes loaded after; where the executor
    /// declines, an exit before the instruction.
    fn call_executor(&mut self, word: u32, form: &SimdInsn, pc: u64) {
        let item = Item::Simd { word, form: *form };
        let (reads, writes) = simd_registers(form);
        for r in 0..31 {
            if reads & (1 << r) != 0 {
                let v = self.read(r);
                self.b.ins().store(host(), v, self.cpu, self.layout.x + 8 * r as i32);
            }
        }
        if reads_flags(&item) {
            let p = self.packed();
            self.b.ins().store(host(), p, self.cpu, self.layout.nzcv);
        }
        let sig = self.b.import_signature(simd_signature(self.layout));
        let callee = self.b.ins().iconst(I64, run_simd as *const () as usize as i64);
        let w = self.b.ins().iconst(I32, word as i64);
        let call = self.b.ins().call_indirect(sig, callee, &[self.cpu, w]);
        let declined = self.b.inst_results(call)[0];
        let dirty = self.dirty_before[self.position[&pc]];
        self.exit_if(declined, pc, dirty, false);
        for r in 0..31 {
            if writes & (1 << r) != 0 {
                let v = self.b.ins().load(I64, host(), self.cpu, self.layout.x + 8 * r as i32);
                self.write(r, v);
            }
        }
        if writes_flags(&item) {
            let p = self.b.ins().load(I32, host(), self.cpu, self.layout.nzcv);
            self.b.def_var(self.nzcv, p);
            self.flags = Flags::Packed;
        }
    }

    fn native(&mut self, word: u32, form: &SimdInsn) {
        match *form {
            SimdInsn::VectorImm { rd, .. } => {
                // The value depends on the encoding alone: the executor works it out once, here.
                let mut blank = CpuState::default();
                simd_fp::execute(&mut blank, word).expect("a translatable MOVI");
                let value = blank.v[rd as usize];
                self.store_halves(rd, Some(value as u64 as i64), Some((value >> 64) as u64 as i64));
            }
            SimdInsn::DupGeneral { q, size, rd, rn } => {
                let x = self.read(general(rn));
                let lane = if size == 3 { x } else { self.b.ins().ireduce([I8, I16, I32][size as usize], x) };
                let v = self.b.ins().splat(lanes(size), lane);
                self.store_vector_register(v, rd, q);
            }
            SimdInsn::FmovGeneral { sf, to_fp, rd, rn, .. } => {
                if to_fp {
                    let x = self.read(general(rn));
                    let x = if sf { x } else { self.b.ins().band_imm_u(x, u32::MAX as i64) };
                    let at = self.vector_offset(rd);
                    self.b.ins().store(host(), x, self.cpu, at);
                    self.store_halves(rd, None, Some(0));
                } else {
                    let at = self.vector_offset(rn);
                    let x = if sf {
                        self.b.ins().load(I64, host(), self.cpu, at)
                    } else {
                        self.b.ins().uload32(host(), self.cpu, at)
                    };
                    self.write(general(rd), x);
                }
            }
            SimdInsn::Bitwise { op, q, rd, rn, rm } => {
                let (n, m) = (self.vector(I64X2, rn), self.vector(I64X2, rm));
                let r = match op {
                    BitwiseOp::And => self.b.ins().band(n, m),
                    BitwiseOp::Bic => self.b.ins().band_not(n, m),
                    BitwiseOp::Orr => self.b.ins().bor(n, m),
                    BitwiseOp::Orn => self.b.ins().bor_not(n, m),
                    BitwiseOp::Eor => self.b.ins().bxor(n, m),
                    BitwiseOp::Bsl => {
                        let d = self.vector(I64X2, rd);
                        self.b.ins().bitselect(d, n, m)
                    }
                    BitwiseOp::Bit => {
                        let d = self.vector(I64X2, rd);
                        self.b.ins().bitselect(m, n, d)
                    }
                    BitwiseOp::Bif => {
                        let d = self.vector(I64X2, rd);
                        self.b.ins().bitselect(m, d, n)
                    }
                };
                self.store_vector_register(r, rd, q);
            }
            SimdInsn::ThreeSame { op: op @ (ThreeSameOp::MaxPairwise | ThreeSameOp::MinPairwise), unsigned, q, size, rd, rn, rm, .. } => {
                let ty = lanes(size);
                let (n, m) = (self.vector(I8X16, rn), self.vector(I8X16, rm));
                let (evens, odds) = (self.pairs(n, m, size, q, 0), self.pairs(n, m, size, q, 1));
                let (evens, odds) = (self.b.ins().bitcast(ty, little(), evens), self.b.ins().bitcast(ty, little(), odds));
                let r = match (op == ThreeSameOp::MaxPairwise, unsigned) {
                    (true, true) => self.b.ins().umax(evens, odds),
                    (true, false) => self.b.ins().smax(evens, odds),
                    (false, true) => self.b.ins().umin(evens, odds),
                    (false, false) => self.b.ins().smin(evens, odds),
                };
                self.store_vector_register(r, rd, q);
            }
            SimdInsn::ThreeSame { op, unsigned, q, size, rd, rn, rm, .. } => {
                let ty = lanes(size);
                let (n, m) = (self.vector(ty, rn), self.vector(ty, rm));
                let r = match op {
                    ThreeSameOp::Test => {
                        let both = self.b.ins().band(n, m);
                        let zero = self.zero_vector(ty);
                        self.b.ins().icmp(IntCC::NotEqual, both, zero)
                    }
                    _ => {
                        let cc = match (op, unsigned) {
                            (ThreeSameOp::CompareEqual, _) => IntCC::Equal,
                            (ThreeSameOp::CompareGreater, true) => IntCC::UnsignedGreaterThan,
                            (ThreeSameOp::CompareGreater, false) => IntCC::SignedGreaterThan,
                            (_, true) => IntCC::UnsignedGreaterThanOrEqual,
                            (_, false) => IntCC::SignedGreaterThanOrEqual,
                        };
                        self.b.ins().icmp(cc, n, m)
                    }
                };
                self.store_vector_register(r, rd, q);
            }
            SimdInsn::TwoRegMisc { op, q, size, rd, rn, .. } => {
                let ty = lanes(size);
                let n = self.vector(ty, rn);
                let zero = self.zero_vector(ty);
                let cc = compare_with_zero(op).expect("a compare with zero");
                let r = self.b.ins().icmp(cc, n, zero);
                self.store_vector_register(r, rd, q);
            }
            SimdInsn::ShiftImm { q, size, shift, rd, rn, .. } => {
                // SHRN: each wide lane shifted right, its low half kept; SHRN2 writes the upper
                // 64 bits and keeps the lower.
                let wide = self.vector(lanes(size + 1), rn);
                let shifted = self.b.ins().ushr_imm_u(wide, shift as i64);
                let bytes = self.b.ins().bitcast(I8X16, little(), shifted);
                let e = 1usize << size;
                let picks: Vec<u8> = (0..16).map(|k| ((k / e) * 2 * e + k % e).min(15) as u8).collect();
                let mask = self.b.func.dfg.immediates.push(ConstantData::from(picks));
                let narrow = self.b.ins().shuffle(bytes, bytes, mask);
                let halves = self.b.ins().bitcast(I64X2, little(), narrow);
                let low = self.b.ins().extractlane(halves, 0);
                let at = self.vector_offset(rd);
                self.b.ins().store(host(), low, self.cpu, at + if q { 8 } else { 0 });
                if !q {
                    self.store_halves(rd, None, Some(0));
                }
            }
            _ => unreachable!("not native: {form:?}"),
        }
    }

    /// Vector register `v` as a host vector of type `ty`.
    fn vector(&mut self, ty: Type, v: VReg) -> Value {
        let at = self.vector_offset(v);
        self.b.ins().load(ty, host(), self.cpu, at)
    }

    fn zero_vector(&mut self, ty: Type) -> Value {
        let zero = self.b.ins().iconst(I64, 0);
        let lane = match ty.lane_type() {
            I64 => zero,
            t => self.b.ins().ireduce(t, zero),
        };
        self.b.ins().splat(ty, lane)
    }

    /// Writes a result to vector register `v`: all 128 bits, or (`q` false) the low 64 with the
    /// upper 64 cleared.
    fn store_vector_register(&mut self, value: Value, v: VReg, q: bool) {
        let at = self.vector_offset(v);
        if q {
            self.b.ins().store(host(), value, self.cpu, at);
        } else {
            let halves = self.b.ins().bitcast(I64X2, little(), value);
            let low = self.b.ins().extractlane(halves, 0);
            self.b.ins().store(host(), low, self.cpu, at);
            self.store_halves(v, None, Some(0));
        }
    }

    /// Stores constant low and/or high halves of vector register `v`.
    fn store_halves(&mut self, v: VReg, low: Option<i64>, high: Option<i64>) {
        let at = self.vector_offset(v);
        for (value, offset) in [(low, 0), (high, 8)] {
            if let Some(value) = value {
                let c = self.b.ins().iconst(I64, value);
                self.b.ins().store(host(), c, self.cpu, at + offset);
            }
        }
    }

    /// The even (`odd` 0) or odd (`odd` 1) lanes of `size` of the pairs a pairwise operation
    /// takes: rn's lanes then rm's, of all 128 bits of each, or (`q` false) of their low 64.
    fn pairs(&mut self, n: Value, m: Value, size: u8, q: bool, odd: usize) -> Value {
        let e = 1usize << size;
        let half = if q { 16 } else { 8 };
        // Byte k of the concatenation rn:rm (each `half` bytes) in the shuffle's numbering, where
        // rm's bytes start at 16.
        let byte = |k: usize| if k < half { k } else { k - half + 16 };
        let picks: Vec<u8> = (0..16)
            .map(|k| {
                let (lane, within) = (k / e, k % e);
                let source = (2 * lane + odd) * e + within;
                if source < 2 * half { byte(source) as u8 } else { 0 }
            })
            .collect();
        let mask = self.b.func.dfg.immediates.push(ConstantData::from(picks));
        self.b.ins().shuffle(n, m, mask)
    }
}
