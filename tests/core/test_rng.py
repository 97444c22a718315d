"""Known answers for Parlour's own generator (CHANCE_VERSION 2): a change to any of these is a
change of chance, which must bump ``CHANCE_VERSION`` (stored games record it) and regenerate the
golden playthroughs.

The first two rows are SplitMix64's published test values; every row was also produced by a
separate C implementation of the same definitions (reference ``splitmix64.c``; ``below`` by
rejection of ``x >= 2**64 - 2**64 % n``; Fisher–Yates from the end), so the Python here is
checked against an independent program, not against itself.
"""

from __future__ import annotations

import collections
import subprocess
import sys

import pytest

from parlour.core import CHANCE_VERSION, Rng, derive_rng, derive_seed


def test_chance_version_is_2() -> None:
    # Bump it (and these known answers, and the golden files) together, never one alone.
    assert CHANCE_VERSION == 2


def test_splitmix64_first_outputs() -> None:
    rng = Rng(0)
    assert [rng.next64() for _ in range(5)] == [
        16294208416658607535,  # 0xE220A8397B1DCDAF
        7960286522194355700,
        487617019471545679,
        17909611376780542444,
        1961750202426094747,
    ]
    rng = Rng(1234567)
    assert [rng.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_seeds_are_taken_modulo_2_to_the_64() -> None:
    assert Rng(-1).next64() == Rng(2**64 - 1).next64()
    with pytest.raises(TypeError):
        Rng("7")  # type: ignore[arg-type]


def test_integer_in_range_by_rejection() -> None:
    rng = Rng(7)
    assert [rng.below(6) for _ in range(10)] == [3, 0, 0, 3, 4, 3, 4, 0, 5, 5]
    assert Rng(7).below(1) == 0 and Rng(7).below(2**64) == Rng(7).next64()
    for n in (0, 2**64 + 1):
        with pytest.raises(ValueError):
            Rng(7).below(n)


def test_rejection_redraws_outputs_past_the_last_whole_multiple() -> None:
    # n = 3 * 2**62: 2**64 % n = 2**62, so outputs >= 3 * 2**62 (a quarter) are drawn again.
    n = 3 << 62
    rng, plain = Rng(11), Rng(11)
    outputs = [plain.next64() for _ in range(40)]
    got = [rng.below(n) for _ in range(10)]
    assert got == [x for x in outputs if x < n][:10]
    assert any(x >= n for x in outputs[: outputs.index(got[-1]) + 1])


def test_shuffle_of_a_52_card_deck() -> None:
    deck = list(range(52))
    Rng(2026).shuffle(deck)
    assert deck == [
        33, 38, 16, 43, 21, 26, 7, 20, 13, 47, 14, 15, 22, 12, 42, 45, 30, 39, 48, 51, 18, 41, 25,
        0, 36, 19, 8, 35, 17, 49, 50, 4, 28, 3, 2, 1, 46, 23, 40, 32, 31, 44, 5, 24, 37, 6, 29, 9,
        10, 34, 11, 27,
    ]  # fmt: skip


def test_sample_choice_randint_getrandbits() -> None:
    assert Rng(7).sample(range(5), 2) == [2, 1]
    assert Rng(7).choice("abc") == "a"
    assert Rng(7).randint(1, 6) == 4 and Rng(7).randrange(10, 16) == 13
    bits = Rng(0).getrandbits(70)
    assert bits == (16294208416658607535 | (7960286522194355700 << 64)) & ((1 << 70) - 1)
    with pytest.raises(ValueError):
        Rng(7).sample(range(3), 4)


def test_derived_generators_are_fixed_by_seed_and_labels() -> None:
    # the first 8 bytes of SHA-256("7\x1fround\x1f1"), big-endian
    assert derive_seed(7, "round", 1) == 0x2452FD61FAD7413C
    assert derive_seed(2026, "scout", "deal", 0) == 0xCC0D84B08E328C62
    assert derive_rng(2026, "scout", "deal", 0).next64() == 14454203884832344766


def test_draws_are_uniform_enough() -> None:
    # Not a statistical suite: a coarse guard against an off-by-one in below or shuffle.
    rng = Rng(99)
    counts = collections.Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6)) and min(counts.values()) > 9_500
    firsts = collections.Counter()
    for _ in range(20_000):
        deck = list(range(4))
        rng.shuffle(deck)
        firsts[tuple(deck)] += 1
    assert len(firsts) == 24 and min(firsts.values()) > 650


def test_the_same_draws_in_another_interpreter() -> None:
    # Nothing depends on the process: string hashing, ids or the time.
    code = (
        "from parlour.core import derive_rng\n"
        "r = derive_rng('x', 'scan', 1)\n"
        "d = list(range(30)); r.shuffle(d); print(d, r.sample(range(9), 4), r.below(10**18))"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": str(h)},
        ).stdout
        for h in (1, 2)
    }
    assert len(outs) == 1


def test_the_inlined_shuffle_and_sample_follow_their_definitions() -> None:
    # shuffle and sample inline ``below`` for speed: they must draw exactly as written above.
    for seed in range(300):
        items, ref, rng = list(range(seed % 60)), list(range(seed % 60)), Rng(seed)
        Rng(seed).shuffle(items)
        for i in range(len(ref) - 1, 0, -1):
            j = rng.below(i + 1)
            ref[i], ref[j] = ref[j], ref[i]
        assert items == ref
        n, k = seed % 40 + 1, seed % 7
        k = min(k, n)
        pool, rng = list(range(n)), Rng(seed)
        for i in range(k):
            j = i + rng.below(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        assert Rng(seed).sample(range(n), k) == pool[:k]
