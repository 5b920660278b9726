"""What a game's kernel search provides: one fixed-depth search at a time (the ``search`` feature).

Iterative deepening, the time rule and the reports live in one place, ``damier.ai.deepening``; a game's kernel
only searches a given depth. A game declares ``features={"search": "package.module:Factory"}`` where
``Factory(game)`` returns an object of this protocol.
"""

from __future__ import annotations

from typing import Protocol

from damier.core.game import Iteration, State


class FixedDepthSearch(Protocol):
    """A fixed-depth alpha-beta search with its own tables, which another thread may stop.

    A search that sets a class attribute ``partial_moves = True`` promises more of a depth stopped early: its
    ``move`` is then the best of the root moves searched to the end at that depth, the first of which was the
    previous depth's best (None when not even that one was), so the driver plays it.
    """

    def new_game(self) -> None:
        """Forget everything learnt in the previous game (transposition table, move ordering)."""
        ...

    def new_search(self, state: State) -> None:
        """Prepare the searches of a new root ``state`` (called before its depth 1; clears the stop request)."""
        ...

    def search(self, state: State, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        """Search ``state`` (the root given to ``new_search``) to ``depth`` plies.

        The answer's ``score`` is from the side to move's view, ``nodes`` counts this depth only, and
        ``completed`` is False when ``stop`` or ``node_limit`` ended it early (then its move may be from a
        partial search). Depth 1 always completes: there is always a searched move.
        """
        ...

    def stop(self) -> None:
        """Ask a running ``search`` (in another thread) to end now; safe to call at any time."""
        ...
