"""A memory sanitizer for the AArch64 machine: run a program and report what it does wrong with memory.

    report = ncpu_nb.sanitize(Arm64Machine.from_elf("heap_bugs", ["heap_bugs", "overflow"]))
    report.findings[0]        # Finding(kind='heap overflow', pc=…, where='fill+0x14', line=heap_bugs.c:51, …)

The machine runs with every memory access recorded (`trace_accesses`), and the sanitizer follows the run
step by step, as a shadow of it:

* **the heap**: memory glibc's allocator got from the kernel (`brk`, `mmap` while inside `malloc` & co.)
  and the blocks it handed out: the allocator's entry points are found by symbol, and the size asked for
  and the pointer returned are read from the registers at its entry and its return. Code outside the
  allocator may touch only bytes of a live block: anything else in the heap is a **heap overflow**
  (past a block's end) or a **use after free**; freeing a block twice is a **double free**, freeing
  what malloc never returned an **invalid free**.
* **never-written bytes**: a load whose every byte lies in a heap block and was never written since the
  block was allocated (by the program, by `calloc`, or by a system call given a pointer into it) is a
  **read of uninitialised memory**. Partly-written loads pass, and so do the string and memory functions
  of the C library, which read whole words past a string's end by design (valgrind's "partial loads").
* **mappings**: an access the machine faults on is reported with its backtrace, as a **use after munmap**
  when it lands in memory the program gave back, otherwise as an **access outside any mapping**.

Each finding has the PC, the instruction, the function (symbol+offset), the C source line when the ELF has
a DWARF line table (built with `-g`), a backtrace (a shadow call stack kept from BL/BLR and RET), and
for heap findings the block with where it was allocated and freed.

What it cannot do: a stripped program (Debian's BusyBox) has no allocator symbols, so only the mapping
checks apply; a program that starts threads is followed up to its first thread (registers are tracked per
process); uninitialised values copied by memcpy are not followed to where they are used (no shadow
propagation through registers).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from html import escape

from ncpu_nb import _metal, html
from ncpu_nb.protocol import AccessTracing, Hosted, Instrumented, needs

# Allocator entry points (glibc's public names and their __libc_ aliases) -> what the call does.
ALLOCATOR = {
    "malloc": "malloc", "__libc_malloc": "malloc", "calloc": "calloc", "__libc_calloc": "calloc",
    "realloc": "realloc", "__libc_realloc": "realloc", "free": "free", "__libc_free": "free", "cfree": "free",
    "memalign": "memalign", "__libc_memalign": "memalign", "aligned_alloc": "memalign", "valloc": "valloc",
    "__libc_valloc": "valloc", "pvalloc": "valloc", "__libc_pvalloc": "valloc",
    "posix_memalign": "posix_memalign", "reallocarray": "reallocarray",
}
# Library code that reads memory a word at a time on purpose (past a string's end, padding of a copy).
BULK_READERS = re.compile(r"^_*(mem|str|stp|wcs|wmem|rawmem)[a-z]*(_[a-z0-9]+)*$|^_IO_|^_*(v?f?printf|"
                          r"vfprintf|printf_positional|__printf_fp)|^__?(strchrnul|rawmemchr)")
KINDS = ("heap overflow", "use after free", "read of uninitialised memory", "double free", "invalid free",
         "use after munmap", "access outside any mapping")
SYS_BRK, SYS_MUNMAP, SYS_MREMAP, SYS_CLONE, SYS_EXECVE, SYS_MMAP, SYS_CLONE3 = 214, 215, 216, 220, 221, 222, 435
CLONE_VM, CLONE_THREAD = 0x100, 0x10000
CHUNK = 200_000  # instructions traced per engine call (the trace of one chunk is held in memory)
MAX_FINDINGS = 200  # distinct (kind, pc) findings kept; later ones are counted only
BACKTRACE = 16


@dataclass
class Block:
    start: int
    size: int
    allocated_at: tuple[int, ...]  # call sites, innermost first
    allocated_step: int
    defined: bytearray | None = None  # 1 per byte written since allocation (None once freed)
    freed_at: tuple[int, ...] | None = None
    freed_step: int | None = None

    @property
    def end(self) -> int:
        return self.start + self.size


@dataclass(frozen=True)
class Finding:
    """One defect: where it happened and, for the heap, the block it concerns."""

    kind: str
    step: int  # instruction number in the run
    pc: int
    instruction: str
    where: str  # symbol+offset
    line: object  # SourceLine or None
    address: int
    size: int
    write: bool
    backtrace: tuple[str, ...]  # 'function+0x.. (file.c:NN)' from the innermost caller outwards
    detail: str
    block: Block | None = None
    count: int = 1  # how many times this (kind, pc) happened
    code: str | None = None  # the source line's text, when the C file is beside the program (or bin/)

    def __str__(self) -> str:
        line = f" ({self.line}: {self.code})" if self.code else f" ({self.line})" if self.line else ""
        return f"{self.kind} at 0x{self.pc:x} in {self.where}{line}: {self.detail}"


class _Heap:
    """What the allocator has handed out in one address space: live and freed blocks, its own memory."""

    def __init__(self):
        self.owned: list[tuple[int, int]] = []  # sorted (start, end) ranges the allocator got from the kernel
        self.starts: list[int] = []  # sorted starts of live blocks
        self.live: dict[int, Block] = {}
        self.freed_starts: list[int] = []
        self.freed: dict[int, Block] = {}
        self.unmapped: list[tuple[int, int, tuple[int, ...]]] = []  # (start, end, munmap call site)

    def copy(self) -> "_Heap":
        other = _Heap()
        other.owned, other.starts, other.freed_starts = list(self.owned), list(self.starts), list(self.freed_starts)
        other.live = {s: Block(b.start, b.size, b.allocated_at, b.allocated_step, bytearray(b.defined))
                      for s, b in self.live.items()}
        other.freed, other.unmapped = dict(self.freed), list(self.unmapped)
        return other

    def own(self, start: int, end: int) -> None:
        if end > start:
            bisect.insort(self.owned, (start, end))

    def disown(self, start: int, end: int) -> None:
        self.owned = [(a, b) for a, b in self.owned if b <= start or a >= end] + \
                     [(a, start) for a, b in self.owned if a < start < b] + \
                     [(end, b) for a, b in self.owned if a < end < b]
        self.owned.sort()

    def is_owned(self, address: int) -> bool:
        i = bisect.bisect_right(self.owned, (address, 1 << 64)) - 1
        return i >= 0 and address < self.owned[i][1]

    @staticmethod
    def _below(starts: list[int], blocks: dict[int, Block], address: int) -> Block | None:
        """The block starting closest at or below `address` (starts sorted), or None."""
        i = bisect.bisect_right(starts, address) - 1
        return blocks[starts[i]] if i >= 0 else None

    def block_at(self, address: int) -> Block | None:
        block = self._below(self.starts, self.live, address)
        return block if block is not None and address < block.end else None

    def freed_at(self, address: int) -> Block | None:
        block = self._below(self.freed_starts, self.freed, address)
        return block if block is not None and address < block.end else None

    def nearest(self, address: int) -> Block | None:
        """The live block ending closest below `address` (what an overflow ran off)."""
        return self._below(self.starts, self.live, address)

    def add(self, block: Block) -> None:
        for start in [s for s in self.freed_starts if s < block.end and self.freed[s].end > block.start]:
            self.freed_starts.remove(start)
            del self.freed[start]
        bisect.insort(self.starts, block.start)
        self.live[block.start] = block

    def release(self, block: Block, site: tuple[int, ...], step: int) -> None:
        self.starts.remove(block.start)
        del self.live[block.start]
        block.freed_at, block.freed_step, block.defined = site, step, None
        if block.start not in self.freed:
            bisect.insort(self.freed_starts, block.start)
        self.freed[block.start] = block


@dataclass
class _Process:
    """The shadow of one process: registers (from the trace's changes), call stack, heap, allocator call."""

    regs: dict
    heap: _Heap
    frames: list = field(default_factory=list)  # (call site pc, return address)
    pending: tuple | None = None  # (what, args, return address, sp, call sites, step) inside an allocator call
    brk: int | None = None
    symbols: bool = True  # the allocator's entry points apply (the program the sanitizer was given)
    followed: bool = True  # False once the process has threads (registers can't be told apart)


class SanitizerReport:
    """The findings of one run (see the module doc); `_repr_html_` shows them with backtraces."""

    def __init__(self, machine, findings: list[Finding], steps: int, notes: list[str]):
        self.findings, self.steps, self.notes = findings, steps, notes
        self.status, self.exit_status = machine.status, machine.exit_status
        self.title = machine.title

    @property
    def clean(self) -> bool:
        return not self.findings

    def of_kind(self, kind: str) -> list[Finding]:
        """The findings of one kind (one of KINDS)."""
        if kind not in KINDS:
            raise ValueError(f"{kind!r} is not a kind of finding; the kinds are {', '.join(KINDS)}")
        return [f for f in self.findings if f.kind == kind]

    def summary(self) -> list[str]:
        head = (f"{self.steps:,} instructions run; the run ended {self.status}"
                + (f" (exit status {self.exit_status})" if self.exit_status is not None else ""))
        if not self.findings:
            return [head, "no memory errors found"] + self.notes
        return [head, f"{len(self.findings)} memory error(s):"] + [f"  {f}" for f in self.findings] + self.notes

    def __repr__(self) -> str:
        return "\n".join(self.summary())

    def _repr_html_(self) -> str:
        head = self.summary()[0]
        if not self.findings:
            return html.view("Sanitizer ✔", f"<div>{escape(head)}</div><div>no memory errors found</div>",
                             *(f"<div class='dim'>{escape(n)}</div>" for n in self.notes))
        rows = [[escape(f.kind), f"0x{f.pc:x}", f"<code>{escape(f.instruction)}</code>", escape(f.where),
                 escape(str(f.line or "")) + (f"<br><code>{escape(f.code)}</code>" if f.code else ""),
                 escape(f.detail) + (f" (×{f.count})" if f.count > 1 else "")]
                for f in self.findings]
        parts = [f"<div>{escape(head)}</div>",
                 html.table(["defect", "pc", "instruction", "function", "line", "what"], rows)]
        for f in self.findings[:20]:
            trace = "".join(f"<div><code>#{i} {escape(frame)}</code></div>" for i, frame in enumerate(f.backtrace))
            parts.append(html.box(f"<div><b>{escape(f.kind)}</b> at step {f.step:,}: {escape(f.detail)}</div>{trace}"))
        parts += [f"<div class='dim'>{escape(n)}</div>" for n in self.notes]
        return html.view(f"Sanitizer ✘ {len(self.findings)} memory error(s) in {escape(self.title)}", *parts)


class _Sanitizer:
    def __init__(self, machine):
        from ncpu_nb.arm64.source_lines import SourceLines

        self.machine = machine
        self.elf = machine.elf
        self.lines = SourceLines.of(self.elf)
        self.entries = {s.address: ALLOCATOR[s.name] for s in self.elf.symbols.values() if s.name in ALLOCATOR}
        functions = sorted((s.address, s.address + max(s.size, 4), s.name) for s in self.elf.symbols.values()
                           if s.kind == "function")
        self._functions = functions
        self._function_starts = [f[0] for f in functions]
        self.bulk = [(a, b) for a, b, name in functions if BULK_READERS.match(name)]
        self._bulk_starts = [a for a, _ in self.bulk]
        self.findings: dict[tuple[str, int], Finding] = {}
        self.notes: list[str] = []
        self.dropped = 0
        regs = dict(machine.registers)
        self.processes = {machine.pid: _Process(regs, _Heap())}
        self.step = machine.instructions

    # --- names ---------------------------------------------------------------------------------
    def function(self, pc: int) -> str:
        i = bisect.bisect_right(self._function_starts, pc) - 1
        if i >= 0 and pc < self._functions[i][1]:
            start, _, name = self._functions[i]
            return name if pc == start else f"{name}+0x{pc - start:x}"
        return f"0x{pc:x}"

    def line(self, pc: int):
        return self.lines.at(pc) if self.lines else None

    def frame(self, pc: int) -> str:
        line = self.line(pc)
        return f"0x{pc:x} {self.function(pc)}" + (f" ({line})" if line else "")

    def in_bulk_reader(self, pc: int) -> bool:
        i = bisect.bisect_right(self._bulk_starts, pc) - 1
        return i >= 0 and pc < self.bulk[i][1]

    def sites(self, process: _Process, pc: int | None = None) -> tuple[int, ...]:
        """The PC (if given) and the call sites on the shadow stack, innermost first."""
        calls = tuple(site for site, _ in reversed(process.frames[-BACKTRACE:]))
        here = pc is not None and not (calls and calls[0] == pc)  # at malloc's entry, the pc is its call
        return ((pc,) if here else ()) + calls

    def describe_sites(self, sites: tuple[int, ...]) -> str:
        return " ← ".join(self.frame(pc) for pc in sites[:3]) if sites else "?"

    # --- findings ------------------------------------------------------------------------------
    def report(self, kind: str, process: _Process, pc: int, word: int | None, address: int, size: int,
               write: bool, detail: str, block: Block | None = None) -> None:
        key = (kind, pc)
        if key in self.findings:
            old = self.findings[key]
            self.findings[key] = Finding(**{**old.__dict__, "count": old.count + 1})
            return
        if len(self.findings) >= MAX_FINDINGS:
            self.dropped += 1
            return
        instruction = _metal.Arm64Core.disassemble(word, pc) if word is not None else \
            self.machine.instruction_at(pc)
        backtrace = tuple(self.frame(p) for p in self.sites(process, pc))
        line = self.line(pc)
        self.findings[key] = Finding(kind, self.step, pc, instruction, self.function(pc), line, address, size, write,
                                     backtrace, detail, block, code=self.lines.text(line) if line else None)

    def block_text(self, block: Block) -> str:
        text = f"the {block.size}-byte block at 0x{block.start:x} allocated at {self.describe_sites(block.allocated_at)}"
        if block.freed_at is not None:
            text += f", freed at {self.describe_sites(block.freed_at)}"
        return text

    # --- the step loop -------------------------------------------------------------------------
    def run(self, max_steps: int) -> None:
        machine = self.machine
        depth, accesses = machine.trace_depth, machine.trace_accesses
        machine.trace_accesses = True
        try:
            end = machine.instructions + max_steps
            while machine.instructions < end:
                machine.trace_depth = 0  # empty the ring: what it holds next is exactly this chunk
                machine.trace_depth = CHUNK
                machine.run(min(CHUNK, end - machine.instructions), check=False)
                for entry in machine.trace_entries():
                    self.visit(*entry)
                if machine.status not in ("running", "breakpoint"):
                    break
                if not any(p.followed for p in self.processes.values()):
                    machine.trace_depth = 0  # nothing left to follow: the rest runs at full speed, for faults
                    machine.run(end - machine.instructions, check=False)
                    self.step = machine.instructions
                    break
        finally:
            machine.trace_depth, machine.trace_accesses = depth, accesses
        self.faults()

    def visit(self, pc, word, changes, _nzcv_before, _nzcv_after, accesses, pid) -> None:
        self.step += 1
        p = self.processes.get(pid)
        if p is None or not p.followed:
            return
        regs = p.regs
        if p.pending is not None and pc == p.pending[2] and regs["sp"] == p.pending[3]:
            self.allocator_returned(p, pc)
        elif p.pending is None and p.symbols and pc in self.entries:
            self.allocator_called(p, pc, self.entries[pc])
        if accesses and p.pending is None:
            self.check(p, pc, word, accesses)
        if word & 0xFFE0001F == 0xD4000001:  # svc
            self.syscall(p, pid, pc, changes)
        elif word & 0xFC000000 == 0x94000000 or word & 0xFFFFFC1F == 0xD63F0000:  # bl, blr
            p.frames.append((pc, pc + 4))
            if len(p.frames) > 4096:
                del p.frames[:1024]
        elif word & 0xFFFFFC1F == 0xD65F0000:  # ret
            target = regs.get(f"x{(word >> 5) & 31}", 0)
            for i in range(len(p.frames) - 1, max(len(p.frames) - 64, 0) - 1, -1):
                if p.frames[i][1] == target:
                    del p.frames[i:]
                    break
        for reg, _old, new in changes:
            regs[reg] = new

    def check(self, p: _Process, pc: int, word: int, accesses) -> None:
        heap = p.heap
        for address, size, write in accesses:
            if not heap.is_owned(address):
                continue
            block = heap.block_at(address)
            if block is not None and address + size <= block.end:
                offset = address - block.start
                if write:
                    block.defined[offset:offset + size] = b"\1" * size
                elif not any(block.defined[offset:offset + size]) and not self.in_bulk_reader(pc):
                    self.report("read of uninitialised memory", p, pc, word, address, size, write,
                                f"read of {size} byte(s) at offset {offset} of {self.block_text(block)}, "
                                f"never written", block)
                continue
            if not write and address % min(size, 16) == 0 and (
                    block is not None or heap.block_at(address + size - 1) is not None):
                continue  # an aligned load that also reads a block's bytes: a string function's word read
            freed = heap.freed_at(address)
            if block is None and freed is not None:
                self.report("use after free", p, pc, word, address, size, write,
                            f"{'write' if write else 'read'} of {size} byte(s) at offset {address - freed.start} "
                            f"of {self.block_text(freed)}", freed)
                continue
            near = block or heap.nearest(address)
            gap = address - near.end if near is not None else 0
            where = ((f"{gap} byte(s) after the end of " if gap else "just past the end of ") + self.block_text(near)
                     if near is not None and address >= near.end else
                     f"{address + size - near.end} byte(s) past the end of {self.block_text(near)}"
                     if near is not None else "in heap memory no block holds")
            self.report("heap overflow", p, pc, word, address, size, write,
                        f"{'write' if write else 'read'} of {size} byte(s) at 0x{address:x}, {where}", near)

    # --- the allocator -------------------------------------------------------------------------
    def allocator_called(self, p: _Process, pc: int, what: str) -> None:
        regs = p.regs
        args = tuple(regs[f"x{i}"] for i in range(4))
        sites = self.sites(p)  # the call site of malloc & co. and its callers
        if what == "free":
            self.freeing(p, pc, args[0], sites)
        elif what == "realloc" and args[0] and p.heap.block_at(args[0]) is None:
            self.freeing(p, pc, args[0], sites)  # realloc of something malloc did not return, or freed
        p.pending = (what, args, regs["x30"], regs["sp"], sites, self.step)

    def freeing(self, p: _Process, pc: int, pointer: int, sites) -> None:
        if pointer == 0:
            return
        block = p.heap.live.get(pointer)
        if block is not None:
            return  # freed at the return, where the allocator is done with it
        freed = p.heap.freed.get(pointer)
        call = sites[0] if sites else pc
        if freed is not None:
            self.report("double free", p, call, None, pointer, 0, True,
                        f"free of 0x{pointer:x}, {self.block_text(freed)}", freed)
        else:
            self.report("invalid free", p, call, None, pointer, 0, True,
                        f"free of 0x{pointer:x}, which malloc did not return")

    def allocator_returned(self, p: _Process, pc: int) -> None:
        what, args, _ret, _sp, sites, _step = p.pending
        p.pending = None
        result, heap = p.regs["x0"], p.heap
        if what in ("free", "realloc", "reallocarray") and args[0] in heap.live and (
                what == "free" or result != 0 or (args[1] if what == "realloc" else args[1] * args[2]) == 0):
            old = heap.live[args[0]]
            kept = old.defined
            heap.release(old, sites, self.step)
            if what != "free" and result:
                new = self.allocated(p, result, args[1] if what == "realloc" else args[1] * args[2], sites)
                n = min(old.size, new.size)
                new.defined[:n] = kept[:n]
            return
        if what == "free":
            return
        if what == "posix_memalign":
            if result != 0:
                return
            result = int.from_bytes(self.machine_memory(args[0], 8), "little")
            size = args[2]
        else:
            size = {"malloc": args[0], "calloc": args[0] * args[1], "realloc": args[1],
                    "reallocarray": args[1] * args[2], "memalign": args[1], "valloc": args[0]}[what]
        if result:
            block = self.allocated(p, result, size, sites)
            if what == "calloc":
                block.defined[:] = b"\1" * size

    def allocated(self, p: _Process, start: int, size: int, sites) -> Block:
        block = Block(start, size, sites, self.step, bytearray(size))
        p.heap.add(block)
        return block

    def machine_memory(self, address: int, n: int) -> bytes:
        try:
            return self.machine.read_memory(address, n)
        except Exception:  # noqa: BLE001 - memory gone since: nothing to read
            return bytes(n)

    # --- system calls --------------------------------------------------------------------------
    def syscall(self, p: _Process, pid: int, pc: int, changes) -> None:
        regs = p.regs
        number, args = regs["x8"], [regs[f"x{i}"] for i in range(6)]
        result = next((new for reg, _old, new in changes if reg == "x0"), regs["x0"])
        failed = result >= (1 << 64) - 4096
        heap = p.heap
        inside = p.pending is not None
        if number == SYS_BRK and not failed:
            if inside and p.brk is not None and result > p.brk:
                heap.own(p.brk, result)
            elif p.brk is not None and result < p.brk:
                heap.disown(result, p.brk)
            p.brk = result
        elif number == SYS_MMAP and not failed and inside:
            heap.own(result, result + args[1])
        elif number == SYS_MUNMAP and result == 0:
            heap.disown(args[0], args[0] + args[1])
            if not inside:
                heap.unmapped.append((args[0], args[0] + args[1], self.sites(p, pc)))
        elif number == SYS_MREMAP and not failed and heap.is_owned(args[0]):
            heap.disown(args[0], args[0] + args[1])
            heap.own(result, result + args[2])
        elif number in (SYS_CLONE, SYS_CLONE3) and not failed and result:
            flags = args[0] if number == SYS_CLONE else 0
            if flags & CLONE_THREAD or number == SYS_CLONE3:
                p.followed = False
                self.notes.append(f"process {pid} started a thread at step {self.step:,}: it was followed up to "
                                  f"there")
            else:
                child_regs = dict(regs)
                for reg, _old, new in changes:
                    child_regs[reg] = new
                child_regs["x0"] = 0
                child = _Process(child_regs, heap if flags & CLONE_VM else heap.copy(), list(p.frames),
                                 brk=p.brk, symbols=p.symbols)
                self.processes[result] = child
        elif number == SYS_EXECVE and not failed:
            self.processes[pid] = _Process(regs, _Heap(), symbols=False)
            if self.entries:
                self.notes.append(f"process {pid} ran execve at step {self.step:,}: the new program is checked "
                                  f"for faults only (its allocator's symbols are not read)")
            return
        if not inside:  # the kernel may have written through any pointer it was given
            for pointer in args:
                block = heap.block_at(pointer)
                if block is not None:
                    block.defined[pointer - block.start:] = b"\1" * (block.end - pointer)

    # --- the end -------------------------------------------------------------------------------
    def faults(self) -> None:
        for fault in self.machine.faults():
            p = self.processes.get(fault.pid)
            if p is None:
                continue
            match = re.search(r"(read|write|fetch) of 0x([0-9a-f]+)", fault.what)
            address = int(match.group(2), 16) if match else 0
            write = bool(match) and match.group(1) == "write"
            gone = next((u for u in p.heap.unmapped if u[0] <= address < u[1]), None) if match else None
            if gone is not None:
                self.report("use after munmap", p, fault.pc, None, address, 0, write,
                            f"{fault.what}: the {gone[1] - gone[0]:,} bytes at 0x{gone[0]:x} were unmapped at "
                            f"{self.describe_sites(gone[2])}")
            elif match and "unmapped" in fault.what:
                self.report("access outside any mapping", p, fault.pc, None, address, 0, write,
                            f"{fault.what} (signal {fault.signal})")


def sanitize(machine, *, max_steps: int = 50_000_000) -> SanitizerReport:
    """Run an `Arm64Machine` from where it is to its end (or `max_steps` instructions) under the
    sanitizer and report its memory errors (see the module doc). The machine is left where the run ended."""
    needs(machine, "sanitize", Instrumented, Hosted, AccessTracing)
    if max_steps < 1:
        raise ValueError("max_steps must be at least 1")
    sanitizer = _Sanitizer(machine)
    if not sanitizer.entries:
        sanitizer.notes.append("the program has no allocator symbols (stripped): only faults are checked")
    start = machine.instructions
    sanitizer.run(max_steps)
    if sanitizer.dropped:
        sanitizer.notes.append(f"{sanitizer.dropped:,} further findings were not kept (over {MAX_FINDINGS})")
    findings = sorted(sanitizer.findings.values(), key=lambda f: f.step)
    return SanitizerReport(machine, findings, machine.instructions - start, sanitizer.notes)
