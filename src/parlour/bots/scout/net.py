"""A SCOUT policy/value network, played with numpy alone (no training framework at play time).

The input (:func:`encode`, 2407 floats, all from what the seat may see) is the research encoding
of a seat's view (:mod:`parlour.bots.scout.codec`: 1219 floats), then its legal mask over the
fixed action space (820: which Shows are legal tells where the hand's groups are), then for every
plain Scout slot of the action space (2 ends × rotated or not × 46 insert positions) whether the
scouted number would sit next to an equal or adjacent number on its left and on its right (368:
where a scouted card fits). Two hidden layers with ReLU; two heads:

- *policy*: one logit per action of the fixed action space (820), plus, with the optional
  *evaluation skip* ``ws`` (a learned scalar), ``ws`` × the tuned evaluation's score of that
  action (:class:`~parlour.bots.scout.features.EvalBot`); softmax over the legal ones. With
  ``ws`` = 1/0.1 and nothing else the network plays like the evaluation, so the layers learn
  only what to change in its ranking;
- *value*: the seat's expected share of the win at the end of the game (a sole win counts 1,
  a win shared by ``k`` seats ``1/k``), through a sigmoid, so between 0 and 1.

The weights ship beside this module (``scout_net.npz``, float16, about 0.8 MB) and are made by
``bench/train_scout_net.py`` (``make train-scout-net``; README, "The SCOUT network").
:func:`load_net` reads them once per process; :func:`policy_value` asks the shipped network
about a seat's view (a search's prior and value).

>>> net = load_net()
>>> net.hidden, net.skip > 0
((128, 128), True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.bots.scout import codec
from parlour.bots.scout.features import EvalBot

WEIGHTS_FILE = "scout_net.npz"
PARAMS = ("W1", "b1", "W2", "b2", "Wp", "bp", "Wv", "bv")
"""The arrays of a network, in order: input ``x`` (:func:`encode`) ``→ relu(x W1 + b1) →
relu(· W2 + b2) = h``, policy
logits ``h Wp + bp`` (820), value ``sigmoid(h Wv + bv)`` (1)."""
SKIP = "ws"
"""The optional array (one float) weighing the evaluation's score of each legal action in its
logit (0 when absent: networks saved before it)."""

F32 = npt.NDArray[np.float32]
FIT_SIZE = 4 * codec.INSERTS * 2
"""Scout fits in the input: per (end, rotated) and insert position, fits left and fits right."""
INPUT_SIZE = codec.OBS_SIZE + codec.N_ACTIONS + FIT_SIZE
"""The length of the network's input (2407)."""


def scout_fits(hand: Sequence[int], active: Sequence[Sequence[int]]) -> npt.NDArray[np.uint8]:
    """For each Scout of the action space (its layout: ``(end*2 + rotated)*46 + insert``), 1 if
    the scouted number would sit next to an equal or adjacent number on its left, then 1 on its
    right; zeros with no active show.

    >>> fits = scout_fits([3, 7], [(4, 9)]).reshape(4, 46, 2)
    >>> fits[0, :3].tolist()  # the left end unrotated, a 4, inserted before, between, after
    [[0, 1], [1, 0], [0, 0]]
    """
    out = np.zeros((4, codec.INSERTS, 2), np.uint8)
    size = len(hand)
    if active and size < codec.INSERTS:
        numbers = np.asarray(hand, dtype=np.int16)
        for slot, card in enumerate((active[0], active[0], active[-1], active[-1])):
            near = np.abs(numbers - card[slot & 1]) <= 1
            out[slot, 1 : size + 1, 0] = near
            out[slot, :size, 1] = near
    return out.reshape(-1)


def encode(view: Mapping[str, Any], legal: npt.NDArray[np.intp], obs: F32 | None = None) -> F32:
    """The network's input for a seat's view and its legal action indices (see the module
    docstring); ``obs``: the view's research encoding, if already computed. Raises
    ``ValueError`` for a spectator's view."""
    if obs is None:
        obs = codec.observe_view(dict(view))
    hand = [c[0] for c in view["hand"]]
    x = np.zeros(INPUT_SIZE, np.float32)
    x[: codec.OBS_SIZE] = obs
    x[codec.OBS_SIZE + legal] = 1.0
    x[codec.OBS_SIZE + codec.N_ACTIONS :] = scout_fits(hand, view["active_show"])
    return x


class Net:
    """The network's inference. Raises ``ValueError`` for arrays of the wrong shapes."""

    def __init__(self, params: Mapping[str, npt.NDArray[Any]]) -> None:
        missing = [name for name in PARAMS if name not in params]
        if missing:
            raise ValueError(f"a SCOUT network needs the arrays {PARAMS}; missing {missing}")
        p = {name: np.ascontiguousarray(params[name], dtype=np.float32) for name in PARAMS}
        h1, h2 = p["W1"].shape[1], p["W2"].shape[1]
        shapes = {
            "W1": (INPUT_SIZE, h1),
            "b1": (h1,),
            "W2": (h1, h2),
            "b2": (h2,),
            "Wp": (h2, codec.N_ACTIONS),
            "bp": (codec.N_ACTIONS,),
            "Wv": (h2, 1),
            "bv": (1,),
        }
        wrong = [f"{k} {p[k].shape} (want {v})" for k, v in shapes.items() if p[k].shape != v]
        if wrong:
            raise ValueError("a SCOUT network's arrays have wrong shapes: " + ", ".join(wrong))
        self.params = p
        self.skip = float(np.asarray(params[SKIP]).reshape(-1)[0]) if SKIP in params else 0.0
        self.hidden = (int(h1), int(h2))
        self._WpT = np.ascontiguousarray(p["Wp"].T)  # one row per action: legal rows only

    def trunk(self, x: F32) -> F32:
        """The last hidden layer for a batch (or one) of inputs (:func:`encode`)."""
        p = self.params
        h = np.maximum(x @ p["W1"] + p["b1"], 0.0)
        out: F32 = np.maximum(h @ p["W2"] + p["b2"], 0.0)
        return out

    def forward(
        self, x: F32, mask: npt.NDArray[Any], scores: npt.NDArray[Any] | None = None
    ) -> tuple[F32, F32]:
        """Policy probabilities (zero off the mask) and values for a batch of inputs
        ``[B, 2407]``, 0/1 masks ``[B, 820]`` (each with at least one legal action) and, for
        the evaluation skip, the evaluation's scores ``[B, 820]`` (:func:`eval_scores`;
        ``None``: all 0, as for a network without the skip)."""
        p = self.params
        h = self.trunk(x)
        logits = h @ p["Wp"] + p["bp"]
        if self.skip and scores is not None:
            logits = logits + self.skip * scores
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        e = np.exp(logits)
        probs: F32 = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
        value: F32 = (1.0 / (1.0 + np.exp(-(h @ p["Wv"] + p["bv"])[..., 0]))).astype(np.float32)
        return probs, value

    def logits_value(
        self, x: F32, legal: npt.NDArray[np.intp], scores: npt.NDArray[Any] | None = None
    ) -> tuple[F32, float]:
        """The logits of the ``legal`` action indices and the value, for one input (and the
        evaluation's scores of those actions, for the skip; ``None``: all 0); only the legal
        actions' rows of the policy head are computed."""
        p = self.params
        nz = np.flatnonzero(x)  # the input is mostly zeros: sum the rows that count
        h = np.maximum(x[nz] @ p["W1"][nz] + p["b1"], 0.0)
        h = np.maximum(h @ p["W2"] + p["b2"], 0.0)
        logits: F32 = self._WpT[legal] @ h + p["bp"][legal]
        if self.skip and scores is not None:
            logits = logits + np.float32(self.skip) * np.asarray(scores, np.float32)
        value = float(1.0 / (1.0 + np.exp(-(h @ p["Wv"][:, 0] + p["bv"][0]))))
        return logits, value

    def policy_value(
        self, view: Mapping[str, Any], legal: Sequence[Any], temperature: float = 1.0
    ) -> tuple[dict[Any, float], float]:
        """Prior probabilities of the ``legal`` actions (each action a key) and the value (the
        viewing seat's expected win share, 0..1) from a seat's view; ``temperature`` divides
        the logits. Raises ``ValueError`` for a spectator's view or no legal action."""
        if not legal:
            raise ValueError("no legal action to choose from")
        priors = self.priors(view, legal, temperature)
        return dict(zip(legal, priors[0].tolist(), strict=True)), priors[1]

    def priors(
        self, view: Mapping[str, Any], legal: Sequence[Any], temperature: float = 1.0
    ) -> tuple[F32, float]:
        """:meth:`policy_value` as an array in the order of ``legal``."""
        indices = np.fromiter(map(codec.action_index, legal), np.intp, len(legal))
        scores = eval_scores(view, legal) if self.skip else None
        logits, value = self.logits_value(encode(view, indices), indices, scores)
        logits = logits / max(temperature, 1e-6)
        e = np.exp(logits - logits.max())
        return (e / e.sum()).astype(np.float32), value


@cache
def _evaluator() -> EvalBot:
    return EvalBot()


def eval_scores(view: Mapping[str, Any], legal: Sequence[Any]) -> npt.NDArray[np.float32]:
    """The tuned evaluation's score of each of ``legal`` (the skip's input), in their order."""
    score = _evaluator().score
    return np.fromiter((score(view, a) for a in legal), np.float32, len(legal))


def from_file(path: Any) -> Net:
    """A network read from an ``.npz`` file (or file object); raises ``ValueError`` if it is
    not one and ``OSError`` if it cannot be read."""
    with np.load(path, allow_pickle=False) as data:
        return Net({name: data[name] for name in data.files})


@cache
def load_net() -> Net:
    """The shipped network (``scout_net.npz`` beside this module), read once."""
    with resources.files("parlour.bots.scout").joinpath(WEIGHTS_FILE).open("rb") as f:
        return from_file(f)


def policy_value(view: Mapping[str, Any], legal: Sequence[Any]) -> tuple[dict[Any, float], float]:
    """The shipped network's priors over ``legal`` and value (see :meth:`Net.policy_value`)."""
    return load_net().policy_value(view, legal)


class NetBot:
    """Plays the network's policy alone, without search: the most likely legal action, or
    with ``temperature`` > 0 a draw from the softmax of the logits ÷ temperature."""

    name = "net"

    def __init__(self, temperature: float = 0.0, net: Net | None = None) -> None:
        self.temperature = temperature
        self.net = net or load_net()

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """One of the legal actions (see the class); raises ``ValueError`` if there is none."""
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        probs, _ = self.net.priors(view, legal, self.temperature or 1.0)
        if not self.temperature:
            return legal[int(np.argmax(probs))]
        x = rng.random()
        cumulative = 0.0
        for action, p in zip(legal, probs.tolist(), strict=True):
            cumulative += p
            if x < cumulative:
                return action
        return legal[-1]


__all__ = [
    "INPUT_SIZE",
    "PARAMS",
    "SKIP",
    "Net",
    "NetBot",
    "encode",
    "eval_scores",
    "from_file",
    "load_net",
    "policy_value",
    "scout_fits",
]
