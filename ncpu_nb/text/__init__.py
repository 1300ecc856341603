"""The text machine: string transforms and ciphers found from examples, as nCPU programs that loop
over bytes in memory.

    tm = ncpu_nb.text.TextMachine()
    tm.add("hello", "khoor")
    tm.synthesize()          # a Caesar shift of 3, with wrap-around, verified on the exact CPU
    tm.apply("world")        # 'zruog', computed by the nCPU

`transforms` is the DSL (the Python reference of every transform), `search` finds the transforms
that fit examples, `emit` writes them as nCPU programs, `runner` runs them on the CPU, `synthesizer`
verifies and ranks, `machine` keeps a session, `repl` and `widget` are its faces, `bench` the suite.
"""
