"""eForth on MUXLEQ in three places: the Python reference interpreter (the oracle, its instruction counts those
of howerj/muxleq's own C machine), the nCPU program (fast mode in full; neural mode through the whole boot,
checked against fast mode state for state) and the AArch64 guest on Arm64Machine (and its qemu runs)."""
import hashlib

import numpy as np
import pytest

import ncpu_nb
from ncpu_nb.muxleq.arm64_guest import arm64_machine, run_on_arm64
from ncpu_nb.muxleq.ncpu_vm import CELLS, MEMORY_SIZE, NcpuForth
from ncpu_nb.muxleq.reference_vm import MuxleqVM, image_path, load_image, run_session
from ncpu_nb.resources import data_dir

ADD, SQUARE = "2 3 + .\n", ": sq dup * ; 7 sq .\n"
OUTPUTS = {ADD: b" 5 ok\r\n", SQUARE: b" 49 ok\r\n"}
BOOT_STEPS = 33_568  # MUXLEQ instructions before eForth first reads input
BOOT_CYCLES = 953_672  # nCPU instructions for the same boot


def test_the_image_is_upstreams_with_its_provenance():
    data = image_path().read_bytes()
    readme = (image_path().parent / "README.md").read_text()
    assert hashlib.sha256(data).hexdigest() in readme and "3787ebded6089d517f4be6ba607a82784f0986e4" in readme
    assert "Unlicense" in readme and "unlicense.org" in (image_path().parent / "LICENSE").read_text()
    assert len(load_image()) == 5036 and load_image()[:3] == (0, 0, 100)


@pytest.mark.parametrize("session, steps", [(ADD, 3_933_262), (SQUARE, 5_005_482)])
def test_reference_prints_the_answer_in_upstreams_instruction_count(session, steps):
    out, vm = run_session(session)
    assert out == OUTPUTS[session]
    assert vm.halted and vm.steps == steps and vm.first_input_step == BOOT_STEPS


def test_end_of_input_stops_the_machine_everywhere():
    assert run_session("")[0] == b"" and run_session("")[1].halted
    ncpu = NcpuForth()
    ncpu.close()
    assert ncpu.run() == "" and ncpu.stopped
    out, machine = run_on_arm64("")
    assert out == b"" and machine.exit_status == 0


@pytest.mark.parametrize("session", [ADD, SQUARE])
def test_every_place_prints_the_same_whole_output(session):
    outputs = {where: ncpu_nb.forth(session, where=where, decode=False) for where in ("reference", "ncpu", "arm64")}
    assert outputs == dict.fromkeys(outputs, OUTPUTS[session])
    qemu = data_dir("programs") / "arm64" / "c" / "expected" / f"muxleq.{'add' if session == ADD else 'square'}.out"
    assert qemu.read_bytes() == OUTPUTS[session]


def test_ncpu_waits_for_each_line_like_a_terminal():
    forth = NcpuForth()
    assert forth.run() == "" and not forth.stopped and forth.boot_cycles == BOOT_CYCLES
    forth.feed(ADD)
    assert forth.run() == " 5 ok\r\n"
    forth.feed(SQUARE)
    assert forth.run() == " 49 ok\r\n"
    forth.close()
    assert forth.run() == "" and forth.stopped
    vm = MuxleqVM()  # the reference also stops at its first read when no input has come
    assert vm.run() == b"" and vm.waiting and vm.steps == BOOT_STEPS


def test_a_tiny_output_buffer_changes_nothing_but_the_restarts():
    session = "words\n"
    small = NcpuForth(output_buffer=3)
    small.feed(session)
    small.close()
    out = small.run(decode=False)
    assert out == run_on_arm64(session)[0] and len(out) > 1000 and out.endswith(b" ok\r\n")


def test_arm64_guest_runs_interactively():
    machine = arm64_machine(interactive=True)
    assert machine.run(10**9).stop == "stdin" and machine.stdout_bytes == b""
    machine.write_stdin(SQUARE)
    machine.run(10**9)
    assert machine.stdout_bytes == OUTPUTS[SQUARE]


def test_neural_mode_boots_exactly_as_fast_mode():
    """The whole boot (953,672 nCPU instructions, every ALU operation by the trained networks), compared with
    fast mode registers and all memory every 200,000 instructions."""
    neural, fast = NcpuForth(mode="neural"), NcpuForth(mode="fast")
    for _ in range(5):
        neural.run(max_steps=200_000)
        fast.run(max_steps=200_000)
        assert neural.cpu.registers == fast.cpu.registers and neural.cpu.pc == fast.cpu.pc
        assert neural.cpu.read_memory(0, MEMORY_SIZE) == fast.cpu.read_memory(0, MEMORY_SIZE)
    assert neural.boot_cycles == fast.boot_cycles == BOOT_CYCLES and not neural.stopped
    cells = np.frombuffer(neural.cpu.read_memory(CELLS, 4 * 65536), dtype="<i4")
    vm = MuxleqVM()
    vm.run()
    assert [c & 0xFFFF for c in cells] == vm.m  # the booted memory is the reference's, cell for cell


def test_an_unknown_place_is_refused():
    with pytest.raises(ValueError, match="reference, ncpu, ncpu-neural, arm64"):
        ncpu_nb.forth(ADD, where="gpu")
