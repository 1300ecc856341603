"""The differentiable engine: nCPU programs under autograd (`engine`, with the relaxed ALU of
`soft_alu`), optimisation of inputs and constants (`optimizer`) and gradient flow (`gradient_flow`).
Imports torch."""
