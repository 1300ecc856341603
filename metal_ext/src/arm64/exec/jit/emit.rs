//! One region of decoded instructions translated into a Cranelift function
//! `fn(cpu: *mut CpuState, env: *mut Env) -> next pc`.
//!
//! Guest registers live in Cranelift variables (host registers) for the whole call: loaded at
//! entry, stored at an exit where some way there may have changed them. Flags stay lazy (the operands of the last flag-setting
//! instruction) within straight-line code, so `cmp; b.cond` becomes one host compare and
//! branch; they are packed into NZCV only where a join or an exit needs them.
//!
//! Every exit leaves the machine exactly as the interpreter would after the same number of
//! instructions. Anything unusual (a load or store the translation cache cannot serve
//! directly) exits *before* the instruction, so the interpreter then runs it with the whole
//! machinery (faults, copy-on-write, code epochs); compiled code calls nothing but the next
//! region (see `exit`) and, for SIMD&FP instructions it does not translate itself, the
//! interpreter's executor (`simd`).
//!
//! Over 900 lines on purpose: one `Emitter` holds a region's builder state (register variables,
//! lazy flags, exits, chain links) and has one arm per translated form; split by instruction class,
//! every part would take that whole state, and the forms' arms read best side by side.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::types::{I128, I16, I32, I64, I8};
use cranelift_codegen::ir::{Block, InstBuilder, MemFlagsData, Type, Value};
use cranelift_frontend::{FunctionBuilder, Variable};

use crate::arm64::decode::{self, Address, Insn, Operand, Reg, SimdInsn, Structure, SystemRegister, SIGN64, ZERO, ZR};
use super::abi::{region_signature, Layout, Link, CHAIN_LINKS};
use super::decode::Item;
use crate::arm64::mem::{READ, TLB_OWNED, WRITE};

mod simd;
#[cfg(test)]
pub(super) use simd::native as native_form;

/// What the flags are at this point of the translation.
#[derive(Clone, Copy)]
enum Flags {
    /// In the `nzcv` variable, packed as in `CpuState::nzcv`.
    Packed,
    /// From `a - b = r` (SUBS, CMP), at the width of the values.
    Sub(Value, Value, Value),
    /// From `a + b = r` (ADDS, CMN).
    Add(Value, Value, Value),
    /// N and Z from `r`, C and V clear (ANDS, TST, BICS).
    Logic(Value),
}

pub struct Emitter<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    layout: &'a Layout,
    region: &'a [(u64, Item)],
    /// Position in `region` of each instruction's PC.
    position: HashMap<u64, usize>,
    cpu: Value,
    env: Value,
    tlb: Value,
    budget: Value,
    regs: [Variable; 32],
    nzcv: Variable,
    /// Instructions retired at the last flush; `pending` more since, known at compile time.
    count: Variable,
    pending: u64,
    flags: Flags,
    flags_live: Vec<bool>,
    /// Registers (bit r) and flags (`FLAGS`) possibly changed on some way from the entry to
    /// each instruction, and to just after it: what an exit there must store.
    dirty_before: Vec<u64>,
    dirty_after: Vec<u64>,
    labels: HashMap<u64, Block>,
}

const FLAGS: u64 = 1 << 32;

fn mask(r: Reg) -> u32 {
    if r == ZR {
        0
    } else {
        1 << r
    }
}

fn address_regs(a: &Address) -> (u32, u32) {
    match *a {
        Address::Offset { base, .. } => (mask(base), 0),
        Address::Pre { base, .. } | Address::Post { base, .. } => (mask(base), mask(base)),
        Address::Indexed { base, rm, .. } => (mask(base) | mask(rm), 0),
    }
}

fn operand_regs(op: &Operand) -> u32 {
    match *op {
        Operand::Imm(_) | Operand::ShiftedImm { .. } => 0,
        Operand::Shifted { rm, .. } | Operand::Extended { rm, .. } => mask(rm),
    }
}

/// General registers an instruction reads and writes (bit r), as masks.
fn registers(item: &Item) -> (u32, u32) {
    match item {
        Item::Base(insn) => base_registers(insn),
        Item::Simd { form, .. } => simd_registers(form),
    }
}

/// Those of the SIMD&FP forms that move values to or from a general register (31 is XZR there).
fn simd_registers(form: &SimdInsn) -> (u32, u32) {
    let general = |r: u8| if r == 31 { 0 } else { 1 << r };
    match *form {
        SimdInsn::IntToFp { rn, .. }
        | SimdInsn::FmovGeneral { to_fp: true, rn, .. }
        | SimdInsn::DupGeneral { rn, .. }
        | SimdInsn::InsGeneral { rn, .. } => (general(rn), 0),
        SimdInsn::FpToInt { rd, .. } | SimdInsn::FmovGeneral { to_fp: false, rd, .. } | SimdInsn::MoveToGeneral { rd, .. } => {
            (0, general(rd))
        }
        _ => (0, 0),
    }
}

fn base_registers(insn: &Insn) -> (u32, u32) {
    use Insn::*;
    match *insn {
        AddSub { rd, rn, op, .. } | Logic { rd, rn, op, .. } => (mask(rn) | operand_regs(&op), mask(rd)),
        Const { rd, .. } | ReadSystem { rt: rd, .. } => (0, mask(rd)),
        Insert { rd, .. } => (mask(rd), mask(rd)),
        Bitfield { rd, rn, opc, .. } => (mask(rn) | if opc == 1 { mask(rd) } else { 0 }, mask(rd)),
        Extract { rd, rn, rm, .. }
        | ShiftVariable { rd, rn, rm, .. }
        | Divide { rd, rn, rm, .. }
        | MultiplyHigh { rd, rn, rm, .. }
        | Select { rd, rn, rm, .. } => (mask(rn) | mask(rm), mask(rd)),
        MultiplyAdd { rd, rn, rm, ra, .. } | MultiplyLong { rd, rn, rm, ra, .. } => {
            (mask(rn) | mask(rm) | mask(ra), mask(rd))
        }
        Unary { rd, rn, .. } => (mask(rn), mask(rd)),
        CondCompare { rn, op, .. } => (mask(rn) | operand_regs(&op), 0),
        Branch { link, .. } => (0, if link { 1 << 30 } else { 0 }),
        CondBranch { .. } | Hint { .. } => (0, 0),
        CompareBranch { rt, .. } | TestBranch { rt, .. } => (mask(rt), 0),
        Indirect { rn, link, .. } => (mask(rn), if link { 1 << 30 } else { 0 }),
        Load { rt, addr, .. } => {
            let (r, w) = address_regs(&addr);
            (r, w | mask(rt))
        }
        Store { rt, addr, .. } => {
            let (r, w) = address_regs(&addr);
            (r | mask(rt), w)
        }
        LoadPair { rt, rt2, addr, .. } => {
            let (r, w) = address_regs(&addr);
            (r, w | mask(rt) | mask(rt2))
        }
        StorePair { rt, rt2, addr, .. } => {
            let (r, w) = address_regs(&addr);
            (r | mask(rt) | mask(rt2), w)
        }
        LoadVector { addr, .. } | StoreVector { addr, .. } | LoadVectorPair { addr, .. } | StoreVectorPair { addr, .. } => {
            address_regs(&addr)
        }
        LoadExclusive { rt, base, .. } => (mask(base), mask(rt)),
        StoreExclusive { rs, rt, base, .. } => (mask(base) | mask(rt), mask(rs)),
        Structures { base, post, .. } => match post {
            Some(rm) => (mask(base) | mask(rm), mask(base)),
            None => (mask(base), 0),
        },
        AddCarry { .. }
            | Crc32 { .. }
            | Prefetch { .. }
            | WriteSystem { .. }
            | Barrier { .. }
            | Cache { .. }
            | Supervisor { .. }
            | Breakpoint { .. }
            | LoadLiteral { .. }
            | LoadVectorLiteral { .. }
            | PrefetchLiteral { .. }
            | LoadPairSigned { .. }
            | LoadUnprivileged { .. }
            | StoreUnprivileged { .. }
            | LoadAcquire { .. }
            | StoreRelease { .. }
            | LoadAcquirePc { .. }
            | CompareSwap { .. }
            | CompareSwapPair { .. }
            | Atomic { .. } => unreachable!("not translated: {insn:?}"),
    }
}

fn reads_flags(item: &Item) -> bool {
    match *item {
        Item::Base(Insn::CondBranch { cond, .. } | Insn::Select { cond, .. } | Insn::CondCompare { cond, .. }) => {
            cond < 14
        }
        Item::Simd { form, .. } => matches!(form, SimdInsn::FpCondCompare { .. } | SimdInsn::FpSelect { .. }),
        _ => false,
    }
}

fn writes_flags(item: &Item) -> bool {
    match *item {
        Item::Base(Insn::AddSub { flags, .. }) => flags,
        Item::Base(Insn::Logic { opc, .. }) => opc == 3,
        Item::Base(Insn::CondCompare { .. }) => true,
        Item::Simd { form, .. } => matches!(form, SimdInsn::FpCompare { .. } | SimdInsn::FpCondCompare { .. }),
        _ => false,
    }
}

/// Whether the instruction may leave compiled code before executing (a load or store, or an
/// executor call the interpreter must repeat).
fn may_exit_before(item: &Item) -> bool {
    let Item::Base(insn) = item else { return true };
    matches!(
        insn,
        Insn::Load { .. }
            | Insn::Store { .. }
            | Insn::LoadPair { .. }
            | Insn::StorePair { .. }
            | Insn::LoadVector { .. }
            | Insn::StoreVector { .. }
            | Insn::LoadVectorPair { .. }
            | Insn::StoreVectorPair { .. }
            | Insn::Structures { .. }
            | Insn::LoadExclusive { .. }
            | Insn::StoreExclusive { .. }
    )
}

fn ends_straight_line(item: &Item) -> bool {
    matches!(item, Item::Base(Insn::Branch { .. } | Insn::Indirect { .. }))
}

/// Whether the flags may be read (by an instruction or an exit) before being set again, at
/// each instruction's entry.
fn flags_liveness(region: &[(u64, Item)], position: &HashMap<u64, usize>) -> Vec<bool> {
    let mut live = vec![false; region.len()];
    loop {
        let mut changed = false;
        for i in (0..region.len()).rev() {
            let (pc, insn) = region[i];
            let mut out = false;
            if !ends_straight_line(&insn) {
                out |= match position.get(&(pc + 4)) {
                    Some(&next) => live[next],
                    None => true, // an exit
                };
            }
            if insn.is_branch() {
                // Indirect branches, and jumps backwards (the budget), may exit.
                out |= match insn.target().and_then(|t| position.get(&t)) {
                    Some(&t) if t > i => live[t],
                    _ => true,
                };
            }
            let l = reads_flags(&insn) || may_exit_before(&insn) || (!writes_flags(&insn) && out);
            if l != live[i] {
                live[i] = l;
                changed = true;
            }
        }
        if !changed {
            return live;
        }
    }
}

/// `Emitter::dirty_before` and `dirty_after` for a region entered at `entry`.
fn dirty(region: &[(u64, Item)], position: &HashMap<u64, usize>, entry: usize) -> (Vec<u64>, Vec<u64>) {
    let changes: Vec<u64> = region
        .iter()
        .map(|(_, insn)| registers(insn).1 as u64 | if writes_flags(insn) { FLAGS } else { 0 })
        .collect();
    let (mut before, mut after) = (vec![0u64; region.len()], vec![0u64; region.len()]);
    let mut reached = vec![false; region.len()];
    reached[entry] = true;
    loop {
        let mut changed = false;
        for i in 0..region.len() {
            if !reached[i] {
                continue;
            }
            after[i] = before[i] | changes[i];
            let (pc, insn) = region[i];
            let fall = (!ends_straight_line(&insn)).then(|| position.get(&(pc + 4))).flatten();
            let jump = insn.target().and_then(|t| position.get(&t));
            for &j in fall.into_iter().chain(jump) {
                if !reached[j] || before[j] | after[i] != before[j] {
                    reached[j] = true;
                    before[j] |= after[i];
                    changed = true;
                }
            }
        }
        if !changed {
            return (before, after);
        }
    }
}

fn guest() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

fn host() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl<'a, 'b> Emitter<'a, 'b> {
    /// Translates `region` (instructions and their PCs, in PC order) entered at `entry_pc` into the
    /// builder's function.
    pub fn translate(b: &'a mut FunctionBuilder<'b>, layout: &'a Layout, region: &'a [(u64, Item)], entry_pc: u64) {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let (cpu, env) = (b.block_params(entry)[0], b.block_params(entry)[1]);
        let tlb = b.ins().load(I64, host(), env, layout.env_tlb);
        let budget = b.ins().load(I64, host(), env, layout.env_budget);
        let regs = std::array::from_fn(|_| b.declare_var(I64));
        let nzcv = b.declare_var(I32);
        let count = b.declare_var(I64);
        let retired = b.ins().load(I64, host(), env, layout.env_retired);
        b.def_var(count, retired);

        // Every register the region touches is loaded: a join needs a value on each way in.
        let (mut touched, mut flags_used) = (0u32, false);
        for (_, insn) in region {
            let (r, w) = registers(insn);
            touched |= r | w;
            flags_used |= reads_flags(insn) || writes_flags(insn);
        }
        for r in 0..32 {
            if touched & (1 << r) != 0 {
                let v = b.ins().load(I64, host(), cpu, layout.x + 8 * r);
                b.def_var(regs[r as usize], v);
            }
        }
        let packed = if flags_used { b.ins().load(I32, host(), cpu, layout.nzcv) } else { b.ins().iconst(I32, 0) };
        b.def_var(nzcv, packed);

        let position: HashMap<u64, usize> = region.iter().enumerate().map(|(i, &(pc, _))| (pc, i)).collect();
        let mut labels = HashMap::from([(entry_pc, b.create_block())]);
        for (_, insn) in region {
            if let Some(t) = insn.target().filter(|t| position.contains_key(t)) {
                labels.entry(t).or_insert_with(|| b.create_block());
            }
        }
        let flags_live = flags_liveness(region, &position);
        let (dirty_before, dirty_after) = dirty(region, &position, position[&entry_pc]);
        let mut e = Emitter {
            b,
            layout,
            region,
            position,
            cpu,
            env,
            tlb,
            budget,
            regs,
            nzcv,
            count,
            pending: 0,
            flags: Flags::Packed,
            flags_live,
            dirty_before,
            dirty_after,
            labels,
        };
        let first = e.labels[&entry_pc];
        e.b.ins().jump(first, &[]);
        // Whether the last instruction emitted falls through to the next PC.
        let mut open = false;
        let mut last = region[0].0.wrapping_sub(4);
        for &(pc, insn) in region {
            if open && pc != last + 4 {
                e.exit_to(last + 4, e.after(last), true);
                open = false;
            }
            if let Some(&label) = e.labels.get(&pc) {
                if open {
                    e.jump_to_label(last, pc, label);
                }
                // Every way in has flushed the count and settled (or dropped) the flags.
                e.b.switch_to_block(label);
                e.flags = Flags::Packed;
                e.pending = 0;
                open = true;
            }
            if open {
                open = match insn {
                    Item::Base(insn) => e.instruction(&insn, pc),
                    Item::Simd { word, form } => e.simd(word, &form, pc),
                };
            }
            last = pc;
        }
        if open {
            e.exit_to(last + 4, e.after(last), true);
        }
        e.b.seal_all_blocks();
    }

    // ---- registers and flags ----

    fn read(&mut self, r: Reg) -> Value {
        if r == ZR {
            self.b.ins().iconst(I64, 0)
        } else {
            self.b.use_var(self.regs[r as usize])
        }
    }

    /// Register `r` at the operation's width.
    fn read_w(&mut self, r: Reg, sf: bool) -> Value {
        let v = self.read(r);
        if sf {
            v
        } else {
            self.b.ins().ireduce(I32, v)
        }
    }

    fn write(&mut self, r: Reg, v: Value) {
        if r != ZR {
            self.b.def_var(self.regs[r as usize], v);
        }
    }

    /// Writes a value of the operation's width, zero-extending 32-bit results.
    fn write_w(&mut self, r: Reg, v: Value, sf: bool) {
        let v = if sf { v } else { self.b.ins().uextend(I64, v) };
        self.write(r, v);
    }

    fn constant(&mut self, v: u64, sf: bool) -> Value {
        if sf {
            self.b.ins().iconst(I64, v as i64)
        } else {
            self.b.ins().iconst(I32, v as u32 as i64)
        }
    }

    fn shift_by(&mut self, v: Value, kind: u8, amount: u8) -> Value {
        if amount == 0 {
            return v;
        }
        let a = amount as i64;
        match kind {
            0 => self.b.ins().ishl_imm_u(v, a),
            1 => self.b.ins().ushr_imm_u(v, a),
            2 => self.b.ins().sshr_imm_u(v, a),
            _ => self.b.ins().rotr_imm_u(v, a),
        }
    }

    /// extend(x, option) << lsl at 64 bits (UXTB..SXTX).
    fn extend(&mut self, x: Value, option: u8, lsl: u8) -> Value {
        let narrow = [I8, I16, I32, I64][option as usize & 3];
        let e = if narrow == I64 {
            x
        } else {
            let n = self.b.ins().ireduce(narrow, x);
            if option & 4 != 0 {
                self.b.ins().sextend(I64, n)
            } else {
                self.b.ins().uextend(I64, n)
            }
        };
        if lsl == 0 {
            e
        } else {
            self.b.ins().ishl_imm_u(e, lsl as i64)
        }
    }

    fn operand(&mut self, op: Operand, sf: bool) -> Value {
        match op {
            Operand::Imm(_) | Operand::ShiftedImm { .. } => self.constant(op.immediate().expect("an immediate"), sf),
            Operand::Shifted { rm, kind, amount } => {
                let v = self.read_w(rm, sf);
                self.shift_by(v, kind, amount)
            }
            Operand::Extended { rm, option, lsl } => {
                let x = self.read(rm);
                let v = self.extend(x, option, lsl);
                if sf {
                    v
                } else {
                    self.b.ins().ireduce(I32, v)
                }
            }
        }
    }

    fn is_negative(&mut self, v: Value) -> Value {
        self.b.ins().icmp_imm_u(IntCC::SignedLessThan, v, 0)
    }

    /// The flags packed as in `CpuState::nzcv`.
    fn packed(&mut self) -> Value {
        let (n, z, c, v) = match self.flags {
            Flags::Packed => return self.b.use_var(self.nzcv),
            Flags::Sub(a, b, r) => {
                let n = self.is_negative(r);
                let z = self.b.ins().icmp_imm_u(IntCC::Equal, r, 0);
                let c = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, a, b);
                let (x, y) = (self.b.ins().bxor(a, b), self.b.ins().bxor(a, r));
                let o = self.b.ins().band(x, y);
                (n, z, c, self.is_negative(o))
            }
            Flags::Add(a, b, r) => {
                let n = self.is_negative(r);
                let z = self.b.ins().icmp_imm_u(IntCC::Equal, r, 0);
                let c = self.b.ins().icmp(IntCC::UnsignedLessThan, r, a);
                let (x, y) = (self.b.ins().bxor(a, r), self.b.ins().bxor(b, r));
                let o = self.b.ins().band(x, y);
                (n, z, c, self.is_negative(o))
            }
            Flags::Logic(r) => {
                let n = self.is_negative(r);
                let z = self.b.ins().icmp_imm_u(IntCC::Equal, r, 0);
                let f = self.b.ins().iconst(I8, 0);
                (n, z, f, f)
            }
        };
        let mut packed = self.b.ins().iconst(I32, 0);
        for (bit, flag) in [(31, n), (30, z), (29, c), (28, v)] {
            let wide = self.b.ins().uextend(I32, flag);
            let placed = self.b.ins().ishl_imm_u(wide, bit);
            packed = self.b.ins().bor(packed, placed);
        }
        packed
    }

    /// Puts the flags in the `nzcv` variable (before a join).
    fn settle_flags(&mut self) {
        if !matches!(self.flags, Flags::Packed) {
            let p = self.packed();
            self.b.def_var(self.nzcv, p);
            self.flags = Flags::Packed;
        }
    }

    /// Whether condition `cond` holds (an I8 of 0 or 1).
    fn condition(&mut self, cond: u8) -> Value {
        if cond >= 14 {
            return self.b.ins().iconst(I8, 1);
        }
        let base = cond >> 1;
        let odd = cond & 1 == 1;
        let pick = |cc: IntCC| if odd { cc.complement() } else { cc };
        match self.flags {
            Flags::Sub(a, b, r) => {
                let (cc, x, y) = match base {
                    0 => (IntCC::Equal, a, b),
                    1 => (IntCC::UnsignedGreaterThanOrEqual, a, b),
                    2 => (IntCC::SignedLessThan, r, self.zero_like(r)),
                    4 => (IntCC::UnsignedGreaterThan, a, b),
                    5 => (IntCC::SignedGreaterThanOrEqual, a, b),
                    6 => (IntCC::SignedGreaterThan, a, b),
                    _ => return self.condition_packed(cond),
                };
                self.b.ins().icmp(pick(cc), x, y)
            }
            Flags::Logic(r) => {
                let cc = match base {
                    0 => IntCC::Equal,
                    2 => IntCC::SignedLessThan,
                    5 => IntCC::SignedGreaterThanOrEqual,
                    6 => IntCC::SignedGreaterThan,
                    _ => return self.condition_packed(cond),
                };
                self.b.ins().icmp_imm_u(pick(cc), r, 0)
            }
            _ => self.condition_packed(cond),
        }
    }

    fn zero_like(&mut self, v: Value) -> Value {
        let t = self.b.func.dfg.value_type(v);
        self.b.ins().iconst(t, 0)
    }

    fn condition_packed(&mut self, cond: u8) -> Value {
        let p = self.packed();
        let bit = |e: &mut Self, k: i64| {
            let m = e.b.ins().band_imm_u(p, 1 << k);
            e.b.ins().icmp_imm_u(IntCC::NotEqual, m, 0)
        };
        let held = match cond >> 1 {
            0 => bit(self, 30),
            1 => bit(self, 29),
            2 => bit(self, 31),
            3 => bit(self, 28),
            4 => {
                let (c, z) = (bit(self, 29), bit(self, 30));
                let nz = self.b.ins().bxor_imm_u(z, 1);
                self.b.ins().band(c, nz)
            }
            _ => {
                let (n, v) = (bit(self, 31), bit(self, 28));
                let ge = self.b.ins().icmp(IntCC::Equal, n, v);
                if cond >> 1 == 5 {
                    ge
                } else {
                    let z = bit(self, 30);
                    let nz = self.b.ins().bxor_imm_u(z, 1);
                    self.b.ins().band(ge, nz)
                }
            }
        };
        if cond & 1 == 1 {
            self.b.ins().bxor_imm_u(held, 1)
        } else {
            held
        }
    }

    // ---- control ----

    fn flush_count(&mut self) {
        if self.pending > 0 {
            let c = self.b.use_var(self.count);
            let c = self.b.ins().iadd_imm_u(c, self.pending as i64);
            self.b.def_var(self.count, c);
            self.pending = 0;
        }
    }

    /// What an exit just after the instruction at `pc` stores.
    fn after(&self, pc: u64) -> u64 {
        self.dirty_after[self.position[&pc]]
    }

    /// Leaves this region for `next` after `count + pending` instructions, storing the
    /// registers and flags in `dirty`; `onward`: into the next region if the chain table has it
    /// (never from an exit before an instruction the interpreter must run: that region would
    /// exit again at once, without progress).
    fn exit(&mut self, next: Value, dirty: u64, onward: bool) {
        for r in 0..32 {
            if dirty & (1 << r) != 0 {
                let v = self.b.use_var(self.regs[r as usize]);
                self.b.ins().store(host(), v, self.cpu, self.layout.x + 8 * r);
            }
        }
        if dirty & FLAGS != 0 {
            let p = self.packed();
            self.b.ins().store(host(), p, self.cpu, self.layout.nzcv);
        }
        let c = self.b.use_var(self.count);
        let c = self.b.ins().iadd_imm_u(c, self.pending as i64);
        self.b.ins().store(host(), c, self.env, self.layout.env_retired);
        if !onward {
            self.b.ins().return_(&[next]);
            return;
        }
        // Straight on into the next region where the chain table knows it and the budget allows.
        let l = self.layout;
        let chain = self.b.ins().load(I64, host(), self.env, l.env_chain);
        let words = self.b.ins().ushr_imm_u(next, 2);
        let slot = self.b.ins().band_imm_u(words, (CHAIN_LINKS - 1) as i64);
        let offset = self.b.ins().imul_imm_u(slot, std::mem::size_of::<Link>() as i64);
        let link = self.b.ins().iadd(chain, offset);
        let linked = self.b.ins().load(I64, host(), link, l.link_pc);
        let len = self.b.ins().load(I64, host(), link, l.link_len);
        let after = self.b.ins().iadd(c, len);
        let known = self.b.ins().icmp(IntCC::Equal, linked, next);
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, after, self.budget);
        let go = self.b.ins().band(known, fits);
        let (on, back) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(go, on, &[], back, &[]);
        self.b.seal_block(on);
        self.b.seal_block(back);
        self.b.switch_to_block(on);
        let code = self.b.ins().load(I64, host(), link, l.link_code);
        let sig = self.b.import_signature(region_signature());
        self.b.ins().return_call_indirect(sig, code, &[self.cpu, self.env]);
        self.b.switch_to_block(back);
        self.b.ins().return_(&[next]);
    }

    /// Leaves compiled code for the constant `pc`, counting what is pending.
    fn exit_to(&mut self, pc: u64, dirty: u64, onward: bool) {
        let next = self.b.ins().iconst(I64, pc as i64);
        self.exit(next, dirty, onward);
    }

    /// Emits the exit in a block of its own, entered when `taken` holds; the translation then
    /// goes on in a fresh block where it does not.
    fn exit_if(&mut self, taken: Value, pc: u64, dirty: u64, onward: bool) {
        let (out, on) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(taken, out, &[], on, &[]);
        self.b.seal_block(out);
        self.b.seal_block(on);
        self.b.switch_to_block(out);
        self.exit_to(pc, dirty, onward);
        self.b.switch_to_block(on);
    }

    /// Jumps from the instruction at `from` to the label at `target` (flags settled, count
    /// flushed); a jump backwards first checks that one more pass through the whole region
    /// fits the budget, and otherwise exits there.
    fn jump_to_label(&mut self, from: u64, target: u64, label: Block) {
        self.flush_count();
        if target <= from {
            let c = self.b.use_var(self.count);
            let after = self.b.ins().iadd_imm_u(c, self.region.len() as i64);
            let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, after, self.budget);
            let dirty = self.after(from);
            self.exit_if(over, target, dirty, true);
        }
        if self.flags_live[self.position[&target]] {
            self.settle_flags();
        }
        // Where the flags are dead at the label, any definition serves the join: nothing
        // reads or stores them before they are set again.
        self.flags = Flags::Packed;
        self.b.ins().jump(label, &[]);
    }

    /// The taken side of the branch at `from` to `target`, in a block of its own.
    fn take(&mut self, from: u64, target: u64) {
        match self.labels.get(&target) {
            Some(&label) => self.jump_to_label(from, target, label),
            None => {
                self.flush_count();
                self.exit_to(target, self.after(from), true);
            }
        }
    }

    /// A conditional branch on `taken` to `target`; the translation goes on along the fall-through.
    fn branch_if(&mut self, taken: Value, from: u64, target: u64) {
        self.pending += 1;
        self.flush_count();
        let (yes, no) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(taken, yes, &[], no, &[]);
        self.b.seal_block(yes);
        self.b.seal_block(no);
        self.b.switch_to_block(yes);
        let flags = self.flags;
        self.take(from, target);
        self.flags = flags;
        self.b.switch_to_block(no);
    }

    // ---- memory ----

    /// The host address of guest [addr, addr+size) if the translation cache grants `need` there;
    /// otherwise leaves compiled code before the instruction at `pc`.
    fn host_address(&mut self, addr: Value, size: u32, need: u8, pc: u64) -> Value {
        // One comparison with the entry's tag for this kind of access checks page, permission
        // and span (see `mem::TlbEntry`).
        let l = self.layout;
        let page = self.b.ins().ushr_imm_u(addr, 12);
        let slot = self.b.ins().band_imm_u(page, (l.tlb_entries - 1) as i64);
        let offset = self.b.ins().imul_imm_u(slot, l.tlb_entry_size as i64);
        let entry = self.b.ins().iadd(self.tlb, offset);
        debug_assert!(need == READ || need == WRITE | TLB_OWNED);
        let tag = self.b.ins().load(I64, host(), entry, if need == READ { l.tlb_read } else { l.tlb_write });
        let last = self.b.ins().iadd_imm_u(addr, size as i64 - 1);
        let wanted = self.b.ins().band_imm_u(last, !0xFFF);
        let miss = self.b.ins().icmp(IntCC::NotEqual, wanted, tag);
        let dirty = self.dirty_before[self.position[&pc]];
        self.exit_if(miss, pc, dirty, false);
        let addend = self.b.ins().load(I64, host(), entry, l.tlb_addend);
        self.b.ins().iadd(addr, addend)
    }

    /// Leaves compiled code before the instruction at `pc` where `addr` is not a multiple of
    /// `size` (the interpreter raises the alignment fault).
    fn exit_unless_aligned(&mut self, addr: Value, size: u8, pc: u64) {
        if size > 1 {
            let low = self.b.ins().band_imm_u(addr, size as i64 - 1);
            let misaligned = self.b.ins().icmp_imm_u(IntCC::NotEqual, low, 0);
            let dirty = self.dirty_before[self.position[&pc]];
            self.exit_if(misaligned, pc, dirty, false);
        }
    }

    /// The access address and, for pre/post-index, the written-back base.
    fn address(&mut self, a: Address) -> (Value, Option<(Reg, Value)>) {
        match a {
            Address::Offset { base, imm, .. } => {
                let b = self.read(base);
                (self.b.ins().iadd_imm_u(b, imm as i64), None)
            }
            Address::Pre { base, imm } => {
                let b = self.read(base);
                let moved = self.b.ins().iadd_imm_u(b, imm as i64);
                (moved, Some((base, moved)))
            }
            Address::Post { base, imm } => {
                let b = self.read(base);
                let moved = self.b.ins().iadd_imm_u(b, imm as i64);
                (b, Some((base, moved)))
            }
            Address::Indexed { base, rm, option, lsl, .. } => {
                let (b, m) = (self.read(base), self.read(rm));
                let off = self.extend(m, option, lsl);
                (self.b.ins().iadd(b, off), None)
            }
        }
    }

    fn int_type(size: u8) -> Type {
        match size {
            1 => I8,
            2 => I16,
            4 => I32,
            8 => I64,
            _ => I128,
        }
    }

    fn load_value(&mut self, ptr: Value, size: u8, ext: u8) -> Value {
        let v = self.b.ins().load(Self::int_type(size), guest(), ptr, 0);
        if size == 8 {
            return v;
        }
        match ext {
            ZERO => self.b.ins().uextend(I64, v),
            SIGN64 => self.b.ins().sextend(I64, v),
            _ => {
                let w = self.b.ins().sextend(I32, v);
                self.b.ins().uextend(I64, w)
            }
        }
    }

    fn store_value(&mut self, ptr: Value, offset: i32, r: Reg, size: u8) {
        let v = self.read(r);
        let v = if size == 8 { v } else { self.b.ins().ireduce(Self::int_type(size), v) };
        self.b.ins().store(guest(), v, ptr, offset);
    }

    fn vector_offset(&self, v: u8) -> i32 {
        self.layout.v + 16 * (v as i32 & 31)
    }

    /// v`vt` = the `size` bytes at `ptr + offset`, zero-extended to 128 bits.
    fn load_vector(&mut self, ptr: Value, offset: i32, size: u8, vt: u8) {
        let v = self.b.ins().load(Self::int_type(size), guest(), ptr, offset);
        let v = if size == 16 { v } else { self.b.ins().uextend(I128, v) };
        let at = self.vector_offset(vt);
        self.b.ins().store(host(), v, self.cpu, at);
    }

    fn store_vector(&mut self, ptr: Value, offset: i32, size: u8, vt: u8) {
        let at = self.vector_offset(vt);
        let v = self.b.ins().load(Self::int_type(size), host(), self.cpu, at);
        self.b.ins().store(guest(), v, ptr, offset);
    }

    /// The host address for an access of `bytes` at `addr` (exiting before the instruction at
    /// `pc` where the translation cache does not grant `need`), and the written-back base.
    fn access(&mut self, addr: Address, bytes: u8, need: u8, pc: u64) -> (Value, Option<(Reg, Value)>) {
        let (a, wb) = self.address(addr);
        (self.host_address(a, bytes as u32, need, pc), wb)
    }

    fn write_back(&mut self, wb: Option<(Reg, Value)>) {
        if let Some((r, v)) = wb {
            self.write(r, v);
        }
    }

    // ---- instructions ----

    /// Emits one instruction; returns whether execution can fall through to the next.
    fn instruction(&mut self, insn: &Insn, pc: u64) -> bool {
        use Insn::*;
        match *insn {
            AddSub { sf, sub, flags, rd, rn, op } => {
                let x = self.read_w(rn, sf);
                let y = self.operand(op, sf);
                let r = if sub { self.b.ins().isub(x, y) } else { self.b.ins().iadd(x, y) };
                if flags {
                    self.flags = if sub { Flags::Sub(x, y, r) } else { Flags::Add(x, y, r) };
                }
                self.write_w(rd, r, sf);
            }
            Logic { sf, opc, invert, rd, rn, op } => {
                let x = self.read_w(rn, sf);
                let mut y = self.operand(op, sf);
                if invert {
                    y = self.b.ins().bnot(y);
                }
                let r = match opc {
                    1 => self.b.ins().bor(x, y),
                    2 => self.b.ins().bxor(x, y),
                    _ => self.b.ins().band(x, y),
                };
                if opc == 3 {
                    self.flags = Flags::Logic(r);
                }
                self.write_w(rd, r, sf);
            }
            Const { rd, value, .. } => {
                let v = self.b.ins().iconst(I64, value as i64);
                self.write(rd, v);
            }
            Insert { sf, rd, value, mask } => {
                let old = self.read(rd);
                let kept = self.b.ins().band_imm_u(old, !mask as i64);
                let mut v = self.b.ins().bor_imm_u(kept, value as i64);
                if !sf {
                    v = self.b.ins().band_imm_u(v, u32::MAX as i64);
                }
                self.write(rd, v);
            }
            Bitfield { sf, opc, rd, rn, immr, imms, wmask, tmask } => {
                let bits = if sf { 64 } else { 32 };
                let src = self.read_w(rn, sf);
                let rotated = self.shift_by(src, 3, immr);
                let dst = if opc == 1 { self.read_w(rd, sf) } else { self.constant(0, sf) };
                let kept = self.b.ins().band_imm_u(dst, !wmask as i64);
                let field = self.b.ins().band_imm_u(rotated, wmask as i64);
                let bottom = self.b.ins().bor(kept, field);
                let top = if opc == 0 {
                    let up = self.b.ins().ishl_imm_u(src, (bits - 1 - imms as i64) & (bits - 1));
                    self.b.ins().sshr_imm_u(up, bits - 1)
                } else {
                    dst
                };
                let high = self.b.ins().band_imm_u(top, !tmask as i64);
                let low = self.b.ins().band_imm_u(bottom, tmask as i64);
                let r = self.b.ins().bor(high, low);
                self.write_w(rd, r, sf);
            }
            Extract { sf, rd, rn, rm, lsb } => {
                let (hi, lo) = (self.read_w(rn, sf), self.read_w(rm, sf));
                let r = if lsb == 0 {
                    lo
                } else {
                    let bits = if sf { 64 } else { 32 };
                    let a = self.b.ins().ushr_imm_u(lo, lsb as i64);
                    let b = self.b.ins().ishl_imm_u(hi, bits - lsb as i64);
                    self.b.ins().bor(a, b)
                };
                self.write_w(rd, r, sf);
            }
            ShiftVariable { sf, kind, rd, rn, rm } => {
                let (x, y) = (self.read_w(rn, sf), self.read_w(rm, sf));
                let y = self.b.ins().band_imm_u(y, if sf { 63 } else { 31 });
                let r = match kind {
                    0 => self.b.ins().ishl(x, y),
                    1 => self.b.ins().ushr(x, y),
                    2 => self.b.ins().sshr(x, y),
                    _ => self.b.ins().rotr(x, y),
                };
                self.write_w(rd, r, sf);
            }
            Divide { sf, signed, rd, rn, rm } => {
                let (x, y) = (self.read_w(rn, sf), self.read_w(rm, sf));
                let by_zero = self.b.ins().icmp_imm_u(IntCC::Equal, y, 0);
                let one = self.constant(1, sf);
                let zero = self.constant(0, sf);
                let r = if signed {
                    let min = self.constant(if sf { 1 << 63 } else { 1 << 31 }, sf);
                    let is_min = self.b.ins().icmp(IntCC::Equal, x, min);
                    let minus_one = self.b.ins().icmp_imm_u(IntCC::Equal, y, -1);
                    let overflow = self.b.ins().band(is_min, minus_one);
                    let unsafe_divisor = self.b.ins().bor(by_zero, overflow);
                    let d = self.b.ins().select(unsafe_divisor, one, y);
                    self.b.ins().sdiv(x, d)
                } else {
                    let d = self.b.ins().select(by_zero, one, y);
                    self.b.ins().udiv(x, d)
                };
                let r = self.b.ins().select(by_zero, zero, r);
                self.write_w(rd, r, sf);
            }
            MultiplyAdd { sf, sub, rd, rn, rm, ra } => {
                let (x, y, a) = (self.read_w(rn, sf), self.read_w(rm, sf), self.read_w(ra, sf));
                let p = self.b.ins().imul(x, y);
                let r = if sub { self.b.ins().isub(a, p) } else { self.b.ins().iadd(a, p) };
                self.write_w(rd, r, sf);
            }
            MultiplyLong { signed, sub, rd, rn, rm, ra } => {
                let (x, y, a) = (self.read_w(rn, false), self.read_w(rm, false), self.read(ra));
                let (x, y) = if signed {
                    (self.b.ins().sextend(I64, x), self.b.ins().sextend(I64, y))
                } else {
                    (self.b.ins().uextend(I64, x), self.b.ins().uextend(I64, y))
                };
                let p = self.b.ins().imul(x, y);
                let r = if sub { self.b.ins().isub(a, p) } else { self.b.ins().iadd(a, p) };
                self.write(rd, r);
            }
            MultiplyHigh { signed, rd, rn, rm } => {
                let (x, y) = (self.read(rn), self.read(rm));
                let r = if signed { self.b.ins().smulhi(x, y) } else { self.b.ins().umulhi(x, y) };
                self.write(rd, r);
            }
            Unary { sf, op, rd, rn } => {
                let x = self.read_w(rn, sf);
                let r = match op {
                    decode::Unary::Rbit => self.b.ins().bitrev(x),
                    decode::Unary::Rev => self.b.ins().bswap(x),
                    decode::Unary::Rev32 => {
                        let s = self.b.ins().bswap(x);
                        self.b.ins().rotr_imm_u(s, 32)
                    }
                    decode::Unary::Rev16 => {
                        let m = if sf { 0x00FF_00FF_00FF_00FFu64 } else { 0x00FF_00FF };
                        let hi = self.b.ins().ushr_imm_u(x, 8);
                        let hi = self.b.ins().band_imm_u(hi, m as i64);
                        let lo = self.b.ins().band_imm_u(x, m as i64);
                        let lo = self.b.ins().ishl_imm_u(lo, 8);
                        self.b.ins().bor(hi, lo)
                    }
                    decode::Unary::Clz => self.b.ins().clz(x),
                    decode::Unary::Cls => self.b.ins().cls(x),
                };
                self.write_w(rd, r, sf);
            }
            Select { sf, cond, invert, increment, rd, rn, rm } => {
                let c = self.condition(cond);
                let (x, mut y) = (self.read_w(rn, sf), self.read_w(rm, sf));
                if invert {
                    y = self.b.ins().bnot(y);
                }
                if increment {
                    y = self.b.ins().iadd_imm_u(y, 1);
                }
                let r = self.b.ins().select(c, x, y);
                self.write_w(rd, r, sf);
            }
            CondCompare { sf, add, cond, nzcv, rn, op } => {
                let c = self.condition(cond);
                let x = self.read_w(rn, sf);
                let y = self.operand(op, sf);
                let r = if add { self.b.ins().iadd(x, y) } else { self.b.ins().isub(x, y) };
                self.flags = if add { Flags::Add(x, y, r) } else { Flags::Sub(x, y, r) };
                let computed = self.packed();
                let otherwise = self.b.ins().iconst(I32, (nzcv as i64) << 28);
                let p = self.b.ins().select(c, computed, otherwise);
                self.b.def_var(self.nzcv, p);
                self.flags = Flags::Packed;
            }
            ReadSystem { reg: SystemRegister::TpidrEl0, rt: rd } => {
                let v = self.b.ins().load(I64, host(), self.cpu, self.layout.tpidr_el0);
                self.write(rd, v);
            }
            Hint { .. } => {}
            Branch { target, link } => {
                if link {
                    let ret = self.b.ins().iconst(I64, pc as i64 + 4);
                    self.write(30, ret);
                }
                self.pending += 1;
                self.take(pc, target);
                return false;
            }
            CondBranch { cond, target } => {
                let c = self.condition(cond);
                self.branch_if(c, pc, target);
                return true;
            }
            CompareBranch { sf, nonzero, rt, target } => {
                let v = self.read_w(rt, sf);
                let cc = if nonzero { IntCC::NotEqual } else { IntCC::Equal };
                let c = self.b.ins().icmp_imm_u(cc, v, 0);
                self.branch_if(c, pc, target);
                return true;
            }
            TestBranch { nonzero, rt, bit, target } => {
                let v = self.read(rt);
                let m = self.b.ins().band_imm_u(v, (1u64 << bit) as i64);
                let cc = if nonzero { IntCC::NotEqual } else { IntCC::Equal };
                let c = self.b.ins().icmp_imm_u(cc, m, 0);
                self.branch_if(c, pc, target);
                return true;
            }
            Indirect { rn, link, .. } => {
                let target = self.read(rn);
                if link {
                    let ret = self.b.ins().iconst(I64, pc as i64 + 4);
                    self.write(30, ret);
                }
                self.pending += 1;
                self.flush_count();
                self.exit(target, self.after(pc), true);
                return false;
            }
            Load { size, ext, rt, addr } => {
                let (p, wb) = self.access(addr, size, READ, pc);
                let v = self.load_value(p, size, ext);
                self.write(rt, v);
                self.write_back(wb);
            }
            Store { size, rt, addr } => {
                let (p, wb) = self.access(addr, size, WRITE | TLB_OWNED, pc);
                self.store_value(p, 0, rt, size);
                self.write_back(wb);
            }
            LoadPair { size, rt, rt2, addr, .. } => {
                let (p, wb) = self.access(addr, 2 * size, READ, pc);
                let v = self.load_value(p, size, ZERO);
                let q = self.b.ins().iadd_imm_u(p, size as i64);
                let v2 = self.load_value(q, size, ZERO);
                self.write(rt, v);
                self.write(rt2, v2);
                self.write_back(wb);
            }
            StorePair { size, rt, rt2, addr, .. } => {
                let (p, wb) = self.access(addr, 2 * size, WRITE | TLB_OWNED, pc);
                self.store_value(p, 0, rt, size);
                self.store_value(p, size as i32, rt2, size);
                self.write_back(wb);
            }
            LoadVector { size, vt, addr } => {
                let (p, wb) = self.access(addr, size, READ, pc);
                self.load_vector(p, 0, size, vt);
                self.write_back(wb);
            }
            StoreVector { size, vt, addr } => {
                let (p, wb) = self.access(addr, size, WRITE | TLB_OWNED, pc);
                self.store_vector(p, 0, size, vt);
                self.write_back(wb);
            }
            LoadVectorPair { size, vt, vt2, addr, .. } => {
                let (p, wb) = self.access(addr, 2 * size, READ, pc);
                self.load_vector(p, 0, size, vt);
                self.load_vector(p, size as i32, size, vt2);
                self.write_back(wb);
            }
            StoreVectorPair { size, vt, vt2, addr, .. } => {
                let (p, wb) = self.access(addr, 2 * size, WRITE | TLB_OWNED, pc);
                self.store_vector(p, 0, size, vt);
                self.store_vector(p, size as i32, size, vt2);
                self.write_back(wb);
            }
            Structures { load, vt, base, post, layout: Structure::Multiple { q, registers, .. } } => {
                // Whole registers, one structure element each: consecutive registers in memory order.
                let size = if q { 16 } else { 8 };
                let bytes = registers * size;
                let b = self.read(base);
                let p = self.host_address(b, bytes as u32, if load { READ } else { WRITE | TLB_OWNED }, pc);
                for i in 0..registers {
                    let (v, offset) = ((vt + i) % 32, (i * size) as i32);
                    if load {
                        self.load_vector(p, offset, size, v);
                    } else {
                        self.store_vector(p, offset, size, v);
                    }
                }
                if let Some(rm) = post {
                    let step = if rm == ZR { self.b.ins().iconst(I64, bytes as i64) } else { self.read(rm) };
                    let moved = self.b.ins().iadd(b, step);
                    self.write(base, moved);
                }
            }
            LoadExclusive { size, pair: false, rt, base, .. } => {
                let at = self.read(base);
                self.exit_unless_aligned(at, size, pc);
                let p = self.host_address(at, size as u32, READ, pc);
                let v = self.load_value(p, size, ZERO);
                self.write(rt, v);
                self.b.ins().store(host(), at, self.cpu, self.layout.exclusive);
            }
            StoreExclusive { size, pair: false, rs, rt, base, .. } => {
                let at = self.read(base);
                self.exit_unless_aligned(at, size, pc);
                // The monitor holds `at` (never 0, which stands for none): store; either way it is cleared.
                let reserved = self.b.ins().load(I64, host(), self.cpu, self.layout.exclusive);
                let same = self.b.ins().icmp(IntCC::Equal, reserved, at);
                let some = self.b.ins().icmp_imm_u(IntCC::NotEqual, at, 0);
                let holds = self.b.ins().band(same, some);
                let (store, join) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(holds, store, &[], join, &[]);
                self.b.seal_block(store);
                self.b.switch_to_block(store);
                let p = self.host_address(at, size as u32, WRITE | TLB_OWNED, pc);
                self.store_value(p, 0, rt, size);
                self.b.ins().jump(join, &[]);
                self.b.seal_block(join);
                self.b.switch_to_block(join);
                let none = self.b.ins().iconst(I64, 0);
                self.b.ins().store(host(), none, self.cpu, self.layout.exclusive);
                let failed = self.b.ins().bxor_imm_u(holds, 1);
                let status = self.b.ins().uextend(I64, failed);
                self.write(rs, status);
            }
            AddCarry { .. }
            | Crc32 { .. }
            | Prefetch { .. }
            | WriteSystem { .. }
            | Barrier { .. }
            | Cache { .. }
            | Supervisor { .. }
            | Breakpoint { .. }
            | LoadLiteral { .. }
            | LoadVectorLiteral { .. }
            | PrefetchLiteral { .. }
            | LoadPairSigned { .. }
            | LoadUnprivileged { .. }
            | StoreUnprivileged { .. }
            | LoadExclusive { .. }
            | StoreExclusive { .. }
            | LoadAcquire { .. }
            | StoreRelease { .. }
            | LoadAcquirePc { .. }
            | CompareSwap { .. }
            | CompareSwapPair { .. }
            | Atomic { .. }
            | Structures { .. }
            | ReadSystem { .. } => unreachable!("not translated: {insn:?}"),
        }
        self.pending += 1;
        true
    }
}
