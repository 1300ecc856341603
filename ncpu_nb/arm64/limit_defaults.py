"""The guest's default limits (see `Limits`), apart so that a run with the defaults reads them without
importing `Limits` and its dataclasses (`ncpu-nb busybox` starts light)."""

DEFAULT_MEMORY, DEFAULT_TMPFS_SIZE, DEFAULT_MAX_PROCS = 4 << 30, 1 << 30, 256
