"""The ALU coprocessor: routing and exact results, gradients, the hook on standard modules, seeds."""
from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from ncpu_nb.coprocessor.alu_coprocessor import (NOTHING, RESULT_CHARS, CoprocessorConfig, hand_set,
                                                 inject_ncpu_coprocessor)
from ncpu_nb.coprocessor.arithmetic_text import (OPS, ROLES, STOI, answer_text, encode, held_out,
                                                 problem_text, roles, held_out_problems, training_problems)
from ncpu_nb.coprocessor.experiment import RunConfig, build, compare, train


def test_the_split_and_the_labels():
    rng = np.random.default_rng(0)
    assert not any(held_out(*p) for p in training_problems(rng, 500))
    assert all(held_out(*p) for p in held_out_problems("*", 2, 40))
    assert all(len(str(p[1])) == 4 for p in held_out_problems("+", 4, 10))
    text = "12-345=-333."
    assert [ROLES[r] for r in roles(text)] == ["A", "A", "other", "B", "B", "B"] + ["answer"] * 6


def test_routed_tokens_get_the_alus_exact_result():
    rng = np.random.default_rng(1)
    problems = [(op, int(rng.integers(0, 10_000)), int(rng.integers(0, 10_000))) for op in OPS for _ in range(6)]
    cop, h, batch = hand_set(problems, gate_bias=5.0)
    out = cop(h)
    last = cop.last
    for i, p in enumerate(problems):
        start = len(problem_text(*p)) - 1  # the '=' token writes the first answer character
        answer = answer_text(*p)
        routed = last["routed"][i]
        assert not routed[:start].any() and routed[start:start + len(answer)].all()
        wrote = "".join(RESULT_CHARS[c] for c in last["chars"][i, start:start + len(answer), OPS.index(p[0])])
        assert wrote == answer, (p, wrote)
        assert (last["a"][i, start], last["b"][i, start]) == (p[1], p[2])
    assert (out - h)[~torch.from_numpy(last["routed"])].abs().max() == 0  # unrouted tokens pass unchanged


def test_a_closed_gate_routes_nothing_and_calls_no_alu():
    cop, h, _ = hand_set([("+", 12, 34), ("*", 5, 6)], gate_bias=-20.0)
    out = cop(h)
    assert not cop.last["routed"].any() and cop.alu_rows == 0
    assert torch.equal(out, h)
    assert (cop.last["chars"] == NOTHING).all()


def test_the_ablation_keeps_the_gate_but_writes_no_result():
    model = build("decoders_only", 0, RunConfig(d_model=32))
    cop = model.ncpu_coprocessor
    with torch.no_grad():
        cop.gate.bias.fill_(10.0)
    model(torch.tensor([encode("12+34=46.")]))
    assert not cop.config.alu_results and cop.alu_rows == 0 and (cop.last["chars"] == NOTHING).all()


def test_the_hook_is_a_top_level_name():
    import ncpu_nb

    assert ncpu_nb.inject_ncpu_coprocessor is inject_ncpu_coprocessor
    assert ncpu_nb.CoprocessorConfig is CoprocessorConfig


def test_gradients_reach_the_gate_the_write_back_and_the_decoders():
    torch.manual_seed(0)
    cop, h, _ = hand_set([("+", 12, 34), ("-", 5, 60)], gate_bias=0.0)
    h = h + 0.1 * torch.randn_like(h)
    target = torch.randn(h.shape[-1])
    (cop(h) @ target).sum().backward()
    for name in ("gate", "write", "op_head", "role_head", "digit_head"):
        grad = getattr(cop, name).weight.grad
        assert grad is not None and grad.abs().sum() > 0, name


class LayerStack(nn.Module):
    """A standard transformer someone else wrote: nn.TransformerEncoder, hooked from outside."""

    def __init__(self, d=32):
        super().__init__()
        self.embed = nn.Embedding(len(STOI), d)
        layer = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.attend = nn.MultiheadAttention(d, 4, batch_first=True)  # returns a tuple: (output, weights)
        self.head = nn.Linear(d, len(STOI))

    def forward(self, tokens):
        h = self.encoder(self.embed(tokens))
        return self.head(self.attend(h, h, h)[0])


@pytest.mark.parametrize("layer", ["encoder.layers.0", "attend"])
def test_the_hook_works_on_standard_modules(layer):
    torch.manual_seed(0)
    model = LayerStack()
    tokens = torch.tensor([encode("12+34=46.")])
    before = model(tokens)
    cop = inject_ncpu_coprocessor(model, CoprocessorConfig(32, layer=layer, route_above=0.0))
    with torch.no_grad():
        cop.gate.bias.fill_(10.0)
    assert any(p is cop.gate.weight for p in model.parameters())
    assert any(k.startswith("ncpu_coprocessor.") for k in model.state_dict())
    after = model(tokens)
    assert cop.last["gate"].shape == tokens.shape and cop.last["routed"].any()
    assert not torch.allclose(before, after)
    cop.handle.remove()
    assert torch.allclose(model(tokens), before)


def test_the_transformer_starts_the_same_in_both_arms():
    config = RunConfig(d_model=32)
    base, copro = build("baseline", 3, config), build("coprocessor", 3, config)
    copro_state = copro.state_dict()
    assert all(torch.equal(v, copro_state[k]) for k, v in base.state_dict().items())


def test_training_is_reproducible_from_a_seed():
    config = RunConfig(steps=4, batch=8, d_model=32)
    (m1, l1, *_), (m2, l2, *_) = train("coprocessor", 5, config), train("coprocessor", 5, config)
    assert l1 == l2
    assert all(torch.equal(v, m2.state_dict()[k]) for k, v in m1.state_dict().items())
    assert train("coprocessor", 6, config)[1] != l1


def test_a_short_training_run_lowers_the_loss():
    _, losses, *_ = train("coprocessor", 0, RunConfig(steps=80, batch=32))
    assert np.mean(losses[-10:]) < 0.65 * losses[0]


@pytest.mark.slow
def test_the_coprocessor_beats_the_same_transformer_alone(full):
    # Three seeds under --full; CI trains seed 0 alone, the same margins.
    result = compare(seeds=(0, 1, 2) if full else (0,), config=RunConfig(steps=300), n_test=20)
    for op in ("ADD", "SUB", "MUL"):
        assert result.stats("coprocessor", op=op)[0] >= result.stats("baseline", op=op)[0] + 30, op
    assert result.stats("coprocessor", length=4)[0] > result.stats("baseline", length=4)[0] + 30
    assert "longer than training" in result.text()


def test_the_shipped_models_score_as_their_manifest_says(tmp_path):
    import json
    import shutil

    from ncpu_nb.coprocessor.copro_weights import folder, load_trained
    from ncpu_nb.coprocessor.experiment import evaluate
    from ncpu_nb.errors import WeightsError

    manifest = json.loads((folder() / "manifest.json").read_text())["models"]
    for arm in ("baseline", "coprocessor"):
        scores = evaluate(load_trained(arm), n=100, lengths=(2,))
        assert {f"{op} {n}": v for (op, n), v in scores.items()} == {
            k: v for k, v in manifest[arm]["held_out_accuracy"].items() if k.endswith(" 2")}
    shutil.copytree(folder(), tmp_path / "copy")
    with open(tmp_path / "copy" / manifest["coprocessor"]["file"], "r+b") as f:
        f.seek(-1, 2)
        f.write(b"\x00" if f.read(1) != b"\x00" else b"\x01")
    with pytest.raises(WeightsError, match="sha256"):
        load_trained("coprocessor", tmp_path / "copy")
