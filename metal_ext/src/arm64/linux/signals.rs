//! Signals: numbers, dispositions, default actions and the AArch64 signal frame (siginfo +
//! ucontext with the FP/SIMD record) that handlers run on and rt_sigreturn reads back.

use crate::arm64::mem::{MemFault, Memory};
use crate::arm64::state::CpuState;

pub const SIGHUP: u32 = 1;
pub const SIGINT: u32 = 2;
pub const SIGQUIT: u32 = 3;
pub const SIGILL: u32 = 4;
pub const SIGTRAP: u32 = 5;
pub const SIGABRT: u32 = 6;
pub const SIGBUS: u32 = 7;
pub const SIGFPE: u32 = 8;
pub const SIGKILL: u32 = 9;
pub const SIGUSR1: u32 = 10;
pub const SIGSEGV: u32 = 11;
pub const SIGPIPE: u32 = 13;
pub const SIGALRM: u32 = 14;
pub const SIGTERM: u32 = 15;
pub const SIGCHLD: u32 = 17;
pub const SIGCONT: u32 = 18;
pub const SIGSTOP: u32 = 19;
pub const SIGTSTP: u32 = 20;
pub const SIGTTIN: u32 = 21;
pub const SIGTTOU: u32 = 22;
pub const SIGURG: u32 = 23;
pub const SIGXCPU: u32 = 24;
pub const SIGXFSZ: u32 = 25;
pub const SIGWINCH: u32 = 28;
pub const SIGSYS: u32 = 31;
pub const NSIG: u32 = 64;

pub const SIG_DFL: u64 = 0;
pub const SIG_IGN: u64 = 1;

pub const SA_NOCLDSTOP: u64 = 1;
pub const SA_NOCLDWAIT: u64 = 2;
pub const SA_SIGINFO: u64 = 4;
pub const SA_RESTORER: u64 = 0x0400_0000;
pub const SA_ONSTACK: u64 = 0x0800_0000;
pub const SA_RESTART: u64 = 0x1000_0000;
pub const SA_NODEFER: u64 = 0x4000_0000;
pub const SA_RESETHAND: u64 = 0x8000_0000;

pub const SI_USER: i32 = 0;
pub const SI_KERNEL: i32 = 0x80;
pub const SI_TKILL: i32 = -6;
pub const CLD_EXITED: i32 = 1;
pub const CLD_KILLED: i32 = 2;
pub const SEGV_MAPERR: i32 = 1;
pub const SEGV_ACCERR: i32 = 2;
pub const ILL_ILLOPC: i32 = 1;
pub const TRAP_BRKPT: i32 = 1;
pub const BUS_ADRALN: i32 = 1;

/// Bit of signal `sig` in a 64-bit signal set.
pub fn bit(sig: u32) -> u64 {
    1u64 << (sig - 1)
}

/// Signals that can be neither caught, blocked nor ignored.
pub const UNBLOCKABLE: u64 = (1 << (SIGKILL - 1)) | (1 << (SIGSTOP - 1));

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SigAction {
    pub handler: u64,
    pub flags: u64,
    pub restorer: u64,
    pub mask: u64,
}

/// What the kernel records about a pending signal (the fields of siginfo_t we fill).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SigInfo {
    pub signo: u32,
    pub code: i32,
    pub pid: u32,
    pub uid: u32,
    /// SIGCHLD: exit code or signal; SIGSEGV/SIGILL: the fault address.
    pub status: i32,
    pub addr: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultAction {
    Terminate,
    Ignore,
    /// Stop the process until SIGCONT (jobs.rs).
    Stop,
}

pub fn default_action(sig: u32) -> DefaultAction {
    match sig {
        // SIGCONT's work (resuming) is done when it is sent; delivered, it is ignored.
        SIGCHLD | SIGCONT | SIGURG | SIGWINCH => DefaultAction::Ignore,
        SIGSTOP | SIGTSTP | SIGTTIN | SIGTTOU => DefaultAction::Stop,
        _ => DefaultAction::Terminate,
    }
}

pub fn name(sig: u32) -> &'static str {
    const NAMES: [&str; 32] = [
        "0", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1",
        "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP",
        "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR",
        "SIGSYS",
    ];
    NAMES.get(sig as usize).copied().unwrap_or("SIGRT")
}

// Layout of the frame (Linux arch/arm64: struct rt_sigframe { siginfo; ucontext }).
const SIGINFO_SIZE: u64 = 128;
const UC_SIGMASK: u64 = 40;
const UC_MCONTEXT: u64 = 176;
const MC_REGS: u64 = 8;
const MC_SP: u64 = 256;
const MC_PC: u64 = 264;
const MC_PSTATE: u64 = 272;
const MC_RESERVED: u64 = 288;
const FPSIMD_MAGIC: u32 = 0x4650_8001;
const FPSIMD_SIZE: u32 = 528;
const UCONTEXT_SIZE: u64 = UC_MCONTEXT + MC_RESERVED + 4096;
const FRAME_SIZE: u64 = SIGINFO_SIZE + UCONTEXT_SIZE;

pub fn siginfo_bytes(info: &SigInfo) -> [u8; SIGINFO_SIZE as usize] {
    let mut b = [0u8; SIGINFO_SIZE as usize];
    b[0..4].copy_from_slice(&info.signo.to_le_bytes());
    b[8..12].copy_from_slice(&info.code.to_le_bytes());
    match info.signo {
        SIGSEGV | SIGILL | SIGBUS | SIGFPE | SIGTRAP if info.code > 0 => {
            b[16..24].copy_from_slice(&info.addr.to_le_bytes())
        }
        _ => {
            b[16..20].copy_from_slice(&info.pid.to_le_bytes());
            b[20..24].copy_from_slice(&info.uid.to_le_bytes());
            b[24..28].copy_from_slice(&info.status.to_le_bytes());
        }
    }
    b
}

/// Writes the signal frame below the thread's stack and points the CPU at the handler, which
/// returns to `trampoline` (an `svc` of rt_sigreturn). `mask` is the signal mask to restore.
pub fn enter_handler(
    cpu: &mut CpuState,
    mem: &mut Memory,
    action: &SigAction,
    info: &SigInfo,
    mask: u64,
    trampoline: u64,
) -> Result<(), MemFault> {
    let frame = cpu.sp().wrapping_sub(FRAME_SIZE + 16) & !15;
    let uc = frame + SIGINFO_SIZE;
    let mc = uc + UC_MCONTEXT;
    let mut bytes = vec![0u8; FRAME_SIZE as usize];
    bytes[..SIGINFO_SIZE as usize].copy_from_slice(&siginfo_bytes(info));
    let mut put = |at: u64, v: &[u8]| {
        let at = (at - frame) as usize;
        bytes[at..at + v.len()].copy_from_slice(v);
    };
    put(uc + UC_SIGMASK, &mask.to_le_bytes());
    for i in 0..31 {
        put(mc + MC_REGS + 8 * i as u64, &cpu.x[i].to_le_bytes());
    }
    put(mc + MC_SP, &cpu.sp().to_le_bytes());
    put(mc + MC_PC, &cpu.pc.to_le_bytes());
    put(mc + MC_PSTATE, &(cpu.nzcv as u64).to_le_bytes());
    let fp = mc + MC_RESERVED;
    put(fp, &FPSIMD_MAGIC.to_le_bytes());
    put(fp + 4, &FPSIMD_SIZE.to_le_bytes());
    put(fp + 8, &cpu.fpsr.to_le_bytes());
    put(fp + 12, &cpu.fpcr.to_le_bytes());
    for i in 0..32 {
        put(fp + 16 + 16 * i as u64, &cpu.v[i].to_le_bytes());
    }
    // The frame record under the frame lets debuggers and unwinders walk through the handler.
    let record = frame.wrapping_sub(16);
    mem.write(record, &[cpu.x[29].to_le_bytes(), cpu.x[30].to_le_bytes()].concat())?;
    mem.write(frame, &bytes)?;
    cpu.x[0] = info.signo as u64;
    cpu.x[1] = frame;
    cpu.x[2] = uc;
    cpu.x[29] = record;
    // The restorer field counts only with SA_RESTORER (glibc leaves it unset on AArch64).
    cpu.x[30] = if action.flags & SA_RESTORER != 0 { action.restorer } else { trampoline };
    cpu.x[31] = record;
    cpu.pc = action.handler;
    Ok(())
}

/// rt_sigreturn: restores the registers saved by `enter_handler` (the frame sits at SP + 16,
/// above the frame record) and returns the saved signal mask.
pub fn leave_handler(cpu: &mut CpuState, mem: &Memory) -> Result<u64, MemFault> {
    let mut frame = vec![0u8; FRAME_SIZE as usize];
    mem.read(cpu.sp().wrapping_add(16), &mut frame)?;
    let at = |offset: u64, n: usize| &frame[offset as usize..offset as usize + n];
    let u64_at = |offset: u64| u64::from_le_bytes(at(offset, 8).try_into().unwrap());
    let u32_at = |offset: u64| u32::from_le_bytes(at(offset, 4).try_into().unwrap());
    let (uc, mc) = (SIGINFO_SIZE, SIGINFO_SIZE + UC_MCONTEXT);
    let mask = u64_at(uc + UC_SIGMASK);
    for i in 0..31 {
        cpu.x[i] = u64_at(mc + MC_REGS + 8 * i as u64);
    }
    cpu.x[31] = u64_at(mc + MC_SP);
    cpu.pc = u64_at(mc + MC_PC);
    cpu.nzcv = u64_at(mc + MC_PSTATE) as u32 & 0xF000_0000;
    let fp = mc + MC_RESERVED;
    if u32_at(fp) == FPSIMD_MAGIC {
        cpu.fpsr = u32_at(fp + 8);
        cpu.fpcr = u32_at(fp + 12);
        for i in 0..32 {
            cpu.v[i] = u128::from_le_bytes(at(fp + 16 + 16 * i as u64, 16).try_into().unwrap());
        }
    }
    Ok(mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arm64::mem::{READ, WRITE};

    #[test]
    fn handler_frame_round_trips_every_register() {
        let mut mem = Memory::new();
        mem.map(0x10000, 0x10000, READ | WRITE);
        let mut cpu = CpuState::default();
        for i in 0..31 {
            cpu.x[i] = 0x1000 + i as u64;
        }
        cpu.x[31] = 0x1fff0;
        cpu.pc = 0x400123;
        cpu.nzcv = 0x6000_0000;
        cpu.v[7] = u128::MAX - 5;
        cpu.fpcr = 0x0300_0000;
        let before = cpu.clone();
        let action = SigAction { handler: 0x401000, flags: SA_SIGINFO, restorer: 0, mask: 0 };
        let info = SigInfo { signo: 10, code: SI_USER, pid: 7, ..SigInfo::default() };
        enter_handler(&mut cpu, &mut mem, &action, &info, 0xabc, 0x7000).unwrap();
        assert_eq!((cpu.pc, cpu.x[0], cpu.x[30]), (0x401000, 10, 0x7000));
        assert_eq!(cpu.sp() % 16, 0);
        assert_eq!(mem.read_u32(cpu.x[1]).unwrap(), 10);
        assert_eq!(mem.read_u32(cpu.x[1] + 16).unwrap(), 7);
        cpu.x[5] = 0;
        cpu.v[7] = 0;
        let mask = leave_handler(&mut cpu, &mem).unwrap();
        assert_eq!(mask, 0xabc);
        assert_eq!(format!("{cpu:?}"), format!("{before:?}"));
    }
}
