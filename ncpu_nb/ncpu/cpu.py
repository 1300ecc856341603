"""`CPU`: the nCPU teaching machine, batched over lanes, implementing the machine protocol."""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from html import escape

import numpy as np

from ncpu_nb import _metal, html, machine_arguments as arguments
from ncpu_nb.errors import CycleBudgetExceeded, ExecutionError
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.program import Program, data_address
from ncpu_nb.ncpu.float_format import BINARY32
from ncpu_nb.ncpu.table import ALU_NAMES, CONDITION_NAMES, FLAGS, KINDS, MASK, REGISTERS
from ncpu_nb.ncpu.call_frames import call_stack
from ncpu_nb.protocol import (Breakpoints, DebugExtras, DebugLayout, Frame, RegisterGroup, RunResult, Snapshot,
                              Trace, TraceStep, Watchpoints, budget)

# The Rust executor numbers ALU operations, kinds and conditions; both sides must agree.
assert tuple(_metal.NCPU_ALU_NAMES) == ALU_NAMES
assert tuple(_metal.NCPU_KIND_NAMES) == KINDS
assert tuple(_metal.NCPU_CONDITION_NAMES) == CONDITION_NAMES

MODES = ("fast", "neural")  # the exact integer ALU, or the trained networks (ncpu_nb.ncpu.neural_mode)
DEFAULT_BUDGET = 1_000_000  # steps a `run` may take unless told otherwise
STATUS = ("running", "halted", "fault", "breakpoint", "watchpoint")  # the executor's status bytes
# Lane-instructions per call into the executor, some 15-70 ms of work in each mode: Python sees
# Ctrl-C (and the widget's pause) between calls.
CHUNK = {"fast": 4_000_000, "neural": 40_000}
# Steps per call on torch lanes (a step runs every lane); on a GPU, whole replays of captured 64-step graphs.
TORCH_STEPS = {"cpu": {"fast": 512, "neural": 16}, "cuda": {"fast": 1024, "neural": 128}}


def _signed(value: int) -> int:
    return value - (1 << 32) if value & 0x8000_0000 else value


def flags_text(bits: int) -> str:
    """'ZS..'-style flag string: the letter of each set flag."""
    return "".join(name[0] for i, name in enumerate(FLAGS) if bits >> i & 1)


@dataclass(frozen=True)
class CpuRun(RunResult):
    """What one `run` did (see `RunResult`): the shown lane's stop, steps and PC, and over all lanes the
    instructions executed, the most steps any lane ran, and how many lanes ended in each state."""

    instructions: int = 0  # over all lanes, this run
    lanes: dict[str, int] = field(default_factory=dict)
    longest: int = 0
    lane: int = 0  # the lane `stop`, `steps` and `pc` are of

    @property
    def cycles(self) -> int:
        warnings.warn("CpuRun.cycles is now .steps", DeprecationWarning, stacklevel=2)
        return self.steps

    @property
    def status(self) -> str:
        warnings.warn("CpuRun.status is now .stop ('budget' where it said 'running')", DeprecationWarning,
                      stacklevel=2)
        return "running" if self.stop == "budget" else self.stop

    def _repr_html_(self) -> str:
        rows = self._rows()
        if sum(self.lanes.values()) > 1:
            rows[:2] = [[f"{name} (lane {self.lane})", value] for name, value in rows[:2]]
            rows[2:2] = [["steps (longest lane)", f"{self.longest:,}"],
                         ["lanes", escape(", ".join(f"{n:,} {s}" for s, n in self.lanes.items() if n))],
                         ["instructions (all lanes)", f"{self.instructions:,}"]]
        return html.view("Run", html.table(["", ""], rows))


class CPU:
    """The nCPU machine. `CPU(source)` assembles and loads; `run()` runs to HALT.

    mode         'fast' (the exact integer ALU) or 'neural' (the trained networks); see `mode`
    lanes        independent machines run together (same or different programs)
    memory_size  bytes of data memory per lane (the stack starts at its top)
    trace_depth  steps of `trace_lane` kept in `trace` (0 turns tracing off)
    lane         the lane the machine protocol shows (registers, pc, flags, cycles, status, memory,
                 listing, trace): 0 unless chosen, e.g. by the debugger's lane picker
    max_steps    default step budget of `run` (1,000,000)
    device       None (the default): the Rust lane executor, on the CPU's cores. A torch device ('cpu',
                 'cuda', 'cuda:1', ...): every lane as batched tensor operations on that device
                 (`ncpu_nb.ncpu.torch_lanes`), in neural mode one batched forward pass of the trained
                 cells per step; the same results lane for lane and the same face (breakpoints,
                 watchpoints, trace, snapshots, faults, budgets). Worth it for thousands of lanes on a GPU.
    compile      torch lanes only: fuse the work of a step with torch.compile (fast mode: the whole step of
                 plain runs; neural mode: the wiring of the cells). None (the default): on a CUDA device,
                 where it is several times faster; compiling takes tens of seconds, once a process.
    """

    def __init__(self, program: str | Program | list | None = None, *, mode: str = "fast", lanes: int = 1,
                 memory_size: int = 65536, trace_depth: int = 256, trace_lane: int = 0,
                 max_steps: int | None = None, registers: dict | None = None, max_cycles: int | None = None,
                 device: str | None = None, compile: bool | None = None):
        self.memory_size = memory_size
        self._device = None if device is None else str(device)
        if compile is not None and device is None:
            raise ValueError("compile= applies to torch lanes: give a device too (device='cuda')")
        self._compile = compile
        self.max_steps = budget(max_steps, "max_cycles", max_cycles) or DEFAULT_BUDGET
        self._trace_depth, self._trace_lane = trace_depth, trace_lane
        self._lane = 0
        self._programs: list[Program] = []
        self._initial_registers: dict = {}
        self._mode = "fast"
        self._exec = self._new_executor(lanes)  # first: it refuses more lanes than a CPU may hold
        self._lane_program_ids: list[int] = [0] * lanes
        self.mode = mode
        self.breakpoints = Breakpoints(self._code_index, self._set_breakpoint)
        self.watchpoints = Watchpoints(self._data_address, self._set_watchpoint, word=4, show=str)
        self._stopped_at_watch = ""
        if program is not None:
            self.load(program, registers=registers)

    # --- loading -------------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        """'fast' (the exact integer ALU) or 'neural' (the trained networks of weights/).
        Assigning switches the ALU of a loaded, even half-run, machine; all state is kept."""
        return self._mode

    @mode.setter
    def mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        self._attach_alu(self._exec, mode)
        self._mode = mode

    def _attach_alu(self, executor, mode: str) -> None:
        if mode == "neural" and self._device is not None:
            executor.use_networks()  # the torch wiring of the cells, on the lanes' device
        elif mode == "neural":
            from ncpu_nb.ncpu.neural_mode import use_networks  # loads the weights

            use_networks(executor)
        else:
            executor.use_exact_alu()

    @property
    def device(self) -> str | None:
        """The torch device the lanes run on, or None for the Rust executor (see the class docstring)."""
        return self._device

    @property
    def max_cycles(self) -> int:
        warnings.warn("CPU.max_cycles is now CPU.max_steps", DeprecationWarning, stacklevel=2)
        return self.max_steps

    def _code_index(self, where) -> int:
        """An instruction index of the shown lane's program from an int or a code label."""
        program = self.program
        if isinstance(where, str):
            if program is None or where not in (program.code_labels or {}):
                raise KeyError(f"no code label {where!r}")
            return program.code_labels[where]
        if program is None or not 0 <= int(where) < len(program):
            raise IndexError(f"no instruction {where}")
        return int(where)

    def _set_breakpoint(self, index: int, on: bool) -> None:
        self._exec.set_breakpoint(self._lane_program_ids[self._lane], index, on)

    def _data_address(self, where) -> int:
        """A data address from an int or a data label of the shown lane's program."""
        return data_address(where, self.program, self.memory_size)

    def _set_watchpoint(self, w, on: bool) -> None:
        self._exec.set_watch(w.address, w.size, w.read, w.write, on)

    def _new_executor(self, lanes: int):
        if self._device is None:
            executor = _metal.NcpuLanes(lanes, self.memory_size, self._trace_depth, self._trace_lane)
        else:
            from ncpu_nb.ncpu.torch_lanes import TorchLanes  # imports torch: only when asked

            executor = TorchLanes(lanes, self.memory_size, self._trace_depth, self._trace_lane, device=self._device,
                                  compile=self._compile)
        self._attach_alu(executor, self._mode)
        return executor

    def load(self, program: str | Program | list, *, registers: dict | None = None) -> "CPU":
        """Load one program into every lane, or a list of programs, one per lane.
        `registers` gives initial values (an int, or a sequence with one value per lane)."""
        programs = program if isinstance(program, (list, tuple)) else None
        lanes = len(programs) if programs is not None else self.lanes
        if lanes != self.lanes:
            self._exec = self._new_executor(lanes)
            for w in self.watchpoints:
                self._set_watchpoint(w, True)
        items = programs if programs is not None else [program]
        self._programs = [p if isinstance(p, Program) else assemble(p) for p in items]
        ids = [self._exec.add_program(p.micro_ops) for p in self._programs]
        self._lane_program_ids = ids if programs is not None else ids * lanes
        self.breakpoints = Breakpoints(self._code_index, self._set_breakpoint)
        self._initial_registers = dict(registers or {})
        self._lane = min(self._lane, lanes - 1)
        self.reset()
        return self

    @property
    def initial_registers(self) -> dict[str, int]:
        """The registers `load` set before the first instruction (`reset` sets them again)."""
        return dict(self._initial_registers)

    def reload(self, source: str) -> "CPU":
        """Assemble `source` and load it as `load` does (one program in every lane), keeping the
        breakpoints: each moves with its source line (lines matched by their text, as a diff does);
        one whose line is gone is dropped. Raises AssemblyError (and changes nothing) on bad source."""
        new = assemble(source)
        old = self.program
        kept = _moved_breakpoints(old, new, set(self.breakpoints)) if old is not None else set()
        self.load(new, registers=self._initial_registers or None)
        for index in kept:
            self.breakpoints.add(index)
        return self

    @property
    def program(self) -> Program | None:
        """The program of the shown lane (`lane`)."""
        return self._programs[self._lane_index(self._lane)] if self._programs else None

    @property
    def lane(self) -> int:
        return self._lane

    @lane.setter
    def lane(self, lane: int) -> None:
        """Show another lane; the trace follows it (from its next step). Breakpoints belong to the
        program shown: moving to a lane that runs another program clears them."""
        lane = int(lane)
        if not 0 <= lane < self.lanes:
            raise IndexError(f"no lane {lane}: this CPU has lanes 0 to {self.lanes - 1}")
        if self._lane_program_ids[lane] != self._lane_program_ids[self._lane]:
            self.breakpoints.clear()
        self._lane = lane
        self.set_trace(self._trace_depth, lane)

    def _lane_index(self, lane: int) -> int:
        return 0 if len(self._programs) == 1 else lane

    def reset(self) -> None:
        """Every lane back to its start: registers zero (then the load-time values), PC 0, data reloaded."""
        if not self._programs:
            return
        for lane, pid in enumerate(self._lane_program_ids):
            self._exec.load_lane(lane, pid, self._programs[self._lane_index(lane)].data)
        if self._initial_registers:
            self.set_registers(**self._initial_registers)

    # --- state ----------------------------------------------------------------------------------
    @property
    def lanes(self) -> int:
        return self._exec.lanes

    def registers_array(self) -> np.ndarray:
        """All registers as a (lanes, 9) int32 array, columns R0-R7, SP."""
        return np.frombuffer(self._exec.registers(), dtype="<u4").reshape(self.lanes, len(REGISTERS)).view(np.int32)

    def _lane_state(self, lane: int):
        return self._exec.lane_state(lane)

    @property
    def registers(self) -> dict[str, int]:
        """The shown lane's registers as signed integers."""
        return self.lane_registers(self._lane)

    def lane_registers(self, lane: int) -> dict[str, int]:
        return dict(zip(REGISTERS, (int(v) for v in self.registers_array()[lane])))

    @property
    def floats(self) -> dict[str, float]:
        """The shown lane's R0-R7 read as binary32 floats (the float unit's view of the same bits)."""
        return self.lane_floats(self._lane)

    def lane_floats(self, lane: int) -> dict[str, float]:
        row = self.registers_array()[lane].view(np.float32)
        return {name: float(row[i]) for i, name in enumerate(REGISTERS[:8])}

    def set_registers(self, lane: int | None = None, **values) -> None:
        """`cpu.set_registers(R0=5)` sets a register in every lane (or one `lane`);
        a sequence value gives one value per lane."""
        for name, value in values.items():
            reg = REGISTERS.index(name.upper()) if name.upper() in REGISTERS else None
            if reg is None:
                raise KeyError(f"no register {name!r}; registers are {', '.join(REGISTERS)}")
            lanes = range(self.lanes) if lane is None else [lane]
            per_lane = np.ndim(value) > 0
            if per_lane and len(value) != self.lanes:
                raise ValueError(f"{name}: {len(value)} values for {self.lanes} lanes")
            bits = [arguments.register_bits(name, v, 32) for v in (value if per_lane else [value])]
            for l in lanes:
                self._exec.set_register(l, reg, bits[l] if per_lane else bits[0])

    def set_register(self, name: str, value: int) -> None:
        """One register of the shown lane (the protocol's edit; `set_registers` sets many, in any lanes)."""
        arguments.register_name(name)
        if not isinstance(value, (int, np.integer)):
            raise TypeError(f"{name} holds a 32-bit integer, not {value!r} (for a float's bits use set_floats)")
        self.set_registers(self._lane, **{name: value})

    def set_floats(self, lane: int | None = None, **values) -> None:
        """`cpu.set_floats(R0=2.5)`: registers set to the binary32 bits of numbers (rounded to nearest
        even), in every lane or one `lane`; a sequence value gives one number per lane."""
        bits = {name: ([BINARY32.from_float(float(v)) for v in value] if np.ndim(value) > 0
                       else BINARY32.from_float(float(value))) for name, value in values.items()}
        self.set_registers(lane, **bits)

    @property
    def pc(self) -> int:
        return self._lane_state(self._lane)[0]

    @pc.setter
    def pc(self, value: int) -> None:
        self._exec.set_pc(self._lane, arguments.location(value, 32))

    @property
    def flags(self) -> dict[str, bool]:
        return self.lane_flags(self._lane)

    def flags_array(self) -> np.ndarray:
        """Every lane's flag bits (ZF 1, SF 2, CF 4, OF 8) as a uint8 array."""
        return np.frombuffer(self._exec.flags(), dtype=np.uint8)

    def lane_flags(self, lane: int) -> dict[str, bool]:
        bits = self._lane_state(lane)[1]
        return {name: bool(bits >> i & 1) for i, name in enumerate(FLAGS)}

    @property
    def cycles(self) -> int:
        return self._lane_state(self._lane)[2]

    def lane_cycles(self) -> np.ndarray:
        return np.frombuffer(self._exec.cycles(), dtype="<u8").astype(np.int64)

    @property
    def status(self) -> str:
        """The shown lane: 'running', 'halted', 'fault', 'breakpoint' or 'watchpoint'."""
        return STATUS[self._lane_state(self._lane)[3]]

    @property
    def stop_detail(self) -> str:
        """The shown lane at a watchpoint: the access it stopped before ('write of 0x10'); at a fault, what went wrong."""
        _, _, _, status, kind, value, _ = self._lane_state(self._lane)
        if STATUS[status] == "watchpoint":
            return f"{'write' if kind == 4 else 'read'} of 0x{value:X}"
        return self._fault_text(kind, value) if STATUS[status] == "fault" else ""

    def _fault_text(self, kind: int, value: int) -> str:
        return (f"memory access at 0x{value:X} is outside data memory ({self.memory_size} bytes)"
                if kind == 1 else f"jump to {value}, outside the program")

    def lane_fault(self, lane: int) -> tuple[int, str] | None:
        """Where and why `lane` faulted: (pc, what went wrong), or None if it has not faulted."""
        pc, _, _, status, kind, value, _ = self._lane_state(lane)
        return (pc, self._fault_text(kind, value)) if STATUS[status] == "fault" else None

    def lane_counts(self) -> dict[str, int]:
        """How many lanes stand in each state ('running', 'halted', ...), counted in bulk."""
        return _counted(self._exec.statuses())

    def lane_status(self) -> list[str]:
        return [STATUS[b] for b in self._exec.statuses()]

    @property
    def halted(self) -> bool:
        return self.status == "halted"

    def read_memory(self, address: int, n: int, lane: int | None = None) -> bytes:
        """Data memory of a lane (default: the shown lane)."""
        return self._exec.read_memory(self._lane if lane is None else lane, address, n)

    def write_memory(self, address: int, data: bytes, lane: int | None = None) -> None:
        """Write into data memory of every lane, or of one `lane`."""
        for l in range(self.lanes) if lane is None else [lane]:
            self._exec.write_memory(l, address, bytes(data))

    def read_word(self, address: int, lane: int | None = None) -> int:
        """The signed 32-bit word at `address`."""
        return _signed(int.from_bytes(self.read_memory(address, 4, lane), "little"))

    # --- running ---------------------------------------------------------------------------------
    def _instruction_text(self, lane: int, pc: int) -> str:
        program = self._programs[self._lane_index(lane)]
        return program.instructions[pc].text(program.label_at()) if pc < len(program) else "(end of program)"

    def _check_faults(self) -> None:
        lane = self._exec.statuses().find(STATUS.index("fault"))  # the first faulted lane, read in bulk
        if lane >= 0:
            pc, _, _, _, kind, value, _ = self._lane_state(lane)
            raise ExecutionError(self._fault_text(kind, value), pc, self._instruction_text(lane, pc), lane)

    def _steps_per_call(self) -> int:
        """Steps per call into the executor: Python sees Ctrl-C (and the widget's pause) between calls.
        The torch lanes take a step for all lanes at once, so their calls are sized in steps."""
        if self._device is not None:
            return TORCH_STEPS["cuda" if self._exec.device.type == "cuda" else "cpu"][self._mode]
        return max(1, CHUNK[self._mode] // self.lanes)

    def step(self, n: int = 1) -> int:
        """Execute up to `n` instructions in every running lane (breakpoints do not stop a step; a
        watchpoint does, before the access). Returns the instructions the shown lane executed."""
        remaining = arguments.count(n, "n")
        before = self.cycles
        self._exec.resume()
        while remaining > 0:
            chunk = min(remaining, self._steps_per_call())
            self._exec.run(chunk, False)
            remaining -= chunk
            if 0 not in self._exec.statuses():  # no lane running (status bytes; 0 = running)
                break
        self._check_faults()
        return self.cycles - before

    def run(self, max_steps: int | None = None, *, check: bool = True, max_cycles: int | None = None) -> CpuRun:
        """Run every lane until HALT, a breakpoint or watchpoint, or `max_steps` more steps (default
        `self.max_steps`). With `check`, a fault raises ExecutionError and an exhausted budget
        CycleBudgetExceeded (the machine keeps its state either way, so you can inspect it)."""
        max_steps = budget(max_steps, "max_cycles", max_cycles)
        limit = self.max_steps if max_steps is None else max_steps
        start, t0, done = self.lane_cycles(), time.perf_counter(), 0
        self._exec.resume()
        remaining = limit
        while remaining > 0:
            chunk = min(remaining, self._steps_per_call())
            done += self._exec.run(chunk, True)
            remaining -= chunk
            if 0 not in self._exec.statuses():  # no lane running (status bytes; 0 = running)
                break
        seconds = time.perf_counter() - t0
        statuses = self._exec.statuses()
        counts = _counted(statuses)
        if check:
            self._check_faults()
            if counts["running"]:
                lane = statuses.find(STATUS.index("running"))
                pc = self._lane_state(lane)[0]
                raise CycleBudgetExceeded(limit, pc, self._instruction_text(lane, pc), counts["running"])
        ran = self.lane_cycles() - start
        stop = "budget" if self.status == "running" else self.status
        return CpuRun(stop, int(ran[self._lane]), seconds, self.pc, self.stop_detail, done, counts, int(ran.max()),
                      self._lane)

    # --- debugging -------------------------------------------------------------------------------
    def set_trace(self, depth: int, lane: int = 0) -> None:
        """Keep the last `depth` steps of `lane` in `trace` (0 turns tracing off, the fastest)."""
        self._exec.set_trace(depth, lane)
        self._trace_depth, self._trace_lane = depth, lane

    @property
    def trace_depth(self) -> int:
        """Steps of the traced lane kept in `trace` (0: off, the fastest); settable."""
        return self._trace_depth

    @trace_depth.setter
    def trace_depth(self, depth: int) -> None:
        self.set_trace(depth, self._trace_lane)

    @property
    def trace(self) -> Trace:
        """Recent steps of the traced lane (see `trace_depth`), oldest first."""
        lane = self._trace_lane
        steps = []
        for cycle, pc, next_pc, f0, f1, changes, access in self._exec.trace():
            steps.append(TraceStep(
                cycle, pc, self._instruction_text(lane, pc), next_pc,
                {REGISTERS[r]: (_signed(old), _signed(new)) for r, old, new in changes},
                flags_text(f0), flags_text(f1), access[:2] if access and access[2] else None, lane,
                (access,) if access else ()))
        return Trace(steps)

    def set_coverage(self, on: bool = True) -> None:
        """Edge coverage for fuzzing, counted inside the executor's loop: while on, each jump (taken or
        not), call and return adds one to its (pc, next pc) edge's slot in its lane's map; loading or
        resetting a lane empties its map. Off (the default) the run loop has no coverage code at all."""
        if self._device is not None:
            raise NotImplementedError("edge coverage is counted by the Rust lane executor (device=None)")
        self._exec.set_coverage(on)

    def coverage(self) -> np.ndarray | None:
        """Every lane's edge-coverage map as a (lanes, NCPU_COVERAGE_SLOTS) uint8 array of saturating
        hit counts, or None while coverage is off (see `set_coverage`)."""
        maps = None if self._device is not None else self._exec.coverage()
        return None if maps is None else np.frombuffer(maps, np.uint8).reshape(self.lanes, -1)

    def snapshot(self) -> Snapshot:
        """A copy of every lane's state; `restore` returns to it (also after loading nothing new)."""
        return Snapshot(self.cycles, self._exec.snapshot())

    def restore(self, snapshot: Snapshot) -> None:
        """Back to `snapshot`; the trace keeps the steps before that moment."""
        self._exec.restore(Snapshot.given(snapshot).state)

    def restore_keeping_trace(self, snapshot: Snapshot) -> None:
        """`restore`, keeping the whole trace as it is (it then describes the steps that led there)."""
        self._exec.restore_keeping_trace(Snapshot.given(snapshot).state)

    def disassemble(self, start: int | None = None, n: int = 8) -> list[tuple[int, str]]:
        """(index, text) for `n` instructions of the shown lane's program from `start` (default: the PC)."""
        program = self.program
        if program is None:
            return []
        start = self.pc if start is None else start
        labels = program.label_at()
        return [(i, program.instructions[i].text(labels)) for i in range(max(0, start), min(len(program), start + n))]

    def code_labels(self) -> dict[int, str]:
        """Instruction index -> code label of the shown lane's program."""
        return self.program.label_at() if self.program is not None else {}

    def return_address(self, location: int) -> int | None:
        """The index a CALL at `location` returns to (None: no CALL there)."""
        program = self.program
        if program is None or not 0 <= location < len(program):
            return None
        return location + 1 if program.instructions[location].mnemonic == "CALL" else None

    def call_stack(self) -> list[Frame]:
        """The active calls of the shown lane, innermost first (see `ncpu_nb.ncpu.call_frames`)."""
        def word(address: int) -> int:
            return int.from_bytes(self.read_memory(address, 4), "little")

        return call_stack(self.program, self.pc, self.registers["SP"], word, self.memory_size)

    def source_at(self, location: int) -> None:
        """None: the listing is the assembly source itself."""
        return None

    def memory_map(self) -> list[tuple[int, int, str]]:
        """Each lane's data memory: one range."""
        return [(0, self.memory_size, "rw-")]

    def debug_layout(self) -> DebugLayout:
        """R0-R7 and SP, 32 bits; code locations are instruction indices."""
        return DebugLayout((RegisterGroup("registers", REGISTERS, 32),))

    @property
    def title(self) -> str:
        """'bubble_sort · neural mode' (and the lane shown, when there are several)."""
        program = self.program
        name = ("no program" if program is None else program.name if not program.name.startswith("<")
                else f"{len(program)} instructions")
        return f"{name} · {self.mode} mode" + (f" · lane {self._lane} of {self.lanes}" if self.lanes > 1 else "")

    def debug_extras(self) -> DebugExtras:
        """Nothing beyond registers, code, memory and trace: the nCPU is exact."""
        return DebugExtras()

    def debugger(self, **options):
        """A live debugger in the notebook (the shown lane; it has a lane picker): registers, memory, listing with breakpoints, trace,
        and step / run / pause / back / reset (see `ncpu_nb.views.Debugger` for the options)."""
        from ncpu_nb.views.debugger import Debugger  # imports anywidget: only when asked

        return Debugger(self, **options)

    # --- display ---------------------------------------------------------------------------------
    def __repr__(self) -> str:
        regs = " ".join(f"{k}={v}" for k, v in self.registers.items())
        lanes = f", {self.lanes} lanes" if self.lanes > 1 else ""
        return f"<CPU {self.mode}{lanes}: pc={self.pc} cycles={self.cycles} {self.status} | {regs}>"

    def _repr_html_(self) -> str:
        regs = self.registers
        reg_rows = [[name, str(value), f"0x{value & MASK:08X}"] for name, value in regs.items()]
        flag_rows = [[name, "1" if on else "0"] for name, on in self.flags.items()]
        state = [["pc", str(self.pc)], ["cycles", f"{self.cycles:,}"], ["status", self.status]]
        if self.lanes > 1:
            state.append(["lanes", str(self.lanes)])
        listing = (self.program.listing_html(self.pc, 5, frozenset(self.breakpoints))
                   if self.program is not None else "<div class='dim'>no program loaded</div>")
        return html.view(
            f"nCPU ({self.mode} mode)" + (f", lane {self._lane} of {self.lanes}" if self.lanes > 1 else ""),
            html.box(html.table(["register", "value", "hex"], reg_rows, numeric=(1,))),
            html.box(html.table(["flag", ""], flag_rows), html.table(["", ""], state)),
            html.box(listing),
        )


def _counted(statuses: bytes) -> dict[str, int]:
    """Lanes in each state, from the executor's status bytes (a million lanes as strings cost seconds)."""
    return dict(zip(STATUS, np.bincount(np.frombuffer(statuses, np.uint8), minlength=len(STATUS)).tolist()))


def _moved_breakpoints(old: Program, new: Program, breakpoints: set[int]) -> set[int]:
    """Where breakpoints on `old`'s instructions land in `new`: by source line, the lines of the two
    sources matched as a diff matches them (an edited or deleted line loses its breakpoint)."""
    import difflib

    old_lines, new_lines = old.source.splitlines(), new.source.splitlines()
    line_moves: dict[int, int] = {}
    for a, b, size in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_matching_blocks():
        line_moves.update((a + k + 1, b + k + 1) for k in range(size))
    index_of_line = {line: i for i, line in reversed(list(enumerate(new.lines)))}
    return {index_of_line[line_moves[old.lines[i]]] for i in breakpoints
            if i < len(old.lines) and old.lines[i] in line_moves and line_moves[old.lines[i]] in index_of_line}
