"""Program synthesis by gradient descent.

A *soft program* has `length` slots; each slot holds four distributions (logits per lane): the
ALU operation (the table's binary and unary operations, MOV, or NOP), the destination register,
the first operand (a register) and the second (a register or a constant of the pool). Running it
on the examples computes, at every slot, every operation on every pair of operands with the
differentiable ALU (`ncpu_nb.diff.alu`), weighted by the slot's choice probabilities.

The gradient:
  * the last slot decides the outputs, so its choices are averaged exactly: every operation on
    every operand pair is scored with log(1 + error²) against the targets and weighted by its
    probability; the gradient of this expected loss trains the last slot's logits;
  * the earlier slots are Gumbel-max samples of their tempered softmax (temperature annealed per
    restart) trained by the score-function estimator (REINFORCE): a sample is rewarded by how
    well the best last instruction could finish it, relative to the other restarts. Straight-
    through Gumbel-softmax was tried first: its linearisation ranks discrete alternatives by
    the size of their values, not by how close they come, and it rarely found two-step programs;
  * a small length penalty on the probability of not choosing NOP; Adam on the logits.
Many restarts run as lanes of one batch (a restart that stops improving is re-drawn); every
length up to max_len has its own lanes and they take turns. *Hard decoding*: every few steps each
lane's most likely program (and its sampled one finished by the most likely last instruction) is
run exactly (the same tensors with one-hot choices); a lane that matches every example is the
answer.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch

from ncpu_nb.diff.alu import relaxed_op
from ncpu_nb.diff.emit import BINARY, UNARY, instruction
from ncpu_nb.diff.spec import USABLE, SynthesisSpec

OPS = BINARY + UNARY + ("pass", "nop")
NOP, PASS = OPS.index("nop"), OPS.index("pass")
DEFAULT_CONSTANTS = (1, 2, 3, 4, 8, 16, 31, -1)
BOUND = 1e12  # keeps products of large soft values finite


def miss(value, target):
    """Per-example loss: log(1 + error²). Being off by one costs the same at any magnitude
    (exact answers are the goal), and huge errors do not swamp the rest."""
    return torch.log1p((value - target) ** 2)


def mined_constants(spec: SynthesisSpec) -> list[int]:
    """Constants the examples suggest: an output that is always its input plus, times or xor a
    fixed number, and outputs that never change."""
    found = []
    for o in spec.outputs:
        ys = [out[o] for _, out in spec.examples]
        if len(set(ys)) == 1:
            found.append(ys[0])
        for i in spec.inputs:
            xs = [inp[i] for inp, _ in spec.examples]
            for relation in ({y - x for x, y in zip(xs, ys)}, {y ^ x for x, y in zip(xs, ys)},
                             {y // x if x and y % x == 0 else None for x, y in zip(xs, ys) if x}):
                if len(relation) == 1 and None not in relation:
                    found.append(relation.pop())
    return [c for c in found if -(1 << 15) <= c < (1 << 15)]


def constant_pool(spec: SynthesisSpec) -> list[int]:
    pool = []
    for c in list(spec.constants) + mined_constants(spec) + list(DEFAULT_CONSTANTS):
        if c not in pool and c != 0:
            pool.append(c)
    return pool[:12]


def register_file(spec: SynthesisSpec, length: int) -> list[str]:
    """Inputs, then outputs, then scratch registers (more for longer programs)."""
    regs = list(dict.fromkeys(spec.inputs + spec.outputs))
    spare = [r for r in USABLE if r not in regs]
    return regs + spare[: 1 if length < 4 else 2]


@dataclass
class SearchStats:
    steps: int = 0
    restarts: int = 0
    successes: int = 0
    losses: list = field(default_factory=list)  # best lane's loss at each step
    grad_norms: list = field(default_factory=list)  # per step: (op, a, b, dst) gradient norms per slot


class SoftProgram:
    """`lanes` soft programs of `length` slots over the registers `regs` and constants `consts`."""

    def __init__(self, spec: SynthesisSpec, length: int, lanes: int, generator: torch.Generator):
        self.spec, self.length, self.lanes, self.generator = spec, length, lanes, generator
        self.regs = register_file(spec, length)
        self.consts = constant_pool(spec)
        k, c = len(self.regs), len(self.consts)
        self.shapes = {"op": len(OPS), "a": k, "b": k + c, "dst": k}
        self.logits = {n: torch.zeros(lanes, length, m, dtype=torch.float64, requires_grad=True)
                       for n, m in self.shapes.items()}
        self.redraw(torch.ones(lanes, dtype=torch.bool))
        inputs = [[inp.get(r, 0) for r in self.regs] for inp, _ in spec.examples]
        self.start = torch.tensor(inputs, dtype=torch.float64)  # (examples, k)
        self.out_index = [self.regs.index(o) for o in spec.outputs]
        signed = lambda v: v - (1 << 32) if v >= (1 << 31) else v  # noqa: E731
        self.target = torch.tensor([[signed(out[o]) for o in spec.outputs] for _, out in spec.examples],
                                   dtype=torch.float64)

    def redraw(self, which: torch.Tensor) -> None:
        """Fresh random logits for the lanes in `which` (a new restart)."""
        with torch.no_grad():
            for name, t in self.logits.items():
                fresh = torch.randn(t.shape, generator=self.generator, dtype=torch.float64) * 0.5
                t[which] = fresh[which]

    def choices(self, temperature: torch.Tensor | None):
        """One choice per slot and name, as one-hot (lanes, length, m) tensors, and the log-probability
        of the sampled ones (lanes,). With a temperature, the slots before the last are Gumbel-max
        samples of softmax(logits / temperature) (temperature per lane); the last slot is the
        logits' softmax itself (its choices are averaged exactly by `run`). Without one, every slot
        takes its most likely choice (hard decoding)."""
        out, log_p = {}, 0.0
        for name, t in self.logits.items():
            if temperature is None:
                out[name] = torch.nn.functional.one_hot(t.argmax(-1), t.shape[-1]).to(t.dtype)
                continue
            scaled = t[:, :-1] / temperature.view(-1, 1, 1)
            u = torch.rand(scaled.shape, generator=self.generator, dtype=t.dtype).clamp(1e-10, 1 - 1e-10)
            pick = (scaled - torch.log(-torch.log(u))).argmax(-1)  # Gumbel-max: an exact sample
            log_p = log_p + torch.log_softmax(scaled, -1).gather(-1, pick.unsqueeze(-1)).sum((1, 2))
            sampled = torch.nn.functional.one_hot(pick, t.shape[-1]).to(t.dtype)
            out[name] = torch.cat([sampled, torch.softmax(t[:, -1:], -1)], 1)
        return out, log_p

    def run(self, p) -> tuple[torch.Tensor, torch.Tensor]:
        """Run the programs on the examples: outputs (lanes, examples, outputs), the expected loss
        over the last slot's choices (every operation on every operand pair scored against the
        targets, weighted by its probability) and the loss of the best last choice, per lane."""
        n, e = self.lanes, self.start.shape[0]
        regs = self.start.unsqueeze(0).expand(n, e, -1)
        consts = torch.tensor(self.consts, dtype=torch.float64).expand(n, e, -1)
        nb = len(BINARY)
        for s in range(self.length):
            values = torch.cat([regs, consts], -1)  # second-operand choices
            a, b = regs.unsqueeze(-1), values.unsqueeze(-2)  # every pair, by broadcasting
            binary = torch.stack([relaxed_op(o, a, b).expand(n, e, a.shape[2], b.shape[3]) for o in BINARY],
                                 2).clamp(-BOUND, BOUND)  # (n, e, ops, k, k + c)
            unary = torch.stack([relaxed_op(o, regs, regs) for o in UNARY], 2).clamp(-BOUND, BOUND)
            pop, pa, pb = p["op"][:, s], p["a"][:, s], p["b"][:, s]
            result = torch.einsum("neoij,no,ni,nj->ne", binary, pop[:, :nb], pa, pb)
            result = result + torch.einsum("neoi,no,ni->ne", unary, pop[:, nb:nb + len(UNARY)], pa)
            result = result + torch.einsum("nej,nj->ne", values, pb) * pop[:, PASS:PASS + 1]
            write = p["dst"][:, s] * (1 - pop[:, NOP:NOP + 1])  # (n, k): probability each register is written
            if s == self.length - 1:
                loss, best = self._last_slot_losses(regs, binary, unary, values, pop, pa, pb, write)
            regs = regs + write.unsqueeze(1) * (result.unsqueeze(-1) - regs)
        return regs[..., self.out_index], loss, best

    def _last_slot_losses(self, regs, binary, unary, values, pop, pa, pb, write):
        """(expected loss under the last slot's distributions, loss of its best choice), per lane."""
        nb, total, best = len(BINARY), 0.0, 0.0
        for col, r in enumerate(self.out_index):
            y = self.target[:, col]
            score = lambda v, dims: miss(v, y.view(-1, *[1] * dims)).mean(1)  # noqa: E731
            written = torch.einsum("noij,no,ni,nj->n", score(binary, 3), pop[:, :nb], pa, pb)
            written = written + torch.einsum("noi,no,ni->n", score(unary, 2), pop[:, nb:nb + len(UNARY)], pa)
            written = written + torch.einsum("nj,nj->n", score(values, 1), pb) * pop[:, PASS]
            written = written / (1 - pop[:, NOP]).clamp(min=1e-9)
            kept = score(regs[..., r], 0)
            total = total + write[:, r] * written + (1 - write[:, r]) * kept
            lowest = torch.stack([score(binary, 3).flatten(1).amin(1), score(unary, 2).flatten(1).amin(1),
                                  score(values, 1).amin(1), kept], 1).amin(1)
            best = best + lowest.detach()
        n = len(self.out_index)
        return total / n, best / n

    def exact(self, outputs: torch.Tensor) -> torch.Tensor:
        return (outputs == self.target).all(2).all(1)

    def decode(self, lane: int, p=None) -> str:
        """Assembly text of one lane's program (NOPs dropped): its most likely choices, or the
        one-hot choices `p` it ran."""
        choice = {n: t[lane].argmax(-1).tolist() for n, t in (p or self.logits).items()}
        operands = self.regs + self.consts
        lines = []
        for s in range(self.length):
            op = OPS[choice["op"][s]]
            if op == "nop":
                continue
            lines.append(instruction(op, self.regs[choice["dst"][s]], self.regs[choice["a"][s]],
                                     operands[choice["b"][s]]))
        return "\n".join(lines + ["HALT"])


class Adam:
    """Adam on lanes of logits; `forget` clears the moments of re-drawn lanes. (Written out: it is
    a few lines, and torch.optim's first use imports several seconds of unrelated modules.)"""

    def __init__(self, params, lr: float, betas=(0.5, 0.9), eps: float = 1e-8):
        self.params, self.lr, self.betas, self.eps = params, lr, betas, eps
        self.m = [torch.zeros_like(p) for p in params]
        self.v = [torch.zeros_like(p) for p in params]
        self.t = torch.zeros(params[0].shape[0], dtype=torch.float64)  # steps per lane

    @torch.no_grad()
    def step(self) -> None:
        b1, b2 = self.betas
        self.t += 1
        c1 = (1 - b1 ** self.t).view(-1, 1, 1)
        c2 = (1 - b2 ** self.t).view(-1, 1, 1)
        for p, m, v in zip(self.params, self.m, self.v):
            m.mul_(b1).add_(p.grad, alpha=1 - b1)
            v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
            p.sub_(self.lr * (m / c1) / ((v / c2).sqrt() + self.eps))

    def forget(self, lanes: torch.Tensor) -> None:
        for m, v in zip(self.m, self.v):
            m[lanes], v[lanes] = 0.0, 0.0
        self.t[lanes] = 0


def _hard_last(p, soft):
    """The sampled earlier slots with the last slot's most likely choice."""
    out = {}
    for name, t in p.items():
        last = torch.nn.functional.one_hot(soft.logits[name][:, -1].argmax(-1), t.shape[-1]).to(t.dtype)
        out[name] = torch.cat([t[:, :-1].detach(), last.unsqueeze(1)], 1)
    return out


class _Group:
    """The restarts of one program length, with their optimiser state."""

    def __init__(self, soft: SoftProgram, lr: float):
        self.soft, self.adam, self.step = soft, Adam(list(soft.logits.values()), lr), 0
        self.age = torch.zeros(soft.lanes)
        self.best = torch.full((soft.lanes,), float("inf"), dtype=torch.float64)
        self.stale = torch.zeros(soft.lanes)


class GradientSearch:
    """The gradient-descent synthesizer (see the module docstring).

    lanes        restarts run together as one batch
    lr           Adam's step size on the logits
    patience     steps without improvement before a restart is re-drawn
    length_cost  weight of the length penalty
    """

    def __init__(self, lanes: int = 16, lr: float = 0.3, patience: int = 60, length_cost: float = 1e-3,
                 decode_every: int = 2, t_start: float = 2.0, t_end: float = 0.15, t_decay: float = 0.97,
                 turn: float = 0.25, seed: int = 0):
        self.turn = turn
        self.lanes, self.lr, self.patience, self.length_cost = lanes, lr, patience, length_cost
        self.decode_every, self.seed = decode_every, seed
        self.t_start, self.t_end, self.t_decay = t_start, t_end, t_decay

    def search(self, spec: SynthesisSpec, deadline: float, progress=None, record_gradients: bool = False):
        """(assembly text or None, SearchStats). Every length 1 .. max_len has its own restarts;
        they take turns (a longer program gets a longer turn) until the deadline."""
        stats = SearchStats()
        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # small tensors: threads cost more than they give
        try:
            return self._search(spec, deadline, progress, record_gradients, stats)
        finally:
            torch.set_num_threads(threads)

    def _search(self, spec, deadline, progress, record_gradients, stats):
        generator = torch.Generator().manual_seed(self.seed)
        groups = [_Group(SoftProgram(spec, length, self.lanes, generator), self.lr) for length in
                  range(1, spec.max_len + 1)]
        stats.restarts += self.lanes * len(groups)
        start = time.perf_counter()
        while time.perf_counter() < deadline:  # round robin, longer programs get longer turns
            for group in groups:
                until = min(deadline, time.perf_counter() + self.turn * group.soft.length)
                found = self._advance(group, until, stats, progress, start, record_gradients)
                if found is not None:
                    return found, stats
                if time.perf_counter() >= deadline:
                    break
        return None, stats

    @staticmethod
    @torch.no_grad()
    def _decode(soft, p):
        """Hard decoding: each lane's most likely program, and its sampled one finished by the most
        likely last instruction; (text, lanes solved) of the first that fits every example."""
        for choice in (soft.choices(None)[0], _hard_last(p, soft)):
            solved = soft.exact(soft.run(choice)[0])
            if solved.any():
                return soft.decode(int(solved.nonzero()[0]), choice), int(solved.sum())
        return None

    def _advance(self, group, until, stats, progress, start, record_gradients):
        soft, adam = group.soft, group.adam
        params = list(soft.logits.values())
        while time.perf_counter() < until:
            group.step += 1
            stats.steps += 1
            age, best, stale = group.age, group.best, group.stale
            temperature = (self.t_start * self.t_decay ** age).clamp(min=self.t_end).to(torch.float64)
            p, log_p = soft.choices(temperature)
            _, expected, completion = soft.run(p)
            # Last slot: the exact gradient of its expected loss. Earlier slots: the score-function
            # (REINFORCE) gradient of their samples, rewarded by how well the best last instruction
            # could finish them, relative to the other lanes.
            advantage = (completion - completion.mean()) / (completion.std() + 1e-9)
            usage = 1 - torch.softmax(soft.logits["op"], -1)[..., NOP]
            loss = (expected + self.length_cost * usage.sum(1) + advantage * log_p).sum()
            for t in params:
                t.grad = None
            loss.backward()
            for t in params:  # a division by a small soft value can produce a huge gradient
                t.grad.nan_to_num_(0.0).clamp_(-10.0, 10.0)
            if record_gradients:
                stats.grad_norms.append({n: t.grad.norm(dim=(0, 2)).tolist() for n, t in soft.logits.items()})
            adam.step()
            age += 1
            detached = expected.detach()
            stats.losses.append(detached.min().item())
            improved = detached < best - 1e-6
            best[improved] = detached[improved]
            stale[improved] = 0
            stale[~improved] += 1
            if group.step % self.decode_every == 0:
                found = self._decode(soft, p)
                if found is not None:
                    stats.successes += found[1]
                    return found[0]
            restart = stale >= self.patience
            if restart.any():
                soft.redraw(restart)
                adam.forget(restart)
                age[restart], stale[restart] = 0, 0
                best[restart] = float("inf")
                stats.restarts += int(restart.sum())
            if progress is not None and group.step % 10 == 0:
                progress({"method": "gradient", "length": soft.length, "step": stats.steps,
                          "seconds": time.perf_counter() - start, "loss": stats.losses[-1],
                          "restarts": stats.restarts})
        return None
