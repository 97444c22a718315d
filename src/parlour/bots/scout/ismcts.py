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
   at the opponents' decisions by the same model of them as the inference
   (:mod:`parlour.bots.scout.opponent_model`: a softmax over the evaluation's scores of their
   Shows and well-placed Scouts in the drawn deal; with ``opponent_search``, each score raised
   by what the search has found that move worth to the opponent who makes it);
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

from parlour.bots.scout import net as net_module
from parlour.bots.scout.correction import CORRECTION_FILE, RootCorrection
from parlour.bots.scout.determinize import with_hand
from parlour.bots.scout.features import (
    HAND_FEATURES,
    MODEL_FILE,
    EvalBot,
    load_weights,
)
from parlour.bots.scout.inference import (
    TEMPERATURE,
    decisions,
    flipped,
    log_likelihood,
    sample_deals,
    state_view,
    tempered,
)
from parlour.bots.scout.opponent_model import model_move, model_rollout, searched_move
from parlour.bots.scout.search import (
    end_value,
    result_value,
    rollout,
    round_points,
    static_value,
)
from parlour.bots.scout.value import LeafValue
from parlour.games.scout import Flip, Scout, ScoutShow, Show, State, apply, legal_actions
from parlour.games.scout.state import PLAY_PHASE

SCALE = 10.0
"""Round points per unit of value in the UCB formula."""

ROOT_TOP = 6
"""At the root, only the evaluation's this many best actions are searched."""

SCOUT_SHOW_TOP = 3
"""With ``scout_show_cost``, this many Scout & Shows are searched at the root beside the
evaluation's :data:`ROOT_TOP` best other actions."""

MAX_PARTICLES = 64
"""At most this many sampled deals per move."""

INFERENCE_MEANS_ESS = 0.25
"""With ``inference_means``, the deals' weights are tempered to an effective size of at least
this share of them (:func:`~parlour.bots.scout.inference.tempered`)."""


class Node:
    """A node of the search tree: visits, total value (the searching seat's) and children by
    action; at the seat's own decisions, its actions ranked by the evaluation (once visited)."""

    __slots__ = ("children", "n", "ranked", "w", "ws")

    def __init__(self) -> None:
        self.children: dict[Any, Node] = {}
        self.n = 0
        self.w = 0.0
        self.ranked: list[tuple[Any, float]] | None = None
        self.ws: list[float] | None = None  # every seat's total value (opponent_search)


class ISMCTSBot:
    """Information-set MCTS with inference (see the module docstring).

    ``budget_s``: thinking time per move; ``iterations``: a fixed number of iterations instead
    (reproducible); ``particles``: sampled deals per move (default: 64 in time mode, else
    between 8 and 64, an eighth of the iterations); ``inference``: weight the deals by the
    opponents' past moves; ``exploration``, ``widening``, ``bias``: UCB1's constant, the
    progressive widening's, and the evaluation's weight as a progressive bias; ``playout``:
    play out from a new node (else value it at once by
    :func:`~parlour.bots.scout.search.static_value`); ``plies``: stop a playout after that many
    moves and value the position by ``static_value`` (``None``: to the round's end);
    ``root_top``: search only the evaluation's that many best actions at the root (``None``:
    all, progressively widened); ``keep_scout_show``: leave Scout & Show
    out at the root unless the evaluation ranks a Scout & Show first; ``prior``: what orders
    the root's actions and biases their selection, the tuned evaluation (``"eval"``) or the
    policy network (``"net"``: the shipped weights, or those in ``net_file``; its
    log-probabilities × ``net_temperature`` stand for the evaluation's points; by default
    1/its evaluation skip, which gives the evaluation's own scale, or 0.1 for a network without
    one, which imitated the evaluation's scores ÷ 0.1); deeper nodes
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
    rounds keep the points), × ``SCALE`` in the tree, or in every round its total at the round's
    end minus the highest of the other seats' totals (``"lead"``: the margin a game is won by,
    in points); ``value_file``: a learned leaf value's weights
    (:class:`~parlour.bots.scout.value.LeafValue`, fitted by ``bench/train_scout_value.py``): a
    new node is valued by ``value_mix`` × that value + (1 − ``value_mix``) × a playout (with
    3–5 players, the objective ``"points"``; screened, it played worse); ``value_cut``: instead,
    play out ``plies`` moves from the new node and value the position there by the learned value
    (a playout that sees what the move changes, then a forecast of the rest of the round;
    screened, it played worse too);
    ``scout_show_cost``: search the evaluation's :data:`SCOUT_SHOW_TOP` best Scout & Shows at
    the root beside its ``root_top`` best other actions, whatever it ranks first, and take
    this many points off every value under it (what keeping it is worth: the playouts never
    use it, so they cannot tell; ``None``: ``keep_scout_show`` decides; screened, it played
    worse); ``scout_bonus``: points added to every value under a plain Scout at the root
    (negative: a price; a correction of the search's lean between Showing and Scouting;
    screened, neither sign played better); ``opponent_model``: the weights the opponent model
    scores the opponents' moves by
    (in the tree, the model playouts and the inference), the evaluation's (``"eval"``) or
    those fitted to how Hard plays (``"fitted"``: :data:`~parlour.bots.scout.features.MODEL_FILE`,
    ``bench/fit_scout_model.py``); ``model_weights``: other such weights (screens);
    ``playout_temperature``: the model playouts' own temperature (``None``: ``temperature``;
    a low one plays every seat nearly as the evaluation ranks, as Medium does);
    ``opponent_scout_show``: a price in points; the opponents in the tree may then also play
    their Scout & Show, the model scoring each less that price
    (:func:`~parlour.bots.scout.opponent_model.scout_show_options`; fitted to how Hard uses it,
    2.5; ``None``: never, as the playouts never do); ``opponent_search``: the opponents in the
    tree lean to the moves the search has found good for them — every seat's value is backed
    up (its round points minus the others' mean), and each option of the opponent model gains
    ``opponent_search`` × its public move's mean value to the mover minus the node's, shrunk
    by the child's visits ``n`` as ``n / (n + opponent_shrink)``
    (:func:`~parlour.bots.scout.opponent_model.searched_move`; the objective ``"points"`` and
    whole fast playouts only); ``correction``: a strength (0: none); a learned correction of
    the root's means (:class:`~parlour.bots.scout.correction.RootCorrection`, fitted by
    ``bench/scout_root_correction.py`` to a search that sees every hand: the shipped weights,
    or those in ``correction_file``) is added to them × the strength, and the move played is
    the best corrected mean instead of the most visited (:meth:`RootCorrection.choose
    <parlour.bots.scout.correction.RootCorrection.choose>`); ``deal_trees``: instead of one
    tree over every deal, that many deals drawn by their weights, each searched in a tree of
    its own (every hand of it seen: determinized search), the iterations shared out in turn and
    the trees' root statistics pooled (``None``: one tree; screened, it chose no better);
    ``root_halving``: the root's visits shared out by sequential halving instead of UCB1
    (:meth:`halve`; screened, it chose no better); ``inference_means``: with the deals drawn
    alike, also weigh each root candidate's playouts by the inference's weight of their deal
    (:meth:`weigh_deals`), for a correction that reads the difference
    (:data:`~parlour.bots.scout.correction.INFERENCE_INPUTS`; on by itself with such a
    correction).
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
        net_temperature: float | None = None,
        playout_policy: str = "fast",
        inference_temperature: float | None = None,
        rejuvenate: int = 0,
        min_ess: float | None = None,
        objective: str = "points",
        value_file: str | None = None,
        value_mix: float = 0.5,
        value_cut: bool = False,
        scout_show_cost: float | None = None,
        scout_bonus: float = 0.0,
        opponent_model: str = "eval",
        model_weights: Sequence[float] | None = None,
        playout_temperature: float | None = None,
        opponent_scout_show: float | None = None,
        opponent_search: float = 0.0,
        opponent_shrink: float = 10.0,
        correction: float = 0.0,
        correction_file: str | None = None,
        deal_trees: int | None = None,
        root_halving: bool = False,
        inference_means: bool = False,
    ) -> None:
        self.root_halving = root_halving
        if deal_trees is not None and deal_trees < 1:
            raise ValueError(f"deal_trees is at least 1, not {deal_trees!r}")
        self.deal_trees = deal_trees
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if min_ess is not None and not 0 < min_ess <= 1:
            raise ValueError(f"min_ess is a share above 0 and at most 1, not {min_ess!r}")
        self.min_ess = min_ess
        if objective not in ("points", "win", "lead"):
            raise ValueError(f"objective is 'points', 'win' or 'lead', not {objective!r}")
        self.objective = objective
        self.lead = objective == "lead"
        if not 0 <= value_mix <= 1:
            raise ValueError(f"value_mix is a share from 0 to 1, not {value_mix!r}")
        self.leaf_value = LeafValue.from_file(value_file) if value_file else None
        self.value_mix = value_mix
        if value_cut and (value_file is None or plies is None):
            raise ValueError("value_cut needs a value_file and plies (where the playout stops)")
        self.value_cut = value_cut
        self.scout_show_cost = scout_show_cost
        self.scout_bonus = scout_bonus
        if opponent_search < 0 or opponent_shrink < 0:
            raise ValueError("opponent_search and opponent_shrink are at least 0")
        if opponent_search and (
            objective != "points"
            or value_file is not None
            or plies is not None
            or not playout
            or playout_policy != "fast"
            or opponent_scout_show is not None
        ):
            raise ValueError(
                "opponent_search needs the objective 'points' and whole fast playouts (no "
                "value_file, plies, playout_policy 'model' or opponent_scout_show)"
            )
        self.opponent_search = opponent_search
        self.opponent_shrink = opponent_shrink
        if correction < 0:
            raise ValueError(f"correction is a strength of at least 0, not {correction!r}")
        if correction_file is not None and not correction:
            raise ValueError("correction_file needs a correction strength above 0")
        self.correction = (
            RootCorrection.from_file(correction_file or CORRECTION_FILE) if correction else None
        )
        self.correction_strength = correction
        self.inference_means = inference_means or (
            self.correction is not None and "inf_gap" in self.correction.inputs
        )
        self.last_inf_means: dict[Any, float] = {}
        self._deal_weights: list[float] = []
        self._inf_sums: dict[Any, list[float]] = {}
        self.last_corrections: dict[Any, float] = {}
        self.totals: tuple[int, ...] | None = None  # set per move: see iterate
        if prior not in ("eval", "net"):
            raise ValueError(f"prior is 'eval' or 'net', not {prior!r}")
        self.net = None
        if prior == "net":
            self.net = net_module.from_file(net_file) if net_file else net_module.load_net()
        if net_temperature is None:
            # a network with the evaluation skip: its log-probabilities are about skip × the
            # evaluation's points; one without imitated the evaluation's scores ÷ 0.1
            skip = self.net.skip if self.net is not None else 0.0
            net_temperature = 1.0 / skip if skip > 0 else 0.1
        if net_temperature <= 0:
            raise ValueError(f"net_temperature must be above 0, not {net_temperature!r}")
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
        if opponent_model not in ("eval", "fitted"):
            raise ValueError(f"opponent_model is 'eval' or 'fitted', not {opponent_model!r}")
        if model_weights is None and opponent_model == "fitted":
            model_weights = load_weights(MODEL_FILE)
        if model_weights is not None and len(model_weights) != len(self.weights):
            raise ValueError(f"model_weights needs {len(self.weights)} weights, one a feature")
        self.model_weights = self.weights if model_weights is None else tuple(model_weights)
        self.playout = playout
        self.plies = plies
        self.root_top = root_top
        self.keep_scout_show = keep_scout_show
        self.temperature = temperature
        if playout_temperature is not None and playout_temperature <= 0:
            raise ValueError(f"playout_temperature is above 0, not {playout_temperature!r}")
        self.playout_temperature = (
            temperature if playout_temperature is None else playout_temperature
        )
        self.opponent_scout_show = opponent_scout_show
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
        self.totals = (
            tuple(view["totals"]) if self.lead or (self.objective == "win" and last_round) else None
        )
        deals, cum = self.sample(view, rng, start)
        self.weigh_deals(view, deals)
        root = Node()
        root.ranked = self.rank(view, legal) if self.net is None else self.rank_by_net(view, legal)
        if (
            self.keep_scout_show
            and self.scout_show_cost is None
            and not isinstance(root.ranked[0][0], ScoutShow)
        ):
            root.ranked = [(a, p) for a, p in root.ranked if not isinstance(a, ScoutShow)]
        if self.root_top is not None and view["phase"] != "flip":
            if self.scout_show_cost is None:
                root.ranked = root.ranked[: self.root_top]
            else:  # the best plain actions, and the best Scout & Shows beside them
                plain = [(a, p) for a, p in root.ranked if not isinstance(a, ScoutShow)]
                shows = [(a, p) for a, p in root.ranked if isinstance(a, ScoutShow)]
                top = plain[: self.root_top] + shows[:SCOUT_SHOW_TOP]
                root.ranked = sorted(top, key=lambda item: -item[1])
        trees: list[tuple[Node, State]] = []
        if self.deal_trees is not None:  # one tree per deal, each seeing its deal's every hand
            picks = rng.choices(range(len(deals)), cum_weights=cum, k=self.deal_trees)
            trees = [(Node(), deals[i]) for i in picks]
            for tree, _ in trees:
                tree.ranked = root.ranked
        if self.root_halving and not trees and view["phase"] != "flip" and len(root.ranked) > 2:
            finalists = self.halve(root, view, deals, cum, seat, rng, start)
            return self.finish(root, view, finalists)
        iterations = 0
        while True:
            if trees:
                tree, deal = trees[iterations % len(trees)]
                self.iterate(tree, deal, seat, rng)
            else:
                index = rng.choices(range(len(deals)), cum_weights=cum)[0]
                self.iterate(root, deals[index], seat, rng, weight=self.deal_weight(index))
            iterations += 1
            if self.iterations is not None:
                if iterations >= self.iterations:
                    break
            elif time.perf_counter() - start >= self.budget_s:
                break
        self.last_iterations = iterations
        for tree, _ in trees:  # the deals' trees pooled at the root: visits and values summed
            for action, child in tree.children.items():
                pooled = root.children.setdefault(action, Node())
                pooled.n += child.n
                pooled.w += child.w
        return self.finish(root, view)

    def finish(self, root: Node, view: Mapping[str, Any], finalists: Sequence[Any] = ()) -> Any:
        """The move from the searched root: the best corrected mean with ``correction``, else
        the best mean of the ``finalists`` of :meth:`halve` if any, else the most visited (at a
        flip, the better mean)."""
        assert root.ranked is not None
        self.last_visits = {a: c.n for a, c in root.children.items()}
        self.last_means = {a: c.w / c.n for a, c in root.children.items()}
        self.last_inf_means = {
            a: sums[1] / sums[0] if sums[0] > 0 else self.last_means[a]
            for a, sums in self._inf_sums.items()
        }
        ranked = [a for a, _ in root.ranked]
        self.last_corrections = {}
        if self.correction is not None and view["phase"] != "flip" and len(root.children) > 1:
            best, self.last_corrections = self.correction.choose(
                view,
                root.ranked,
                self.last_means,
                self.last_visits,
                self.correction_strength,
                self.last_inf_means if self.inference_means else None,
            )
            return best

        def merit(a: Any) -> tuple[float, ...]:
            child = root.children[a]
            mean = child.w / child.n
            if view["phase"] == "flip" or finalists:
                return (mean, -ranked.index(a))  # both searched alike: the better mean
            return (child.n, mean, -ranked.index(a))

        return max(finalists or root.children, key=merit)

    def halve(
        self,
        root: Node,
        view: Mapping[str, Any],
        deals: Sequence[State],
        cum: Sequence[float],
        seat: int,
        rng: random.Random,
        start: float,
    ) -> list[Any]:
        """``root_halving``: sequential halving over the root's candidates. The budget is cut
        into ⌈log₂ k⌉ equal phases; in each, every candidate still in is searched in turn (the
        tree below it by UCB1 as usual), then the worse half by mean (plus ``correction`` ×
        its correction) drops out, until one or two remain for the last phase. Every candidate
        gets visits enough for a fair mean, where UCB1 spends nearly all of them on the few
        best (a choice by the means, as the correction makes, wants the former). Returns the
        candidates of the last phase."""
        assert root.ranked is not None
        alive = [a for a, _ in root.ranked]
        phases = max(1, math.ceil(math.log2(len(alive))))
        total = self.iterations
        began = time.perf_counter()
        done = 0
        for phase in range(phases):
            if total is not None:
                end = total * (phase + 1) // phases
                while done < end or done < len(alive) * (phase + 1):
                    self.iterate_from(root, alive[done % len(alive)], deals, cum, seat, rng)
                    done += 1
            else:
                left = max(0.0, self.budget_s - (began - start))
                deadline = began + left * (phase + 1) / phases
                turn = 0
                while turn < len(alive) or time.perf_counter() < deadline:
                    self.iterate_from(root, alive[turn % len(alive)], deals, cum, seat, rng)
                    turn += 1
                    done += 1
            if phase < phases - 1:
                keep = max(2, math.ceil(len(alive) / 2)) if phase < phases - 2 else 2
                alive = self.best_of(root, view, alive)[:keep]
        self.last_iterations = done
        return alive

    def iterate_from(
        self,
        root: Node,
        action: Any,
        deals: Sequence[State],
        cum: Sequence[float],
        seat: int,
        rng: random.Random,
    ) -> None:
        """One iteration on a deal drawn by its weight, ``action`` played at the root."""
        index = rng.choices(range(len(deals)), cum_weights=cum)[0]
        self.iterate(root, deals[index], seat, rng, forced=action, weight=self.deal_weight(index))

    def best_of(self, root: Node, view: Mapping[str, Any], alive: Sequence[Any]) -> list[Any]:
        """``alive`` best first by their means (plus ``correction`` × their corrections),
        ties to the evaluation's order."""
        means = {a: root.children[a].w / root.children[a].n for a in alive}
        adds = dict.fromkeys(alive, 0.0)
        if self.correction is not None:
            visits = {a: root.children[a].n for a in alive}
            ranked = [(a, p) for a, p in root.ranked or () if a in means]
            inf = {a: self.last_inf_mean(root, a) for a in alive} if self.inference_means else None
            _, adds = self.correction.choose(
                view, ranked, means, visits, self.correction_strength, inf
            )
        order = {a: i for i, a in enumerate(alive)}
        return sorted(alive, key=lambda a: (-(means[a] + adds[a]), order[a]))

    def weigh_deals(self, view: Mapping[str, Any], deals: Sequence[State]) -> None:
        """``inference_means``: each deal's weight by the inference (the opponents' past
        moves under the opponent model, tempered to an effective size of at least a quarter
        of the deals; the largest 1), for :meth:`iterate` to weigh the root's playouts by."""
        self._inf_sums = {}
        self._deal_weights = []
        if not self.inference_means or view["phase"] == "flip":
            return
        past = decisions(view)
        logs = [
            log_likelihood(view, past, deal.hands, self.model_weights, self.inference_temperature)
            if past
            else 0.0
            for deal in deals
        ]
        logs = tempered(logs, INFERENCE_MEANS_ESS)
        top = max(logs)
        self._deal_weights = [math.exp(lw - top) for lw in logs]

    def deal_weight(self, index: int) -> float | None:
        """The inference's weight of deal ``index`` (``None`` without ``inference_means``)."""
        return self._deal_weights[index] if self._deal_weights else None

    def last_inf_mean(self, root: Node, action: Any) -> float:
        """``action``'s mean so far with its playouts weighed by their deals' weights."""
        total, weighted = self._inf_sums.get(action, (0.0, 0.0))
        child = root.children[action]
        return weighted / total if total > 0 else child.w / child.n

    def rank(self, view: Mapping[str, Any], legal: Sequence[Any]) -> list[tuple[Any, float]]:
        """``legal`` by the evaluation, best first, with each score minus the best (≤ 0)."""
        scored = sorted(((self.evaluator.score(view, a), i) for i, a in enumerate(legal)),
                        reverse=True)  # fmt: skip
        top = scored[0][0]
        return [(legal[i], s - top) for s, i in scored]

    def rank_by_net(self, view: Mapping[str, Any], legal: Sequence[Any]) -> list[tuple[Any, float]]:
        """``legal`` by the network's policy, likeliest first, each with ``net_temperature`` ×
        its log-probability minus the top one's (≤ 0; about the evaluation's points at the
        default temperature)."""
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
        """Sampled deals (play-phase states) and their cumulative weights
        (:func:`~parlour.bots.scout.inference.sample_deals`, with this search's settings)."""
        deals, cum, logs = sample_deals(
            view,
            rng,
            self.particle_count(),
            inference=self.inference,
            weights=self.model_weights,
            temperature=self.inference_temperature,
            rejuvenate=self.rejuvenate,
            min_ess=self.min_ess,
            start=start,
            budget_s=None if self.iterations is not None else self.budget_s,
        )
        if view["seat"] is not None:
            self.last_log_weights = logs
        return deals, cum

    # -- one iteration ----------------------------------------------------------------------

    def iterate(
        self,
        root: Node,
        deal: State,
        seat: int,
        rng: random.Random,
        forced: Any = None,
        weight: float | None = None,
    ) -> None:
        """One descent from ``root`` on ``deal`` (``forced``: the root action to play, else
        UCB1 picks it), one new node, one playout, the backup (the share of the win ×
        ``SCALE`` when :attr:`totals` is set); ``weight``: the deal's by the inference, summed
        with the weighted value under the root action (:meth:`weigh_deals`)."""
        node, path, state, totals, lead = root, [root], deal, self.totals, self.lead
        flip_phase = root.ranked is not None and isinstance(root.ranked[0][0], Flip)
        value: float | None = None
        values: list[float] | None = None  # every seat's, with opponent_search
        key: Any
        first: Any = None
        while True:
            if state.results or state.phase != PLAY_PHASE:
                if self.opponent_search:
                    points = [float(s.points) for s in state.results[-1].seats]
                    values = [end_value(points, s) for s in range(len(points))]
                    value = values[seat]
                else:
                    value = result_value(state, seat, totals, lead)
                break
            if node is not root and node.n == 0:
                leaf = self.leaf_value
                if self.opponent_search:
                    points = round_points(state, rng)
                    values = [end_value(points, s) for s in range(len(points))]
                    value = values[seat]
                elif leaf is not None and totals is None and leaf.covers(len(state.hands)):
                    if self.value_cut:
                        value = rollout(state, seat, rng, self.plies, cut=leaf.value)
                    else:
                        value = leaf.value(state, seat)
                        if self.value_mix < 1:
                            played = rollout(state, seat, rng, self.plies, self.hand_weights)
                            value = self.value_mix * value + (1 - self.value_mix) * played
                elif self.playout and self.playout_policy == "model":
                    value = model_rollout(
                        state,
                        seat,
                        rng,
                        self.model_weights,
                        self.playout_temperature,
                        totals,
                        lead,
                    )
                elif self.playout:
                    value = rollout(state, seat, rng, self.plies, self.hand_weights, totals, lead)
                else:
                    value = static_value(state, seat, self.hand_weights, totals, lead)
                break
            if node is root:
                if forced is not None:
                    action = forced
                else:
                    action = self.select_flip(node) if flip_phase else self.select(node)
                if isinstance(action, Flip):
                    if action.flip:
                        state = with_hand(state, seat, flipped(state.hands[seat]))
                else:
                    state = apply(state, seat, action)
                key = first = action
            else:
                mover = state.turn
                if mover == seat:
                    if node.ranked is None:
                        node.ranked = self.rank(state_view(state, seat), legal_actions(state, seat))
                    action = self.select(node)
                    state = apply(state, mover, action)
                    key = action
                elif self.opponent_search:
                    base = node.ws[mover] / node.n if node.ws is not None else None
                    action = searched_move(state, mover, self.model_weights, self.temperature,
                                           rng, node.children, base, self.opponent_search,
                                           self.opponent_shrink)  # fmt: skip
                    state = apply(state, mover, action)
                    key = (action, state.active)
                else:
                    action = model_move(state, mover, self.model_weights, self.temperature, rng,
                                        self.opponent_scout_show)  # fmt: skip
                    state = apply(state, mover, action)
                    key = (action, state.active)  # the public move: the cards shown too
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
            node = child
            path.append(node)
        if totals is not None and not lead:
            value *= SCALE
        if self.scout_show_cost is not None and isinstance(first, ScoutShow):
            value -= self.scout_show_cost  # what keeping it is worth, which playouts cannot see
        if self.scout_bonus and isinstance(first, Scout):
            value += self.scout_bonus
        for visited in path:
            visited.n += 1
            visited.w += value
        if weight is not None and first is not None:
            sums = self._inf_sums.setdefault(first, [0.0, 0.0])
            sums[0] += weight
            sums[1] += weight * value
        if values is not None:
            for visited in path:
                if visited.ws is None:
                    visited.ws = list(values)
                else:
                    visited.ws = [t + v for t, v in zip(visited.ws, values, strict=True)]

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
]
