"""Conformance runs: BusyBox 1.35.0's own upstream testsuite against the machine, with qemu-user as the oracle.

`ncpu_nb.arm64.conformance.busybox_suite.busybox_conformance()` or `ncpu-nb conformance busybox`. Kept light: the `busybox`
wrapper the testsuite calls thousands of times imports `ncpu_nb.arm64.conformance.guest` only.
"""
