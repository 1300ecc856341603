//! Compiled regions against the interpreter: random runs of translatable instructions (with
//! branches inside and out, loads and stores landing in warm and cold pages), compiled and run
//! with a budget, must leave the same registers, flags, memory and PC as the interpreter
//! stepping the same number of instructions.

use super::decode::{decode, Insn, Item};
use super::{compile, empty_chain, link_slot, markers_for, region_of};
use crate::arm64::exec::decoded::tests::splitmix;
use crate::arm64::exec::step;
use crate::arm64::mem::{Memory, EXEC, PAGE_SHIFT, READ, WRITE};
use crate::arm64::state::CpuState;

const CODE: u64 = 0x40_0000;
const DATA: u64 = 0x10_0000;
const DATA_LEN: u64 = 0x4000;

/// (mask, value) of the encoding groups the block compiler translates.
const GROUPS: [(u32, u32); 8] = [
    (0x1C00_0000, 0x1000_0000), // data processing, immediate
    (0x0E00_0000, 0x0A00_0000), // data processing, register
    (0x3A00_0000, 0x3800_0000), // single-register loads and stores
    (0x3A00_0000, 0x2800_0000), // pairs
    (0x1C00_0000, 0x1400_0000), // branches
    (0x0E00_0000, 0x0E00_0000), // SIMD&FP data processing
    (0xBF20_0000, 0x0C00_0000), // vector structures (LD1/ST1 of whole registers)
    (0x3F00_0000, 0x0800_0000), // exclusives (LDXR, STXR)
];

/// A random translatable word for `pc`; branches aim near, mostly inside the run.
fn word(seed: &mut u64, pc: u64) -> u32 {
    loop {
        let (mask, value) = GROUPS[(splitmix(seed) % GROUPS.len() as u64) as usize];
        let mut w = (splitmix(seed) as u32 & !mask) | value;
        if (w >> 26) & 0x1F == 0b00101 {
            // B and BL: offsets of a few instructions either way.
            w = (w & 0xFC00_0000) | ((splitmix(seed) % 24) as u32).wrapping_sub(8) & 0x3FF_FFFF;
        } else if w & 0x7C00_0000 == 0x3400_0000 || w & 0xFF00_0010 == 0x5400_0000 {
            // CBZ, CBNZ, TBZ, TBNZ, B.cond: the same, in their 19 or 14 bit fields.
            let off = ((splitmix(seed) % 24) as u32).wrapping_sub(8);
            w = if w & 0x7E00_0000 == 0x3600_0000 {
                (w & !(0x3FFF << 5)) | (off & 0x3FFF) << 5
            } else {
                (w & !(0x7FFFF << 5)) | (off & 0x7FFFF) << 5
            };
        }
        if decode(w, pc).is_some() {
            return w;
        }
    }
}

struct Machine {
    cpu: CpuState,
    mem: Memory,
}

fn machine(seed: u64, code: &[u32], entry: usize) -> Machine {
    let mut s = seed;
    let mut cpu = CpuState::default();
    for r in 0..32 {
        cpu.x[r] = match splitmix(&mut s) % 4 {
            0 => splitmix(&mut s),
            1 => splitmix(&mut s) % 64,
            _ => DATA + 0x1000 + splitmix(&mut s) % 0x2000,
        };
        cpu.v[r] = (splitmix(&mut s) as u128) << 64 | splitmix(&mut s) as u128;
    }
    cpu.nzcv = (splitmix(&mut s) as u32) & 0xF000_0000;
    // Rounding mode, flush-to-zero, default NaN, alternative half precision; the sticky flags.
    cpu.fpcr = (splitmix(&mut s) as u32) & 0x07C0_0000;
    cpu.fpsr = (splitmix(&mut s) as u32) & 0xF800_009F;
    cpu.tpidr_el0 = splitmix(&mut s);
    // A reservation, often on an address some register holds.
    cpu.exclusive = match splitmix(&mut s) % 3 {
        0 => None,
        _ => std::num::NonZeroU64::new(cpu.x[(splitmix(&mut s) % 32) as usize] & !(splitmix(&mut s) % 8)),
    };
    cpu.pc = CODE + 4 * entry as u64;
    let mut mem = Memory::new();
    mem.map(CODE, 0x1000, READ | EXEC);
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    mem.poke(CODE, &bytes).unwrap();
    mem.map(DATA, DATA_LEN, READ | WRITE);
    let fill: Vec<u8> = (0..DATA_LEN / 8).flat_map(|_| splitmix(&mut s).to_le_bytes()).collect();
    mem.write(DATA, &fill).unwrap();
    // Warm all but the last data page, so both the compiled fast path and its exits run.
    for page in (DATA..DATA + DATA_LEN - 0x1000).step_by(0x1000) {
        mem.store_bytes(page, &fill[(page - DATA) as usize..][..1]).unwrap();
    }
    Machine { cpu, mem }
}

fn data(m: &Machine) -> Vec<u8> {
    let mut d = vec![0u8; DATA_LEN as usize];
    m.mem.peek(DATA, &mut d).unwrap();
    d
}

/// Compiles `code` at CODE entered at instruction `entry`, runs it once with `budget` and the
/// interpreter for as many steps; returns the instructions retired.
fn compare_from(code: &[u32], entry: usize, seed: u64, budget: u64) -> u64 {
    let mut bytes = vec![0u8; 0x1000];
    for (i, w) in code.iter().enumerate() {
        bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    let Some(marker) = compile(CODE >> PAGE_SHIFT, &bytes, entry) else {
        return 0;
    };
    let region = region_of(&marker).unwrap();
    let budget = budget.max(region.len);
    let mut compiled = machine(seed, code, entry);
    let mut interpreted = machine(seed, code, entry);
    let (next, retired) = region.run(&mut compiled.cpu, &mut compiled.mem, budget, &empty_chain()).unwrap();
    compiled.cpu.pc = next;
    assert!(retired <= budget, "retired {retired} over the budget {budget}");
    for i in 0..retired {
        if let Err(e) = step(&mut interpreted.cpu, &mut interpreted.mem) {
            panic!("code {code:08x?} seed {seed}: the interpreter stopped at step {i} with {e:?}, compiled code ran on");
        }
    }
    let (a, b) = (&interpreted.cpu, &compiled.cpu);
    let what = format!("code {code:08x?} entry {entry} seed {seed} budget {budget} after {retired}");
    assert_eq!(a.pc, b.pc, "pc: {what}");
    for r in 0..32 {
        assert_eq!(a.x[r], b.x[r], "x{r}: {what}");
        assert_eq!(a.v[r], b.v[r], "v{r}: {what}");
    }
    assert_eq!(a.nzcv, b.nzcv, "nzcv: {what}");
    assert_eq!(a.exclusive, b.exclusive, "monitor: {what}");
    assert_eq!((a.fpcr, a.fpsr), (b.fpcr, b.fpsr), "fpcr, fpsr: {what}");
    assert!(data(&interpreted) == data(&compiled), "memory: {what}");
    retired
}

fn compare(code: &[u32], seed: u64, budget: u64) -> u64 {
    compare_from(code, 0, seed, budget)
}

/// Each translatable form alone, then followed by a conditional branch reading its flags.
#[test]
fn single_instructions_agree_with_the_interpreter() {
    let mut seed = 3;
    let (mut retired, mut vector, mut structures) = (0, 0, 0);
    for i in 0..75_000 {
        let w = word(&mut seed, CODE);
        let item = decode(w, CODE).unwrap();
        if item.is_branch() {
            continue;
        }
        let cond = (splitmix(&mut seed) % 16) as u32;
        // w; b.cond +2; nop; nop
        let code = [w, 0x5400_0040 | cond, 0xD503_201F, 0xD503_201F];
        let n = compare(&code, i, 4);
        retired += n;
        if n > 0 {
            vector += matches!(item, Item::Simd { .. }) as u32;
            structures += matches!(item, Item::Base(Insn::Structures { .. })) as u32;
        }
    }
    assert!(retired > 100_000, "only {retired} instructions retired in compiled code ({vector} {structures})");
    assert!(vector > 1_000 && structures > 1_000, "{vector} SIMD&FP and {structures} LD1/ST1 words ran");
}

/// Runs of 4 to 40 instructions with branches among them, budgets from tight to ample.
#[test]
fn random_regions_agree_with_the_interpreter() {
    let mut seed = 5;
    let (mut retired, mut long) = (0, 0);
    for i in 0..24_000 {
        let len = 4 + splitmix(&mut seed) % 37;
        // Some words the compiler leaves to the interpreter (DSB, SVC) cut the region short.
        let code: Vec<u32> = (0..len)
            .map(|k| match splitmix(&mut seed) % 12 {
                0 => 0xD503_3F9F, // DSB SY
                1 => 0xD400_0001,
                _ => word(&mut seed, CODE + 4 * k),
            })
            .collect();
        let budget = [len, len + 7, 1000][i as usize % 3];
        let entry = (splitmix(&mut seed) % (len / 2)) as usize;
        let n = compare_from(&code, entry, 1_000_000 + i, budget);
        retired += n;
        long += (n > len) as u64;
    }
    assert!(retired > 100_000 && long > 100, "{retired} retired, {long} runs went round a loop");
}

/// The SIMD&FP forms compiled into host vector instructions, thousands of each family, with
/// random fields: the same registers, flags and FP state as the interpreter's executor.
#[test]
fn native_vector_forms_agree_with_the_interpreter() {
    // (mask, value) of each family's fixed bits, as `decode_simd_fp` tells them apart.
    const FAMILIES: [(u32, u32); 6] = [
        (0x9FF8_0400, 0x0F00_0400), // modified immediate (MOVI, MVNI, FMOV)
        (0x8FE0_8400, 0x0E00_0400), // copy (DUP general)
        (0xBF20_0400, 0x2E20_0400), // three same, vector, U set (CMHI, CMHS, CMEQ, UMAXP, bitwise)
        (0xBF20_0400, 0x0E20_0400), // three same, vector (CMGT, CMGE, CMTST, SMAXP, AND...)
        (0x9F3E_0C00, 0x0E20_0800), // two-register miscellaneous, vector (compares with zero)
        (0x9F80_FC00, 0x0F00_8400), // shift by immediate, vector, opcode 10000 (SHRN)
    ];
    let mut seed = 13;
    for (family, &(mask, value)) in FAMILIES.iter().enumerate() {
        let mut native = 0;
        for i in 0..40_000 {
            let w = (splitmix(&mut seed) as u32 & !mask) | value;
            let Some(Item::Simd { form, .. }) = decode(w, CODE) else { continue };
            if !super::emit::native_form(&form) {
                continue;
            }
            let code = [w, 0xD503_201F, 0xD503_201F];
            native += (compare(&code, 30_000 + i, 3) == 3) as u32;
            if native == 2_000 {
                break;
            }
        }
        assert!(native >= 300, "family {family}: only {native} native forms ran");
    }
    // FMOV between general and S/D registers, both ways.
    let mut fmovs = 0;
    for i in 0..4_000 {
        let w = (splitmix(&mut seed) as u32 & 0x80C1_03FF) | 0x1E26_0000;
        if let Some(Item::Simd { form, .. }) = decode(w, CODE) {
            if super::emit::native_form(&form) {
                fmovs += (compare(&[w, 0xD503_201F, 0xD503_201F], 40_000 + i, 3) == 3) as u32;
            }
        }
    }
    assert!(fmovs > 500, "only {fmovs} FMOVs ran");
}

/// LDXR then STXR on one address (a lock's retry loop), of every size, from random states.
#[test]
fn exclusive_pairs_agree_with_the_interpreter() {
    let mut seed = 11;
    let mut stored = 0;
    for i in 0..4_000 {
        let size = (splitmix(&mut seed) % 4) as u32;
        let (rt, rs, base, v) = (splitmix(&mut seed) % 31, splitmix(&mut seed) % 31, splitmix(&mut seed) % 32, splitmix(&mut seed) % 31);
        let (rt, rs, base, v) = (rt as u32, rs as u32, base as u32, v as u32);
        let acquire = (splitmix(&mut seed) % 2) as u32;
        let ldxr = 0x085F_7C00 | size << 30 | acquire << 15 | base << 5 | rt;
        let stxr = 0x0800_7C00 | size << 30 | (1 - acquire) << 15 | rs << 16 | base << 5 | v;
        // ldxr; add x(v), x(v), #1; stxr; nop
        let code = [ldxr, 0x9100_0400 | v << 5 | v, stxr, 0xD503_201F];
        if decode(stxr, CODE + 8).is_none() {
            continue;
        }
        stored += (compare(&code, 20_000 + i, 4) == 4) as u32;
    }
    assert!(stored > 500, "only {stored} runs went through compiled code");
}

/// A counted loop stays in compiled code until its budget, exactly.
#[test]
fn loops_stop_at_the_budget() {
    let code = [
        0xD280_7D00, // mov x0, #1000
        0x8B01_0042, // loop: add x2, x2, x1
        0xCA01_0043, // eor x3, x2, x1
        0xD37D_F064, // lsl x4, x3, #3
        0xF100_0400, // subs x0, x0, #1
        0x54FF_FF81, // b.ne loop
        0xD65F_03C0, // ret
    ];
    assert!(matches!(decode(code[5], CODE + 20), Some(Item::Base(Insn::CondBranch { .. }))));
    for budget in [7, 8, 12, 100, 5002, 10_000] {
        let n = compare(&code, 1, budget);
        let all = 1 + 5 * 1000 + 1;
        assert!(n == all || (n <= budget && n + 7 > budget), "budget {budget}: {n} retired");
    }
}

/// Two regions ending in indirect branches to each other run as one chain, exactly to the budget.
#[test]
fn chained_regions_agree_with_the_interpreter() {
    let code: [u32; 6] = [
        0x9100_0421, // a: add x1, x1, #1
        0x9100_0842, // add x2, x2, #2
        0xD61F_0060, // br x3 (to b)
        0x9100_0484, // b: add x4, x4, #1
        0x9100_14A5, // add x5, x5, #5
        0xD61F_00C0, // br x6 (to a)
    ];
    let mut bytes = vec![0u8; 0x1000];
    for (i, w) in code.iter().enumerate() {
        bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    let a = region_of(&compile(CODE >> PAGE_SHIFT, &bytes, 0).unwrap()).unwrap();
    let b = region_of(&compile(CODE >> PAGE_SHIFT, &bytes, 3).unwrap()).unwrap();
    let mut chain = empty_chain();
    chain[link_slot(CODE)] = a.link(CODE);
    chain[link_slot(CODE + 12)] = b.link(CODE + 12);
    for budget in [3, 5, 6, 7, 100, 1000] {
        let (mut compiled, mut interpreted) = (machine(9, &code, 0), machine(9, &code, 0));
        for m in [&mut compiled, &mut interpreted] {
            m.cpu.x[3] = CODE + 12;
            m.cpu.x[6] = CODE;
        }
        let (next, retired) = a.run(&mut compiled.cpu, &mut compiled.mem, budget, &chain).unwrap();
        assert!(retired <= budget && retired + 3 > budget, "budget {budget}: {retired} retired");
        for _ in 0..retired {
            step(&mut interpreted.cpu, &mut interpreted.mem).unwrap();
        }
        assert_eq!(next, interpreted.cpu.pc);
        assert_eq!(compiled.cpu.x, interpreted.cpu.x, "budget {budget}");
    }
}



/// Many versions of one page (programs run one after another at the same address): each finds
/// its own regions, and none of another version's.
#[test]
fn each_version_of_a_page_keeps_its_own_regions() {
    const PAGE: u64 = 0x7_7000;
    let version = |k: u32| {
        let mut bytes = vec![0u8; 0x1000];
        // add x1, x1, #k; add x2, x2, #1; add x3, x3, #2; ret
        for (i, w) in [0x9100_0021 | (k & 0xFFF) << 10, 0x9100_0442, 0x9100_0863, 0xD65F_03C0].iter().enumerate() {
            bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        bytes
    };
    let mut regions = Vec::new();
    for k in 0..2_000 {
        regions.push(region_of(&compile(PAGE, &version(k), 0).unwrap()).unwrap() as *const _);
    }
    for k in [0, 1, 999, 1_999] {
        let markers = markers_for(PAGE, &version(k));
        assert_eq!(markers.len(), 1, "version {k}");
        assert_eq!(region_of(&markers[0].1).unwrap() as *const _, regions[k as usize], "version {k}");
    }
    assert!(markers_for(PAGE, &version(2_000)).is_empty());
}
