"""Torch lanes (`CPU(..., device=...)`) against the Rust lane executor, lane for lane: registers, flags,
memory, PC, status, fault detail and cycles of every lane, on random programs (the generator of
`randprog`), in fast and neural mode; faults, budgets, breakpoints, watchpoints, trace and snapshots
through the CPU's face. Every test runs on CPU torch, and again on a GPU where torch sees one (there the
longer runs replay captured CUDA graphs, recaptured as breakpoints, watches, traces and modes change)."""
import numpy as np
import pytest
import torch

from ncpu_nb import CPU, assemble
from ncpu_nb.errors import CycleBudgetExceeded, ExecutionError
from ncpu_nb.ncpu.table import FORMS

from randprog import INTEGER_FORMS, random_program_text, random_register_values

MEMORY = 256
LANES_PER_PROGRAM = 64
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Small tensor operations on a shared 2-core host: one thread is several times faster than two."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def machines(programs, registers, device, mode="fast", trace_depth=0, compile=None):
    """The same lanes on the Rust executor and on torch lanes: each program on LANES_PER_PROGRAM lanes."""
    lanes = [p for p in programs for _ in range(LANES_PER_PROGRAM)]
    rust = CPU(lanes, memory_size=MEMORY, trace_depth=trace_depth)
    lanes_on_torch = CPU(lanes, memory_size=MEMORY, trace_depth=trace_depth, device=device, mode=mode,
                         compile=compile)
    for cpu in (rust, lanes_on_torch):
        cpu.set_registers(**registers)
    return rust, lanes_on_torch


def state(cpu) -> dict:
    """Everything a lane has: per lane (pc, flags, cycles, status, fault kind, fault value, program)."""
    lanes = cpu._exec.lane_states()
    assert cpu.lane_cycles().tolist() == [s[2] for s in lanes]  # the bulk read says what the tuples say
    assert list(cpu._exec.statuses()) == [s[3] for s in lanes]
    return {"registers": cpu.registers_array().copy(), "flags": cpu.flags_array().copy(), "lanes": lanes,
            "memory": [cpu.read_memory(0, MEMORY, lane) for lane in range(cpu.lanes)]}


def assert_same(rust, torch_cpu, what=""):
    a, b = state(rust), state(torch_cpu)
    bad = [lane for lane in range(rust.lanes)
           if a["lanes"][lane] != b["lanes"][lane] or (a["registers"][lane] != b["registers"][lane]).any()
           or a["flags"][lane] != b["flags"][lane] or a["memory"][lane] != b["memory"][lane]]
    if bad:
        lane = bad[0]
        program = rust._programs[rust._lane_index(lane)]
        pytest.fail(f"{what}: {len(bad)} lanes differ; first lane {lane}: rust {a['lanes'][lane]} "
                    f"{a['registers'][lane].tolist()} vs torch {b['lanes'][lane]} {b['registers'][lane].tolist()}\n"
                    + "\n".join(i.text() for i in program.instructions))


def differential(seed: int, n_programs: int, budget: int, device="cpu", mode="fast", split=True,
                 compile=None, forms=None) -> dict:
    """n random programs x 64 lanes with random registers, run `budget` steps on both executors (torch
    in two calls, so lanes also carry over between calls); every lane compared. Returns the lanes'
    end states counted. Neural mode on torch lanes runs integer programs (no float unit there)."""
    rng = np.random.default_rng(seed)
    forms = forms or (INTEGER_FORMS if mode == "neural" else FORMS)
    programs = [assemble(random_program_text(rng, MEMORY, forms=forms)) for _ in range(n_programs)]
    registers = random_register_values(rng, n_programs * LANES_PER_PROGRAM)
    rust, lanes_on_torch = machines(programs, registers, device, mode, trace_depth=16, compile=compile)
    rust.run(budget, check=False)
    first = int(rng.integers(1, budget)) if split else budget
    lanes_on_torch.run(first, check=False)
    if budget > first:
        lanes_on_torch.run(budget - first, check=False)
    assert_same(rust, lanes_on_torch, f"seed {seed}, {mode} mode on {device}")
    assert lanes_on_torch._exec.trace() == rust._exec.trace()
    assert lanes_on_torch._exec.compile_error is None, lanes_on_torch._exec.compile_error
    statuses = rust.lane_status()
    return {s: statuses.count(s) for s in set(statuses)}


def test_random_programs_fast_mode_small(device):
    counts = differential(seed=1, n_programs=40, budget=150, device=device)
    assert counts.get("halted") and counts.get("fault") and counts.get("running")  # all three outcomes occur


@pytest.mark.parametrize("seed", [10, 11, 12, 13])
def test_random_programs_fast_mode_1000_programs(seed, device):
    """4 x 250 = 1,000 random programs x 64 lanes (16,000 lanes a machine)."""
    counts = differential(seed=seed, n_programs=250, budget=200, device=device)
    print(f"seed {seed}: 16,000 lanes equal; Rust lanes ended {counts}")


def test_random_programs_neural_mode(device):
    """Neural mode: every ALU operation of every lane through the trained cells, 8 programs x 64 lanes."""
    counts = differential(seed=2, n_programs=8, budget=32, device=device, mode="neural", split=False)
    assert sum(counts.values()) == 8 * LANES_PER_PROGRAM


def test_compiled_fast_steps_match_rust_on_the_cpu():
    """The fast step compiled by torch.compile (inductor's C++ here; on a GPU, where compiling is the
    default, Triton and every test of this module runs compiled): 40 integer programs x 64 lanes with a
    trace, in two calls (so the second lane count also checks the dynamic-shape code)."""
    differential(seed=5, n_programs=40, budget=150, compile=True, forms=INTEGER_FORMS)
    differential(seed=6, n_programs=30, budget=150, compile=True, forms=INTEGER_FORMS)


def test_cells_evaluated_element_by_element_compute_every_operation_as_the_networks_do():
    """What a fused neural mode compiles: `PointwiseCell` (the cells' sums written out, weights as constants)
    in the wiring of every ALU operation, uncompiled here, against the cells as torch modules."""
    from randprog import EDGE

    from ncpu_nb.ncpu.neural_alu import NeuralALU
    from ncpu_nb.ncpu.torch_cells import PointwiseCell

    modules, pointwise = NeuralALU(), NeuralALU()
    for name in ("logic", "combine", "full_adder", "mux_cell"):
        setattr(pointwise, name, PointwiseCell(getattr(modules, name)))
    rng = np.random.default_rng(7)
    a = np.array([x for x in EDGE for _ in EDGE] + rng.integers(0, 2**32, 200).tolist())
    b = np.array([y for _ in EDGE for y in EDGE] + rng.integers(0, 2**32, 200).tolist())
    for op in ("add", "sub", "mul", "div", "mod", "and", "or", "xor", "shl", "shr", "sar", "not", "neg"):
        for want, got in zip(modules.compute(op, a, b), pointwise.compute(op, a, b)):
            assert (want == got).all(), op


def test_a_cell_too_close_to_its_threshold_is_not_evaluated_element_by_element():
    """Reordered sums could flip an output whose logit is near zero: such a cell is refused."""
    from ncpu_nb.errors import WeightsError
    from ncpu_nb.ncpu.torch_cells import PointwiseCell, load_cell

    cell = load_cell("logic")
    with torch.no_grad():
        logits = cell.logits(torch.from_numpy(cell.spec.domain()))
        cell.out.bias[0] -= logits[logits[:, 0] > 0, 0].min() - 1e-4  # the smallest positive AND logit: 1e-4
    assert cell.check() == (4, 4)  # still right on its domain
    with pytest.raises(WeightsError, match="margin"):
        PointwiseCell(cell)


def test_every_alu_operation_in_neural_mode_on_edge_values(device):
    """Each binary ALU form with edge-value operands, 64 lanes, the torch cells against the Rust ALU."""
    from randprog import EDGE

    ops = ("ADD", "SUB", "MUL", "DIV", "MOD", "AND", "OR", "XOR", "SHL", "SHR", "SAR")
    source = "\n".join(f"{op} R{2 + i % 6}, R0, R1\nPUSH R{2 + i % 6}" for i, op in enumerate(ops))
    source += "\nNOT R2, R0\nNEG R3, R0\nCMP R0, R1\nINC R1\nDEC R0\nHALT"
    pairs = [(a, b) for a in EDGE[:8] for b in EDGE[:8]]
    registers = {"R0": [a for a, _ in pairs], "R1": [b for _, b in pairs]}
    rust, lanes_on_torch = CPU(source, lanes=64, memory_size=MEMORY), CPU(source, lanes=64, memory_size=MEMORY,
                                                                         device=device, mode="neural")
    for cpu in (rust, lanes_on_torch):
        cpu.set_registers(**registers)
        cpu.run()
    assert_same(rust, lanes_on_torch, "edge values")


def test_float_instructions_run_in_fast_mode_and_are_refused_in_neural_mode_on_torch_lanes(device):
    from ncpu_nb.errors import UnsupportedInstruction
    from ncpu_nb.ncpu.float_format import BINARY32

    source = "FMOV R1, 2.0\nFSQRT R2, R1\nITOF R3, R0\nFDIV R4, R3, R2\nFCMP R4, R1\nJS 7\nFTOI R5, R4\nHALT"
    values = [0, 1, 2, -3, 7, 2**31 - 1, -(2**31), 1000]
    rust, on_torch = CPU(source, lanes=8, memory_size=MEMORY), CPU(source, lanes=8, memory_size=MEMORY, device=device)
    for cpu in (rust, on_torch):
        cpu.set_registers(R0=values)
        cpu.run()
    assert_same(rust, on_torch, "float program")
    assert BINARY32.to_float(int(on_torch.registers_array()[3, 2]) & 0xFFFFFFFF) == pytest.approx(2**0.5)
    with pytest.raises(UnsupportedInstruction, match="float instructions"):
        CPU(source, device=device, mode="neural")
    integer_only = CPU("MOV R0, 1\nHALT", device=device, mode="neural")
    with pytest.raises(UnsupportedInstruction):
        integer_only.load(source)


def test_faults_raise_the_same_execution_error(device):
    source = "MOV R0, 254\nSTR R0, [R0]\nHALT"
    errors = []
    for on in (None, device):
        cpu = CPU(source, memory_size=MEMORY, device=on)
        with pytest.raises(ExecutionError) as info:
            cpu.run()
        errors.append((str(info.value), cpu.pc, cpu.cycles, cpu.status, cpu.stop_detail))
    assert errors[0] == errors[1] and errors[1][3] == "fault" and errors[1][2] == 1
    bad_return = "MOV R0, 99\nPUSH R0\nRET"
    messages = []
    for on in (None, device):
        with pytest.raises(ExecutionError) as info:
            CPU(bad_return, device=on).run()
        messages.append(str(info.value))
    assert messages[0] == messages[1] and "jump to 99" in messages[1]


def test_budgets_raise_cycle_budget_exceeded_and_keep_the_state(device):
    source = "loop: INC R0\nJMP loop"
    for on in (None, device):
        cpu = CPU(source, lanes=3, device=on)
        with pytest.raises(CycleBudgetExceeded) as info:
            cpu.run(101)
        assert info.value.running == 3 and cpu.registers["R0"] == 51 and cpu.cycles == 101


def test_breakpoints_watchpoints_and_stepping_match_on_random_programs(device):
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(24):
        program = assemble(random_program_text(rng, MEMORY, max_length=16))
        registers = random_register_values(rng, 8)
        pair = [CPU(program, lanes=8, memory_size=MEMORY, trace_depth=0, device=d) for d in (None, device)]
        where = int(rng.integers(0, len(program)))
        address, size = [(0, 64), (100, 4), (192, 64), (252, 4), (255, 1)][int(rng.integers(0, 5))]  # stack top too
        read, write = [(False, True), (True, False), (True, True)][int(rng.integers(0, 3))]
        for cpu in pair:
            cpu.set_registers(**registers)
            cpu.breakpoints.add(where)
            cpu.watchpoints.add(address, size, read=read, write=write)
        for round_ in range(6):  # run to a stop, resume over it, again (150 steps: a GPU replays a graph)
            for cpu in pair:
                cpu.run(150, check=False)
            assert_same(*pair, f"round {round_} with a breakpoint at {where}, a watch (read {read}, write {write}) at {address}+{size}")
            assert pair[0].stop_detail == pair[1].stop_detail
            seen |= set(pair[1].lane_status())
        raised = []
        for cpu in pair:
            try:
                cpu.step(3)
                raised.append(None)
            except ExecutionError as exc:  # a lane that faulted: the same error from both
                raised.append(str(exc))
        assert raised[0] == raised[1]
        assert_same(*pair, "after stepping")
    assert {"breakpoint", "watchpoint", "fault", "halted"} <= seen  # the stops were exercised


def test_trace_snapshot_restore_and_mode_switch_match(device):
    from ncpu_nb.bench import LOOP

    pair = [CPU(LOOP, lanes=4, memory_size=MEMORY, trace_depth=6, trace_lane=2, device=d) for d in (None, device)]
    for cpu in pair:
        cpu.set_registers(R0=[3, 5, 7, 9])
        cpu.step(4)
    snaps = [cpu.snapshot() for cpu in pair]
    for cpu in pair:
        cpu.mode = "neural"
        cpu.run()
    assert [s.__dict__ for s in pair[0].trace] == [s.__dict__ for s in pair[1].trace]
    assert_same(*pair, "after a mode switch")
    for cpu, snap in zip(pair, snaps):
        cpu.restore(snap)
        cpu.mode = "fast"
    assert [s.__dict__ for s in pair[0].trace] == [s.__dict__ for s in pair[1].trace]
    assert_same(*pair, "after restore")
    with pytest.raises(TypeError):
        pair[1].restore(snaps[0])  # a Rust snapshot is refused by torch lanes, with a reason


def test_loading_and_memory_edits_go_through_the_same_face(device):
    source = ".data\nbuf: .word 5, 6\n.text\nLDR R0, [buf]\nLDR R1, [buf + 4]\nADD R2, R0, R1\nHALT"
    pair = [CPU(source, lanes=2, memory_size=MEMORY, device=d) for d in (None, device)]
    for cpu in pair:
        cpu.write_memory(4, (40).to_bytes(4, "little"), lane=1)
        cpu.run()
    assert [c.registers_array()[:, 2].tolist() for c in pair] == [[11, 45], [11, 45]]
    for cpu in pair:
        cpu.reset()
        cpu.pc = 2
        cpu.run()
    assert_same(*pair, "after reset and a PC set")


def test_an_unknown_device_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="torch device"):
        CPU("HALT", device="no-such-device")
    assert CPU("HALT").device is None and CPU("HALT", device="cpu").device == "cpu"


def test_traces_with_their_memory_accesses_match_on_random_programs(device):
    rng = np.random.default_rng(7)
    accessed = 0
    for _ in range(20):
        program = assemble(random_program_text(rng, MEMORY, max_length=16))
        registers = random_register_values(rng, 4)
        pair = [CPU(program, lanes=4, memory_size=MEMORY, trace_depth=300, trace_lane=1, device=d) for d in (None, device)]
        for cpu in pair:
            cpu.set_registers(**registers)
            cpu.run(200, check=False)
        assert [s.__dict__ for s in pair[0].trace] == [s.__dict__ for s in pair[1].trace]
        accessed += sum(1 for s in pair[0].trace if s.accesses)
    assert accessed > 50


def test_long_traced_runs_and_mode_switches_match(device):
    """Runs long enough to be replayed from captured graphs on a GPU, traced, switching mode between runs."""
    from ncpu_nb.bench import LOOP

    pair = [CPU(LOOP, lanes=64, memory_size=MEMORY, trace_depth=40, trace_lane=5, device=d) for d in (None, device)]
    for cpu in pair:
        cpu.set_registers(R0=[40 * (i % 7) + i for i in range(64)])
    for mode, steps in (("fast", 300), ("neural", 200), ("fast", 2000)):
        for cpu in pair:
            cpu.mode = mode
            cpu.run(steps, check=False)
        assert_same(*pair, f"after {steps} steps in {mode} mode")
        assert [s.__dict__ for s in pair[0].trace] == [s.__dict__ for s in pair[1].trace]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no GPU here")
def test_on_the_gpu_long_runs_replay_captured_graphs():
    cpu = CPU("loop: INC R0\nJMP loop", lanes=1024, device="cuda")
    assert cpu._exec.regs.is_cuda
    cpu.run(1000, check=False)
    assert cpu._exec.graph_error is None and cpu._exec.graphs_captured == 1, cpu._exec.graph_error
    assert (cpu.registers_array()[:, 0] == 500).all()
