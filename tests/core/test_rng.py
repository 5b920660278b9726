"""The kernels' generators: seeded in Python (``make_rng``) or in a kernel (``seed_rng``), the same numbers."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from damier.core.rng import below, make_rng, new_rng, seed_rng


@settings(deadline=None)  # the first call compiles the kernels
@given(seed=st.integers(0, 2**62), stream=st.integers(0, 2**20))
def test_a_kernel_seeds_stream_zero_as_python_does_and_other_streams_apart(seed: int, stream: int) -> None:
    rng = np.empty(1, dtype=np.uint64)
    seed_rng(rng, seed, 0)
    assert rng[0] == make_rng(seed)[0]
    python = make_rng(seed)
    assert [int(below(rng, 1 << 30)) for _ in range(4)] == [int(below(python, 1 << 30)) for _ in range(4)]
    other = np.empty(1, dtype=np.uint64)
    seed_rng(other, seed, stream + 1)
    assert other[0] != 0 and other[0] != make_rng(seed)[0]


@settings(deadline=None)
@given(seed=st.integers(0, 2**62), stream=st.integers(0, 2**20))
def test_a_new_generator_is_the_stream_seed_rng_sets(seed: int, stream: int) -> None:
    rng = np.empty(1, dtype=np.uint64)
    seed_rng(rng, seed, stream)
    fresh = new_rng(seed, stream)
    assert fresh.shape == (1,) and fresh.dtype == np.uint64
    assert [int(below(fresh, 1 << 30)) for _ in range(4)] == [int(below(rng, 1 << 30)) for _ in range(4)]
