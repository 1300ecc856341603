"""The exercises of chapter 28: eForth on MUXLEQ (a Forth word of your own, the mux, the cost of emulation)."""
from __future__ import annotations

from ncpu_nb.exercises.checker import Row, expect, exercise, integer, number, text


@exercise("28", "cube_word", "A Forth session that defines `cube` and prints 3 cubed")
def _(answer):
    from ncpu_nb.muxleq.forth import forth

    session = text(answer, "Forth source text") + "\n"
    printed = forth(session, where="arm64")  # the fastest of the three places; all three print the same
    words = session.split()
    defined = any(a == ":" and b.lower() == "cube" for a, b in zip(words, words[1:]))
    shown = [word for word in printed.split() if word != "ok"]
    rows = [Row("defines cube", defined, "`: cube ... ;` defines it"),
            expect("prints", "27", shown[-1] if shown else "(nothing)", show=str)]
    if "9" in printed.split():
        rows.append(Row("dup dup", False, "`dup *` squares; a cube needs the number three times: `dup dup * *`"))
    return rows


@exercise("28", "mux_result", "m[a] = 0x1234, m[b] = 0xABCD, selector 0x00FF: m[b] after the mux")
def _(answer):
    from ncpu_nb.muxleq.reference_vm import MuxleqVM

    # cells 0-2: mux a=6 b=7 c=-32760 (selector m[8]); 3-5: subleq 9, 9, -1 (0 - 0 <= 0: jump to -1, stop)
    vm = MuxleqVM([6, 7, -32760, 9, 9, -1, 0x1234, 0xABCD - 0x10000, 0x00FF, 0])
    vm.run()
    got = integer(answer, "a 16-bit number")
    rows = [expect("m[b]", vm.m[7], got, show=lambda w: f"0x{w:04X}")]
    if got == 0xAB34:
        rows.append(Row("which side", False, "a 1 bit in the selector takes the bit from m[b], a 0 from m[a]"))
    return rows


@exercise("28", "ncpu_per_muxleq", "nCPU instructions per MUXLEQ instruction, on average, over eForth's boot")
def _(answer):
    from ncpu_nb.muxleq.ncpu_vm import NcpuForth
    from ncpu_nb.muxleq.reference_vm import MuxleqVM

    ncpu, vm = NcpuForth(), MuxleqVM()
    ncpu.run()
    vm.run()  # both stop at eForth's first read
    ratio = ncpu.boot_cycles / vm.steps
    got = number(answer)
    rows = [Row("nCPU / MUXLEQ", abs(got - ratio) < 0.05, f"your {got:g}, expected {ratio:.2f} (within 0.05)")]
    if abs(got - 1 / ratio) < 0.01:
        rows.append(Row("which way", False, "divide the nCPU count by the MUXLEQ count"))
    return rows
