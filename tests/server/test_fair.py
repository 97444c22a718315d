"""N9 against cheating clients: scripted people with a Medium SNAP bot's own reaction times race
a Medium bot on a real server (127.0.0.1, real TCP, game speed 5, the production jitter margin
of 15 game ms), honest and cheating four ways — forged reaction times with honest probe answers,
probe answers 240 ms late, no probe answers at all, and the "stealth" mix of late answers and a
human-looking forged time (``bench/fair.py``; ``make fair`` runs the full version with 200 races
per variant).

50 races per variant here (250 in all), so each win rate carries a sampling error of about 7
points: the bounds below are the targets (honest 50 ± 10 %, a cheat no better than honest + 5
points) widened by 2.5 standard errors — a cheat worth 40 points, what late or missing answers
bought before, fails them by far. The edge each call bought (credited minus real reaction time,
per call) has little noise and is held to the jitter margin itself.
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path

from bench import fair

SPEED = 5.0
JITTER_GAME_MS = 15
MEDIUM_VS_MEDIUM = 0.47
"""A person with Medium's reaction times beats a Medium bot in 47 % of races when both are
credited their true times (simulated from the two distributions, 400,000 races)."""


def test_N9_cheating_clients_gain_no_more_than_the_jitter_margin(tmp_path: Path) -> None:
    tallies = fair.run(tables=3, races=50, seconds=150, speed=SPEED,
                       jitter_game_ms=JITTER_GAME_MS, seed=16, workdir=tmp_path)  # fmt: skip
    lines = "\n".join(fair.report(tallies))
    print(lines)  # shown with pytest -s
    assert sum(t.races for t in tallies.values()) >= 200, lines
    honest = tallies["honest"]
    assert honest.races >= 40 and not honest.errors, lines
    se = math.sqrt(0.25 / honest.races)
    assert 0.40 - 2.5 * se <= honest.rate() <= 0.60 + 2.5 * se, lines
    for name, tally in tallies.items():
        assert tally.races >= 40 and not tally.errors, lines
        if name == "honest":
            continue
        # The win rate: no better than honest play plus 5 points (sampling error allowed for).
        se = math.sqrt(0.25 / tally.races + 0.25 / honest.races)
        assert tally.rate() <= max(honest.rate(), MEDIUM_VS_MEDIUM) + 0.05 + 2.5 * se, lines
        # What a call bought: at most the jitter margin (plus a few ms of scheduling).
        assert statistics.median(tally.edges) >= -JITTER_GAME_MS - 5, lines
