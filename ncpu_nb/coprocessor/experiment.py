"""Both arms — the tiny transformer alone, and the same transformer with the ALU coprocessor —
trained on the same problems for the same steps from the same seeds, then scored on held-out
problems by operation and by operand length, lengths beyond training included.

    result = compare(seeds=(0, 1, 2))  # 1,500 steps an arm and seed
    result              # in a notebook: the table, mean ± spread over seeds
    result.plot()       # accuracy by op and by operand length, both arms
"""
from __future__ import annotations

import html
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from ncpu_nb.coprocessor.arithmetic_text import (OP_NAMES, OPS, STOI, TRAIN_LENGTHS, VOCAB, answer_text, decode,
                                                 encode, held_out_problems, make_batch, problem_text,
                                                 training_problems)

ARMS = ("baseline", "coprocessor")
ABLATION = "decoders_only"  # the coprocessor arm with its decoders and their labels, but no ALU result written
TEST_LENGTHS = (1, 2, 3, 4)  # 4 is longer than any training operand; 4-digit products still fit 32 bits


@dataclass
class RunConfig:
    steps: int = 1500
    batch: int = 64
    d_model: int = 64
    layers: int = 2
    heads: int = 4
    lr: float = 3e-3
    hook_layer: str = "layers.0"


def build(arm: str, seed: int, config: RunConfig = RunConfig()):
    """The model of `arm`, initialised from `seed`: the transformer's own weights are the same in both."""
    import torch

    from ncpu_nb.coprocessor.alu_coprocessor import CoprocessorConfig, inject_ncpu_coprocessor
    from ncpu_nb.coprocessor.model import TinyTransformer

    torch.manual_seed(seed)
    model = TinyTransformer(len(VOCAB), config.d_model, config.layers, config.heads)
    if arm in ("coprocessor", ABLATION):
        inject_ncpu_coprocessor(model, CoprocessorConfig(config.d_model, layer=config.hook_layer,
                                                         alu_results=arm == "coprocessor"))
    elif arm != "baseline":
        raise ValueError(f"unknown arm {arm!r}: {', '.join(ARMS + (ABLATION,))}")
    return model


def train(arm: str, seed: int, config: RunConfig = RunConfig(), log_every: int = 0):
    """Train one arm; returns (model, losses per step, wall seconds, CPU seconds), both clocks read
    around the steps alone. Torch runs on one thread here."""
    import torch
    from torch.nn import functional as F

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model = build(arm, seed, config)
        coprocessor = getattr(model, "ncpu_coprocessor", None)
        rng = np.random.default_rng([seed, 2026])  # the data stream: the same for both arms
        optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.01)
        schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, config.lr, total_steps=config.steps, pct_start=0.1)
        losses, t0, c0 = [], time.perf_counter(), time.process_time()
        for step in range(config.steps):
            batch = make_batch(training_problems(rng, config.batch))
            tokens = torch.from_numpy(batch.tokens)
            logits = model(tokens[:, :-1])
            mask = torch.from_numpy(batch.loss_mask[:, :-1])
            loss = F.cross_entropy(logits[mask], tokens[:, 1:][mask])
            total = loss
            if coprocessor is not None:
                total = loss + coprocessor.decoder_loss(tokens[:, :-1], torch.from_numpy(batch.roles[:, :-1]),
                                                        torch.from_numpy(batch.ops))
            optimizer.zero_grad()
            total.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            losses.append(loss.item())
            if log_every and step % log_every == 0:
                print(f"{arm} seed {seed} step {step}: answer loss {loss.item():.3f}", flush=True)
        return model, losses, time.perf_counter() - t0, time.process_time() - c0
    finally:
        torch.set_num_threads(threads)


def generate(model, prompts: list[str], max_new: int = 11) -> list[str]:
    """Greedy answers to prompts of one length, up to and including '.'."""
    import torch

    tokens = torch.tensor([encode(p) for p in prompts])
    with torch.no_grad():
        for _ in range(max_new):
            nxt = model(tokens)[:, -1].argmax(-1)
            tokens = torch.cat([tokens, nxt[:, None]], 1)
            if all(STOI["."] in row for row in tokens[:, len(prompts[0]):].tolist()):
                break
    out = []
    for row in tokens[:, len(prompts[0]):].tolist():
        text = decode(row)
        out.append(text[:text.index(".") + 1] if "." in text else text)
    return out


def evaluate(model, n: int = 60, lengths=TEST_LENGTHS) -> dict:
    """Exact-answer accuracy on held-out problems: {(op name, length): fraction}."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    model.eval()
    try:
        scores = {}
        for op in OPS:
            for length in lengths:
                problems = held_out_problems(op, length, n)
                answers = generate(model, [problem_text(*p) for p in problems])
                right = [a == answer_text(*p) for a, p in zip(answers, problems)]
                scores[(OP_NAMES[op], length)] = float(np.mean(right))
        return scores
    finally:
        model.train()
        torch.set_num_threads(threads)


def routing(model, problem: tuple[str, int, int]) -> dict:
    """The coprocessor's work on one problem, answered greedily: per token, the gate value, whether
    it was routed, the words A and B read so far and the character the ALU result wrote."""
    import torch

    from ncpu_nb.coprocessor.alu_coprocessor import NOTHING, RESULT_CHARS

    coprocessor = model.ncpu_coprocessor
    prompt = problem_text(*problem)
    text = prompt + generate(model, [prompt])[0]
    with torch.no_grad():
        model(torch.tensor([encode(text)]))
    last = coprocessor.last
    op = last["op_choice"][0]
    return {"tokens": list(text), "gate": last["gate"][0].tolist(), "routed": last["routed"][0].tolist(),
            "a": last["a"][0].tolist(), "b": last["b"][0].tolist(), "op": [OP_NAMES[OPS[i]] for i in op],
            "wrote": ["" if c == NOTHING else RESULT_CHARS[c] for c in last["chars"][0, np.arange(len(text)), op]]}


@dataclass
class Comparison:
    config: RunConfig
    seeds: tuple
    scores: dict = field(default_factory=dict)    # {arm: [per-seed {(op, length): accuracy}]}
    seconds: dict = field(default_factory=dict)   # {arm: [wall seconds per training run]}
    cpu_seconds: dict = field(default_factory=dict)  # {arm: [CPU seconds of this process per training run]}
    losses: dict = field(default_factory=dict)    # {arm: [per-seed losses]}

    def stats(self, arm: str, op: str | None = None, length: int | None = None) -> tuple[float, float]:
        """Mean and standard deviation over seeds of the accuracy, in points (0-100), averaged over
        whichever of op / length is left None."""
        per_seed = [np.mean([v for (o, n), v in s.items() if op in (None, o) and length in (None, n)])
                    for s in self.scores[arm]]
        return 100 * float(np.mean(per_seed)), 100 * float(np.std(per_seed))

    def rows(self) -> list[tuple[str, str, str, str]]:
        ops = [OP_NAMES[o] for o in OPS]
        keys = [(o, None) for o in ops] + [(None, n) for n in TEST_LENGTHS] + [(None, None)]
        out = []
        for op, length in keys:
            label = op or (f"length {length}" + (" (longer than training)" if length not in TRAIN_LENGTHS else "")
                           if length else "all")
            (bm, bs), (cm, cs) = self.stats("baseline", op, length), self.stats("coprocessor", op, length)
            out.append((label, f"{bm:.1f} ± {bs:.1f}", f"{cm:.1f} ± {cs:.1f}", f"{cm - bm:+.1f}"))
        return out

    def text(self) -> str:
        c = self.config
        lines = [f"held-out exact-answer accuracy, % (mean ± sd over seeds {list(self.seeds)}; {c.steps} steps, "
                 f"batch {c.batch}, d_model {c.d_model}, {c.layers} layers)",
                 f"{'':34}{'baseline':>16}{'coprocessor':>16}{'gain':>8}"]
        lines += [f"{a:34}{b:>16}{d:>16}{g:>8}" for a, b, d, g in self.rows()]
        lines.append("seconds per training run: " + ", ".join(
            f"{arm} {np.mean(s):.0f} ± {np.std(s):.0f}" for arm, s in self.seconds.items()))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        c = self.config
        body = "".join(f"<tr><td>{html.escape(a)}</td><td>{b}</td><td>{d}</td><td>{g}</td></tr>"
                       for a, b, d, g in self.rows())
        secs = ", ".join(f"{arm} {np.mean(s):.0f} s" for arm, s in self.seconds.items())
        return (f"<p>Held-out exact-answer accuracy, % — mean ± sd over seeds {list(self.seeds)}, {c.steps} steps "
                f"of batch {c.batch}; training run: {secs}</p><table><tr><th></th><th>baseline</th>"
                f"<th>coprocessor</th><th>gain</th></tr>{body}</table>")

    def plot(self):
        import matplotlib.pyplot as plt

        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6))
        ops = [OP_NAMES[o] for o in OPS]
        x = np.arange(len(ops))
        for i, arm in enumerate(ARMS):
            m, s = zip(*(self.stats(arm, op=o) for o in ops))
            left.bar(x + (i - 0.5) * 0.38, m, 0.38, yerr=s, capsize=3, label=arm)
            m, s = zip(*(self.stats(arm, length=n) for n in TEST_LENGTHS))
            right.errorbar(TEST_LENGTHS, m, yerr=s, marker="o", capsize=3, label=arm)
        left.set_xticks(x, ops)
        left.set_ylabel("held-out accuracy, %")
        left.set_title("by operation (all lengths)")
        right.axvspan(max(TRAIN_LENGTHS) + 0.5, max(TEST_LENGTHS) + 0.5, color="0.9", label="longer than training")
        right.set_xticks(TEST_LENGTHS)
        right.set_xlabel("operand length, digits")
        right.set_title("by operand length (all operations)")
        for ax in (left, right):
            ax.set_ylim(0, 105)
            ax.legend(fontsize=8)
        fig.tight_layout()
        return fig


def compare(seeds=(0, 1, 2), config: RunConfig = RunConfig(), n_test: int = 100, progress: bool = False,
            arms=ARMS) -> Comparison:
    """Train and score both arms (and, in `arms`, the ablation) for every seed."""
    result = Comparison(config, tuple(seeds))
    for arm in arms:
        for seed in seeds:
            model, losses, seconds, cpu_seconds = train(arm, seed, config)
            result.cpu_seconds.setdefault(arm, []).append(cpu_seconds)
            result.scores.setdefault(arm, []).append(evaluate(model, n_test))
            result.seconds.setdefault(arm, []).append(seconds)
            result.losses.setdefault(arm, []).append(losses)
            if progress:
                print(f"{arm} seed {seed}: {seconds:.0f} s, held-out accuracy "
                      f"{100 * np.mean(list(result.scores[arm][-1].values())):.1f}%", file=sys.stderr, flush=True)
    return result
