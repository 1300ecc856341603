"""The differentiable engine: nCPU programs under autograd (`engine`, with the relaxed ALU of
`soft_alu`), optimisation of inputs and constants (`optimizer`), gradient flow (`gradient_flow`) and instruction sets
learned from benchmarks (`isa_discovery`, over `isa_library` and `isa_search`).
Imports torch."""
