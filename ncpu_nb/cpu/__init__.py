"""The nCPU machine: `CPU` in fast mode (exact integer ALU in the Rust core), batched over lanes."""
from ncpu_nb.cpu.cpu import CPU, RunResult, Snapshot

__all__ = ["CPU", "RunResult", "Snapshot"]
