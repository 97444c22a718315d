"""The SCOUT search bot: information-set Monte Carlo tree search with inference.

Single-observer ISMCTS over the seat's own information sets. Each iteration

1. draws one deal of the hidden cards consistent with everything public
   (:mod:`parlour.bots.scout.determinize`) from a pool of sampled deals, each weighted by how
   likely it makes the opponents' past moves of this round (:mod:`parlour.bots.scout.inference`:
   their Shows, Scouts with insert positions, Scouting instead of Showing, flips);
2. walks down one tree keyed by the public moves from the root: at the seat's own decisions
   with UCB1 and *progressive widening* over the full legal set — the actions enter in the
   order of the tuned evaluation (:mod:`parlour.bots.scout.features`), one more as the node's
   visits grow (``2 + widening × √visits``), and the evaluation is also a progressive bias
   (at the root only the evaluation's :data:`ROOT_TOP` best actions, and Scout & Show only
   when the evaluation ranks it first: playouts never use it, so the search cannot see what
   keeping it is worth);
   at the opponents' decisions by the same model of them as the inference (a softmax over the
   evaluation's scores of their Shows and well-placed Scouts in the drawn deal);
3. adds one node, plays the round out from it with a fast playout policy (or a few moves, then
   a static evaluation: ``plies``) and backs up the seat's round points minus the opponents'
   mean.

At the start of a round the flip decision is the root: both orientations of the hand are
searched (the deals' other hands are the same for both) and the better one is kept. It is
anytime: time-limited in play (``budget_s``, deal sampling and inference included), or a fixed
number of ``iterations`` (reproducible, whatever the machine's load). It plays the root action
visited most.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from parlour.bots.scout import heuristic
from parlour.bots.scout import net as net_module
from parlour.bots.scout.determinize import determinize, public_slots, scout_view
from parlour.bots.scout.features import (
    HAND_FEATURES,
    EvalBot,
    dot,
    hand_features,
    plain_scores,
)
from parlour.bots.scout.inference import (
    TEMPERATURE,
    decisions,
    fits,
    fitting_inserts,
    flipped,
    log_likelihood,
    moved,
    state_view,
    tempered,
)
from parlour.bots.scout.search import compiled_round, end_value, play_round_out, playout_move
from parlour.games.scout import Flip, Scout, ScoutShow, Show, State, apply, legal_actions
from parlour.games.scout.actions import SCOUTS
from parlour.games.scout.rules import legal_shows
from parlour.games.scout.state import PLAY_PHASE

SCALE = 10.0
"""Round points per unit of value in the UCB formula."""

ROOT_TOP = 6
"""At the root, only the evaluation's this many best actions are searched."""

MAX_PARTICLES = 64
"""At most this many sampled deals per move."""

MODEL_PLAYOUT_MOVES = 500
"""A playout by the opponent model stops after this many moves (see :func:`model_rollout_py`)."""


class Node:
    """A node of the search tree: visits, total value (the searching seat's) and children by
    action; at the seat's own decisions, its actions ranked by the evaluation (once visited)."""

    __slots__ = ("children", "n", "ranked", "w")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.n = 0
        self.w = 0.0
        self.ranked: list[tuple[Any, float]] | None = None


def result_value(state: State, seat: int, totals: Sequence[int] | None = None) -> float:
    """``seat``'s points in the round just ended minus the other seats' mean (or, given the
    game's ``totals`` before the round, its share of the win: :func:`search.end_value`)."""
    return end_value([s.points for s in state.results[-1].seats], seat, totals)


def plain_actions(state: State, seat: int) -> list[Any]:
    """The legal actions of the seat to move but Scout & Show (which playouts and the opponent
    model leave out: scoring them costs most)."""
    if len(state.hands) == 2:
        return legal_actions(state, seat)
    hand = state.hands[seat]
    shows: list[Any] = legal_shows(hand, state.active_key)
    if state.pending or not state.active:
        return shows
    return shows + list(SCOUTS[len(hand)])


def rollout(
    state: State,
    seat: int,
    rng: random.Random,
    plies: int | None = None,
    hand_weights: Sequence[float] = (),
    totals: Sequence[int] | None = None,
) -> float:
    """Every seat plays :func:`~parlour.bots.scout.search.playout_policy` (by
    :func:`~parlour.bots.scout.search.playout_move`) to the round's end
    (or for ``plies`` moves, then :func:`static_value` with ``hand_weights``); the value for
    ``seat`` (its share of the win, given the game's ``totals`` before the round)."""
    if plies is None:
        return play_round_out(state, seat, rng, totals)
    left = plies
    while not state.results and state.phase == PLAY_PHASE:
        if left == 0:
            return static_value(state, seat, hand_weights, totals)
        left -= 1
        mover = state.turn
        state = apply(state, mover, playout_move(state, mover, rng))
    return result_value(state, seat, totals)


_MODEL_ROLLOUT = (
    None if heuristic.COMPILED_MODULE is None else heuristic.COMPILED_MODULE.model_rollout
)


def model_rollout_py(
    state: State,
    seat: int,
    rng: random.Random,
    weights: Sequence[float],
    temperature: float,
    totals: Sequence[int] | None = None,
) -> float:
    """Every seat plays :func:`model_move` (the opponent model) to the round's end; the value
    for ``seat`` (its share of the win, given the game's ``totals`` before the round). A round
    still going after :data:`MODEL_PLAYOUT_MOVES` moves (the model can go round in circles: a
    one-card Show scouted, the next seat showing one card, …) is valued as it stands: per seat,
    cards captured + chips − cards in hand. :func:`model_rollout` is this function, compiled
    when it is built."""
    for _ in range(MODEL_PLAYOUT_MOVES):
        if state.results or state.phase != PLAY_PHASE:
            break
        mover = state.turn
        state = apply(state, mover, model_move(state, mover, weights, temperature, rng))
    if state.results or state.phase != PLAY_PHASE:
        return result_value(state, seat, totals)
    points = [len(state.piles[s]) + state.chips[s] - len(h) for s, h in enumerate(state.hands)]
    return end_value(points, seat, totals)


def model_rollout(
    state: State,
    seat: int,
    rng: random.Random,
    weights: Sequence[float],
    temperature: float,
    totals: Sequence[int] | None = None,
) -> float:
    """:func:`model_rollout_py`, played by the compiled playout (3+ players) when it is built:
    the same moves from the same draws."""
    if _MODEL_ROLLOUT is not None and (args := compiled_round(state, seat)) is not None:
        value: float | None = _MODEL_ROLLOUT(
            *args, state.scout_show, tuple(weights), float(temperature), rng.random,
            MODEL_PLAYOUT_MOVES, *(() if totals is None else (tuple(totals),)),
        )  # fmt: skip
        if value is not None:
            return value
    return model_rollout_py(state, seat, rng, weights, temperature, totals)


def model_options(state: State, seat: int) -> list[Any]:
    """The moves the opponent model weighs for the seat to move: its Shows, and its plain
    Scouts that put the card at an end of the hand or beside a number within one of it
    (:func:`~parlour.bots.scout.inference.fits`), in the legal actions' order; every plain
    action if there is none of those."""
    hand = state.hands[seat]
    active = state.active
    if len(state.hands) == 2 or state.pending or not active:
        legal = plain_actions(state, seat)
        options = [
            a for a in legal
            if type(a) is Show
            or (type(a) is Scout and fits(hand, (active[0] if a.end == "left" else active[-1])
                                          [1 if a.rotate else 0], a.insert))
        ]  # fmt: skip
        return options or legal
    weighed: list[Any] = legal_shows(hand, state.active_key)
    n = len(hand)
    table = SCOUTS[n]
    values = [c[0] for c in hand]
    left, right = active[0], active[-1]
    # SCOUTS[n]: left end, then right; unrotated, then rotated; by insert position 0..n
    for k, value in enumerate((left[0], left[1], right[0], right[1])):
        base = k * (n + 1)
        weighed.extend(table[base + i] for i in fitting_inserts(values, value))
    return weighed


def model_move(
    state: State, seat: int, weights: Sequence[float], temperature: float, rng: random.Random
) -> Any:
    """An opponent's move under the model: a softmax over the evaluation's scores of its Shows
    and of its Scouts that put the card at an end of the hand or beside a number within one
    (never Scout & Show: :func:`plain_actions`)."""
    options = model_options(state, seat)
    hand = state.hands[seat]
    if len(options) == 1:
        return options[0]
    hands = state.hands
    players = len(hands)
    opponents = [len(h) for i, h in enumerate(hands) if i != seat]
    scores = [
        s / temperature
        for s in plain_scores(
            [c[0] for c in hand],
            state.active,
            opponents,
            1.0 if state.scout_show[seat] else 0.0,
            players > 2 and state.scouts + 1 >= players - 1,
            options,
            weights,
        )
    ]
    top = max(scores)
    cum = []
    total = 0.0
    for s in scores:
        total += math.exp(s - top)
        cum.append(total)
    return rng.choices(options, cum_weights=cum)[0]


def static_value(
    state: State, seat: int, hand_weights: Sequence[float], totals: Sequence[int] | None = None
) -> float:
    """A cut-off's value for ``seat``: per seat, cards captured + chips + what its hand is worth
    by the evaluation's hand features (about minus a point per card, less for cards that go
    together); ``seat``'s minus the other seats' mean (or, given the game's ``totals`` before
    the round, its share of the win if the round ended so: :func:`search.end_value`)."""
    values = [
        len(state.piles[s]) + state.chips[s]
        + dot(hand_weights, hand_features([c[0] for c in state.hands[s]]))
        for s in range(len(state.hands))
    ]  # fmt: skip
    return end_value(values, seat, totals)


def with_hand(state: State, seat: int, hand: Sequence[tuple[int, int]]) -> State:
    """``state`` with ``seat``'s hand replaced."""
    new = state.clone()
    new.hands = state.hands[:seat] + (tuple(hand),) + state.hands[seat + 1 :]
    return new


class ISMCTSBot:
    """Information-set MCTS with inference (see the module docstring).

    ``budget_s``: thinking time per move; ``iterations``: a fixed number of iterations instead
    (reproducible); ``particles``: sampled deals per move (default: 64 in time mode, else
    between 8 and 64, an eighth of the iterations); ``inference``: weight the deals by the
    opponents' past moves; ``exploration``, ``widening``, ``bias``: UCB1's constant, the
    progressive widening's, and the evaluation's weight as a progressive bias; ``playout``:
    play out from a new node (else value it by :func:`static_value` at once); ``plies``: stop
    a playout after that many moves and value the position by :func:`static_value` (``None``:
    to the round's end); ``root_top``: search only the evaluation's that many best actions at
    the root (``None``: all, progressively widened); ``keep_scout_show``: leave Scout & Show
    out at the root unless the evaluation ranks a Scout & Show first; ``prior``: what orders
    the root's actions and biases their selection, the tuned evaluation (``"eval"``) or the
    policy network (``"net"``: the shipped weights, or those in ``net_file``; its
    log-probabilities × ``net_temperature`` stand for the evaluation's points); deeper nodes
    keep the evaluation (they are positions of sampled deals, without the round's history
    that the network's input holds); ``playout_policy``: how every seat plays in the playouts,
    ``"fast"`` (:func:`~parlour.bots.scout.search.playout_policy`) or ``"model"`` (the opponent
    model, :func:`model_rollout`: slower and closer to how the evaluation plays);
    ``temperature``: the opponent model's (in the tree, and in the inference unless
    ``inference_temperature`` is given: a higher one trusts the opponents' past moves less);
    ``rejuvenate``: after weighting, redraw the deals by their weights and move each by that
    many Metropolis–Hastings steps towards the deals the opponents' moves make likely
    (:func:`~parlour.bots.scout.inference.moved`; the deals are then weighted alike);
    ``min_ess``: the least effective sample size of the weighted deals, as a share of them
    (``None``: no floor): where the opponents' moves would put nearly all the weight on a few
    deals, their log-likelihoods are tempered, multiplied by the largest factor ≤ 1 that keeps
    this many (:func:`~parlour.bots.scout.inference.tempered`); ``objective``: what the search
    maximises, the round's points minus the opponents' mean (``"points"``) or, in the game's
    last round, the share of the game's win the round's end gives with the totals so far
    (``"win"``: ahead it plays safe, behind it takes the chances that can still win; earlier
    rounds keep the points), × ``SCALE`` in the tree.
    """

    name = "ismcts"

    def __init__(
        self,
        budget_s: float = 0.3,
        *,
        iterations: int | None = None,
        particles: int | None = None,
        inference: bool = True,
        weights: Sequence[float] | None = None,
        temperature: float = TEMPERATURE,
        exploration: float = 1.0,
        widening: float = 1.0,
        bias: float = 3.0,
        playout: bool = True,
        plies: int | None = None,
        root_top: int | None = ROOT_TOP,
        keep_scout_show: bool = True,
        prior: str = "eval",
        net_file: str | None = None,
        net_temperature: float = 0.1,
        playout_policy: str = "fast",
        inference_temperature: float | None = None,
        rejuvenate: int = 0,
        min_ess: float | None = None,
        objective: str = "points",
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if min_ess is not None and not 0 < min_ess <= 1:
            raise ValueError(f"min_ess is a share above 0 and at most 1, not {min_ess!r}")
        self.min_ess = min_ess
        if objective not in ("points", "win"):
            raise ValueError(f"objective is 'points' or 'win', not {objective!r}")
        self.objective = objective
        self.totals: tuple[int, ...] | None = None  # set per move: see iterate
        if prior not in ("eval", "net"):
            raise ValueError(f"prior is 'eval' or 'net', not {prior!r}")
        self.net = None
        if prior == "net":
            self.net = net_module.from_file(net_file) if net_file else net_module.load_net()
        self.net_temperature = net_temperature
        if playout_policy not in ("fast", "model"):
            raise ValueError(f"playout_policy is 'fast' or 'model', not {playout_policy!r}")
        self.playout_policy = playout_policy
        self.budget_s = budget_s
        self.iterations = iterations
        self.particles = particles
        self.inference = inference
        self.evaluator = EvalBot(weights)
        self.weights = self.evaluator.weights
        self.hand_weights = self.weights[: len(HAND_FEATURES)]
        self.playout = playout
        self.plies = plies
        self.root_top = root_top
        self.keep_scout_show = keep_scout_show
        self.temperature = temperature
        self.rejuvenate = rejuvenate
        self.inference_temperature = (
            temperature if inference_temperature is None else inference_temperature
        )
        self.exploration = exploration
        self.widening = widening
        self.bias = bias
        self.last_iterations = 0
        self.last_log_weights: list[float] = []
        self.last_visits: dict[Any, int] = {}
        self.last_means: dict[Any, float] = {}

    # -- the move ---------------------------------------------------------------------------

    def choose(self, view: Mapping[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
        """The root action visited most (see the module docstring); raises ``ValueError`` if
        there is no legal action."""
        if not legal:
            raise ValueError("no legal action to choose from")
        start = time.perf_counter()
        self.last_iterations, self.last_log_weights, self.last_visits = 0, [], {}
        if len(legal) == 1:
            return legal[0]
        hand = view["hand"]
        for action in legal:
            if isinstance(action, Show) and action.length == len(hand):
                return action  # empties the hand: the round ends and the others pay
        seat = view["seat"]
        last_round = view["round"] == view["rounds"]
        self.totals = tuple(view["totals"]) if self.objective == "win" and last_round else None
        deals, cum = self.sample(view, rng, start)
        root = Node()
        root.ranked = self.rank(view, legal) if self.net is None else self.rank_by_net(view, legal)
        if self.keep_scout_show and not isinstance(root.ranked[0][0], ScoutShow):
            root.ranked = [(a, p) for a, p in root.ranked if not isinstance(a, ScoutShow)]
        if self.root_top is not None and view["phase"] != "flip":
            root.ranked = root.ranked[: self.root_top]
        iterations = 0
        while True:
            deal = deals[rng.choices(range(len(deals)), cum_weights=cum)[0]]
            self.iterate(root, deal, seat, rng)
            iterations += 1
            if self.iterations is not None:
                if iterations >= self.iterations:
                    break
            elif time.perf_counter() - start >= self.budget_s:
                break
        self.last_iterations = iterations
        self.last_visits = {a: c.n for a, c in root.children.items()}
        self.last_means = {a: c.w / c.n for a, c in root.children.items()}
        ranked = [a for a, _ in root.ranked]

        def merit(a: Any) -> tuple[float, ...]:
            child = root.children[a]
            mean = child.w / child.n
            if view["phase"] == "flip":
                return (mean, -ranked.index(a))  # both searched alike: the better mean
            return (child.n, mean, -ranked.index(a))

        return max(root.children, key=merit)

    def rank(self, view: Mapping[str, Any], legal: Sequence[Any]) -> list[tuple[Any, float]]:
        """``legal`` by the evaluation, best first, with each score minus the best (≤ 0)."""
        scored = sorted(((self.evaluator.score(view, a), i) for i, a in enumerate(legal)),
                        reverse=True)  # fmt: skip
        top = scored[0][0]
        return [(legal[i], s - top) for s, i in scored]

    def rank_by_net(self, view: Mapping[str, Any], legal: Sequence[Any]) -> list[tuple[Any, float]]:
        """``legal`` by the network's policy, likeliest first, each with ``net_temperature`` ×
        its log-probability minus the top one's (≤ 0; the network imitated the evaluation's
        scores ÷ 0.1, so 0.1 turns them back into about the evaluation's points)."""
        assert self.net is not None
        probs, _ = self.net.priors(view, legal)
        logs = [math.log(max(p, 1e-30)) for p in probs.tolist()]
        top = max(logs)
        order = sorted(range(len(legal)), key=lambda i: (-logs[i], i))
        return [(legal[i], self.net_temperature * (logs[i] - top)) for i in order]

    # -- deals and inference ----------------------------------------------------------------

    def particle_count(self) -> int:
        """How many deals to sample for one move."""
        if self.particles is not None:
            return max(1, self.particles)
        if self.iterations is None:
            return MAX_PARTICLES
        return max(8, min(MAX_PARTICLES, self.iterations // 8))

    def sample(
        self, view: Mapping[str, Any], rng: random.Random, start: float
    ) -> tuple[list[State], list[float]]:
        """Sampled deals (play-phase states) and their cumulative weights. In time mode,
        sampling stops after a third of the budget (at least 4 deals)."""
        seen = scout_view(view)
        seat = view["seat"]
        flip_phase = view["phase"] == "flip"
        past = decisions(view) if self.inference and not flip_phase else []
        deals: list[State] = []
        logs: list[float] = []
        for _ in range(self.particle_count()):
            deal = determinize(seen, rng)
            if flip_phase:
                deal.turn = view["start_seat"]
            deals.append(deal)
            logs.append(
                log_likelihood(view, past, deal.hands, self.weights, self.inference_temperature)
                if past
                else 0.0
            )
            if (
                self.iterations is None
                and len(deals) >= 4
                and time.perf_counter() - start > self.budget_s / 3
            ):
                break
        if seat is not None:
            self.last_log_weights = list(logs)
        if self.rejuvenate and past:
            deals, logs = self.moved_deals(view, past, deals, logs, rng, start)
        elif self.min_ess is not None and past:
            logs = tempered(logs, self.min_ess)
        top = max(logs)
        cum, total = [], 0.0
        for lw in logs:
            total += math.exp(lw - top)
            cum.append(total)
        return deals, cum

    def moved_deals(
        self,
        view: Mapping[str, Any],
        past: Sequence[Any],
        deals: list[State],
        logs: list[float],
        rng: random.Random,
        start: float,
    ) -> tuple[list[State], list[float]]:
        """The deals redrawn by their weights, each moved by :attr:`rejuvenate`
        Metropolis–Hastings steps (in time mode only until two thirds of the budget), all
        weighted alike."""
        me = view["seat"]
        slots = public_slots(scout_view(view))
        unknown = [(s, i) for s, row in enumerate(slots) if s != me
                   for i, slot in enumerate(row) if slot is None]  # fmt: skip
        if not unknown:
            return deals, logs
        top = max(logs)
        picks = rng.choices(range(len(deals)), weights=[math.exp(lw - top) for lw in logs],
                            k=len(deals))  # fmt: skip
        moved_deals = []
        for i in picks:
            deal = deals[i]
            if self.iterations is not None or time.perf_counter() - start < self.budget_s * 2 / 3:
                cards, _ = moved(view, past, deal.hands, logs[i], unknown, self.rejuvenate,
                                 self.weights, self.inference_temperature, rng)  # fmt: skip
                deal = deal.clone()
                deal.hands = tuple(tuple(h) for h in cards)
            moved_deals.append(deal)
        return moved_deals, [0.0] * len(moved_deals)

    # -- one iteration ----------------------------------------------------------------------

    def iterate(self, root: Node, deal: State, seat: int, rng: random.Random) -> None:
        """One descent from ``root`` on ``deal``, one new node, one playout, the backup (the
        share of the win × ``SCALE`` when :attr:`totals` is set)."""
        node, path, state, totals = root, [root], deal, self.totals
        flip_phase = root.ranked is not None and isinstance(root.ranked[0][0], Flip)
        value: float | None = None
        key: Any
        while True:
            if state.results or state.phase != PLAY_PHASE:
                value = result_value(state, seat, totals)
                break
            if node is not root and node.n == 0:
                if self.playout and self.playout_policy == "model":
                    value = model_rollout(state, seat, rng, self.weights, self.temperature, totals)
                elif self.playout:
                    value = rollout(state, seat, rng, self.plies, self.hand_weights, totals)
                else:
                    value = static_value(state, seat, self.hand_weights, totals)
                break
            if node is root:
                action = self.select_flip(node) if flip_phase else self.select(node)
                if isinstance(action, Flip):
                    if action.flip:
                        state = with_hand(state, seat, flipped(state.hands[seat]))
                else:
                    state = apply(state, seat, action)
                key = action
            else:
                mover = state.turn
                if mover == seat:
                    if node.ranked is None:
                        node.ranked = self.rank(state_view(state, seat), legal_actions(state, seat))
                    action = self.select(node)
                    state = apply(state, mover, action)
                    key = action
                else:
                    action = model_move(state, mover, self.weights, self.temperature, rng)
                    state = apply(state, mover, action)
                    key = (action, state.active)  # the public move: the cards shown too
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
            node = child
            path.append(node)
        if totals is not None:
            value *= SCALE
        for visited in path:
            visited.n += 1
            visited.w += value

    def select_flip(self, node: Node) -> Any:
        """The flip decision: both orientations in turn (each played out on every other deal
        alike), to be compared by their mean."""
        assert node.ranked is not None
        actions = [a for a, _ in node.ranked]
        return min(actions, key=lambda a: node.children[a].n if a in node.children else 0)

    def select(self, node: Node) -> Any:
        """UCB1 with progressive widening and bias over ``node``'s ranked actions; a newly
        admitted action first."""
        ranked = node.ranked
        assert ranked is not None
        k = min(len(ranked), 2 + int(self.widening * math.sqrt(node.n)))
        log_n = math.log(max(1, node.n))
        best, best_u = ranked[0][0], float("-inf")
        for action, prior in ranked[:k]:
            child = node.children.get(action)
            if child is None or child.n == 0:
                return action
            u = (
                child.w / child.n / SCALE
                + self.exploration * math.sqrt(log_n / child.n)
                + self.bias * prior / (SCALE * math.sqrt(child.n))
            )
            if u > best_u:
                best, best_u = action, u
        return best


__all__ = [
    "ISMCTSBot",
    "Node",
    "model_move",
    "result_value",
    "rollout",
    "static_value",
]
