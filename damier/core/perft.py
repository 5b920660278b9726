"""Perft through the contract: the leaves ``depth`` plies below a position, for any game.

Every game has it; a game whose kernel counts faster declares the ``perft`` feature, which ``count`` uses. Chance
outcomes count as plies (each outcome is a branch), as OpenSpiel's generic perft does.

>>> import damier
>>> sum(count(damier.load("atoms", rows=3, cols=3).new_state(), 2).values())
72
"""

from __future__ import annotations

from damier.core.game import CHANCE, State


def count(state: State, depth: int, bulk: bool = False, use_kernel: bool = True) -> dict[str, int]:
    """The leaves ``depth`` plies below ``state`` under each first move (in notation), the kernel's perft when
    the game declares one; ``bulk`` counts the last ply's moves without playing them (same numbers)."""
    if depth < 1:
        raise ValueError(f"perft depth must be at least 1, not {depth}")
    info = state.game.info
    if use_kernel and info.has("perft"):
        divide: dict[str, int] = info.hook("perft")(state, depth, bulk)
        return divide
    work = state.copy()
    out: dict[str, int] = {}
    for move in _branches(work):
        text = work.move_to_str(move)
        work.play(move)
        out[text] = _leaves(work, depth - 1, bulk)
        work.undo()
    return out


def _branches(state: State) -> list[int]:
    if state.is_over():
        return []
    if state.player == CHANCE:
        return [move for move, _ in state.chance_outcomes()]
    return state.legal_moves()


def _leaves(state: State, depth: int, bulk: bool) -> int:
    if depth == 0:
        return 1
    moves = _branches(state)
    if depth == 1 and bulk:
        return len(moves)
    total = 0
    for move in moves:
        state.play(move)
        total += _leaves(state, depth - 1, bulk)
        state.undo()
    return total
