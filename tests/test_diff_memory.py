"""Differentiable memory: the engine runs LDR/STR/LDRB/STRB, PUSH/POP and CALL/RET exactly as the
CPU does on integer programs (against the plain-Python reference), faults where the CPU faults, and
passes gradients to stored values, arrays given as inputs and real-valued addresses (gradcheck)."""
import random

import pytest
import torch

from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.differentiable.soft_memory import SoftMemory
from ncpu_nb.errors import ExecutionError
from ncpu_nb.exercises.differentiable_chapters import SUM_OF_SQUARES
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.reference_interpreter import run_reference

EDGE = [0, 1, -1, 2, 3, 7, 255, 256, -256, 12345, -9999, 0x7FFFFFFF, -0x80000000]
MEMORY_SIZE = 65536


def signed(x):
    return x - (1 << 32) if x & 0x8000_0000 else x


def t(values):
    return torch.tensor([float(v) for v in values], dtype=torch.float64)


def memory_program(rng: random.Random, length: int) -> str:
    """Random straight code and forward branches over R0-R3, loads and stores (words and bytes,
    aligned or not, through a base register, a data-dependent index or an absolute address),
    pushes and pops (a pop of an empty stack faults), and calls of two subroutines that use the
    stack themselves."""
    r = lambda: f"R{rng.randrange(4)}"  # noqa: E731
    lines = [f"MOV R4, {rng.choice([0, 16, 64, 200])}"]
    for i in range(length):
        x = rng.random()
        if x < 0.18:
            lines.append(f"{rng.choice(['ADD', 'SUB', 'MUL', 'XOR', 'AND'])} {r()}, {r()}, {r()}")
        elif x < 0.32:
            lines.append(f"{rng.choice(['STR', 'STRB'])} {r()}, [R4, {rng.randint(-4, 40)}]")
        elif x < 0.46:
            lines.append(f"{rng.choice(['LDR', 'LDRB'])} {r()}, [R4, {rng.randint(-4, 40)}]")
        elif x < 0.52:
            lines += [f"AND R5, {r()}, 124", f"{rng.choice(['LDR', 'STR'])} {r()}, [R5, 256]"]
        elif x < 0.56:
            lines.append(f"{rng.choice(['LDR', 'STRB'])} {r()}, [{rng.randint(0, 300)}]")
        elif x < 0.68:
            lines.append(f"PUSH {r()}")
        elif x < 0.74:
            lines.append(f"POP {r()}")
        elif x < 0.86:
            lines += [f"CMP {r()}, {r()}", f"{rng.choice(['JZ', 'JNZ', 'JL', 'JGE', 'JA', 'JBE'])} skip{i}",
                      f"ADD {r()}, {r()}, 1", f"skip{i}:"]
        else:
            lines.append(f"CALL {rng.choice(['twice', 'keep'])}")
    lines += ["HALT",
              "twice: ADD R0, R0, R0", "STR R0, [R4, 8]", "RET",
              "keep: PUSH R1", "LDRB R1, [R4, 1]", "ADD R2, R2, R1", "POP R1", "RET"]
    return "\n".join(lines)


def inputs_for(rng):
    return {f"R{r}": rng.choice(EDGE + [rng.randint(-1000, 1000)]) for r in range(4)}


def same_as_reference(program, regs):
    """Run one lane on the engine and on the reference; compare registers, memory, halt and faults."""
    want = run_reference(program, registers=regs, max_cycles=200)
    engine = DifferentiableEngine(program, max_steps=200)
    run = engine.run(inputs={k: t([v]) for k, v in regs.items()}, check=False)
    if want.fault is not None:
        assert run.stop == "fault" and engine.status == "fault", program.source
        assert (engine.pc, engine.stop_detail) == (want.pc, want.fault.replace("return to", "jump to")
                                                   .split(" (0..")[0].replace(", outside", ", outside")) or \
            engine.pc == want.pc, (engine.stop_detail, want.fault)
        with pytest.raises(ExecutionError, match=f"PC={want.pc}:"):
            engine.step()
    else:
        assert run.halted == want.halted, program.source
    assert run.steps == want.cycles
    assert [signed(v) for v in want.registers] == run.registers[0].tolist(), program.source
    for start, n in ((0, 320), (MEMORY_SIZE - 256, 256)):
        assert engine.read_memory(start, n) == bytes(want.memory[start:start + n]), (program.source, start)


@pytest.mark.parametrize("seed", range(60))
def test_forward_matches_the_reference_on_programs_with_memory_stack_and_calls(seed):
    rng = random.Random(7000 + seed)
    program = assemble(memory_program(rng, rng.randint(6, 16)))
    for _ in range(3):
        same_as_reference(program, inputs_for(rng))


def test_lanes_run_memory_programs_side_by_side():
    rng = random.Random(1)
    program = assemble(memory_program(rng, 12))
    while True:
        cases = [inputs_for(rng) for _ in range(5)]
        wants = [run_reference(program, registers=c, max_cycles=200) for c in cases]
        if all(w.fault is None for w in wants):
            break
    engine = DifferentiableEngine(program, max_steps=200)
    run = engine.run(inputs={f"R{r}": t([c[f"R{r}"] for c in cases]) for r in range(4)}, check=False)
    for lane, want in enumerate(wants):
        assert [signed(v) for v in want.registers] == run.registers[lane].tolist()
        assert engine.read_memory(0, 320, lane) == bytes(want.memory[:320])


def test_a_fault_is_typed_says_where_and_changes_nothing():
    engine = DifferentiableEngine("MOV R0, 5\nPOP R1\nHALT")
    with pytest.raises(ExecutionError, match=r"memory access at 0x10000 is outside data memory \(65536 bytes\); "
                                             r"PC=1: POP R1"):
        engine.run()
    assert (engine.status, engine.pc, engine.registers["R0"], engine.cycles) == ("fault", 1, 5, 1)
    run = engine.run(check=False)
    assert (run.stop, run.steps) == ("fault", 0)
    engine.reset()
    assert engine.status == "running"
    with pytest.raises(ExecutionError, match="jump to 9, outside the program; PC=2: RET"):
        DifferentiableEngine("MOV R0, 9\nPUSH R0\nRET\nHALT").run()


def test_recursion_on_the_stack_with_a_gradient_through_it():
    source = """
        CALL fact
        HALT
    fact:
        PUSH R0
        CMP R0, 1
        JLE base
        DEC R0
        CALL fact
        POP R1
        MUL R0, R0, R1
        RET
    base:
        POP R1
        MOV R0, 1
        RET
    """
    n = t([5, 4]).requires_grad_(True)
    run = DifferentiableEngine(source, flag_temperature=None).run(inputs={"R0": n})  # no gradient via branches
    assert run["R0"].tolist() == [120.0, 24.0]
    run["R0"].sum().backward()
    # through the values pushed and popped, n! = n (n-1) ... 2 by the product rule: n! * sum(1/k, k = 2..n)
    want = [120 * (1 / 2 + 1 / 3 + 1 / 4 + 1 / 5), 24 * (1 / 2 + 1 / 3 + 1 / 4)]
    assert n.grad.tolist() == pytest.approx(want)


def test_arrays_as_inputs_and_their_gradient():
    a = torch.tensor([3.0, 4.0, 5.0], dtype=torch.float64, requires_grad=True)
    engine = DifferentiableEngine(SUM_OF_SQUARES)  # of the three words at 256, in a loop
    run = engine.run(inputs={"memory": {256: a}})
    assert run["R1"].item() == 50.0
    run["R1"].backward()
    assert a.grad.tolist() == [6.0, 8.0, 10.0]
    bytes_ = DifferentiableEngine("LDRB R0, [257]\nHALT", memory_width=1).run(
        inputs={"memory": {256: [7, 9]}})["R0"]
    assert bytes_.tolist() == [9.0]


def test_a_word_stored_and_loaded_is_the_same_real_number():
    x = torch.tensor([2.75, -3.5, 1e6 + 0.125], dtype=torch.float64, requires_grad=True)
    run = DifferentiableEngine("STR R0, [100]\nLDR R1, [100]\nLDRB R2, [100]\nHALT").run(inputs={"R0": x})
    assert run["R1"].tolist() == x.tolist()
    assert run["R2"].tolist() == [2.75, 252.5, (1e6 % 256) + 0.125]  # the low byte keeps the fraction
    run["R1"].sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_a_soft_address_blends_its_neighbours_and_has_a_gradient():
    memory = SoftMemory(64, 1).with_array(0, 1, t([[10, 20, 30]][0]).reshape(1, 3))
    address = torch.tensor([0.25], dtype=torch.float64, requires_grad=True)
    value = memory.read(address, 1)
    assert value.item() == pytest.approx(0.75 * 10 + 0.25 * 20)
    value.backward()
    assert address.grad.item() == pytest.approx(10.0)  # the neighbours' difference
    written = memory.write(torch.tensor([1.5], dtype=torch.float64), 1, t([100]))
    assert written.bytes(0, 4) == bytes([10, 60, 65, 0])  # half of 20 -> 100, half of 30 -> 100
    weights = torch.tensor([[0.0, 0.5, 0.5]], dtype=torch.float64)
    assert memory.read_weighted(weights).item() == 25.0
    assert memory.write_weighted(weights, t([0])).bytes(0, 3) == bytes([10, 10, 15])


def test_gradcheck_through_soft_addresses_and_stored_values():
    """Real-valued addresses (between words) and array contents: autograd == finite differences."""
    engine = DifferentiableEngine("""
        STR R1, [R0, 64]
        LDR R2, [R0, 64]
        LDR R3, [R0]
        MUL R2, R2, R3
        LDRB R3, [R0, 1]
        ADD R2, R2, R3
        HALT
    """)

    def output(address, array):
        return engine.run(inputs={"R0": address, "R1": array[:, 0] * 3, "memory": {0: array}})["R2"]

    address = torch.tensor([1.3, 2.6], dtype=torch.float64, requires_grad=True)
    array = torch.tensor([[5.2, 7.1, 3.3], [2.4, 9.9, 1.7]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(output, (address, array), eps=1e-6, atol=1e-5)


def test_watchpoints_stop_before_the_access_and_go_on_over_it():
    engine = DifferentiableEngine("MOV R0, 7\nSTR R0, [40]\nLDR R1, [40]\nPUSH R1\nHALT")
    engine.watchpoints.add(40)
    run = engine.run()
    assert (run.stop, engine.pc, run.detail, engine.status) == ("watchpoint", 1, "write of 0x28", "watchpoint")
    assert engine.read_memory(40, 4) == bytes(4)
    assert engine.run().stop == "halted" and engine.read_memory(40, 4) == bytes([7, 0, 0, 0])
    engine.reset()
    engine.watchpoints.clear()
    engine.watchpoints.add(40, 4, read=True, write=False)
    assert engine.run().detail == "read of 0x28"
    with pytest.raises(IndexError):
        engine.watchpoints.add(70000)


def test_snapshot_restores_memory():
    engine = DifferentiableEngine("MOV R0, 1\nSTR R0, [8]\nMOV R0, 2\nSTR R0, [8]\nHALT")
    engine.step(2)
    snap = engine.snapshot()
    engine.run()
    assert engine.read_memory(8, 1) == b"\x02"
    engine.restore(snap)
    assert engine.read_memory(8, 1) == b"\x01" and engine.cycles == 2
