"""Elo ratings from game results: the Bradley-Terry maximum-likelihood fit, with 95% confidence intervals.

Draws count half a win each way. A weak prior (one virtual draw between every pair of players who met)
keeps ratings finite when one player wins every game; the intervals come from the curvature of the
likelihood (the observed Fisher information).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    low: float  # 95% interval
    high: float


def fit(names: list[str], scores: np.ndarray, games: np.ndarray, anchor: float = 1500.0) -> list[Rating]:
    """Ratings for ``names`` given ``scores[i, j]`` (points i took from j) and ``games[i, j]`` (games played).

    >>> import numpy as np
    >>> r = fit(["a", "b"], np.array([[0, 75], [25, 0]]), np.array([[0, 100], [100, 0]]))
    >>> round(r[0].elo - r[1].elo)
    189
    """
    k = len(names)
    met = (games > 0).astype(float)
    w = scores.astype(float) + 0.5 * met  # the prior: one virtual draw per pair that met
    n = games.astype(float) + met
    theta = np.zeros(k)
    for _ in range(200):  # Newton's method on the concave log-likelihood, the mean rating held at 0
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (w - n * p).sum(axis=1)
        hess = -(n * p * (1 - p))
        hess[np.diag_indices(k)] = -hess.sum(axis=1)
        step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        theta += step
        theta -= theta.mean()
        if np.max(np.abs(step)) < 1e-10:
            break
    diff = theta[:, None] - theta[None, :]
    p = 1.0 / (1.0 + np.exp(-diff))
    info = -(n * p * (1 - p))
    info[np.diag_indices(k)] = -info.sum(axis=1)
    covariance = np.linalg.pinv(info)
    ratings = []
    for i, name in enumerate(names):
        se = math.sqrt(max(covariance[i, i], 0.0)) * ELO_PER_NAT
        elo = anchor + theta[i] * ELO_PER_NAT
        ratings.append(Rating(name=name, elo=elo, low=elo - 1.96 * se, high=elo + 1.96 * se))
    return ratings
