"""Program synthesis from examples: specs (`spec`), the portfolio (`synthesizer`) of gradient descent
over soft programs (`gradient_search`), sketches and enumeration, each program checked on the exact CPU
(`ncpu_nb.ncpu.exact_check`), and the benchmark of programs/synth (`synth_bench`). Imports torch."""
