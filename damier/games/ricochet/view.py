"""Ricochet Robots views: the text board, the terminal's event lines, and the data the web view draws."""

from __future__ import annotations

from typing import Any

from damier.core.game import Termination
from damier.games.ricochet import notation, setup

_ROBOT_MARKS = "RGBYST"


def render(state: Any) -> str:
    """The board: walls as lines, robots as their letters, the target as ``*``; then the status line."""
    b = state.puzzle.board
    robots = {int(c): _ROBOT_MARKS[r] for r, c in enumerate(state.robots) if c >= 0}
    lines = ["    " + "".join(f"{ch:<3}" for ch in "abcdefghijklmnop")]
    for y in range(setup.SIZE):
        top = "   +"
        row = f"{y + 1:>2} |"
        for x in range(setup.SIZE):
            cell = y * setup.SIZE + x
            top += ("--" if b.walls[cell] & setup.N else "  ") + "+"
            mark = robots.get(cell, "*" if cell == state.puzzle.target.cell else ("#" if b.blocked[cell] else "."))
            row += f"{mark} " + ("|" if b.walls[cell] & setup.E else " ")
        lines += [top, row]
    lines.append("   +" + "--+" * setup.SIZE)
    return "\n".join(lines) + "\n" + status(state)


def status(state: Any) -> str:
    target = state.puzzle.target
    if state.is_over():
        outcome = state.outcome()
        return f"{'Solved' if outcome.termination is Termination.SOLVED else 'Over'}: {outcome.reason}."
    used = state.moves_used
    return f"Target: the {target.name} on {setup.cell_name(target.cell)}; {used} move{'' if used == 1 else 's'} used."


def describe_events(state: Any) -> list[str]:
    """What the last move did, for the terminal (the ``describe_events`` feature)."""
    lines = []
    for event in state.events():
        if event["type"] == "slide":
            walls = f", through {event['walls_passed']} wall(s)" if event["walls_passed"] else ""
            lines.append(f"{event['robot']} robot {event['from']} -> {event['to']}{walls}")
        elif event["type"] == "solved":
            lines.append(f"solved in {event['moves']} (the optimum is {event['optimum']})")
    return lines


def board_json(state: Any) -> dict[str, Any]:
    """What the web view draws: walls per cell (``N E S W`` letters), the centre block, the targets, the robots,
    the target of the round, the legal moves (in notation, each with where it ends), the cost used."""
    b = state.puzzle.board
    legal = []
    for move in state.legal_moves():
        legal.append({"move": state.move_to_str(move), "to": setup.cell_name(state._destination(move))})
    return {
        "kind": state.game.name,
        "position": state.position(),
        "puzzle": notation.puzzle_id(state.puzzle),
        "board_id": b.board_id,
        "walls": ["".join(ch for ch, bit in zip("NESW", setup.BITS, strict=True) if int(b.walls[c]) & bit)
                  for c in range(setup.CELLS)],
        "blocked": [setup.cell_name(c) for c in setup.CENTRE],
        "targets": [{"cell": setup.cell_name(t.cell), "colour": t.colour, "shape": t.shape} for t in b.targets],
        "robots": {notation.ROBOT_NAMES[r]: setup.cell_name(int(c)) for r, c in enumerate(state.robots) if c >= 0},
        "target": {"cell": setup.cell_name(state.puzzle.target.cell), "colour": state.puzzle.target.colour,
                   "shape": state.puzzle.target.shape},
        "legal": legal,
        "used": state.moves_used,
    }
