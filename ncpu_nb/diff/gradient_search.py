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
    well the best last instruction could finish it, relative to the other restarts. Each restart
    keeps its best sample so far (its *elite*); the last slot learns to finish the elite (an
    optional self-imitation term also pulls the earlier slots towards it). Straight-
    through Gumbel-softmax was tried first: its linearisation ranks discrete alternatives by
    the size of their values, not by how close they come, and it rarely found two-step programs;
  * a small length penalty on the probability of not choosing NOP; Adam on the logits.
Many restarts run as lanes of one batch (a restart that stops improving is re-drawn); every
length up to max_len has its own lanes and they take turns. *Hard decoding*: every few steps each
lane's most likely program (and its elite finished by the most likely last instruction) is
run exactly (the same tensors with one-hot choices); a lane that matches every example is the
answer.
"""
from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field

import torch

from ncpu_nb.diff.alu import relaxed_op
from ncpu_nb.diff.emit import BINARY, UNARY, instruction
from ncpu_nb.diff.spec import USABLE, SynthesisSpec

OPS = BINARY + UNARY + ("pass", "nop")
NOP, PASS = OPS.index("nop"), OPS.index("pass")
DEFAULT_CONSTANTS = (1, 2, 3, 4, 8, 10, 16, 31, 255, -1)  # small numbers, bit and digit widths
BOUND = 1e12  # keeps products of large soft values finite


@contextlib.contextmanager
def single_thread():
    """Searches work on small tensors: torch's intra-op threads cost more than they give (on a busy
    2-core machine, many times more)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def miss(value, target):
    """Per-example loss: log(1 + error²). Being off by one costs the same at any magnitude
    (exact answers are the goal), and huge errors do not swamp the rest."""
    return torch.log1p((value - target) ** 2)


def mined_constants(spec: SynthesisSpec) -> list[int]:
    """Constants the examples suggest: an output that is always its input plus, minus, times or xor
    a fixed number, and output values that recur (a clamp's bound, a flag's value)."""
    found = []
    for o in spec.outputs:
        ys = [out[o] for _, out in spec.examples]
        found += [y for y in dict.fromkeys(ys) if ys.count(y) >= 3]
        for i in spec.inputs:
            xs = [inp[i] for inp, _ in spec.examples]
            for relation in ({y - x for x, y in zip(xs, ys)}, {y + x for x, y in zip(xs, ys)},
                             {y ^ x for x, y in zip(xs, ys)},
                             {y // x if x and y % x == 0 else None for x, y in zip(xs, ys) if x}):
                if len(relation) == 1 and None not in relation:
                    found.append(relation.pop())
    return [c for c in found if -(1 << 15) <= c < (1 << 15)]


def constant_pool(spec: SynthesisSpec) -> list[int]:
    pool = []
    for c in list(spec.constants) + mined_constants(spec) + list(DEFAULT_CONSTANTS):
        if c not in pool and c != 0:
            pool.append(c)
    return pool[:14]


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
        self.consts_row = torch.tensor(self.consts, dtype=torch.float64).view(1, 1, -1)
        signed = lambda v: v - (1 << 32) if v >= (1 << 31) else v  # noqa: E731
        self.target = torch.tensor([[signed(out[o]) for o in spec.outputs] for _, out in spec.examples],
                                   dtype=torch.float64)

    def redraw(self, which: torch.Tensor) -> None:
        """Fresh random logits for the lanes in `which` (a new restart)."""
        with torch.no_grad():
            for name, t in self.logits.items():
                fresh = torch.randn(t.shape, generator=self.generator, dtype=torch.float64) * 0.5
                t[which] = fresh[which]

    def sample(self, temperature: torch.Tensor):
        """Gumbel-max samples of every slot but the last from softmax(logits / temperature)
        (temperature per lane): ({name: (lanes, length - 1) indices}, log-probability (lanes,))."""
        picks, log_p = {}, 0.0
        for name, t in self.logits.items():
            scaled = t[:, :-1] / temperature.view(-1, 1, 1)
            u = torch.rand(scaled.shape, generator=self.generator, dtype=t.dtype).clamp(1e-10, 1 - 1e-10)
            picks[name] = (scaled - torch.log(-torch.log(u))).argmax(-1)
            log_p = log_p + torch.log_softmax(scaled, -1).gather(-1, picks[name].unsqueeze(-1)).sum((1, 2))
        return picks, log_p

    def most_likely(self, slots: slice = slice(None)) -> dict:
        return {name: t[:, slots].argmax(-1) for name, t in self.logits.items()}

    @torch.no_grad()
    def execute(self, picks: dict) -> torch.Tensor:
        """Registers (lanes, examples, k) after running discrete choices (lanes, slots) exactly."""
        n = self.lanes
        regs = self.start.unsqueeze(0).expand(n, -1, -1).clone()
        consts = self.consts_row.expand(n, regs.shape[1], -1)
        lane = torch.arange(n)
        for s in range(picks["op"].shape[1]):
            values = torch.cat([regs, consts], -1)
            a = regs[lane, :, picks["a"][:, s]]  # (lanes, examples)
            b = values[lane, :, picks["b"][:, s]]
            results = torch.stack([relaxed_op(o, a, b) if o in BINARY + UNARY else b if o == "pass" else
                                   regs[lane, :, picks["dst"][:, s]] for o in OPS])  # (ops, lanes, examples)
            result = results[picks["op"][:, s], lane]
            regs[lane, :, picks["dst"][:, s]] = result
        return regs

    def last_slot(self, regs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Score every choice of the last slot after `regs`: (expected loss under the last slot's
        softmax, with gradient to its logits; loss of its best choice), per lane."""
        n, e = regs.shape[:2]
        values = torch.cat([regs, self.consts_row.expand(n, e, -1)], -1)
        a, b = regs.unsqueeze(-1), values.unsqueeze(-2)
        binary = torch.stack([relaxed_op(o, a, b).expand(n, e, a.shape[2], b.shape[3]) for o in BINARY], 2)
        unary = torch.stack([relaxed_op(o, regs, regs) for o in UNARY], 2)
        q = {name: torch.softmax(t[:, -1], -1) for name, t in self.logits.items()}
        pop, pa, pb = q["op"], q["a"], q["b"]
        write = q["dst"] * (1 - pop[:, NOP:NOP + 1])  # probability each register is written
        nb, total, best = len(BINARY), 0.0, 0.0
        for col, r in enumerate(self.out_index):
            y = self.target[:, col]
            score = lambda v, dims: miss(v, y.view(-1, *[1] * dims)).mean(1)  # noqa: E731
            s_bin, s_un, s_pass = score(binary, 3), score(unary, 2), score(values, 1)
            written = torch.einsum("noij,no,ni,nj->n", s_bin, pop[:, :nb], pa, pb)
            written = written + torch.einsum("noi,no,ni->n", s_un, pop[:, nb:nb + len(UNARY)], pa)
            written = written + torch.einsum("nj,nj->n", s_pass, pb) * pop[:, PASS]
            written = written / (1 - pop[:, NOP]).clamp(min=1e-9)
            kept = score(regs[..., r], 0)
            total = total + write[:, r] * written + (1 - write[:, r]) * kept
            lowest = torch.stack([s_bin.flatten(1).amin(1), s_un.flatten(1).amin(1), s_pass.amin(1), kept], 1)
            best = best + lowest.amin(1)
        k = len(self.out_index)
        return total / k, best / k

    def exact(self, picks: dict) -> torch.Tensor:
        """Which lanes' complete discrete programs give every output on every example."""
        return (self.execute(picks)[..., self.out_index] == self.target).all(2).all(1)

    def decode(self, lane: int, picks: dict) -> str:
        """Assembly text of one lane's discrete program (NOPs dropped)."""
        operands = self.regs + self.consts
        lines = []
        for s in range(self.length):
            op = OPS[int(picks["op"][lane, s])]
            if op != "nop":
                lines.append(instruction(op, self.regs[int(picks["dst"][lane, s])],
                                         self.regs[int(picks["a"][lane, s])], operands[int(picks["b"][lane, s])]))
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


class _Group:
    """The restarts of one program length, with their optimiser state."""

    def __init__(self, soft: SoftProgram, lr: float):
        self.soft, self.adam, self.step = soft, Adam(list(soft.logits.values()), lr), 0
        self.age = torch.zeros(soft.lanes)
        self.best = torch.full((soft.lanes,), float("inf"), dtype=torch.float64)
        self.stale = torch.zeros(soft.lanes)
        # Per lane, the best earlier-slot sample so far (by how well a last instruction can finish it).
        self.elite = {name: torch.zeros(soft.lanes, soft.length - 1, dtype=torch.long) for name in soft.logits}
        self.elite_loss = torch.full((soft.lanes,), float("inf"), dtype=torch.float64)

    def keep_better(self, picks: dict, completion: torch.Tensor) -> None:
        better = completion < self.elite_loss
        for name, t in picks.items():
            self.elite[name][better] = t[better]
        self.elite_loss[better] = completion[better]

    def forget(self, lanes: torch.Tensor) -> None:
        self.elite_loss[lanes] = float("inf")


class GradientSearch:
    """The gradient-descent synthesizer (see the module docstring).

    lanes        restarts run together as one batch
    lr           Adam's step size on the logits
    patience     steps without improvement before a restart is re-drawn
    length_cost  weight of the length penalty
    t_start, t_end, t_decay   sampling temperature: t_start * t_decay**age, never below t_end
    turn         seconds per turn of each program length, times the length
    imitation    weight of the elite's log-likelihood (0: off)
    """

    def __init__(self, lanes: int = 16, lr: float = 0.3, patience: int = 60, length_cost: float = 1e-3,
                 decode_every: int = 2, t_start: float = 2.0, t_end: float = 0.7, t_decay: float = 0.97,
                 turn: float = 0.25, imitation: float = 0.0, seed: int = 0):
        self.turn, self.imitation = turn, imitation
        self.lanes, self.lr, self.patience, self.length_cost = lanes, lr, patience, length_cost
        self.decode_every, self.seed = decode_every, seed
        self.t_start, self.t_end, self.t_decay = t_start, t_end, t_decay

    def search(self, spec: SynthesisSpec, deadline: float, progress=None, record_gradients: bool = False):
        """(assembly text or None, SearchStats). Every length 1 .. max_len has its own restarts;
        they take turns (a longer program gets a longer turn) until the deadline."""
        with single_thread():
            return self._search(spec, deadline, progress, record_gradients, SearchStats())

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
    def _decode(soft, picks):
        """Hard decoding: each lane's most likely program, and its elite prefix finished by the most
        likely last instruction; (text, lanes solved) of the first that fits every example."""
        last = soft.most_likely(slice(-1, None))
        elite = {name: torch.cat([picks[name], last[name]], 1) for name in picks}
        for choice in (soft.most_likely(), elite):
            solved = soft.exact(choice)
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
            picks, log_p = soft.sample(temperature)
            with torch.no_grad():
                completion = soft.last_slot(soft.execute(picks))[1]
            group.keep_better(picks, completion)
            # Last slot: the exact gradient of its expected loss after the lane's elite prefix.
            # Earlier slots: the score-function (REINFORCE) gradient of the fresh samples, rewarded by
            # how well the best last instruction could finish them relative to the other lanes, plus
            # self-imitation: the log-likelihood of the elite prefix.
            expected, _ = soft.last_slot(soft.execute(group.elite))
            advantage = (completion - completion.mean()) / (completion.std() + 1e-9)
            elite_log_p = sum(torch.log_softmax(t[:, :-1], -1).gather(-1, group.elite[n].unsqueeze(-1)).sum((1, 2))
                              for n, t in soft.logits.items())
            usage = 1 - torch.softmax(soft.logits["op"], -1)[..., NOP]
            loss = (expected + self.length_cost * usage.sum(1) + advantage * log_p
                    - self.imitation * elite_log_p).sum()
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
                found = self._decode(soft, group.elite)
                if found is not None:
                    stats.successes += found[1]
                    return found[0]
            restart = stale >= self.patience
            if restart.any():
                soft.redraw(restart)
                adam.forget(restart)
                group.forget(restart)
                age[restart], stale[restart] = 0, 0
                best[restart] = float("inf")
                stats.restarts += int(restart.sum())
            if progress is not None and group.step % 10 == 0:
                progress({"method": "gradient", "length": soft.length, "step": stats.steps,
                          "seconds": time.perf_counter() - start, "loss": stats.losses[-1],
                          "restarts": stats.restarts})
        return None
