"""Matches and round-robin tournaments between agents, with Elo ratings; a local process pool runs them."""

from damier.arena.match import MatchResult, play_match
from damier.arena.tournament import TournamentResult, run

__all__ = ["MatchResult", "TournamentResult", "play_match", "run"]
