"""`SoftMemory`: the differentiable engine's data memory — bytes as real numbers under autograd.

The nCPU's data memory is bytes, little-endian words. Here each byte is a real tensor of shape
(lanes,), so values stored through memory keep their gradients:

    a byte      reads as itself (derivative 1)
    a word      LDR reads b0 + 256 b1 + 65536 b2 + 2**24 b3, wrapped to a signed 32-bit value
    a store     STR/STRB split the value u (taken mod 2**32) into bytes: b0 = u - 256 floor(u / 256)
                carries the value's gradient (and its fraction, when u is not an integer), the
                higher bytes are exact and constant — so a word stored and loaded comes back as the
                same real number with derivative 1, and STRB keeps the low byte (derivative 1)

Addresses may be soft. An address is a real number; it reads and writes the two whole addresses
around it, weighted by how near it is (a tent kernel: address 5.25 is 0.75 of address 5 and 0.25
of address 6), the content-free, location-based addressing of the Neural Turing Machine. On a whole
address the weights are exactly 1 and 0, so an integer program reads and writes exactly what the
CPU does, while the gradient with respect to the address is the difference between its neighbours.
`read_weighted` and `write_weighted` take any distribution over addresses.

Memory is sparse and immutable: only the bytes written since the start are tensors (the rest are the
program's data section or zeros), and a write returns a new memory, so the soft program counter can
mix the memories of different instructions and a snapshot is the memory object itself.
"""
from __future__ import annotations

import torch

DTYPE = torch.float64
MODULUS = float(1 << 32)
HALF = float(1 << 31)


def _tent(address: torch.Tensor, need_both: bool) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """(whole address per lane as int64, its weight) for the address's two neighbours: floor with
    weight 1 - fraction, floor + 1 with the fraction (left out when no lane needs it)."""
    low = torch.floor(address.detach())
    fraction = address - low
    pairs = [(low.to(torch.int64), 1 - fraction)]
    if need_both or bool((fraction.detach() != 0).any()):
        pairs.append((low.to(torch.int64) + 1, fraction))
    return pairs


def split_bytes(value: torch.Tensor, width: int) -> list[torch.Tensor]:
    """The `width` little-endian bytes of `value` taken mod 2**32; byte 0 carries the gradient."""
    u = torch.remainder(value, MODULUS)
    high = torch.floor(u.detach() / 256)
    first = u - 256 * high
    return [first] + [torch.remainder(torch.floor(u.detach() / 256 ** k), 256) for k in range(1, width)]


class SoftMemory:
    """`size` bytes per lane, `lanes` lanes; `data` the initial bytes from address 0 (the rest 0).

        memory.read(address, 4)            # (lanes,) signed words at real addresses (lanes,)
        memory = memory.write(address, 4, value)
        memory.bytes(0x100, 16, lane=0)    # the bytes as the CPU would hold them (rounded)

    `device`: the torch device its bytes live on (the engine's); values written must be there too.
    """

    def __init__(self, size: int, lanes: int, data: bytes = b"", cells: dict | None = None,
                 device: str | torch.device = "cpu"):
        self.size, self.lanes, self.data, self.device = size, lanes, bytes(data[:size]), torch.device(device)
        self.cells: dict[int, torch.Tensor] = cells if cells is not None else {}

    def cell(self, address: int) -> torch.Tensor:
        """(lanes,) the byte at a whole address (0 outside memory: callers weigh such bytes by 0)."""
        found = self.cells.get(address)
        if found is not None:
            return found
        value = self.data[address] if 0 <= address < len(self.data) else 0
        return torch.full((self.lanes,), float(value), dtype=DTYPE, device=self.device)

    def _gather(self, at: torch.Tensor) -> torch.Tensor:
        """(lanes,) the byte at at[l] in lane l."""
        wanted = sorted(set(at.tolist()))
        rows = torch.stack([self.cell(a) for a in wanted])
        where = {a: i for i, a in enumerate(wanted)}
        index = torch.tensor([where[a] for a in at.tolist()], device=self.device).unsqueeze(0)
        return rows.gather(0, index).squeeze(0)

    def _word_at(self, at: torch.Tensor, width: int) -> torch.Tensor:
        return sum(self._gather(at + k) * float(256 ** k) for k in range(width))

    def outside(self, address: torch.Tensor, width: int) -> torch.Tensor:
        """Per lane: does an access of `width` bytes at this (real) address touch a byte outside memory?"""
        pairs = _tent(address, False)
        bad = torch.zeros(self.lanes, dtype=torch.bool, device=self.device)
        for at, weight in pairs:
            bad |= (weight.detach() != 0) & ((at < 0) | (at + width > self.size))
        return bad

    def read(self, address: torch.Tensor, width: int) -> torch.Tensor:
        """(lanes,) the word (width 4, signed) or byte (width 1) at each lane's real address."""
        value = sum(weight * self._word_at(at, width) for at, weight in _tent(address, address.requires_grad))
        if width == 4:  # unsigned word -> signed, as registers hold it
            value = torch.where(value.detach() >= HALF, value - MODULUS, value)
        return value

    def write(self, address: torch.Tensor, width: int, value: torch.Tensor) -> SoftMemory:
        """A new memory with `value`'s low `width` bytes written at each lane's real address."""
        cells = dict(self.cells)
        pieces = split_bytes(value, width)
        for at, weight in _tent(address, address.requires_grad):
            for k, piece in enumerate(pieces):
                self._blend_into(cells, at + k, weight, piece)
        return SoftMemory(self.size, self.lanes, self.data, cells, self.device)

    def with_array(self, address: int, width: int, values: torch.Tensor) -> SoftMemory:
        """A new memory with values (lanes, n) stored from `address`, `width` bytes each (as n stores)."""
        cells = dict(self.cells)
        for j in range(values.shape[1]):
            for k, piece in enumerate(split_bytes(values[:, j], width)):
                cells[address + j * width + k] = piece
        return SoftMemory(self.size, self.lanes, self.data, cells, self.device)

    def with_bytes(self, address: int, data: bytes, lanes: torch.Tensor | None = None) -> SoftMemory:
        """A new memory with exact `data` from `address`, in every lane or where the (lanes,) mask `lanes` is set."""
        cells = dict(self.cells)
        for j, byte in enumerate(data):
            new = torch.full((self.lanes,), float(byte), dtype=DTYPE, device=self.device)
            cells[address + j] = new if lanes is None else torch.where(lanes, new, self.cell(address + j))
        return SoftMemory(self.size, self.lanes, self.data, cells, self.device)

    def _blend_into(self, cells: dict, at: torch.Tensor, weight: torch.Tensor, value: torch.Tensor) -> None:
        """cells[a] moves towards `value` by `weight`, in the lanes whose address is a (an NTM write:
        erase by the weight, add the value by the weight)."""
        for a in sorted(set(at.tolist())):
            if not 0 <= a < self.size:
                continue
            share = weight * (at == a).to(DTYPE)
            if not share.requires_grad and not bool((share != 0).any()):
                continue
            old = cells.get(a)
            old = self.cell(a) if old is None else old
            cells[a] = old + share * (value - old)

    def read_weighted(self, weights: torch.Tensor, start: int = 0) -> torch.Tensor:
        """(lanes,) the bytes at start.. blended by `weights` (lanes, n): a distribution over n addresses."""
        rows = torch.stack([self.cell(start + i) for i in range(weights.shape[1])], 1)
        return (weights * rows).sum(1)

    def write_weighted(self, weights: torch.Tensor, value: torch.Tensor, start: int = 0) -> SoftMemory:
        """A new memory where each byte at start + i moves towards `value` (lanes,) by weights[:, i]."""
        cells = dict(self.cells)
        for i in range(weights.shape[1]):
            old = self.cell(start + i)
            cells[start + i] = old + weights[:, i] * (value - old)
        return SoftMemory(self.size, self.lanes, self.data, cells, self.device)

    @staticmethod
    def mix(before: SoftMemory, outcomes: list[tuple[torch.Tensor, SoftMemory]]) -> SoftMemory:
        """`before`, with each outcome's changed bytes blended in by its weight (lanes,): the memory
        after a step of the soft program counter, whose instructions ran with those probabilities."""
        cells = dict(before.cells)
        for weight, after in outcomes:
            for a, value in after.cells.items():
                old_before = before.cells.get(a)
                if value is old_before:
                    continue
                base = before.cell(a) if old_before is None else old_before
                current = cells.get(a)
                cells[a] = (base if current is None else current) + weight * (value - base)
        return SoftMemory(before.size, before.lanes, before.data, cells, before.device)

    def bytes(self, address: int, n: int, lane: int = 0) -> bytes:
        """n bytes from `address` in one lane, each rounded to the byte the CPU would hold."""
        return bytes(int(round(self.cell(a)[lane].item())) & 255 for a in range(address, address + n))

    def written(self) -> list[int]:
        """Addresses written since the start, in order."""
        return sorted(self.cells)
