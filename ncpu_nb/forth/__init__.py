"""eForth on MUXLEQ, a two-instruction machine, run in three places: a Python reference interpreter (the
oracle), an nCPU program (fast or neural mode) and an AArch64 guest on `Arm64Machine`.

    import ncpu_nb
    ncpu_nb.forth("2 3 + .\\n")                       # ' 5 ok\\r\\n'  (the reference)
    ncpu_nb.forth(": sq dup * ; 7 sq .\\n", where="ncpu")
"""
