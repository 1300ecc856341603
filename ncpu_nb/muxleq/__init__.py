"""eForth on MUXLEQ, a two-instruction machine, run in three places: a Python reference interpreter (the
oracle, `reference_vm`), an nCPU program in fast or neural mode (`ncpu_vm`, programs/forth/muxleq.asm) and an
AArch64 guest on `Arm64Machine` (`arm64_guest`, programs/arm64/c/muxleq.c). The image is programs/forth/muxleq.dec.

    import ncpu_nb
    ncpu_nb.forth("2 3 + .\\n")                       # ' 5 ok\\r\\n'  (the reference)
    ncpu_nb.forth(": sq dup * ; 7 sq .\\n", where="ncpu")
"""
