"""Training the SCOUT policy/value network (:mod:`parlour.bots.scout.net`) in numpy alone.

Hand-written backpropagation through the network's two ReLU layers and its two heads, and Adam.
The loss of a batch is the policy's cross-entropy against target distributions over the legal
actions plus ``value_weight`` × the value's binary cross-entropy against the win share reached.
The evaluation skip ``ws`` (the weight of the evaluation's score in each legal action's logit)
is learned with the rest.
``bench/train_scout_net.py`` (``make train-scout-net``) makes the data by self-play and runs
these steps.

>>> rng = np.random.default_rng(0)
>>> sorted(init_params(rng, (8, 4)))[:3]
['W1', 'W2', 'Wp']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.bots.scout import codec
from parlour.bots.scout.net import INPUT_SIZE, PARAMS, SKIP, Net

Params = dict[str, npt.NDArray[np.float32]]
NEG = np.float32(-1e9)
"""The logit given to illegal actions (their probability is 0 in float32)."""


def init_params(
    rng: np.random.Generator, hidden: tuple[int, int] = (256, 256), skip: float = 0.0
) -> Params:
    """Fresh weights: He-scaled normal for the hidden layers, small for the heads, zero biases;
    the evaluation skip starts at ``skip`` (0: the policy starts uniform; 1/0.1: it starts as
    the softmax of the evaluation's scores ÷ 0.1)."""
    h1, h2 = hidden

    def normal(rows: int, cols: int, scale: float) -> npt.NDArray[np.float32]:
        return (rng.standard_normal((rows, cols)) * scale).astype(np.float32)

    return {
        "W1": normal(INPUT_SIZE, h1, np.sqrt(2.0 / 120)),  # about 120 inputs are non-zero
        "b1": np.zeros(h1, np.float32),
        "W2": normal(h1, h2, np.sqrt(2.0 / h1)),
        "b2": np.zeros(h2, np.float32),
        "Wp": normal(h2, codec.N_ACTIONS, 0.01),
        "bp": np.zeros(codec.N_ACTIONS, np.float32),
        "Wv": normal(h2, 1, 0.01),
        "bv": np.zeros(1, np.float32),
        SKIP: np.full(1, skip, np.float32),
    }


@dataclass
class Batch:
    """Training examples: network inputs ``[B, 2407]`` (``net.encode``), 0/1 legal masks
    ``[B, 820]``, target probabilities over the legal actions ``[B, 820]`` (rows sum to 1), the
    win share the seat reached ``[B]`` and the evaluation's scores of the legal actions
    ``[B, 820]`` (0 elsewhere; ``None``: all 0)."""

    obs: npt.NDArray[Any]
    mask: npt.NDArray[Any]
    target: npt.NDArray[Any]
    value: npt.NDArray[Any]
    scores: npt.NDArray[Any] | None = None

    def take(self, index: Any) -> Batch:
        """The examples at ``index`` (an index array or a slice)."""
        scores = None if self.scores is None else self.scores[index]
        return Batch(self.obs[index], self.mask[index], self.target[index], self.value[index],
                     scores)  # fmt: skip


def loss_and_grads(
    params: Params, batch: Batch, value_weight: float = 1.0
) -> tuple[dict[str, float], Params]:
    """The batch's mean losses (``policy``, ``value``, ``total``) and the gradient of
    ``total`` with respect to every array of ``params``."""
    x = batch.obs.astype(np.float32)
    mask = batch.mask > 0
    t = batch.target.astype(np.float32)
    y = batch.value.astype(np.float32)
    n = x.shape[0]
    p = params
    cols = np.flatnonzero(x.any(axis=0))  # the encoding is sparse: skip the inputs zero here
    x = x[:, cols]
    z1 = x @ p["W1"][cols] + p["b1"]
    h1 = np.maximum(z1, 0.0)
    z2 = h1 @ p["W2"] + p["b2"]
    h2 = np.maximum(z2, 0.0)
    scores = (
        np.zeros(mask.shape, np.float32) if batch.scores is None
        else batch.scores.astype(np.float32)
    )  # fmt: skip
    skip = p[SKIP][0] if SKIP in p else np.float32(0.0)
    logits = np.where(mask, h2 @ p["Wp"] + p["bp"] + skip * scores, NEG)
    logits -= logits.max(axis=1, keepdims=True)
    log_z = np.log(np.exp(logits).sum(axis=1, keepdims=True))
    log_p = logits - log_z
    probs = np.exp(log_p)
    policy_loss = float(-(t * np.where(mask, log_p, 0.0)).sum() / n)
    zv = (h2 @ p["Wv"] + p["bv"])[:, 0]
    v = 1.0 / (1.0 + np.exp(-zv))
    eps = 1e-7
    value_loss = float(-(y * np.log(v + eps) + (1 - y) * np.log(1 - v + eps)).mean())
    d_logits = (probs - t) * mask / n
    d_zv = (value_weight * (v - y) / n)[:, None].astype(np.float32)
    grads: Params = {
        "Wp": h2.T @ d_logits,
        "bp": d_logits.sum(axis=0),
        "Wv": h2.T @ d_zv,
        "bv": d_zv.sum(axis=0),
    }
    if SKIP in p:
        grads[SKIP] = np.array([(d_logits * scores).sum()], np.float32)
    d_h2 = d_logits @ p["Wp"].T + d_zv @ p["Wv"].T
    d_z2 = d_h2 * (z2 > 0)
    grads["W2"] = h1.T @ d_z2
    grads["b2"] = d_z2.sum(axis=0)
    d_z1 = (d_z2 @ p["W2"].T) * (z1 > 0)
    grads["W1"] = np.zeros_like(p["W1"])
    grads["W1"][cols] = x.T @ d_z1
    grads["b1"] = d_z1.sum(axis=0)
    losses = {
        "policy": policy_loss,
        "value": value_loss,
        "total": policy_loss + value_weight * value_loss,
    }
    return losses, {k: g.astype(np.float32) for k, g in grads.items()}


@dataclass
class Adam:
    """Adam with decoupled weight decay (AdamW) over a dict of arrays, updated in place."""

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    weight_decay: float = 1e-5
    steps: int = 0
    m: dict[str, npt.NDArray[np.float32]] = field(default_factory=dict)
    v: dict[str, npt.NDArray[np.float32]] = field(default_factory=dict)

    def step(self, params: Params, grads: Mapping[str, npt.NDArray[np.float32]]) -> None:
        """One update of every array of ``params`` along ``grads``."""
        self.steps += 1
        c1 = 1 - self.beta1**self.steps
        c2 = 1 - self.beta2**self.steps
        for k, g in grads.items():
            m = self.m.setdefault(k, np.zeros_like(g))
            v = self.v.setdefault(k, np.zeros_like(g))
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            update = self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)
            if self.weight_decay and k.startswith("W"):
                update += self.lr * self.weight_decay * params[k]
            params[k] -= update.astype(np.float32)


def train_steps(
    params: Params,
    data: Batch,
    steps: int,
    opt: Adam,
    rng: np.random.Generator,
    batch_size: int = 256,
    value_weight: float = 1.0,
) -> list[dict[str, float]]:
    """``steps`` Adam steps on minibatches drawn from ``data``; the losses of each step."""
    history = []
    size = data.obs.shape[0]
    for _ in range(steps):
        idx = rng.integers(0, size, min(batch_size, size))
        batch = data.take(idx)
        losses, grads = loss_and_grads(params, batch, value_weight)
        opt.step(params, grads)
        history.append(losses)
    return history


def evaluate_loss(params: Params, data: Batch, value_weight: float = 1.0) -> dict[str, float]:
    """The mean losses over ``data`` (in chunks), without updating anything."""
    totals: dict[str, float] = {}
    size = data.obs.shape[0]
    for start in range(0, size, 2048):
        part = slice(start, min(size, start + 2048))
        batch = data.take(part)
        losses, _ = loss_and_grads(params, batch, value_weight)
        for k, value in losses.items():
            totals[k] = totals.get(k, 0.0) + value * (part.stop - part.start)
    return {k: v / size for k, v in totals.items()}


def agreement(params: Params, data: Batch) -> float:
    """The share of ``data``'s examples whose likeliest action under the network is the
    target's likeliest (the move a teacher would play)."""
    net = Net(params)
    same = 0
    for start in range(0, data.obs.shape[0], 2048):
        part = data.take(slice(start, start + 2048))
        probs, _ = net.forward(
            part.obs.astype(np.float32),
            part.mask,
            None if part.scores is None else part.scores.astype(np.float32),
        )
        same += int((probs.argmax(axis=1) == part.target.astype(np.float32).argmax(axis=1)).sum())
    return same / max(1, int(data.obs.shape[0]))


def save(params: Params, path: str | Path, **meta: Any) -> None:
    """Write the network as float16 arrays (``parlour.bots.scout.net`` reads them back as
    float32), with ``meta`` (how it was made) as strings."""
    names = [*PARAMS, SKIP] if SKIP in params else list(PARAMS)
    arrays: dict[str, Any] = {k: params[k].astype(np.float16) for k in names}
    arrays |= {f"meta_{k}": np.array(str(v)) for k, v in meta.items()}
    np.savez_compressed(path, allow_pickle=False, **arrays)


def as_net(params: Params) -> Net:
    """The playing network for these training weights (float32, as trained)."""
    return Net(params)


__all__ = [
    "Adam",
    "Batch",
    "agreement",
    "evaluate_loss",
    "init_params",
    "loss_and_grads",
    "save",
    "train_steps",
]
