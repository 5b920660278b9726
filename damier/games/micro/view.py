"""Micro Robots views: the text board, the terminal's event lines, and the data the web view draws."""

from __future__ import annotations

from typing import Any

from damier.games.micro import notation, setup

#: terminal colours of the six square colours
TERMINAL_COLOURS = ("red", "green", "blue", "yellow", "white", "magenta")


def _cells(state: Any) -> list[str]:
    """Each square's text: ``R5``, the robot ``[R5]``, the target ``*B1``, the waypoint ``+G3``."""
    puzzle = state.puzzle
    out = []
    for index in range(setup.SQUARES):
        name = notation.square_name(puzzle.board, index)
        mark = "[" if index == state.robot else "*" if index == puzzle.target else (
            "+" if index == puzzle.waypoint else " ")
        out.append(f"{mark}{name}{']' if index == state.robot else ' '}")
    return out


def render(state: Any) -> str:
    """The board with coordinates (columns a-f, rows 1-6 from the top), the robot in brackets, the target starred,
    the waypoint marked +, and a status line.

    >>> import damier
    >>> print(damier.load("micro").state_from_position("A-1234-0000_R5_B1").render_text())
         a    b    c    d    e    f
    1  [R5]  G6   R1   P1   W4   P2
    2   G2   W2   Y1   G5   W5   G3
    3   W3   G1   Y3   G4   W1   P4
    4   P3   R6   R2   B2   Y6   P5
    5   B6   Y2   R3   B4   W6   P6
    6   B5   Y5   R4   B3   Y4  *B1
    Robot on R5, target B1; 0 moves used.
    """
    cells = _cells(state)
    lines = ["     " + "    ".join("abcdef")]
    for r in range(setup.SIZE):
        lines.append(f"{r + 1}  " + " ".join(cells[r * setup.SIZE : (r + 1) * setup.SIZE]).rstrip())
    return "\n".join(lines) + "\n" + status(state)


def status(state: Any) -> str:
    puzzle = state.puzzle
    name = notation.square_name
    if state.is_over():
        return f"Solved: {state.outcome().reason}."
    waypoint = ""
    if puzzle.waypoint >= 0:
        waypoint = f", waypoint {name(puzzle.board, puzzle.waypoint)} ({'visited' if state.visited else 'to visit'})"
    return (f"Robot on {name(puzzle.board, state.robot)}, target {name(puzzle.board, puzzle.target)}{waypoint}; "
            f"{state.moves_used} move{'s' if state.moves_used != 1 else ''} used.")


def describe_events(state: Any) -> list[str]:
    """What the last jump did, for the terminal (the ``describe_events`` feature)."""
    lines = []
    for event in state.events():
        if event["type"] == "jump":
            over = f" over {', '.join(event['passed'])}" if event["passed"] else ""
            lines.append(f"jump {event['from']} -> {event['to']}{over}")
        elif event["type"] == "waypoint":
            lines.append(f"waypoint {event['square']} visited")
        elif event["type"] == "solved":
            lines.append(f"solved in {event['moves']} (the optimum is {event['optimum']})")
    return lines


def board_json(state: Any) -> dict[str, Any]:
    """What the web view draws: every square (its text, colour, number, coordinates), the robot, start, target,
    waypoint, the legal jumps, the moves used and whether the waypoint was visited."""
    puzzle = state.puzzle
    board = puzzle.board

    def square(index: int) -> dict[str, Any]:
        code = int(board[index])
        return {"name": setup.square_text(code), "colour": setup.COLOUR_NAMES[code // setup.SIZE],
                "number": code % setup.SIZE + 1, "coordinates": notation.coordinates(index)}

    def name(index: int) -> str | None:
        return None if index < 0 else notation.square_name(board, index)

    return {
        "kind": state.game.name,
        "position": state.position(),
        "puzzle": notation.puzzle_id(puzzle),
        "board_id": puzzle.board_id,
        "squares": [square(i) for i in range(setup.SQUARES)],
        "robot": name(state.robot),
        "start": name(puzzle.start),
        "target": name(puzzle.target),
        "waypoint": name(puzzle.waypoint),
        "visited": bool(state.visited and puzzle.waypoint >= 0),
        "legal": [name(m) for m in state.legal_moves()],
        "used": state.moves_used,
    }
