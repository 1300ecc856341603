//! The initial process stack the kernel hands to `_start`: argc, argv, envp and the auxiliary
//! vector, with the strings and AT_RANDOM's bytes above them.

use super::elf::LoadedImage;
use crate::arm64::mem::{Memory, READ, WRITE};

/// Top of the main thread's stack (exclusive); how far down it may grow (RLIMIT_STACK) and how
/// much is mapped at start (the rest is mapped when touched, as Linux grows a stack).
pub const STACK_TOP: u64 = 0x0000_7fff_ffff_f000;
pub const STACK_LIMIT: u64 = 8 << 20;
const STACK_INITIAL: u64 = 128 << 10;

pub const AT_NULL: u64 = 0;
pub const AT_PHDR: u64 = 3;
pub const AT_PHENT: u64 = 4;
pub const AT_PHNUM: u64 = 5;
pub const AT_PAGESZ: u64 = 6;
pub const AT_BASE: u64 = 7;
pub const AT_FLAGS: u64 = 8;
pub const AT_ENTRY: u64 = 9;
pub const AT_UID: u64 = 11;
pub const AT_EUID: u64 = 12;
pub const AT_GID: u64 = 13;
pub const AT_EGID: u64 = 14;
pub const AT_PLATFORM: u64 = 15;
pub const AT_HWCAP: u64 = 16;
pub const AT_CLKTCK: u64 = 17;
pub const AT_SECURE: u64 = 23;
pub const AT_RANDOM: u64 = 25;
pub const AT_HWCAP2: u64 = 26;
pub const AT_EXECFN: u64 = 31;

/// FP | ASIMD: the features the core implements (no atomics extension, no SVE).
pub const HWCAP: u64 = 0x3;

/// Everything the stack needs besides the loaded image.
pub struct StartInfo<'a> {
    pub argv: &'a [Vec<u8>],
    pub envp: &'a [Vec<u8>],
    /// AT_EXECFN's string: the program's path as given to execve ("./link", not where it leads).
    pub execfn: &'a [u8],
    pub random: [u8; 16],
    pub uid: u32,
    pub gid: u32,
}

/// argv, the environment and the other strings need more than a quarter of the stack limit
/// (Linux's ARG_MAX rule).
#[derive(Debug, PartialEq, Eq)]
pub struct ArgumentsTooLong;

/// Maps the stack below STACK_TOP and lays out the start-up block; returns the initial SP.
pub fn build(mem: &mut Memory, image: &LoadedImage, info: &StartInfo) -> Result<u64, ArgumentsTooLong> {
    let strings: usize = info.argv.iter().chain(info.envp).map(|s| s.len() + 9).sum();
    let needed = (strings as u64 + info.execfn.len() as u64 + 4096).next_multiple_of(4096);
    let size = needed.max(STACK_INITIAL);
    if size > STACK_LIMIT / 4 {
        return Err(ArgumentsTooLong);
    }
    mem.map(STACK_TOP - size, size, READ | WRITE);
    let mut top = STACK_TOP - 16;
    // Every write below lands in the pages just mapped.
    const MAPPED: &str = "the start-up block fits the mapped stack";
    let mut push_bytes = |mem: &mut Memory, bytes: &[u8], nul: bool| -> u64 {
        top -= bytes.len() as u64 + nul as u64;
        mem.poke(top, bytes).expect(MAPPED);
        if nul {
            mem.poke(top + bytes.len() as u64, &[0]).expect(MAPPED);
        }
        top
    };
    let execfn = push_bytes(mem, info.execfn, true);
    let platform = push_bytes(mem, b"aarch64", true);
    let random = push_bytes(mem, &info.random, false);
    let envp: Vec<u64> = info.envp.iter().rev().map(|s| push_bytes(mem, s, true)).collect();
    let argv: Vec<u64> = info.argv.iter().rev().map(|s| push_bytes(mem, s, true)).collect();

    let auxv = [
        (AT_PHDR, image.phdr),
        (AT_PHENT, image.phent),
        (AT_PHNUM, image.phnum),
        (AT_PAGESZ, 4096),
        (AT_BASE, image.interp_base),
        (AT_FLAGS, 0),
        (AT_ENTRY, image.entry),
        (AT_UID, info.uid as u64),
        (AT_EUID, info.uid as u64),
        (AT_GID, info.gid as u64),
        (AT_EGID, info.gid as u64),
        (AT_SECURE, 0),
        (AT_HWCAP, HWCAP),
        (AT_HWCAP2, 0),
        (AT_CLKTCK, 100),
        (AT_RANDOM, random),
        (AT_PLATFORM, platform),
        (AT_EXECFN, execfn),
        (AT_NULL, 0),
    ];
    let mut words: Vec<u64> = vec![info.argv.len() as u64];
    words.extend(argv.iter().rev());
    words.push(0);
    words.extend(envp.iter().rev());
    words.push(0);
    for (k, v) in auxv {
        words.extend([k, v]);
    }
    let sp = (top - 8 * words.len() as u64) & !15;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    mem.poke(sp, &bytes).expect(MAPPED);
    Ok(sp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c_string(mem: &Memory, mut at: u64) -> Vec<u8> {
        let mut out = vec![];
        loop {
            let b = mem.read_u8(at).unwrap();
            if b == 0 {
                return out;
            }
            out.push(b);
            at += 1;
        }
    }

    #[test]
    fn layout_matches_the_kernel_abi() {
        let image = LoadedImage { entry: 0x400100, phdr: 0x400040, phent: 56, phnum: 7, interp_base: 0, brk: 0x500000 };
        let argv = [b"busybox".to_vec(), b"echo".to_vec(), b"".to_vec()];
        let envp = [b"PATH=/bin".to_vec()];
        let info = StartInfo { argv: &argv, envp: &envp, execfn: b"/bin/busybox", random: [7; 16], uid: 0, gid: 0 };
        let mut mem = Memory::new();
        let sp = build(&mut mem, &image, &info).unwrap();
        assert_eq!(sp % 16, 0);
        let word = |i: u64| mem.read_u64(sp + 8 * i).unwrap();
        assert_eq!(word(0), 3);
        let args: Vec<Vec<u8>> = (1..4).map(|i| c_string(&mem, word(i))).collect();
        assert_eq!(args, argv);
        assert_eq!(word(4), 0);
        assert_eq!(c_string(&mem, word(5)), b"PATH=/bin");
        assert_eq!(word(6), 0);
        let mut aux = std::collections::HashMap::new();
        let mut i = 7;
        while word(i) != AT_NULL {
            aux.insert(word(i), word(i + 1));
            i += 2;
        }
        assert_eq!(aux[&AT_PHDR], 0x400040);
        assert_eq!(aux[&AT_ENTRY], 0x400100);
        assert_eq!(aux[&AT_HWCAP], 3);
        assert_eq!(aux[&AT_PAGESZ], 4096);
        assert_eq!(c_string(&mem, aux[&AT_PLATFORM]), b"aarch64");
        assert_eq!(c_string(&mem, aux[&AT_EXECFN]), b"/bin/busybox");
        let mut random = [0u8; 16];
        mem.read(aux[&AT_RANDOM], &mut random).unwrap();
        assert_eq!(random, [7; 16]);
    }
}
