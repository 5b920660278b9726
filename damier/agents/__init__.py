"""Building a computer player from its spec string, the same in the CLI, the arena, the engine protocol and the
server: ``damier.agents.make_agent("mcts:time=1.0", game)``. The players themselves are ``damier.ai``'s (and an
external engine, ``damier.protocol``'s); this layer sits above both.
"""

from damier.agents.spec import LEVELS, hint_agent, make_agent, within

__all__ = ["LEVELS", "hint_agent", "make_agent", "within"]
