"""Self-modifying code on the differentiable engine: with `code_at`, the program's words live in
data memory and every step fetches from there. Checked against the reference interpreter's own
code-in-memory mode on random programs that copy, patch and overwrite their instructions, lane by
lane; gradients reach the immediates of instructions a program writes."""
import random

import pytest
import torch

from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.differentiable.optimizer import ProgramOptimizer
from ncpu_nb.errors import ExecutionError
from ncpu_nb.ncpu.assembler import assemble
from ncpu_nb.ncpu.reference_interpreter import run_reference

CODE = 4096
EDGE = [0, 1, -1, 2, 5, 255, 0x10000, -0x10000, 0x7FFF, 12345]


def signed(x):
    return x - (1 << 32) if x & 0x8000_0000 else x


def t(values):
    return torch.tensor([float(v) for v in values], dtype=torch.float64)


def self_modifying_program(rng: random.Random, length: int) -> str:
    """Straight code over R0-R3 and loops, whose instructions are read as data (LDR from a slot),
    patched (ADD/XOR to a word: a new immediate, register or opcode) and written back, copied from
    slot to slot, or overwritten with a register's value (often not an instruction: a fault)."""
    slot = lambda: CODE + 4 * rng.randrange(length + 2)  # noqa: E731
    r = lambda: f"R{rng.randrange(4)}"  # noqa: E731
    lines = []
    for i in range(length):
        x = rng.random()
        if x < 0.3:
            lines.append(f"{rng.choice(['ADD', 'SUB', 'MUL', 'XOR'])} {r()}, {r()}, {rng.randint(-9, 9)}")
        elif x < 0.55:
            target = slot()
            lines += [f"LDR R5, [{target}]", f"MOV R7, {rng.choice([1, 2, 0x10000, 0x100000, 0x1000000, 7])}",
                      f"{rng.choice(['ADD', 'XOR', 'SUB'])} R5, R5, R7", f"STR R5, [{target}]"]
        elif x < 0.7:
            lines += [f"LDR R6, [{slot()}]", f"STR R6, [{slot()}]"]
        elif x < 0.75:
            lines.append(f"STR {r()}, [{slot()}]")
        elif x < 0.85:
            lines += [f"CMP {r()}, {r()}", f"{rng.choice(['JZ', 'JNZ', 'JL', 'JGE'])} skip{i}",
                      f"ADD {r()}, {r()}, 3", f"skip{i}:"]
        else:
            lines.append(f"MOV {r()}, {rng.randint(-50, 50)}")
    return "\n".join(lines + ["HALT"])


@pytest.mark.parametrize("seed", range(50))
def test_forward_matches_the_reference_with_code_in_memory(seed):
    rng = random.Random(9100 + seed)
    program = assemble(self_modifying_program(rng, rng.randint(5, 12)))
    for _ in range(2):
        regs = {f"R{r}": rng.choice(EDGE + [rng.randint(-1000, 1000)]) for r in range(4)}
        want = run_reference(program, registers=regs, max_cycles=150, code_at=CODE)
        engine = DifferentiableEngine(program, code_at=CODE, max_steps=150)
        run = engine.run(inputs={k: t([v]) for k, v in regs.items()}, check=False)
        if want.fault is not None:
            assert run.stop == "fault" and engine.pc == want.pc, (program.source, want.fault, engine.stop_detail)
            assert engine.stop_detail.split(" (word")[0] == want.fault.split(" (word")[0]
        else:
            assert run.halted == want.halted, program.source
        assert run.steps == want.cycles
        assert [signed(v) for v in want.registers] == run.registers[0].tolist(), program.source
        assert engine.read_memory(CODE, 4 * len(program)) == bytes(want.memory[CODE:CODE + 4 * len(program)])


def test_lanes_whose_code_differs_run_apart():
    """Each lane writes a different instruction into slot 2 (an immediate from its R0)."""
    program = assemble("ADD R5, R0, 0x0\nSTR R5, [4104]\nNOP\nHALT")
    add = assemble("ADD R1, R1, 0").words[0]
    cases = [0, 3, 0x10000 + 7, 2 * 0x10000 + 1]  # ADD R1,R1,0 / ADD ..., 3 / ... R1 := R2 + 7 / R2 + 1
    engine = DifferentiableEngine(program, code_at=CODE)
    r0 = t([add + c for c in cases])
    run = engine.run(inputs={"R0": r0, "R1": t([10] * 4), "R2": t([100] * 4)})
    for lane, c in enumerate(cases):
        want = run_reference(program, registers={"R0": add + c, "R1": 10, "R2": 100}, code_at=CODE)
        assert run.registers[lane].tolist() == [signed(v) for v in want.registers]


def test_the_gradient_reaches_the_immediate_of_a_written_instruction():
    program = assemble("STR R2, [4108]\nMOV R1, 10\nNOP\nNOP\nHALT")  # slot 3 becomes what R2 holds
    word = assemble("MUL R1, R1, 3").words[0]
    x = t([word, word]).requires_grad_(True)
    engine = DifferentiableEngine(program, code_at=CODE)
    run = engine.run(inputs={"R2": x + t([0, 0.25])})
    assert run["R1"].tolist() == [30.0, 32.5]  # the fraction joins the immediate: 10 * 3.25
    run["R1"].sum().backward()
    assert x.grad.tolist() == [10.0, 10.0]  # d(R1 * imm)/d(imm)
    assert engine.disassemble(3, 1) == [(3, "MUL R1, R1, 3")]


def test_fit_memory_finds_a_patch_that_the_program_copies_into_itself():
    program = """
        LDR R5, [256]        ; the patch, a word of data
        STR R5, [4112]       ; ... copied over slot 4
        MOV R1, R0
        MOV R2, 0
        NOP                  ; slot 4, patched: the program runs what it copied
        HALT
    """
    examples = [({"R0": x}, {"R1": 7 * x}) for x in (1, 2, -3, 10)]
    start = assemble("MUL R1, R1, 0").words[0]
    found = ProgramOptimizer(max_steps=100).fit_memory(program, examples, 256, 1, code_at=CODE, init=[start],
                                                       held_out=[({"R0": 1000}, {"R1": 7000})])
    assert found.solved and found.held_out == (1, 1)
    assert assemble("MUL R1, R1, 7").words[0] == found.values[256] & 0xFFFFFFFF


def test_an_invalid_word_faults_with_its_pc_and_code_must_fit():
    engine = DifferentiableEngine("MOV R0, -1\nSTR R0, [4104]\nNOP\nHALT", code_at=CODE)
    with pytest.raises(ExecutionError, match=r"invalid instruction: unknown opcode 0xFF .*PC=2: \.word 0xFFFFFFFF"):
        engine.run()
    with pytest.raises(ValueError, match="must lie in memory"):
        DifferentiableEngine("NOP\nHALT", code_at=65532)
    with pytest.raises(ValueError, match="after the program's data"):
        DifferentiableEngine(".data\nx: .word 1, 2\n.text\nNOP\nHALT", code_at=4)


def test_the_debugger_lists_the_code_as_memory_holds_it():
    from test_widgets import Browser

    source = "MOV R1, 0\nloop: ADD R1, R1, 1\nLDR R5, [4100]\nADD R5, R5, 1\nSTR R5, [4100]\nDEC R0\nJNZ loop\nHALT"
    ui = Browser(DifferentiableEngine(source, code_at=CODE, inputs={"R0": 5.0}).debugger())
    slot = lambda state: next(row["text"] for row in state["listing"] if row["loc"] == "1")  # noqa: E731
    assert slot(ui.act("step", n=7)) == "ADD R1, R1, 2"
    assert slot(ui.act("step", n=6)) == "ADD R1, R1, 3"
    assert slot(ui.act("back", n=3)) == "ADD R1, R1, 2"  # stepping back undoes the store into the code
