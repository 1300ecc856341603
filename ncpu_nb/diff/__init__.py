"""The differentiable engine: nCPU programs under autograd, optimisation of inputs and constants,
program synthesis by gradient descent (with an enumerative baseline), gradient-flow plots."""
