//! Python face of the lane executor: `ncpu_nb._metal.NcpuLanes`.
//! State crosses as little-endian bytes that Python views as numpy arrays.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::alu::FastAlu;
use super::float;
use super::exec::{check_op, Lanes, MicroOp, Runner, Status, TraceRing, Watch, COVERAGE_SLOTS, LANE_STATE_BYTES, NREGS};
use super::neural::{Cell, NeuralAlu};

/// Bytes of lane state one CPU may hold (lanes × their memory and registers; coverage maps):
/// asked for more, it refuses before allocating rather than abort the process.
const MAX_LANE_BYTES: usize = 4 << 30;

/// A cell as Python hands it over: (inputs, outputs, w1, b1, w2, b2), weights row-major.
type CellWeights = (usize, usize, Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>);

type OpTuple = (u8, u8, u8, u8, u8, u32, u8, u8, u8, u32);

/// A copy of every lane's state, for `snapshot()` / `restore()`.
#[pyclass(module = "ncpu_nb._metal", frozen)]
pub struct NcpuSnapshot {
    state: Lanes,
}

#[pyclass(module = "ncpu_nb._metal")]
pub struct NcpuLanes {
    state: Lanes,
    programs: Vec<Vec<MicroOp>>,
    breakpoints: Vec<Vec<bool>>,
    watches: Vec<Watch>,
    trace: TraceRing,
    trace_lane: Option<usize>,
    neural: Option<NeuralAlu>,
}

impl NcpuLanes {
    fn state_of(&self, l: usize) -> (u32, u8, u64, u8, u8, u32, u32) {
        let s = &self.state;
        (s.pc[l], s.flags[l], s.cycles[l], s.status[l] as u8, s.fault[l].kind, s.fault[l].value, s.lane_program[l])
    }

    fn lane(&self, lane: usize) -> PyResult<usize> {
        if lane < self.state.lanes {
            Ok(lane)
        } else {
            Err(PyIndexError::new_err(format!("lane {} out of range (0..{})", lane, self.state.lanes)))
        }
    }

    /// Refuses lane state of `per_lane` bytes for every lane before it is allocated, when all of it
    /// would exceed MAX_LANE_BYTES (`what` names the arguments that sized it).
    fn fits(lanes: usize, per_lane: usize, what: &str) -> PyResult<()> {
        if lanes.checked_mul(per_lane).is_none_or(|b| b > MAX_LANE_BYTES) {
            return Err(PyValueError::new_err(format!(
                "{what}: {lanes} lanes of {per_lane} bytes each are more than the {} GiB one CPU may hold",
                MAX_LANE_BYTES >> 30
            )));
        }
        Ok(())
    }

    fn span(&self, addr: usize, n: usize) -> PyResult<std::ops::Range<usize>> {
        match addr.checked_add(n) {
            Some(end) if end <= self.state.mem_size => Ok(addr..end),
            _ => Err(PyIndexError::new_err(format!(
                "memory range 0x{:X}+{} is outside data memory ({} bytes)",
                addr, n, self.state.mem_size
            ))),
        }
    }
}

#[pymethods]
impl NcpuLanes {
    #[new]
    #[pyo3(signature = (lanes, memory_size, trace_depth=0, trace_lane=0))]
    fn new(lanes: usize, memory_size: usize, trace_depth: usize, trace_lane: usize) -> PyResult<Self> {
        if lanes == 0 || memory_size > u32::MAX as usize {
            return Err(PyValueError::new_err("need at least one lane and a memory size below 4 GiB"));
        }
        Self::fits(lanes, memory_size + LANE_STATE_BYTES, "lanes × memory_size")?;
        Ok(NcpuLanes {
            state: Lanes::new(lanes, memory_size),
            programs: Vec::new(),
            breakpoints: Vec::new(),
            watches: Vec::new(),
            trace: TraceRing { depth: trace_depth, entries: Default::default() },
            trace_lane: (trace_depth > 0).then_some(trace_lane),
            neural: None,
        })
    }

    /// Adds a program (a list of micro-op tuples); returns its id.
    fn add_program(&mut self, ops: Vec<OpTuple>) -> PyResult<usize> {
        let ops: Vec<MicroOp> = ops
            .into_iter()
            .map(|(kind, alu, dst, a, b, imm, flags, cond, width, target)| MicroOp {
                kind, alu, dst, a, b, imm, flags, cond, width, target,
            })
            .collect();
        for (i, op) in ops.iter().enumerate() {
            check_op(op, ops.len()).map_err(|e| PyValueError::new_err(format!("micro-op {}: {}", i, e)))?;
        }
        self.breakpoints.push(vec![false; ops.len() + 1]);
        self.programs.push(ops);
        Ok(self.programs.len() - 1)
    }

    /// Points `lane` at program `program` and resets it with `data` at address 0.
    fn load_lane(&mut self, lane: usize, program: usize, data: &[u8]) -> PyResult<()> {
        let lane = self.lane(lane)?;
        if program >= self.programs.len() {
            return Err(PyIndexError::new_err(format!("no program {}", program)));
        }
        if data.len() > self.state.mem_size {
            return Err(PyValueError::new_err(format!(
                "the program's data ({} bytes) does not fit in data memory ({} bytes)",
                data.len(),
                self.state.mem_size
            )));
        }
        self.state.lane_program[lane] = program as u32;
        self.state.reset_lane(lane, data);
        if self.trace_lane == Some(lane) {
            self.trace.entries.clear();
        }
        Ok(())
    }

    /// Neural mode: compute with the trained cells from now on (logic, combine, full_adder, mux).
    fn use_networks(&mut self, logic: CellWeights, combine: CellWeights, full_adder: CellWeights, mux: CellWeights)
        -> PyResult<()> {
        let cell = |(n_in, n_out, w1, b1, w2, b2): CellWeights| {
            Cell::new(n_in, n_out, w1, b1, w2, b2).map_err(PyValueError::new_err)
        };
        self.neural = Some(NeuralAlu { logic: cell(logic)?, combine: cell(combine)?, full_adder: cell(full_adder)?,
                                       mux: cell(mux)? });
        Ok(())
    }

    /// Float operation `op` (an index into NCPU_ALU_NAMES) on each pair of little-endian u32 bit
    /// patterns in `a`, `b`, in the format with `exponent_bits`/`mantissa_bits`, by this machine's
    /// ALU: the trained cells in neural mode; in fast mode the host's binary32, or with `wired`
    /// the float unit's microprogram over the exact integer ALU. Returns results, then CF, OF per pair
    /// as (little-endian words, one byte per pair: CF | OF << 1); the GIL is released and the pairs
    /// are split over the cores.
    #[pyo3(signature = (op, a, b, exponent_bits=8, mantissa_bits=23, wired=false))]
    #[allow(clippy::too_many_arguments)]
    fn float_batch<'py>(&self, py: Python<'py>, op: u8, a: &[u8], b: &[u8], exponent_bits: u32, mantissa_bits: u32,
                        wired: bool) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        if !(float::FIRST as usize..super::alu::ALU_NAMES.len()).contains(&(op as usize)) {
            return Err(PyValueError::new_err(format!("operation {op} is not a float operation")));
        }
        if a.len() != b.len() || !a.len().is_multiple_of(4) {
            return Err(PyValueError::new_err("a and b must be the same number of 4-byte words"));
        }
        let format = float::Format::new(exponent_bits, mantissa_bits).map_err(PyValueError::new_err)?;
        let native = self.neural.is_none() && !wired;
        if native && format != float::BINARY32 {
            return Err(PyValueError::new_err("the host computes binary32 only; pass wired=True for other formats"));
        }
        let words = |x: &[u8]| x.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect::<Vec<u32>>();
        let (a, b) = (words(a), words(b));
        let neural = &self.neural;
        let (results, flags) = py.detach(|| {
            let one = |(x, y): (&u32, &u32)| match neural {
                Some(alu) => float::wired(alu, format, op, *x, *y),
                None if native => float::native(op, *x, *y),
                None => float::wired(&FastAlu, format, op, *x, *y),
            };
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).max(1);
            let chunk = a.len().div_ceil(threads).max(1);
            let parts: Vec<Vec<(u32, bool, bool)>> = std::thread::scope(|scope| {
                let handles: Vec<_> = a.chunks(chunk).zip(b.chunks(chunk))
                    .map(|(xa, xb)| scope.spawn(move || xa.iter().zip(xb).map(one).collect()))
                    .collect();
                handles.into_iter().map(|h| h.join().expect("float thread panicked")).collect()
            });
            let all: Vec<(u32, bool, bool)> = parts.into_iter().flatten().collect();
            let results: Vec<u8> = all.iter().flat_map(|r| r.0.to_le_bytes()).collect();
            let flags: Vec<u8> = all.iter().map(|r| r.1 as u8 | (r.2 as u8) << 1).collect();
            (results, flags)
        });
        Ok((PyBytes::new(py, &results), PyBytes::new(py, &flags)))
    }

    /// Fast mode: compute with the exact integer ALU from now on.
    fn use_exact_alu(&mut self) {
        self.neural = None;
    }

    /// Runs each running lane for at most `max_steps` instructions with the GIL released.
    /// Returns the number of instructions executed over all lanes.
    #[pyo3(signature = (max_steps, honor_breakpoints=true))]
    fn run(&mut self, py: Python<'_>, max_steps: u64, honor_breakpoints: bool) -> u64 {
        let NcpuLanes { state, programs, breakpoints, watches, trace, trace_lane, neural } = self;
        let trace_lane = *trace_lane;
        py.detach(|| match neural {
            Some(alu) => Runner { alu, programs, breakpoints, watches, trace_lane }.run(state, max_steps, honor_breakpoints, trace),
            None => Runner { alu: &FastAlu, programs, breakpoints, watches, trace_lane }
                .run(state, max_steps, honor_breakpoints, trace),
        })
    }

    /// Lanes stopped at a breakpoint or watch run again (over it) on the next `run`.
    fn resume(&mut self) {
        for lane in 0..self.state.lanes {
            if matches!(self.state.status[lane], Status::Breakpoint | Status::Watchpoint) {
                self.state.status[lane] = Status::Running;
                self.state.skip_breakpoint[lane] = true;
            }
        }
    }

    fn set_breakpoint(&mut self, program: usize, index: usize, on: bool) -> PyResult<()> {
        match self.breakpoints.get_mut(program).and_then(|b| b.get_mut(index)) {
            Some(slot) => {
                *slot = on;
                Ok(())
            }
            None => Err(PyIndexError::new_err(format!("no instruction {} in program {}", index, program))),
        }
    }

    /// Watch `size` bytes from `address` (reads and/or writes) in every lane, or stop watching them.
    fn set_watch(&mut self, address: u32, size: u32, read: bool, write: bool, on: bool) {
        let watch = Watch { start: address, end: address as u64 + size as u64, read, write };
        self.watches.retain(|w| *w != watch);
        if on {
            self.watches.push(watch);
        }
    }

    /// Turns edge coverage on (every lane's map zeroed) or off (the maps dropped). While on, each
    /// jump (taken or not), call and return counts its (pc, next pc) edge in its lane's map.
    fn set_coverage(&mut self, on: bool) -> PyResult<()> {
        if on {
            Self::fits(self.state.lanes, COVERAGE_SLOTS, "coverage maps")?;
        }
        self.state.set_coverage(on);
        Ok(())
    }

    /// Every lane's map, lane after lane (`NCPU_COVERAGE_SLOTS` saturating hit counts each; a lane's
    /// map restarts when the lane is loaded), or None while coverage is off.
    fn coverage<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        (!self.state.coverage.is_empty()).then(|| PyBytes::new(py, &self.state.coverage))
    }

    fn set_trace(&mut self, depth: usize, lane: usize) -> PyResult<()> {
        let lane = self.lane(lane)?;
        self.trace = TraceRing { depth, entries: Default::default() };
        self.trace_lane = (depth > 0).then_some(lane);
        Ok(())
    }

    /// Trace entries, oldest first: (cycle, pc, next_pc, flags_before, flags_after,
    /// [(register, old, new)], the memory access (address, width, write) or None).
    #[allow(clippy::type_complexity)]
    fn trace(&self) -> Vec<(u64, u32, u32, u8, u8, Vec<(u8, u32, u32)>, Option<(u32, u8, bool)>)> {
        self.trace
            .entries
            .iter()
            .map(|e| {
                let changes = e.changes[..e.n_changes as usize].to_vec();
                (e.cycle, e.pc, e.next_pc, e.flags_before, e.flags_after, changes, e.access)
            })
            .collect()
    }

    #[getter]
    fn lanes(&self) -> usize {
        self.state.lanes
    }

    #[getter]
    fn memory_size(&self) -> usize {
        self.state.mem_size
    }

    /// Registers as little-endian u32, lanes x 9 (R0-R7, SP).
    fn registers<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes: Vec<u8> = self.state.regs.iter().flat_map(|r| r.to_le_bytes()).collect();
        PyBytes::new(py, &bytes)
    }

    fn set_register(&mut self, lane: usize, register: usize, value: u32) -> PyResult<()> {
        let lane = self.lane(lane)?;
        if register >= NREGS {
            return Err(PyIndexError::new_err(format!("no register {}", register)));
        }
        self.state.regs[lane * NREGS + register] = value;
        Ok(())
    }

    /// Per-lane (pc, flags, cycles, status, fault kind, fault value, program).
    fn lane_states(&self) -> Vec<(u32, u8, u64, u8, u8, u32, u32)> {
        (0..self.state.lanes).map(|l| self.state_of(l)).collect()
    }

    /// One lane's (pc, flags, cycles, status, fault kind, fault value, program).
    fn lane_state(&self, lane: usize) -> PyResult<(u32, u8, u64, u8, u8, u32, u32)> {
        Ok(self.state_of(self.lane(lane)?))
    }

    /// Flag bits of every lane as bytes (ZF 1, SF 2, CF 4, OF 8).
    fn flags<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.state.flags)
    }

    /// Every lane's cycle count as little-endian u64 (a bulk read: a million lanes' states as
    /// tuples would cost Python more than running them).
    fn cycles<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes: Vec<u8> = self.state.cycles.iter().flat_map(|c| c.to_le_bytes()).collect();
        PyBytes::new(py, &bytes)
    }

    /// Lane status codes as bytes (0 running, 1 halted, 2 fault, 3 breakpoint).
    fn statuses<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let bytes: Vec<u8> = self.state.status.iter().map(|s| *s as u8).collect();
        PyBytes::new(py, &bytes)
    }

    fn set_pc(&mut self, lane: usize, pc: u32) -> PyResult<()> {
        let lane = self.lane(lane)?;
        let len = self.programs.get(self.state.lane_program[lane] as usize).map_or(0, |p| p.len());
        if pc as usize > len {
            return Err(PyIndexError::new_err(format!("pc {} is outside the program (0..{})", pc, len)));
        }
        self.state.pc[lane] = pc;
        if self.state.status[lane] != Status::Fault {
            self.state.status[lane] = Status::Running;
        }
        Ok(())
    }

    fn read_memory<'py>(&self, py: Python<'py>, lane: usize, addr: usize, n: usize) -> PyResult<Bound<'py, PyBytes>> {
        let lane = self.lane(lane)?;
        let range = self.span(addr, n)?;
        let base = lane * self.state.mem_size;
        Ok(PyBytes::new(py, &self.state.mem[base + range.start..base + range.end]))
    }

    fn write_memory(&mut self, lane: usize, addr: usize, data: &[u8]) -> PyResult<()> {
        let lane = self.lane(lane)?;
        let range = self.span(addr, data.len())?;
        let base = lane * self.state.mem_size;
        self.state.mem[base + range.start..base + range.end].copy_from_slice(data);
        Ok(())
    }

    /// `restore`, with the trace as it is (a trace rebuilt by re-execution then leads up to `snapshot`).
    fn restore_keeping_trace(&mut self, snapshot: &NcpuSnapshot) -> PyResult<()> {
        if snapshot.state.lanes != self.state.lanes || snapshot.state.mem_size != self.state.mem_size {
            return Err(PyValueError::new_err("snapshot is of a machine with another shape"));
        }
        let covering = !self.state.coverage.is_empty();
        self.state = snapshot.state.clone();
        if covering == self.state.coverage.is_empty() {
            self.state.set_coverage(covering); // coverage stays on or off, as set
        }
        Ok(())
    }

    fn snapshot(&self) -> NcpuSnapshot {
        NcpuSnapshot { state: self.state.clone() }
    }

    fn restore(&mut self, snapshot: &NcpuSnapshot) -> PyResult<()> {
        self.restore_keeping_trace(snapshot)?;
        // The trace keeps what happened before the restored moment.
        if let Some(lane) = self.trace_lane {
            let now = self.state.cycles[lane];
            self.trace.entries.retain(|e| e.cycle < now);
        }
        Ok(())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NcpuLanes>()?;
    m.add_class::<NcpuSnapshot>()?;
    m.add("NCPU_ALU_NAMES", super::alu::ALU_NAMES.to_vec())?;
    m.add("NCPU_KIND_NAMES", super::exec::KIND_NAMES.to_vec())?;
    m.add("NCPU_CONDITION_NAMES", super::exec::CONDITION_NAMES.to_vec())?;
    m.add("NCPU_COVERAGE_SLOTS", COVERAGE_SLOTS)?;
    Ok(())
}
