//! `ncpu_nb._metal.Arm64Core`: one bare AArch64 core and its memory, no operating system.
//! Used to test instructions against Unicorn and to explore the ISA from Python.

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::disasm::disassemble;
use super::exec::code_cache::CodeCache;
use super::exec::Exception;
use super::mem::{Access, MemFault, Memory};
use super::state::{CpuState, RegisterName};

#[pyclass(module = "ncpu_nb._metal")]
#[derive(Default)]
pub struct Arm64Core {
    cpu: CpuState,
    mem: Memory,
    code: CodeCache,
    /// The PC of the instruction that last stopped at a watchpoint: the next `step` executes it
    /// instead of stopping again.
    watch_stop: Option<u64>,
}

fn fault_text(f: &MemFault) -> String {
    let access = match f.access {
        Access::Read => "read",
        Access::Write => "write",
        Access::Fetch => "fetch",
    };
    let why = if f.mapped { "permission" } else { "unmapped" };
    format!("{} 0x{:x} ({})", access, f.addr, why)
}

/// `size` for a read of guest memory, or a ValueError before anything is allocated when it is
/// longer than all the memory mapped (such a read could only fail, after a host buffer that large).
pub fn readable_size(mem: &Memory, size: usize) -> PyResult<usize> {
    let mapped = mem.mapped_bytes();
    if size as u64 > mapped {
        return Err(PyValueError::new_err(format!(
            "read_memory: size {size} is more than the {mapped} bytes of guest memory mapped"
        )));
    }
    Ok(size)
}

/// An exception as Python sees it: (kind, pc, detail).
pub type Stop = (&'static str, u64, String);

pub fn exception_tuple(e: &Exception) -> Stop {
    match e {
        Exception::Svc { imm } => ("svc", 0, format!("#{}", imm)),
        Exception::Breakpoint { pc, imm } => ("brk", *pc, format!("#{}", imm)),
        Exception::Undefined { pc, word } => ("undefined", *pc, format!("0x{:08x}", word)),
        Exception::Memory { pc, fault } => ("memory", *pc, fault_text(fault)),
        Exception::Alignment { pc, addr } => ("alignment", *pc, format!("0x{:x}", addr)),
        Exception::Watchpoint { pc, addr, size, write } => {
            let access = if *write { "write" } else { "read" };
            ("watchpoint", *pc, format!("{} 0x{:x} ({} bytes)", access, addr, size))
        }
    }
}

fn mem_err(f: MemFault) -> PyErr {
    PyValueError::new_err(format!("guest memory: {}", fault_text(&f)))
}

#[pymethods]
impl Arm64Core {
    #[new]
    fn new() -> Self {
        Self::default()
    }

    /// Maps zero-filled pages (perms: bit 0 read, 1 write, 2 execute).
    #[pyo3(signature = (address, size, perms = 7))]
    fn map(&mut self, address: u64, size: u64, perms: u8) {
        self.mem.map(address, size, perms);
    }

    fn write_memory(&mut self, address: u64, data: &[u8]) -> PyResult<()> {
        self.mem.poke(address, data).map_err(mem_err)
    }

    fn read_memory<'py>(&self, py: Python<'py>, address: u64, size: usize) -> PyResult<Bound<'py, PyBytes>> {
        let mut buf = vec![0u8; readable_size(&self.mem, size)?];
        self.mem.peek(address, &mut buf).map_err(mem_err)?;
        Ok(PyBytes::new(py, &buf))
    }

    /// Register by name: x0..x30, sp, pc, nzcv, v0..v31 (128-bit ints), fpcr, fpsr, tpidr_el0,
    /// tpidrro_el0, counter (CNTVCT_EL0), lse (1: the FEAT_LSE atomics and LDAPR execute).
    fn get(&self, name: &str) -> PyResult<u128> {
        let r = RegisterName::parse(name).ok_or_else(|| PyKeyError::new_err(name.to_string()))?;
        Ok(self.cpu.register(r))
    }

    fn set(&mut self, name: &str, value: u128) -> PyResult<()> {
        let r = RegisterName::parse(name).ok_or_else(|| PyKeyError::new_err(name.to_string()))?;
        self.cpu.set_register(r, value);
        Ok(())
    }

    /// Executes up to `n` instructions with the GIL released, checking for Ctrl-C between
    /// chunks. Returns (executed, exception) where exception is None or (kind, pc, detail) with
    /// kind one of "svc", "brk", "undefined", "memory", "alignment", "watchpoint". Only "svc"
    /// counts as executed; the others leave the state untouched. After a "watchpoint" stop, the
    /// next call executes that instruction before watching again.
    #[pyo3(signature = (n = 1))]
    fn step(&mut self, py: Python<'_>, n: u64) -> PyResult<(u64, Option<Stop>)> {
        let mut done = 0;
        while done < n {
            let chunk = (n - done).min(SIGNAL_CHECK_INTERVAL);
            let (ran, stop) = py.detach(|| self.run(chunk));
            done += ran;
            if let Some(e) = stop {
                return Ok((done, Some(exception_tuple(&e))));
            }
            py.check_signals()?;
        }
        Ok((n, None))
    }

    /// Stops `step` before any instruction that reads (`read`) or writes (`write`) a byte of
    /// [address, address+size).
    #[pyo3(signature = (address, size, read = false, write = true))]
    fn watch(&mut self, address: u64, size: u64, read: bool, write: bool) {
        self.mem.watch(address, size, read, write);
    }

    /// Removes the watch on exactly [address, address+size); returns whether there was one.
    fn unwatch(&mut self, address: u64, size: u64) -> bool {
        self.mem.unwatch(address, size)
    }

    /// The watched ranges as (address, size, read, write).
    fn watchpoints(&self) -> Vec<(u64, u64, bool, bool)> {
        self.mem.watchpoints().iter().map(|w| (w.addr, w.len, w.read, w.write)).collect()
    }

    #[staticmethod]
    #[pyo3(signature = (word, pc = 0))]
    fn disassemble(word: u32, pc: u64) -> String {
        disassemble(word, pc)
    }
}

/// Instructions between checks for Ctrl-C (tens of milliseconds at the core's speed).
const SIGNAL_CHECK_INTERVAL: u64 = 1 << 22;

impl Arm64Core {
    /// Executes up to `n` instructions; returns how many completed (an SVC counts) and the
    /// exception that stopped it, if any.
    fn run(&mut self, n: u64) -> (u64, Option<Exception>) {
        let (cpu, mem, code) = (&mut self.cpu, &mut self.mem, &mut self.code);
        let (done, result) = if n > 0 && self.watch_stop.take() == Some(cpu.pc) {
            match mem.without_watchpoints(|mem| code.step(cpu, mem)) {
                Ok(()) => {
                    let (ran, result) = code.run(cpu, mem, n - 1);
                    (ran + 1, result)
                }
                Err(e) => (matches!(e, Exception::Svc { .. }) as u64, Err(e)),
            }
        } else {
            code.run(cpu, mem, n)
        };
        if let Err(Exception::Watchpoint { pc, .. }) = result {
            self.watch_stop = Some(pc);
        }
        (done, result.err())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Arm64Core>()
}
