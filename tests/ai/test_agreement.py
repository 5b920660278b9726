"""How a computer answers an offer to end the game (``damier.ai.agreement``), on Khet's symmetric start (the
server's tests cover a position where it stands worse, Jewels' tests the agreement the score decides)."""

from __future__ import annotations

import damier
from damier.ai.agreement import agrees_to_stop, expected_return


def test_a_level_start_expects_a_level_game_and_declines_a_draw() -> None:
    start = damier.load("khet").new_state()
    assert expected_return(start, 0) == 0.0 and expected_return(start, 1) == 0.0
    assert agrees_to_stop(start, 1) is False
