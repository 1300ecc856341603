"""Neural mode against fast mode: same registers, flags, memory, status and cycles, lanes included."""
import subprocess
import sys

import numpy as np
from hypothesis import given, settings, strategies as st

import ncpu_nb
from ncpu_nb import CPU, assemble

from randprog import program_text, register_values

MEMORY = 256


def state(cpu, lane):
    return (cpu.lane_registers(lane), cpu.lane_flags(lane), int(cpu.lane_cycles()[lane]), cpu.lane_status()[lane],
            cpu._lane_state(lane)[0], cpu.read_memory(0, cpu.memory_size, lane))


def test_every_bundled_program_runs_identically_as_lanes():
    programs = [ncpu_nb.load_program(n) for n in sorted(ncpu_nb.list_programs())]
    fast, neural = CPU(programs, trace_depth=0), CPU(programs, mode="neural", trace_depth=0)
    fast.run()
    neural.run()
    for lane in range(len(programs)):
        assert state(neural, lane) == state(fast, lane), programs[lane].name


@settings(max_examples=8, deadline=None)
@given(st.lists(program_text(MEMORY, 16), min_size=12, max_size=12), register_values(), st.integers(1, 120))
def test_random_programs_as_lanes(sources, registers, budget):
    programs = [assemble(s) for s in sources]
    fast = CPU(programs, memory_size=MEMORY, registers=registers)
    neural = CPU(programs, mode="neural", memory_size=MEMORY, registers=registers)
    fast.run(budget, check=False)
    neural.run(budget, check=False)
    for lane in range(len(programs)):
        assert state(neural, lane) == state(fast, lane)
    assert [(s.pc, s.changes, s.flags_after) for s in neural.trace] == [(s.pc, s.changes, s.flags_after)
                                                                        for s in fast.trace]


def test_neural_mode_debugging_protocol():
    cpu = CPU("MOV R1, 0\nloop:\nADD R1, R1, R0\nDEC R0\nJNZ loop\nHALT", mode="neural", registers={"R0": 4})
    cpu.breakpoints.add("loop")
    cpu.run()
    assert cpu.status == "breakpoint" and cpu.pc == 1
    snap = cpu.snapshot()
    cpu.breakpoints.discard("loop")
    cpu.run()
    assert cpu.registers["R1"] == 10 and cpu.cycles == 1 + 4 * 3 + 1
    cpu.restore(snap)
    assert cpu.cycles == 1 and cpu.registers["R1"] == 0
    cpu.step(3)
    assert cpu.registers["R1"] == 4 and [s.instruction for s in cpu.trace][-1] == "JNZ loop"


def test_per_lane_inputs_run_as_one_neural_batch():
    cpu = CPU("MUL R2, R0, R1\nDIV R3, R0, R1\nHALT", mode="neural", lanes=64)
    a, b = np.arange(-32, 32) * 1000003, np.arange(1, 65) * -7
    cpu.set_registers(R0=a, R1=b)
    cpu.run()
    regs = cpu.registers_array()
    assert (regs[:, 2] == (a * b).astype(np.int32)).all()
    assert (regs[:, 3] == np.trunc(a / b).astype(np.int32)).all()


def test_switching_mode_on_a_running_machine_keeps_its_state():
    program = ncpu_nb.load_program("primes_sieve")
    whole = CPU(program)
    whole.run()
    cpu = CPU(program)
    cpu.step(700)
    cpu.mode = "neural"
    cpu.step(500)
    cpu.mode = "fast"
    cpu.run()
    assert (cpu.registers, cpu.flags, cpu.cycles) == (whole.registers, whole.flags, whole.cycles)
    assert cpu.read_memory(0, 200) == whole.read_memory(0, 200)


def test_the_core_computes_with_the_weight_files(tmp_path):
    """Perturb the carry network on disk: neural mode's additions (and nothing in fast mode) go wrong."""
    import json
    import shutil

    from safetensors.torch import load_file, save_file

    from ncpu_nb.ncpu.neural_cells import sha256
    from ncpu_nb.ncpu.neural_mode import use_networks
    from ncpu_nb.resources import data_dir

    weights = tmp_path / "weights"
    shutil.copytree(data_dir("weights"), weights)
    path = weights / "combine.safetensors"
    tensors = load_file(str(path))
    tensors["out.bias"] -= 50.0
    save_file(tensors, str(path))
    manifest = json.loads((weights / "manifest.json").read_text())
    manifest["cells"]["combine"]["sha256"] = sha256(path)
    (weights / "manifest.json").write_text(json.dumps(manifest))

    cpu = CPU("MOV R0, 99\nADD R1, R0, 1\nHALT", mode="neural")
    use_networks(cpu._exec, weights)
    cpu.run()
    assert cpu.registers["R1"] != 100
    cpu.reset()
    cpu.mode = "neural"  # the kit's own weights again
    cpu.run()
    assert cpu.registers["R1"] == 100


def test_neural_mode_runs_without_importing_torch():
    """The cells load with numpy and the Rust core evaluates them: torch is for autograd and devices."""
    code = ("import sys, ncpu_nb\n"
            "cpu = ncpu_nb.CPU('MOV R0, 6\\nMOV R1, 7\\nMUL R2, R0, R1\\nHALT', mode='neural')\n"
            "assert cpu.run().halted and cpu.registers['R2'] == 42\n"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
