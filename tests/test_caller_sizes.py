"""Sizes a caller gives (a read's length, a count of lanes) are checked before the host allocates
them: past what the machine holds, a ValueError naming the argument, never an aborted process."""
import pytest

from ncpu_nb import CPU, Arm64Machine
from ncpu_nb._metal import Arm64Core


def test_read_memory_longer_than_all_mapped_memory_is_refused():
    machine = Arm64Machine.busybox("true")
    sp = machine.registers["sp"]
    assert len(machine.read_memory(sp, 16)) == 16
    with pytest.raises(ValueError, match=r"read_memory: size 1099511627776 is more than the \d+ bytes"):
        machine.read_memory(sp, 1 << 40)  # used to abort: "memory allocation of 1099511627776 bytes failed"
    core = Arm64Core()
    core.map(0x1000, 0x1000)
    assert core.read_memory(0x1000, 0x1000) == bytes(0x1000)
    with pytest.raises(ValueError, match="read_memory: size 4097 is more than the 4096 bytes"):
        core.read_memory(0x1000, 0x1001)


def test_disassemble_lists_at_most_a_million_instructions_a_call():
    machine = Arm64Machine.busybox("true")
    assert len(machine.disassemble(machine.pc, 1 << 20)) > 100_000  # BusyBox's text, to its end
    with pytest.raises(ValueError, match="disassemble: n = 1048577 is more than the 1048576 instructions"):
        machine.disassemble(machine.pc, (1 << 20) + 1)


def test_lanes_beyond_what_one_cpu_may_hold_are_refused():
    with pytest.raises(ValueError, match=r"lanes × memory_size: 1048576 lanes of \d+ bytes each are more than the 4 GiB"):
        CPU("HALT", lanes=1 << 20)  # 64 GiB of lane memory: used to abort
    with pytest.raises(ValueError, match="lanes × memory_size"):
        CPU("HALT", lanes=1 << 40, memory_size=0)
    assert CPU("HALT", lanes=1024).lanes == 1024


def test_coverage_maps_beyond_what_one_cpu_may_hold_are_refused():
    cpu = CPU("HALT", lanes=1_100_000, memory_size=4, trace_depth=0)  # 4 KiB of coverage a lane: 4.2 GiB
    with pytest.raises(ValueError, match="coverage maps: 1100000 lanes of 4096 bytes each"):
        cpu.set_coverage(True)


def test_read_file_of_a_file_larger_than_the_machine_holds_is_refused(tmp_path):
    with open(tmp_path / "sparse", "wb") as f:  # 2 GiB to read, nothing on disk
        f.truncate(2 << 30)
    machine = Arm64Machine.busybox("true", mounts=[f"{tmp_path}:/mnt"], limits={"memory": "64M"})
    with pytest.raises(ValueError, match=r"/mnt/sparse: cannot read \(errno 12\)"):
        machine.read_file("/mnt/sparse")  # used to read all 2 GiB into host memory
