"""Program synthesis by gradient descent.

A *soft program* has `length` slots; each slot holds distributions (logits per lane) over its
choices: the ALU operation (the table's binary and unary operations, MOV, or NOP), the
destination register, the first operand (a register) and the second (a register or a constant of
the pool); and a *guard*: "none", or a condition of the table tested after CMP x, y (x a register,
y a register, zero or a constant the examples suggest), under which the slot writes a second
value (op2, a2, b2; NOP keeps the register) instead. A guarded slot is a branch: in assembly
CMP x, y / Jcc taken / OP dst, a, b / JMP done / taken: OP2 dst, a2, b2 / done: -- so max, clamp
and sign are soft programs too. The last slots are the *output block*, one per output register,
all reading the registers the earlier slots left (a parallel assignment: swap is one block of two
moves, divmod a block of DIV and MOD).

The gradient:
  * the output block decides the outputs, so its choices are averaged exactly: every operation on
    every operand pair, and every guard, is scored with log(1 + error²) against the targets and
    weighted by its probability (per example the guard holds with some probability, and the
    expected loss factorises); the gradient of this expected loss, plus a soft-min term that
    favours values fitting every example, trains the block's logits;
  * the earlier slots are Gumbel-max samples of their tempered softmax (temperature annealed per
    restart) trained by the score-function estimator (REINFORCE) on the choices the sampled program
    uses: a sample is rewarded by how well the best output block could finish it, relative to the
    other restarts. Each restart keeps its best sample so far (its *elite*); the block learns to
    finish the elite (an optional self-imitation term also pulls the earlier slots towards it).
    Straight-through Gumbel-softmax was tried first: its linearisation ranks discrete alternatives
    by the size of their values, not by how close they come, and it rarely found two-step programs;
  * a small length penalty on the probability of not choosing NOP; Adam on the logits.
The gradient reaches the logits only (the values are those of discrete programs), so candidates
run on the exact integer ALU (`ncpu_nb.differentiable.soft_alu.exact_op`, the differentiable ALU's forward value).
Many restarts run as lanes of one batch (a restart that stops improving is re-drawn); every
length up to max_len has its own lanes and they take turns. *Hard decoding*: every few steps each
lane's most likely program (and its elite finished by the most likely block) is run exactly; a
lane that matches every example is the answer.

*Device*: `GradientSearch(device="cuda")` keeps every tensor of the search (logits, Adam state,
elites, examples, the exact ALU's work) on that torch device. Random numbers are drawn on a CPU
generator and moved there, so a seed gives the same search on every device.
"""
from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field

import torch

from ncpu_nb.differentiable.soft_alu import compare, exact_op
from ncpu_nb.ncpu.neural_alu import torch_device
from ncpu_nb.synthesis.emit import BINARY, UNARY, instruction
from ncpu_nb.synthesis.spec import USABLE, SynthesisSpec
from ncpu_nb.ncpu.table import CONDITION_NAMES, FORMS

JUMP_BY_CONDITION = {f.sem.cond: f.mnemonic for f in FORMS if f.sem.kind == "jump"}
NEGATION = {c: n for pair in (("z", "nz"), ("s", "ns"), ("c", "nc"), ("o", "no"), ("l", "ge"), ("g", "le"),
                              ("a", "be")) for c, n in (pair, pair[::-1])}

OPS = BINARY + UNARY + ("pass", "nop")
NOP, PASS = OPS.index("nop"), OPS.index("pass")
DEFAULT_CONSTANTS = (1, 2, 3, 4, 8, 10, 16, 31, 255, -1)  # small numbers, bit and digit widths


@contextlib.contextmanager
def single_thread(device: torch.device | None = None):
    """Searches work on small tensors: torch's intra-op threads cost more than they give (on a busy
    2-core machine, many times more). Off the CPU (`device`) the host's threads do not compute."""
    if device is not None and device.type != "cpu":
        yield
        return
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


GUARDS = ("none",) + CONDITION_NAMES[1:]  # a slot writes one value, or picks between two by CMP x, y
GUARD_BIAS = 3.0  # initial logit of "none" in the slots before the output block
SOFT_MIN = 0.1  # temperature of the soft-min term (a miss of log 2 on every example weighs e**-7)
CANDIDATES = 24  # values tried on each side of every guard when scoring the best completion


def distinct_best(misses: torch.Tensor) -> torch.Tensor:
    """Indices (lanes, CANDIDATES) of values exact on the most examples, one per set of examples
    they are exact on; `misses` is (lanes, examples, values)."""
    exact = (misses[:, :62] == 0).to(torch.int64)
    bits = torch.arange(exact.shape[1], device=exact.device).view(1, -1, 1)
    sets = (exact << bits).sum(1)  # (lanes, values) bit sets
    ordered, order = sets.sort(1)
    first = torch.ones_like(ordered, dtype=torch.bool)
    first[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    count = exact.sum(1).gather(1, order).to(torch.float64) - misses.mean(1).gather(1, order) * 1e-9
    count[~first] = -1.0
    return order.gather(1, count.topk(min(CANDIDATES, count.shape[1]), 1).indices)


class SoftProgram:
    """`lanes` soft programs of `length` slots over the registers `regs` and constants `consts`.

    A slot writes dst = op(a, b); with a *guard* it is a selection: when CMP x, y sets the guard's
    condition it writes op2(a2, b2) instead (op2 may be NOP: keep dst). In assembly: CMP x, y /
    Jcc taken / OP dst, a, b / JMP done / taken: OP2 dst, a2, b2 / done:. The last slots form the
    *output block*, one per output register in order, all reading the registers the earlier slots
    left (a parallel assignment: swap is one block of two moves); their dst is fixed.
    """

    def __init__(self, spec: SynthesisSpec, length: int, lanes: int, generator: torch.Generator,
                 device: torch.device = torch.device("cpu")):
        self.spec, self.length, self.lanes, self.generator, self.device = spec, length, lanes, generator, device
        self.regs = register_file(spec, length)
        self.consts = constant_pool(spec)
        self.prefix = length - len(spec.outputs)  # slots before the output block
        # A guard compares with a register, zero or a constant the spec names or the examples suggest:
        # the default pool's widths and masks would mostly fit the examples by coincidence.
        self.bounds = list(dict.fromkeys([0] + list(spec.constants) + mined_constants(spec)))
        k, c = len(self.regs), len(self.consts)
        self.shapes = {"op": len(OPS), "a": k, "b": k + c, "dst": k, "guard": len(GUARDS), "x": k,
                       "y": k + len(self.bounds),
                       "op2": len(OPS), "a2": k, "b2": k + c}
        self.logits = {n: torch.zeros(lanes, length, m, dtype=torch.float64, device=device, requires_grad=True)
                       for n, m in self.shapes.items()}
        self.redraw(torch.ones(lanes, dtype=torch.bool, device=device))
        inputs = [[inp.get(r, 0) for r in self.regs] for inp, _ in spec.examples]
        self.start = torch.tensor(inputs, dtype=torch.int64, device=device)  # (examples, k)
        self.out_index = [self.regs.index(o) for o in spec.outputs]
        self.consts_row = torch.tensor(self.consts, dtype=torch.int64, device=device).view(1, 1, -1)
        self.bounds_row = torch.tensor(self.bounds, dtype=torch.int64, device=device).view(1, 1, -1)
        signed = lambda v: v - (1 << 32) if v >= (1 << 31) else v  # noqa: E731
        self.target = torch.tensor([[signed(out[o]) for o in spec.outputs] for _, out in spec.examples],
                                   dtype=torch.float64, device=device)

    def _random(self, shape, draw) -> torch.Tensor:
        """`draw` (torch.rand or torch.randn) from the CPU generator, moved to the device: the same
        numbers on every device, where a CUDA generator would draw others."""
        return draw(shape, generator=self.generator, dtype=torch.float64, device="cpu").to(self.device)

    def redraw(self, which: torch.Tensor) -> None:
        """Fresh random logits for the lanes in `which` (a new restart)."""
        with torch.no_grad():
            for name, t in self.logits.items():
                fresh = self._random(t.shape, torch.randn) * 0.5
                if name == "guard":  # sampled slots start mostly unguarded
                    fresh[:, :self.prefix, 0] += GUARD_BIAS
                t[which] = fresh[which]

    def sample(self, temperature: torch.Tensor):
        """Gumbel-max samples of every slot before the output block from softmax(logits /
        temperature) (temperature per lane): ({name: (lanes, prefix) indices}, log-probability (lanes,)
        of the choices that matter: an operand its operation reads, the second value under a guard)."""
        picks, log_ps = {}, {}
        for name, t in self.logits.items():
            scaled = t[:, :self.prefix] / temperature.view(-1, 1, 1)
            u = self._random(scaled.shape, torch.rand).clamp(1e-10, 1 - 1e-10)
            picks[name] = (scaled - torch.log(-torch.log(u))).argmax(-1)
            log_ps[name] = torch.log_softmax(scaled, -1).gather(-1, picks[name].unsqueeze(-1)).squeeze(-1)
        return picks, sum((log_ps[name] * used).sum(1) for name, used in self.used(picks).items())

    @staticmethod
    def used(picks: dict) -> dict:
        """Which of the sampled choices the program depends on, (lanes, slots) 0./1. per name."""
        guarded = picks["guard"] > 0
        reads_a = torch.tensor([o in BINARY + UNARY for o in OPS], device=guarded.device)
        reads_b = torch.tensor([o in BINARY or o == "pass" for o in OPS], device=guarded.device)
        writes = torch.tensor([o != "nop" for o in OPS], device=guarded.device)
        used = {"op": torch.ones_like(guarded), "guard": torch.ones_like(guarded), "x": guarded, "y": guarded,
                "op2": guarded, "a": reads_a[picks["op"]], "b": reads_b[picks["op"]],
                "a2": guarded & reads_a[picks["op2"]], "b2": guarded & reads_b[picks["op2"]],
                "dst": writes[picks["op"]] | (guarded & writes[picks["op2"]])}
        return {name: u.to(torch.float64) for name, u in used.items()}

    def most_likely(self, slots: slice = slice(None)) -> dict:
        return {name: t[:, slots].argmax(-1) for name, t in self.logits.items()}

    def _slot(self, regs: torch.Tensor, picks: dict, s: int, old: torch.Tensor) -> torch.Tensor:
        """The value slot s writes, per lane and example (`old`: dst's value, kept by NOP). Only the
        operations some lane chose are computed."""
        lane = torch.arange(regs.shape[0], device=regs.device)
        values = torch.cat([regs, self.consts_row.expand(regs.shape[0], regs.shape[1], -1)], -1)

        def value(op, a, b):
            a, b, chosen = regs[lane, :, picks[a][:, s]], values[lane, :, picks[b][:, s]], picks[op][:, s]
            result = old.clone()  # NOP
            for index in chosen.unique().tolist():
                o, where = OPS[index], chosen == index
                if o != "nop":
                    result[where] = b[where] if o == "pass" else exact_op(o, a[where], b[where])
            return result

        guard = picks["guard"][:, s]
        first = value("op", "a", "b")
        if not bool((guard > 0).any()):
            return first
        bounds = torch.cat([regs, self.bounds_row.expand(regs.shape[0], regs.shape[1], -1)], -1)
        holds = compare(regs[lane, :, picks["x"][:, s]], bounds[lane, :, picks["y"][:, s]])  # (lanes, e, conds)
        taken = (holds[lane, :, guard.clamp(min=1)] > 0) & (guard > 0).view(-1, 1)
        return torch.where(taken, value("op2", "a2", "b2"), first)

    @torch.no_grad()
    def execute(self, picks: dict) -> torch.Tensor:
        """Registers (lanes, examples, k) after running discrete choices (lanes, slots) exactly:
        the slots before the output block (all of them if `picks` holds no more), then the block."""
        n = self.lanes
        regs = self.start.unsqueeze(0).expand(n, -1, -1).clone()
        lane = torch.arange(n, device=regs.device)
        for s in range(min(self.prefix, picks["op"].shape[1])):
            dst = picks["dst"][:, s]
            regs[lane, :, dst] = self._slot(regs, picks, s, regs[lane, :, dst])
        if picks["op"].shape[1] == self.length:
            before = regs.clone()
            for j, r in enumerate(self.out_index):
                regs[:, :, r] = self._slot(before, picks, self.prefix + j, before[:, :, r])
        return regs

    def _block_inputs(self, regs: torch.Tensor):
        """What the output block can write after `regs` (lanes, examples, k): every operand value,
        every binary and unary result, and which guards are taken (guard "none" never is)."""
        n, e, k = regs.shape
        values = torch.cat([regs, self.consts_row.expand(n, e, -1)], -1)
        a, b = regs.unsqueeze(-1), values.unsqueeze(-2)
        binary = torch.stack([exact_op(o, a, b).expand(n, e, k, b.shape[3]) for o in BINARY], 2)
        unary = torch.stack([exact_op(o, regs, regs) for o in UNARY], 2)
        bounds = torch.cat([regs, self.bounds_row.expand(n, e, -1)], -1)
        taken = compare(regs.unsqueeze(-1), bounds.unsqueeze(-2)).permute(0, 1, 4, 2, 3).clone()
        taken[:, :, 0] = 0.0  # (n, e, guards, k, bounds)
        return values, binary, unary, taken

    def _misses(self, regs, values, binary, unary, j):
        y = self.target[:, j].view(1, -1)
        return (miss(binary, y.view(1, -1, 1, 1, 1)), miss(unary, y.view(1, -1, 1, 1)), miss(values, y.view(1, -1, 1)),
                miss(regs[..., self.out_index[j]], y))

    def expected_loss(self, regs: torch.Tensor) -> torch.Tensor:
        """The output block's expected loss after `regs` under its softmax, per lane, with gradient
        to its logits. Per example a slot writes its second value with the probability that its
        guard holds and its first otherwise, so the expectation factorises exactly."""
        values, binary, unary, taken = self._block_inputs(regs)
        nb, nu, total = len(BINARY), len(UNARY), 0.0
        for j in range(len(self.out_index)):
            q = {name: torch.softmax(t[:, self.prefix + j], -1) for name, t in self.logits.items()}
            m_bin, m_un, m_pass, kept = self._misses(regs, values, binary, unary, j)

            def expected(op, a, b):  # (n, e): the expected miss of a value under its distributions
                pop = q[op]
                return (torch.einsum("neoij,no,ni,nj->ne", m_bin, pop[:, :nb], q[a], q[b])
                        + torch.einsum("neoi,no,ni->ne", m_un, pop[:, nb:nb + nu], q[a])
                        + torch.einsum("nej,nj->ne", m_pass, q[b]) * pop[:, PASS:PASS + 1]
                        + kept * pop[:, NOP:NOP + 1])

            p_taken = torch.einsum("negij,ng,ni,nj->ne", taken, q["guard"], q["x"], q["y"])
            total = total + (p_taken * expected("op2", "a2", "b2") + (1 - p_taken) * expected("op", "a", "b")).mean(1)
            # The expected loss averages a good operation over every operand pair, and a good operand
            # over every operation: alone it settles on values right on many examples by accident
            # (zero, a copy). The soft-min term -T log E[exp(-loss/T)] of the first value is led by
            # the values that fit every example, whatever their share of the probability.
            with torch.no_grad():
                scores = [m_bin.mean(1), m_un.mean(1), m_pass.mean(1), kept.mean(1, keepdim=True)]
                floor = torch.stack([x.flatten(1).amin(1) for x in scores]).amin(0).view(-1, 1)
                w_bin, w_un, w_pass, w_kept = (torch.exp(-(x - floor.view(-1, *[1] * (x.dim() - 1))) / SOFT_MIN)
                                               for x in scores)
            pop, pa, pb = q["op"], q["a"], q["b"]
            mass = (torch.einsum("noij,no,ni,nj->n", w_bin, pop[:, :nb], pa, pb)
                    + torch.einsum("noi,no,ni->n", w_un, pop[:, nb:nb + nu], pa)
                    + torch.einsum("nj,nj->n", w_pass, pb) * pop[:, PASS] + w_kept[:, 0] * pop[:, NOP])
            total = total - SOFT_MIN * torch.log(mass.clamp(min=1e-300))
        return total / len(self.out_index)

    @torch.no_grad()
    def best_completion(self, regs: torch.Tensor) -> torch.Tensor:
        """Per lane, the loss of the best output block found after `regs`: every unguarded value,
        and under every guard the values `distinct_best` picks, on each side."""
        values, binary, unary, taken = self._block_inputs(regs)
        e, best = regs.shape[1], 0.0
        guards = taken.flatten(2).transpose(1, 2)  # (n, G, e)
        for j in range(len(self.out_index)):
            m_bin, m_un, m_pass, kept = self._misses(regs, values, binary, unary, j)
            misses = torch.cat([m_bin.flatten(2), m_un.flatten(2), m_pass, kept.unsqueeze(-1)], 2)  # (n, e, V)
            unguarded = misses.mean(1).amin(1)
            chosen = misses.gather(2, distinct_best(misses).unsqueeze(1).expand(-1, e, -1))  # (n, e, K)
            guarded = ((guards @ chosen).amin(2) + ((1 - guards) @ chosen).amin(2)) / e  # (n, G)
            best = best + torch.minimum(unguarded, guarded.amin(1))
        return best / len(self.out_index)

    def exact(self, picks: dict) -> torch.Tensor:
        """Which lanes' complete discrete programs give every output on every example."""
        return (self.execute(picks)[..., self.out_index] == self.target).all(2).all(1)

    def _text(self, lane: int, picks: dict, s: int, dst: str) -> list[str]:
        operands = self.regs + self.consts

        def line(op, a, b):
            op = OPS[int(picks[op][lane, s])]
            if op == "nop":
                return []
            return [instruction(op, dst, self.regs[int(picks[a][lane, s])], operands[int(picks[b][lane, s])])]

        first, second, guard = line("op", "a", "b"), line("op2", "a2", "b2"), int(picks["guard"][lane, s])
        if guard == 0 or first == second:
            return first
        x, y = self.regs[int(picks["x"][lane, s])], (self.regs + self.bounds)[int(picks["y"][lane, s])]
        compare = f"CMP {x}, {y}"
        if not second:  # taken: keep dst
            return [compare, f"{JUMP_BY_CONDITION[GUARDS[guard]]} done{s}", *first, f"done{s}:"]
        if not first:  # not taken: keep dst
            return [compare, f"{JUMP_BY_CONDITION[NEGATION[GUARDS[guard]]]} done{s}", *second, f"done{s}:"]
        return [compare, f"{JUMP_BY_CONDITION[GUARDS[guard]]} taken{s}", *first, f"JMP done{s}", f"taken{s}:",
                *second, f"done{s}:"]

    def decode(self, lane: int, picks: dict) -> str | None:
        """Assembly text of one lane's discrete program (NOPs dropped). The output block is a
        parallel assignment: an output a later block slot still reads is built in a free register
        and moved at the end. None if R0-R7 run out."""
        lines = []
        for s in range(self.prefix):
            lines += self._text(lane, picks, s, self.regs[int(picks["dst"][lane, s])])
        free = [r for r in USABLE if r not in self.regs]
        moves = []
        outputs = [self.regs[r] for r in self.out_index]
        for j, out in enumerate(outputs):
            s = self.prefix + j
            later = {self.regs[int(picks[n][lane, t])] for t in range(s + 1, self.length) for n in ("a", "a2", "x")}
            later |= {(self.regs + self.consts)[int(picks[n][lane, t])] for t in range(s + 1, self.length)
                      for n in ("b", "b2")}
            later |= {(self.regs + self.bounds)[int(picks["y"][lane, t])] for t in range(s + 1, self.length)}
            dst = out
            if out in later:
                if not free:
                    return None
                dst = free.pop(0)
                lines.append(instruction("pass", dst, None, out))  # a skipped slot keeps the old value
                moves.append(instruction("pass", out, None, dst))
            lines += self._text(lane, picks, s, dst)
        return "\n".join(lines + moves + ["HALT"])


class Adam:
    """Adam on lanes of logits; `forget` clears the moments of re-drawn lanes. (Written out: it is
    a few lines, and torch.optim's first use imports several seconds of unrelated modules.)"""

    def __init__(self, params, lr: float, betas=(0.5, 0.9), eps: float = 1e-8):
        self.params, self.lr, self.betas, self.eps = params, lr, betas, eps
        self.m = [torch.zeros_like(p) for p in params]
        self.v = [torch.zeros_like(p) for p in params]
        self.t = torch.zeros(params[0].shape[0], dtype=torch.float64, device=params[0].device)  # steps per lane

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
        device = soft.device
        self.age = torch.zeros(soft.lanes, device=device)
        self.best = torch.full((soft.lanes,), float("inf"), dtype=torch.float64, device=device)
        self.stale = torch.zeros(soft.lanes, device=device)
        # Per lane, the best earlier-slot sample so far (by how well a last instruction can finish it).
        self.elite = {name: torch.zeros(soft.lanes, soft.prefix, dtype=torch.long, device=device)
                      for name in soft.logits}
        self.elite_loss = torch.full((soft.lanes,), float("inf"), dtype=torch.float64, device=device)

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
    patience     steps without improvement (by progress_ratio of the loss) before a restart is re-drawn
    length_cost  weight of the length penalty
    t_start, t_end, t_decay   sampling temperature: t_start * t_decay**age, never below t_end
    turn         seconds per turn of each program length, times the length
    turn_steps   if set, a turn is this many steps times the length instead of `turn` seconds: the
                 search then takes the same steps on any machine (deterministic for its seed) and
                 only the overall deadline depends on speed
    imitation    weight of the elite's log-likelihood (0: off)
    device       the torch device the restarts run on: cpu (default) or cuda; a seed searches alike on each
    """

    def __init__(self, lanes: int = 16, lr: float = 0.3, patience: int = 60, length_cost: float = 1e-3,
                 decode_every: int = 2, t_start: float = 2.0, t_end: float = 0.7, t_decay: float = 0.97,
                 turn: float = 0.25, imitation: float = 0.0, progress_ratio: float = 0.01, seed: int = 0,
                 turn_steps: int | None = None, device: str | torch.device = "cpu"):
        self.turn_steps, self.device = turn_steps, torch_device(device)
        self.turn, self.imitation, self.progress_ratio = turn, imitation, progress_ratio
        self.lanes, self.lr, self.patience, self.length_cost = lanes, lr, patience, length_cost
        self.decode_every, self.seed = decode_every, seed
        self.t_start, self.t_end, self.t_decay = t_start, t_end, t_decay

    def search(self, spec: SynthesisSpec, deadline: float, progress=None, record_gradients: bool = False):
        """(assembly text or None, SearchStats). Every length 1 .. max_len has its own restarts;
        they take turns (a longer program gets a longer turn) until the deadline."""
        with single_thread(self.device):
            return self._search(spec, deadline, progress, record_gradients, SearchStats())

    def _search(self, spec, deadline, progress, record_gradients, stats):
        generator = torch.Generator(device="cpu").manual_seed(self.seed)  # on the CPU for every device
        groups = [_Group(SoftProgram(spec, length, self.lanes, generator, self.device), self.lr) for length in
                  range(len(spec.outputs), spec.max_len + 1)]
        stats.restarts += self.lanes * len(groups)
        start = time.perf_counter()
        while time.perf_counter() < deadline:  # round robin, longer programs get longer turns
            for group in groups:
                until = min(deadline, time.perf_counter() + self.turn * group.soft.length)
                last_step = None if self.turn_steps is None else group.step + self.turn_steps * group.soft.length
                if last_step is not None:
                    until = deadline
                found = self._advance(group, until, stats, progress, start, record_gradients, last_step)
                if found is not None:
                    return found, stats
                if time.perf_counter() >= deadline:
                    break
        return None, stats

    @staticmethod
    def _decode(soft, picks):
        """Hard decoding: each lane's most likely program, and its elite prefix finished by the most
        likely last instruction; (text, lanes solved) of the first that fits every example."""
        block = soft.most_likely(slice(soft.prefix, None))
        elite = {name: torch.cat([picks[name], block[name]], 1) for name in picks}
        for choice in (soft.most_likely(), elite):
            solved = soft.exact(choice)
            for lane in solved.nonzero().flatten().tolist():
                text = soft.decode(lane, choice)
                if text is not None:
                    return text, int(solved.sum())
        return None

    def _advance(self, group, until, stats, progress, start, record_gradients, last_step=None):
        soft, adam = group.soft, group.adam
        params = list(soft.logits.values())
        while time.perf_counter() < until and (last_step is None or group.step < last_step):
            group.step += 1
            stats.steps += 1
            age, best, stale = group.age, group.best, group.stale
            temperature = (self.t_start * self.t_decay ** age).clamp(min=self.t_end).to(torch.float64)
            picks, log_p = soft.sample(temperature)
            completion = soft.best_completion(soft.execute(picks))
            group.keep_better(picks, completion)
            # Last slot: the exact gradient of its expected loss after the lane's elite prefix.
            # Earlier slots: the score-function (REINFORCE) gradient of the fresh samples, rewarded by
            # how well the best last instruction could finish them relative to the other lanes, plus
            # self-imitation: the log-likelihood of the elite prefix.
            expected = soft.expected_loss(soft.execute(group.elite))
            advantage = (completion - completion.mean()) / (completion.std() + 1e-9)
            elite_log_p = sum(torch.log_softmax(t[:, :soft.prefix], -1).gather(-1, group.elite[n].unsqueeze(-1))
                              .sum((1, 2)) for n, t in soft.logits.items())
            usage = 1 - torch.softmax(soft.logits["op"], -1)[..., NOP]
            loss = (expected + self.length_cost * usage.sum(1) + advantage * log_p
                    - self.imitation * elite_log_p).sum()
            for t in params:
                t.grad = None
            loss.backward()
            for t in params:  # a division by a small soft value can produce a huge gradient
                if t.grad is None:
                    t.grad = torch.zeros_like(t)
                t.grad.nan_to_num_(0.0).clamp_(-10.0, 10.0)
            if record_gradients:
                stats.grad_norms.append({n: t.grad.norm(dim=(0, 2)).tolist() for n, t in soft.logits.items()})
            adam.step()
            age += 1
            detached = expected.detach()
            stats.losses.append(detached.min().item())
            improved = detached < best * (1 - self.progress_ratio) - 1e-6
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
