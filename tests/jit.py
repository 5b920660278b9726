"""Whether the kernels run compiled: the suite's one reading of ``NUMBA_DISABLE_JIT``.

``scripts/test`` runs part of the suite a second time with ``NUMBA_DISABLE_JIT=1`` (the kernels as plain Python);
tests whose searches would take minutes there play fewer games or skip with ``needs_jit``.
"""

import numba
import pytest

NO_JIT: bool = bool(numba.config.DISABLE_JIT)


def needs_jit(why: str) -> pytest.MarkDecorator:
    """Skip a test when the kernels run as plain Python, saying why it needs them compiled."""
    return pytest.mark.skipif(NO_JIT, reason=f"{why} (run with the JIT)")
