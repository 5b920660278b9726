"""Generic computer players over the game contract: random, MCTS (chance-aware), alpha-beta/expectimax.

Every player is built from a spec string by ``damier.agents.make_agent("mcts:time=1.0", game)``.
"""

from damier.ai.alphabeta import AlphaBetaAgent
from damier.ai.base import Agent
from damier.ai.mcts import MCTSAgent
from damier.ai.random_player import RandomAgent
from damier.ai.solver import SolverAgent

__all__ = ["Agent", "AlphaBetaAgent", "MCTSAgent", "RandomAgent", "SolverAgent"]
