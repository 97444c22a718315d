"""Seeded randomness of Parlour's own, the same on every Python, version after version.

Chance in a game is drawn from generators derived from the game's seed and a label (for example
the round number), so ``seed + actions`` rebuilds a game exactly, in any process, on any machine
and on any future Python: the generator and every way of drawing from it are defined here, in a
few lines, not borrowed from ``random`` (whose algorithms, ``shuffle`` and ``randrange``
included, may change between Python versions). :data:`CHANCE_VERSION` names this definition;
stored games record it, and a change to anything below must bump it (and regenerate the golden
playthroughs), so that a game stored before is never silently replayed with other chance.

The generator (version 2) is SplitMix64 (Steele, Lea and Flood, 2014; Vigna's reference
``splitmix64.c``): a 64-bit state advanced by ``0x9E3779B97F4A7C15`` and mixed into each output.
Draws built on it:

- ``below(n)``: an integer in ``[0, n)`` (``1 <= n <= 2**64``) by rejection sampling: draw
  64-bit ``x`` until ``x < 2**64 - 2**64 % n``, return ``x % n`` (no bias);
- ``randrange``/``randint``/``choice``: ``below`` shifted or indexed;
- ``shuffle``: Fisher–Yates from the last position down: for ``i`` from ``len - 1`` to 1, swap
  position ``i`` with ``below(i + 1)``;
- ``sample(population, k)``: the first ``k`` steps of Fisher–Yates from the front on a copy: for
  ``i`` in ``0..k-1``, swap position ``i`` with ``i + below(n - i)``; the first ``k`` items;
- ``getrandbits(k)``: ``ceil(k / 64)`` outputs, the first in the lowest bits, cut to ``k`` bits.

Known answers (``tests/core/test_rng.py``; the first two rows are SplitMix64's published test
values, also produced by the C reference):

>>> rng = Rng(1234567)
>>> [rng.next64() for _ in range(3)]
[6457827717110365317, 3203168211198807973, 9817491932198370423]
>>> Rng(0).next64() == 0xE220A8397B1DCDAF
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

CHANCE_VERSION = 2
"""The definition of chance in force. 1: Python's ``random.Random`` (Mersenne Twister) seeded
with :func:`derive_seed` (Parlour before issue 17, records without a version); 2: :class:`Rng`
(SplitMix64 and the draws above)."""

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_SPAN = 1 << 64
_LIMITS = tuple(_SPAN - _SPAN % n if n else 0 for n in range(257))
"""``2**64 - 2**64 % n`` for the small ``n`` of decks and piles (the rejection threshold)."""


class Rng:
    """Parlour's seeded generator (:data:`CHANCE_VERSION` 2, see the module docstring).

    >>> Rng(7).randrange(6), Rng(7).sample(range(5), 2), Rng(7).choice("abc")
    (3, [2, 1], 'a')
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"a seed is a whole number, not {seed!r}")
        self._state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output of SplitMix64."""
        self._state = z = (self._state + _GAMMA) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A whole number in ``[0, n)``, each equally likely; raises ``ValueError`` unless
        ``1 <= n <= 2**64``."""
        if not 1 <= n <= _SPAN:
            raise ValueError(f"a draw below {n}: n must lie between 1 and 2**64")
        limit = _SPAN - _SPAN % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randrange(self, start: int, stop: int | None = None) -> int:
        """``below(start)``, or with ``stop`` a whole number in ``[start, stop)``."""
        if stop is None:
            return self.below(start)
        return start + self.below(stop - start)

    def randint(self, low: int, high: int) -> int:
        """A whole number in ``[low, high]``."""
        return low + self.below(high - low + 1)

    def choice(self, seq: Sequence[T]) -> T:
        """One item of a non-empty sequence."""
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        """Put ``items`` in random order, in place (Fisher–Yates, from the end)."""
        # below(i + 1) for each i, inlined with local names (decks are shuffled on every deal)
        state, mask, gamma, mix1, mix2 = self._state, _MASK, _GAMMA, _MIX1, _MIX2
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n <= 256 else _SPAN - _SPAN % n
            while True:
                state = (state + gamma) & mask
                z = ((state ^ (state >> 30)) * mix1) & mask
                z = ((z ^ (z >> 27)) * mix2) & mask
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self._state = state

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` different items of ``population`` in random order (partial Fisher–Yates from
        the front on a copy); raises ``ValueError`` if ``k`` is negative or too large."""
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError(f"cannot take {k} of {n} items")
        state, mask, gamma, mix1, mix2 = self._state, _MASK, _GAMMA, _MIX1, _MIX2
        for i in range(k):  # j = i + below(n - i), inlined
            m = n - i
            limit = _LIMITS[m] if m <= 256 else _SPAN - _SPAN % m
            while True:
                state = (state + gamma) & mask
                z = ((state ^ (state >> 30)) * mix1) & mask
                z = ((z ^ (z >> 27)) * mix2) & mask
                z ^= z >> 31
                if z < limit:
                    break
            j = i + z % m
            pool[i], pool[j] = pool[j], pool[i]
        self._state = state
        return pool[:k]

    def getrandbits(self, k: int) -> int:
        """A whole number of ``k`` random bits (outputs in order, the first lowest)."""
        out, have = 0, 0
        while have < k:
            out |= self.next64() << have
            have += 64
        return out & ((1 << k) - 1)


def derive_seed(seed: int | str, *labels: object) -> int:
    """A 64-bit integer determined by ``seed`` and the labels, stable across processes (the
    first 8 bytes, big-endian, of the SHA-256 of their texts joined by ``\\x1f``).

    >>> derive_seed(7, "round", 1) == derive_seed(7, "round", 1)
    True
    >>> derive_seed(7, "round", 1) == derive_seed(7, "round", 2)
    False
    """
    text = "\x1f".join([str(seed), *(str(label) for label in labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def derive_rng(seed: int | str, *labels: object) -> Rng:
    """A fresh :class:`Rng` seeded from ``seed`` and the labels (see :func:`derive_seed`)."""
    return Rng(derive_seed(seed, *labels))
