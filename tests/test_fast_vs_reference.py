"""Fast mode (Rust lanes) against the plain-Python reference interpreter on random programs."""
from hypothesis import given, strategies as st

from ncpu_nb import CPU, assemble
from ncpu_nb.ncpu.reference_interpreter import run_reference
from ncpu_nb.ncpu.table import FLAGS, REGISTERS

from randprog import program_text, register_values

MEMORY = 256


def reference_view(state):
    regs = {r: v - (1 << 32) if v & 0x80000000 else v for r, v in zip(REGISTERS, state.registers)}
    status = "fault" if state.fault else "halted" if state.halted else "running"
    return regs, {f: bool(state.flags[f]) for f in FLAGS}, state.cycles, state.pc, status, bytes(state.memory)


def cpu_view(cpu):
    return (cpu.registers, cpu.flags, cpu.cycles, cpu.pc, cpu.status, cpu.read_memory(0, MEMORY))


@given(program_text(MEMORY), register_values(), st.integers(1, 300))
def test_random_programs_match_reference(source, registers, budget):
    program = assemble(source)
    expected = reference_view(run_reference(program, budget, MEMORY, registers))
    cpu = CPU(program, memory_size=MEMORY, registers=registers)
    cpu.run(budget, check=False)
    assert cpu_view(cpu) == expected


@given(program_text(MEMORY), register_values(), st.integers(1, 60))
def test_stepping_matches_running(source, registers, steps):
    program = assemble(source)
    a = CPU(program, memory_size=MEMORY, registers=registers)
    b = CPU(program, memory_size=MEMORY, registers=registers)
    for _ in range(steps):
        if a.status != "running":
            break
        try:
            a.step()
        except Exception:
            break
    b.run(steps, check=False)
    assert cpu_view(a) == cpu_view(b)
