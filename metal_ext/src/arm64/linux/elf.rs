//! ELF64 executables for AArch64: header checks and loading PT_LOAD segments into guest memory.
//! Position-independent files (ET_DYN) are placed at a fixed base so that runs stay reproducible:
//! an executable at PIE_BASE, the dynamic loader a dynamically linked executable names in
//! PT_INTERP at INTERP_BASE. TLS (PT_TLS) is set up by the program's own start-up code.

use std::fmt;

use crate::arm64::mem::{Memory, EXEC, PAGE_SIZE, READ, WRITE};

/// Where ET_DYN executables are loaded (the address qemu-user picks for AArch64 guests).
pub const PIE_BASE: u64 = 0x55_0000_0000;
/// Where the dynamic loader (PT_INTERP) of a dynamically linked executable is loaded.
pub const INTERP_BASE: u64 = 0x7f_0000_0000;
/// Longest PT_INTERP path accepted (Linux allows up to PATH_MAX).
const MAX_INTERP: u64 = 4096;
/// An executable or dynamic loader larger than this is refused before it is read (as the Python
/// loader's MAX_ELF_SIZE); BusyBox is 1.8 MB.
pub const MAX_FILE: u64 = 256 << 20;
/// Segments may not reach above the user half of the 48-bit address space.
const USER_TOP: u64 = 0x0000_8000_0000_0000;
/// A segment larger than this is treated as a malformed file rather than mapped (guest memory
/// is allocated when mapped, so a corrupt size must not ask for gigabytes).
const MAX_SEGMENT: u64 = 256 << 20;

const PT_LOAD: u32 = 1;
const PT_INTERP: u32 = 3;
const PT_PHDR: u32 = 6;
const ET_EXEC: u16 = 2;
const ET_DYN: u16 = 3;
const EM_AARCH64: u16 = 183;
const PF_X: u32 = 1;
const PF_W: u32 = 2;
const PF_R: u32 = 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ElfError {
    TooShort { len: usize },
    NotElf,
    NotElf64,
    NotLittleEndian,
    WrongMachine { machine: u16 },
    NotExecutable { kind: u16 },
    BadProgramHeaders { offset: u64, count: u16, entry_size: u16 },
    /// The PT_INTERP segment lies outside the file or is not a NUL-terminated path.
    BadInterpreterPath,
    /// The dynamic loader named in PT_INTERP cannot be used (not found, not a file, or itself
    /// names an interpreter).
    Interpreter { path: String, why: String },
    SegmentOutsideFile { index: usize },
    BadSegment { index: usize, why: &'static str },
    NoLoadableSegment,
    /// argv and the environment do not fit in the start-up stack.
    ArgumentsTooLong,
}

impl fmt::Display for ElfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooShort { len } => write!(f, "file of {len} bytes is too short for an ELF header"),
            Self::NotElf => write!(f, "not an ELF file (bad magic bytes)"),
            Self::NotElf64 => write!(f, "not a 64-bit ELF file"),
            Self::NotLittleEndian => write!(f, "not a little-endian ELF file"),
            Self::WrongMachine { machine } => write!(f, "ELF machine {machine} is not AArch64 (183)"),
            Self::NotExecutable { kind } => write!(f, "ELF type {kind} is not an executable (2) or PIE (3)"),
            Self::BadProgramHeaders { offset, count, entry_size } => write!(
                f,
                "program header table ({count} entries of {entry_size} bytes at offset {offset}) lies outside the file"
            ),
            Self::BadInterpreterPath => write!(f, "PT_INTERP is not a NUL-terminated path inside the file"),
            Self::Interpreter { path, why } => write!(f, "dynamic loader {path}: {why}"),
            Self::SegmentOutsideFile { index } => write!(f, "segment {index}: file bytes lie outside the file"),
            Self::BadSegment { index, why } => write!(f, "segment {index}: {why}"),
            Self::NoLoadableSegment => write!(f, "no PT_LOAD segment"),
            Self::ArgumentsTooLong => write!(f, "argument list and environment too long for the stack"),
        }
    }
}

impl std::error::Error for ElfError {}

/// What the loader tells the initial stack (auxv) and the memory manager (brk).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedImage {
    pub entry: u64,
    /// Where the program headers are in guest memory (AT_PHDR).
    pub phdr: u64,
    pub phent: u64,
    pub phnum: u64,
    /// Where the dynamic loader was loaded (AT_BASE); 0 for a static executable.
    pub interp_base: u64,
    /// First page after the highest segment: the program break starts here.
    pub brk: u64,
}

struct ProgramHeader {
    kind: u32,
    flags: u32,
    offset: u64,
    vaddr: u64,
    filesz: u64,
    memsz: u64,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

fn page_down(a: u64) -> u64 {
    a & !(PAGE_SIZE - 1)
}

fn page_up(a: u64) -> u64 {
    (a + PAGE_SIZE - 1) & !(PAGE_SIZE - 1)
}

/// True when `bytes` starts like an ELF file (used by execve to tell binaries from scripts).
pub fn is_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x7fELF")
}

/// Checks the header and program headers of an AArch64 executable.
fn parse(bytes: &[u8]) -> Result<(u16, u64, u64, Vec<ProgramHeader>), ElfError> {
    if bytes.len() < 64 {
        return Err(if bytes.len() >= 4 && !is_elf(bytes) { ElfError::NotElf } else { ElfError::TooShort { len: bytes.len() } });
    }
    if !is_elf(bytes) {
        return Err(ElfError::NotElf);
    }
    if bytes[4] != 2 {
        return Err(ElfError::NotElf64);
    }
    if bytes[5] != 1 {
        return Err(ElfError::NotLittleEndian);
    }
    let kind = u16_at(bytes, 16);
    let machine = u16_at(bytes, 18);
    if machine != EM_AARCH64 {
        return Err(ElfError::WrongMachine { machine });
    }
    if kind != ET_EXEC && kind != ET_DYN {
        return Err(ElfError::NotExecutable { kind });
    }
    let entry = u64_at(bytes, 24);
    let phoff = u64_at(bytes, 32);
    let phentsize = u16_at(bytes, 54);
    let phnum = u16_at(bytes, 56);
    let table_end = (phnum as u64).checked_mul(phentsize as u64).and_then(|n| n.checked_add(phoff));
    if phentsize < 56 || phnum == 0 || table_end.is_none_or(|end| end > bytes.len() as u64) {
        return Err(ElfError::BadProgramHeaders { offset: phoff, count: phnum, entry_size: phentsize });
    }
    let headers = (0..phnum as usize)
        .map(|i| {
            let h = phoff as usize + i * phentsize as usize;
            ProgramHeader {
                kind: u32_at(bytes, h),
                flags: u32_at(bytes, h + 4),
                offset: u64_at(bytes, h + 8),
                vaddr: u64_at(bytes, h + 16),
                filesz: u64_at(bytes, h + 32),
                memsz: u64_at(bytes, h + 40),
            }
        })
        .collect();
    Ok((kind, entry, phoff, headers))
}

/// The dynamic loader a dynamically linked executable names (PT_INTERP), None for a static one.
pub fn interpreter(bytes: &[u8]) -> Result<Option<String>, ElfError> {
    let (_, _, _, headers) = parse(bytes)?;
    let Some(h) = headers.iter().find(|h| h.kind == PT_INTERP) else { return Ok(None) };
    if h.filesz < 2 || h.filesz > MAX_INTERP || h.offset.checked_add(h.filesz).is_none_or(|end| end > bytes.len() as u64) {
        return Err(ElfError::BadInterpreterPath);
    }
    let raw = &bytes[h.offset as usize..(h.offset + h.filesz) as usize];
    let path = raw.strip_suffix(&[0]).filter(|p| !p.contains(&0)).ok_or(ElfError::BadInterpreterPath)?;
    String::from_utf8(path.to_vec()).map(Some).map_err(|_| ElfError::BadInterpreterPath)
}

/// Maps the executable's segments into `mem` and reports where things landed.
pub fn load(bytes: &[u8], mem: &mut Memory) -> Result<LoadedImage, ElfError> {
    load_at(bytes, mem, PIE_BASE)
}

/// Maps a file's segments, an ET_DYN one at `dyn_base` (the dynamic loader goes to INTERP_BASE).
pub fn load_at(bytes: &[u8], mem: &mut Memory, dyn_base: u64) -> Result<LoadedImage, ElfError> {
    let (kind, entry, phoff, headers) = parse(bytes)?;
    let base = if kind == ET_DYN { dyn_base } else { 0 };
    let loads: Vec<(usize, &ProgramHeader)> =
        headers.iter().enumerate().filter(|(_, h)| h.kind == PT_LOAD).collect();
    if loads.is_empty() {
        return Err(ElfError::NoLoadableSegment);
    }
    // Validate everything before touching memory, so a bad file maps nothing.
    for &(index, h) in &loads {
        if h.offset.checked_add(h.filesz).is_none_or(|end| end > bytes.len() as u64) {
            return Err(ElfError::SegmentOutsideFile { index });
        }
        if h.filesz > h.memsz {
            return Err(ElfError::BadSegment { index, why: "file size exceeds memory size" });
        }
        if h.memsz > MAX_SEGMENT {
            return Err(ElfError::BadSegment { index, why: "larger than 256 MiB" });
        }
        let start = base.checked_add(h.vaddr);
        if start.and_then(|s| s.checked_add(h.memsz)).is_none_or(|end| end > USER_TOP) {
            return Err(ElfError::BadSegment { index, why: "outside the user address space" });
        }
    }
    let mut brk = 0;
    let mut perms_of_page = std::collections::HashMap::new();
    for &(_, h) in &loads {
        let start = base + h.vaddr;
        let perms = (if h.flags & PF_R != 0 { READ } else { 0 })
            | (if h.flags & PF_W != 0 { WRITE } else { 0 })
            | (if h.flags & PF_X != 0 { EXEC } else { 0 });
        let (first, end) = (page_down(start), page_up(start + h.memsz));
        for page in (first..end).step_by(PAGE_SIZE as usize) {
            // Two segments may share a page: keep the bytes of the first, grant both permissions.
            let union = perms_of_page.entry(page).or_insert_with(|| {
                mem.map(page, PAGE_SIZE, 0);
                0
            });
            *union |= perms;
        }
        let data = &bytes[h.offset as usize..(h.offset + h.filesz) as usize];
        mem.poke(start, data).expect("segment pages were just mapped");
        brk = brk.max(end);
    }
    for (page, perms) in perms_of_page {
        mem.protect(page, PAGE_SIZE, perms).expect("segment pages were just mapped");
    }
    let phdr = headers
        .iter()
        .find(|h| h.kind == PT_PHDR)
        .map(|h| base + h.vaddr)
        .or_else(|| {
            loads
                .iter()
                .find(|(_, h)| phoff >= h.offset && phoff < h.offset + h.filesz)
                .map(|(_, h)| base + h.vaddr + (phoff - h.offset))
        })
        .unwrap_or(0);
    Ok(LoadedImage {
        entry: base.wrapping_add(entry),
        phdr,
        phent: u16_at(bytes, 54) as u64,
        phnum: headers.len() as u64,
        interp_base: 0,
        brk,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A minimal valid executable: one RX segment holding `code` at 0x400000 + 0x78.
    pub fn tiny_elf(code: &[u8]) -> Vec<u8> {
        let mut f = vec![0u8; 0x78];
        f[..4].copy_from_slice(b"\x7fELF");
        f[4] = 2;
        f[5] = 1;
        f[6] = 1;
        f[16..18].copy_from_slice(&ET_EXEC.to_le_bytes());
        f[18..20].copy_from_slice(&EM_AARCH64.to_le_bytes());
        f[24..32].copy_from_slice(&0x400078u64.to_le_bytes());
        f[32..40].copy_from_slice(&64u64.to_le_bytes());
        f[52..54].copy_from_slice(&64u16.to_le_bytes());
        f[54..56].copy_from_slice(&56u16.to_le_bytes());
        f[56..58].copy_from_slice(&1u16.to_le_bytes());
        let h = 64;
        f[h..h + 4].copy_from_slice(&PT_LOAD.to_le_bytes());
        f[h + 4..h + 8].copy_from_slice(&(PF_R | PF_X).to_le_bytes());
        f[h + 16..h + 24].copy_from_slice(&0x400000u64.to_le_bytes());
        let size = (0x78 + code.len()) as u64;
        f[h + 32..h + 40].copy_from_slice(&size.to_le_bytes());
        f[h + 40..h + 48].copy_from_slice(&size.to_le_bytes());
        f.extend_from_slice(code);
        f
    }

    #[test]
    fn loads_a_static_executable() {
        let code = 0xd4000001u32.to_le_bytes(); // svc #0
        let mut mem = Memory::new();
        let image = load(&tiny_elf(&code), &mut mem).unwrap();
        assert_eq!(image.entry, 0x400078);
        assert_eq!(image.phdr, 0x400040);
        assert_eq!((image.phent, image.phnum, image.brk), (56, 1, 0x401000));
        assert_eq!(mem.fetch_u32(0x400078).unwrap(), 0xd4000001);
        assert_eq!(mem.perms(0x400000), Some(READ | EXEC));
    }

    #[test]
    fn loads_the_real_busybox() {
        let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../programs/arm64/busybox/busybox")).unwrap();
        let mut mem = Memory::new();
        let image = load(&bytes, &mut mem).unwrap();
        assert_eq!(image.phdr, 0x400040);
        assert!(mem.perms(image.entry).unwrap() & EXEC != 0);
        assert!(image.brk > image.entry && image.brk.is_multiple_of(PAGE_SIZE));
    }

    #[test]
    fn pie_goes_to_the_fixed_base() {
        let mut f = tiny_elf(&[0; 4]);
        f[16..18].copy_from_slice(&ET_DYN.to_le_bytes());
        let mut mem = Memory::new();
        assert_eq!(load(&f, &mut mem).unwrap().entry, PIE_BASE + 0x400078);
    }

    /// `tiny_elf` with a PT_INTERP header naming `path` (its bytes appended to the file).
    pub fn with_interpreter(path: &[u8]) -> Vec<u8> {
        let mut f = tiny_elf(&[0; 4]);
        let at = f.len() as u64;
        f.extend_from_slice(path);
        f[56..58].copy_from_slice(&2u16.to_le_bytes());
        let mut h = vec![0u8; 56];
        h[..4].copy_from_slice(&PT_INTERP.to_le_bytes());
        h[8..16].copy_from_slice(&at.to_le_bytes());
        h[32..40].copy_from_slice(&(path.len() as u64).to_le_bytes());
        h[40..48].copy_from_slice(&(path.len() as u64).to_le_bytes());
        // The second header goes after the first, over bytes of the code that follow it.
        f.splice(120..120, h);
        let at = at + 56;
        f[120 + 8..120 + 16].copy_from_slice(&at.to_le_bytes());
        f
    }

    #[test]
    fn the_interpreter_path_is_read_from_pt_interp() {
        assert_eq!(interpreter(&tiny_elf(&[0; 4])).unwrap(), None);
        let f = with_interpreter(b"/lib/ld-linux-aarch64.so.1\0");
        assert_eq!(interpreter(&f).unwrap().as_deref(), Some("/lib/ld-linux-aarch64.so.1"));
        for bad in [&b"/lib/ld.so"[..], b"/lib/\0ld.so\0", b"\0"] {
            assert_eq!(interpreter(&with_interpreter(bad)).unwrap_err(), ElfError::BadInterpreterPath);
        }
    }

    #[test]
    fn a_dynamic_loader_goes_to_its_own_base() {
        let mut f = tiny_elf(&[0; 4]);
        f[16..18].copy_from_slice(&ET_DYN.to_le_bytes());
        let mut mem = Memory::new();
        let exe = load(&f, &mut mem).unwrap();
        let loader = load_at(&f, &mut mem, INTERP_BASE).unwrap();
        assert_eq!((exe.entry, loader.entry), (PIE_BASE + 0x400078, INTERP_BASE + 0x400078));
        assert_eq!(loader.phdr, INTERP_BASE + 0x400040);
    }

    #[test]
    fn malformed_files_give_typed_errors_and_map_nothing() {
        let good = tiny_elf(&[0; 4]);
        type Mutation = Box<dyn Fn(&mut Vec<u8>)>;
        let cases: Vec<(Mutation, ElfError)> = vec![
            (Box::new(|f| f.truncate(10)), ElfError::TooShort { len: 10 }),
            (Box::new(|f| f[0] = b'M'), ElfError::NotElf),
            (Box::new(|f| f[4] = 1), ElfError::NotElf64),
            (Box::new(|f| f[5] = 2), ElfError::NotLittleEndian),
            (Box::new(|f| f[18] = 62), ElfError::WrongMachine { machine: 62 }),
            (Box::new(|f| f[16] = 1), ElfError::NotExecutable { kind: 1 }),
            (Box::new(|f| f[56] = 200), ElfError::BadProgramHeaders { offset: 64, count: 200, entry_size: 56 }),
            (Box::new(|f| f[64] = 3), ElfError::NoLoadableSegment),
            (Box::new(|f| f[64 + 8] = 0xff), ElfError::SegmentOutsideFile { index: 0 }),
            (Box::new(|f| f[64 + 47] = 1), ElfError::BadSegment { index: 0, why: "larger than 256 MiB" }),
            (Box::new(|f| f[64 + 23] = 0xff), ElfError::BadSegment { index: 0, why: "outside the user address space" }),
            (Box::new(|f| f[64] = 4), ElfError::NoLoadableSegment),
        ];
        for (mutate, want) in cases {
            let mut f = good.clone();
            mutate(&mut f);
            let mut mem = Memory::new();
            assert_eq!(load(&f, &mut mem).unwrap_err(), want);
            assert!(mem.regions().is_empty(), "{want}");
        }
    }

    #[test]
    fn random_mutations_never_panic() {
        let good = tiny_elf(&[1, 2, 3, 4]);
        let mut seed = 0x9E37_79B9u64;
        for _ in 0..3_000 {
            let mut f = good.clone();
            for _ in 0..4 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = (seed % f.len() as u64) as usize;
                f[at] = (seed >> 32) as u8;
            }
            let _ = load(&f, &mut Memory::new());
        }
    }
}
