"""`ncpu_nb.forth(session, where=...)`: one Forth session on eForth, on any of the three MUXLEQ machines."""
from __future__ import annotations

PLACES = ("reference", "ncpu", "ncpu-neural", "arm64")


def forth(session: str | bytes, where: str = "reference", *, decode: bool = True):
    """Run `session` (Forth source, lines ending in newlines) on eForth, then end of input; returns everything
    eForth printed (text, or bytes with decode=False). `where`:

        reference     the Python reference interpreter (ncpu_nb.muxleq.reference_vm; the oracle)
        ncpu          the MUXLEQ machine as an nCPU program, fast mode (ncpu_nb.muxleq.ncpu_vm)
        ncpu-neural   the same program with every ALU operation computed by the trained networks (about 600 K
                      nCPU instructions a second on a CPU: a one-line session takes minutes)
        arm64         the MUXLEQ machine in C, an AArch64 guest on Arm64Machine (ncpu_nb.muxleq.arm64_guest)

        ncpu_nb.forth(": sq dup * ; 7 sq .\\n", where="arm64")   # ' 49 ok\\r\\n'
    """
    if where == "reference":
        from ncpu_nb.muxleq.reference_vm import run_session

        out = run_session(session)[0]
    elif where in ("ncpu", "ncpu-neural"):
        from ncpu_nb.muxleq.ncpu_vm import NcpuForth

        machine = NcpuForth(mode="neural" if where == "ncpu-neural" else "fast")
        machine.feed(session)
        machine.close()
        out = machine.run(decode=False)
    elif where == "arm64":
        from ncpu_nb.muxleq.arm64_guest import run_on_arm64

        out = run_on_arm64(session)[0]
    else:
        raise ValueError(f"unknown place {where!r}; choose one of {', '.join(PLACES)}")
    return out.decode("utf-8", "replace") if decode else out
