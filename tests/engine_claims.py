"""What each engine claims to implement, checked by mypy (tests/test_types.py): each line assigns an engine
to a protocol it claims, so a method missing or with an incompatible signature fails the type check
(isinstance, at run time, sees only that the names exist). Never run, only checked."""
from ncpu_nb.arm64.machine import Arm64Machine
from ncpu_nb.differentiable.engine import DifferentiableEngine
from ncpu_nb.ncpu.cpu import CPU
from ncpu_nb.protocol import (AccessTracing, Batched, Editable, Hosted, Instrumented, MachineProtocol, Observed,
                              Symbolic)


def the_cpu(cpu: CPU) -> None:
    machine: MachineProtocol = cpu
    batched: Batched = cpu
    editable: Editable = cpu


def the_arm64_machine(arm64: Arm64Machine) -> None:
    machine: MachineProtocol = arm64
    symbolic: Symbolic = arm64
    instrumented: Instrumented = arm64
    access_tracing: AccessTracing = arm64
    observed: Observed = arm64
    hosted: Hosted = arm64


def the_differentiable_engine(engine: DifferentiableEngine) -> None:
    machine: MachineProtocol = engine
    batched: Batched = engine
