"""Explicit, reproducible random numbers for kernels: xorshift64 state in a one-element uint64 array.

The caller owns the generator state (pgx's rule: randomness is passed in, never hidden), so a playout or a
search with the same seed does the same thing, with or without the JIT.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MIX = np.uint64(0x9E3779B97F4A7C15)


def make_rng(seed: int) -> np.ndarray:
    """A generator state for ``seed`` (any int; 0 is fine): the state ``seed_rng(rng, seed, 0)`` sets."""
    value = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    return np.array([value or 0x2545F4914F6CDD1D], dtype=np.uint64)


@njit(cache=True)
def seed_rng(rng: np.ndarray, seed: int, stream: int) -> None:
    """Set ``rng`` (in a kernel) to the generator of ``seed``'s stream number ``stream`` (any ints): stream 0 is
    ``make_rng(seed)``; the streams of one seed are independent generators (a playout each, say)."""
    value = (np.uint64(seed) * _MIX + np.uint64(stream) * np.uint64(0xD1B54A32D192ED03)
             + np.uint64(0x632BE59BD9B4E019))
    rng[0] = value if value != 0 else np.uint64(0x2545F4914F6CDD1D)


@njit(cache=True)
def new_rng(seed: int, stream: int) -> np.ndarray:
    """A new generator (in a kernel) for ``seed``'s stream number ``stream``: see ``seed_rng``."""
    rng = np.empty(1, dtype=np.uint64)
    seed_rng(rng, seed, stream)
    return rng


@njit(cache=True)
def next_u64(rng: np.ndarray) -> np.uint64:
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x


@njit(cache=True)
def below(rng: np.ndarray, n: int) -> np.int64:
    """A uniform int in ``range(n)`` (n >= 1); the modulo bias is negligible for board-sized n."""
    return np.int64((next_u64(rng) >> np.uint64(11)) % np.uint64(n))
