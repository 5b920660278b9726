"""Jewels and Lasers views: the text board, what the browser draws, events and why a move is
illegal. Every rule is asked of the kernel; this module only explains and converts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from damier.core.game import CHANCE, TERMINAL
from damier.core.grid import square_name
from damier.core.messages import Said, coded, nested, say
from damier.games.jewels import kernel
from damier.games.jewels.kernel import (
    COUNT,
    DEAD,
    EMPTY,
    JEWEL,
    LEFT,
    MAN,
    NEXT,
    OVER,
    PHASE,
    PLACE,
    ROBOT,
    ROBOTS,
    WALL,
)

if TYPE_CHECKING:
    from damier.games.jewels.rules import JewelsGame, JewelsState

PIECES = {WALL: "wall", JEWEL: "jewel", ROBOT: "robot", DEAD: "dead"}
DIRECTIONS = "NESW"


# ----- why a move is illegal ------------------------------------------------------------------------------
def _lighter(s: np.ndarray, nb: np.ndarray, sq: int, size: int) -> Any:
    """``the robot on C3``: a robot whose ray covers ``sq`` (as a message's parameter, ``nested``)."""
    for d in range(4):
        q = int(nb[sq, d])
        while q >= 0 and s[q] == EMPTY:
            q = int(nb[q, d])
        if q >= 0 and s[q] == ROBOT:
            return nested(say("jewels.lighter.robot", square=square_name(q, size)))
    return nested(say("jewels.lighter.any"))


def why_illegal(state: JewelsState, move: int) -> Said:
    """The rule a man's move (not legal here) breaks, in words (a ``Said``: with its code and parameters)."""
    g = state.game
    s, n, size, nb = state._s, g.n, g.size, g.neighbours
    me = max(state.player, 0)
    lit = state.lit()
    def name(sq: Any) -> str:
        return square_name(int(sq), size)

    legal = state.legal_moves()
    if move == n + 4:
        return say("jewels.illegal.pass")
    if state.placing:
        mirror = n - 1 - move
        if mirror == move:
            return say("jewels.illegal.own_mirror", square=name(move))
        if s[move] != EMPTY:
            return say("jewels.illegal.square_holds", piece=PIECES[int(s[move])])
        if lit[move]:
            return say("jewels.illegal.square_lit", lighter=_lighter(s, nb, move, size))
        if s[mirror] != EMPTY:
            return say("jewels.illegal.mirror_holds", mirror=name(mirror), piece=PIECES[int(s[mirror])])
        if lit[mirror]:
            return say("jewels.illegal.mirror_lit", mirror=name(mirror), lighter=_lighter(s, nb, mirror, size))
        return say("jewels.illegal.placement")
    man, other = state.man(me), state.man(1 - me)
    if move >= n:
        d = move - n
        wall = int(nb[man, d])
        why = kernel.explosion_ok(s, nb, g.params, d)
        if why == 1:
            return say("jewels.illegal.explosion_used", g, seat={"seat": me})
        if why == 2:
            return say("jewels.illegal.no_wall")
        if why == 3:
            behind = int(nb[wall, d])
            if behind < 0:
                return say("jewels.illegal.edge_behind", wall=name(wall))
            return say("jewels.illegal.empty_behind", wall=name(wall), square=name(behind))
        return say("jewels.illegal.explosion_lit", wall=name(wall))
    if move == man:
        return say("jewels.illegal.no_slide")
    rm, cm, rt, ct = man // size, man % size, move // size, move % size
    if rm != rt and cm != ct:
        return say("jewels.illegal.straight")
    d = (0 if rt < rm else 2) if cm == ct else (1 if ct > cm else 3)
    sq = man
    while sq != move:
        sq = int(nb[sq, d])
        if sq == other:
            return say("jewels.illegal.other_man", square=name(sq))
        if s[sq] == JEWEL and sq != move:
            return say("jewels.illegal.jewel_ends", square=name(sq))
        if s[sq] in (WALL, ROBOT, DEAD):
            return say("jewels.illegal.blocked", piece=PIECES[int(s[sq])], square=name(sq))
        if lit[sq]:
            return say("jewels.illegal.lit", square=name(sq), lighter=_lighter(s, nb, sq, size))
    if s[move] == JEWEL:
        after = s.copy()
        after[move] = EMPTY
        return say("jewels.illegal.jewel_opens", square=name(move), lighter=_lighter(after, nb, move, size))
    return say("jewels.illegal.other", moves=", ".join(state.move_to_str(m) for m in legal[:12]))


# ----- the browser's board --------------------------------------------------------------------------------
def squares_json(game: JewelsGame, s: np.ndarray) -> dict[str, Any]:
    """The pieces, the men and the lit squares of a kernel array: what the board draws after each step."""
    n, size = game.n, game.size
    lit = np.zeros(n, dtype=np.uint8)
    kernel.lit_map(s, game.neighbours, lit, np.empty(n, dtype=np.int32))
    return {
        "pieces": {square_name(sq, size): PIECES[int(s[sq])] for sq in range(n) if s[sq] != EMPTY},
        "men": [square_name(int(s[n + MAN + k]), size) if s[n + MAN + k] >= 0 else None for k in (0, 1)],
        "lit": [square_name(sq, size) for sq in range(n) if lit[sq]],
        "rays": rays(game, s),
        "jewels": [int(s[n + COUNT]), int(s[n + COUNT + 1])],
    }


def rays(game: JewelsGame, s: np.ndarray) -> list[dict[str, str]]:
    """Each living robot's rays as segments: from the robot to the last square it lights, with the direction."""
    n, size, nb = game.n, game.size, game.neighbours
    out = []
    for sq in range(n):
        if s[sq] != ROBOT:
            continue
        for d in range(4):
            q, last = int(nb[sq, d]), -1
            while q >= 0 and s[q] == EMPTY:
                last, q = q, int(nb[q, d])
            if last >= 0:
                out.append({"from": square_name(sq, size), "to": square_name(last, size), "dir": DIRECTIONS[d]})
    return out


def board_json(state: JewelsState, previews: bool) -> dict[str, Any]:
    """What the browser view draws: the board, the counting columns, the explosions, and (``previews``) each
    legal move by its notation with what it does, and the squares a slide may not reach with the reason."""
    g = state.game
    phase = {PLACE: "place", kernel.MEN: "men", ROBOTS: "robots", OVER: "over"}[int(state._s[g.n + PHASE])]
    out: dict[str, Any] = {
        "kind": "jewels",
        "rows": g.size,
        "cols": g.size,
        "position": state.position(),
        "to_move": state.player,
        "next_man": int(state._s[g.n + NEXT]),
        "phase": phase,
        **squares_json(g, state._s),
        "column": g.column,
        "left": int(state._s[g.n + LEFT]),
        "explosive": [state.explosive(0), state.explosive(1)],
        "quiet": state.quiet_plies,
        "cap": g.options["cap"],
        "pending": [square_name(sq, g.size) for sq in state.pending()],
        "moves": {},
        "forbidden": [],
    }
    if previews and state.player >= 0:
        out["moves"] = moves_json(state)
        out["forbidden"] = forbidden(state)
    return out


def moves_json(state: JewelsState) -> dict[str, dict[str, Any]]:
    """Each legal man's move by its notation: a ``place`` (``square``, its ``mirror``), a ``slide`` (``from``,
    ``to``, the ``path`` and whether it takes a ``jewel``), an ``explode`` (``from``, the ``wall``, the squares it
    clears), or ``pass``."""
    g = state.game
    s, n, size = state._s, g.n, g.size
    def name(sq: Any) -> str:
        return square_name(int(sq), size)

    me = state.player
    out: dict[str, dict[str, Any]] = {}
    for move in state.legal_moves():
        text = state.move_to_str(move)
        if move == n + 4:
            out[text] = {"type": "pass"}
        elif state.placing:
            out[text] = {"type": "place", "square": name(move), "mirror": name(n - 1 - move)}
        elif move >= n:
            changed = np.empty(4, dtype=np.int32)
            k = kernel.blast(s, g.neighbours, state.man(me), move - n, changed)
            out[text] = {"type": "explode", "from": name(state.man(me)), "wall": name(changed[0]),
                         "destroyed": [name(q) for q in changed[:k]]}
        else:
            man = state.man(me)
            d = next(d for d in range(4) if _reaches(g.neighbours, man, d, move))
            path, sq = [], man
            while sq != move:
                sq = int(g.neighbours[sq, d])
                path.append(name(sq))
            out[text] = {"type": "slide", "from": name(man), "to": name(move), "path": path,
                         "jewel": bool(s[move] == JEWEL)}
    return out


def _reaches(nb: np.ndarray, start: int, d: int, target: int) -> bool:
    sq = int(nb[start, d])
    while sq >= 0:
        if sq == target:
            return True
        sq = int(nb[sq, d])
    return False


def forbidden(state: JewelsState) -> list[dict[str, Any]]:
    """The squares the man to move would reach by sliding but may not, each with the rule in words (and its
    ``code`` and ``params``, for the client to say it in its language): the first lit square on each line, and a
    jewel whose taking would light the path."""
    g = state.game
    if state.placing or state.player < 0:
        return []
    s, size, nb = state._s, g.size, g.neighbours
    me = state.player
    man, other = state.man(me), state.man(1 - me)
    lit = state.lit()
    legal = set(state.legal_moves())
    out = []
    for d in range(4):
        sq = int(nb[man, d])
        while sq >= 0 and sq != other:
            if s[sq] == JEWEL:
                if sq not in legal:
                    reason = why_illegal(state, sq)
                    out.append({"square": square_name(sq, size), "reason": reason, **coded(reason)})
                break
            if s[sq] != EMPTY:
                break
            if lit[sq]:
                reason = say("jewels.forbidden.lit", lighter=_lighter(s, nb, sq, size))
                out.append({"square": square_name(sq, size), "reason": reason, **coded(reason)})
                break
            sq = int(nb[sq, d])
    return out


# ----- events ------------------------------------------------------------------------------------------------
def events(state: JewelsState, before: np.ndarray, move: int) -> list[dict[str, Any]]:
    """The last move as events, each step with the board after it (``after``): a man's ``place``, ``slide``,
    ``explosion`` or ``pass`` (and ``jewel`` when he took one), the robots' ``death``s as their turn begins, a
    robot's ``step`` (or ``stay``), ``hit``, ``win`` or ``draw``, and ``lit``: the lit squares before and after."""
    g = state.game
    n, size, nb = g.n, g.size, g.neighbours
    def name(sq: Any) -> str:
        return square_name(int(sq), size)

    after = state._s
    out: list[dict[str, Any]] = []
    phase = int(before[n + PHASE])
    if phase == ROBOTS:
        sq, d = divmod(move, 5)
        if d == kernel.STAY:
            out.append({"type": "stay", "square": name(sq), "after": squares_json(g, after)})
        else:
            out.append({"type": "step", "from": name(sq), "to": name(int(nb[sq, d])), "after": squares_json(g, after)})
    else:
        mover = int(before[n + NEXT])
        mid = before.copy()
        took = kernel.act_man(mid, move, nb)
        shown = squares_json(g, mid)
        man = int(before[n + MAN + mover])
        if phase == PLACE:
            out.append({"type": "place", "player": 0, "square": name(move), "mirror": name(n - 1 - move),
                        "after": shown})
        elif move == n + 4:
            out.append({"type": "pass", "player": mover, "after": shown})
        elif move >= n:
            cleared = [{"square": name(q), "piece": PIECES[int(before[q])]}
                       for q in range(n) if before[q] != EMPTY and mid[q] == EMPTY]
            out.append({"type": "explosion", "player": mover, "from": name(man), "wall": name(mid[n + MAN + mover]),
                        "destroyed": cleared, "after": shown})
        else:
            path, d = [], next(d for d in range(4) if _reaches(nb, man, d, move))
            sq = man
            while sq != move:
                sq = int(nb[sq, d])
                path.append(name(sq))
            out.append({"type": "slide", "player": mover, "from": name(man), "to": name(move), "path": path,
                        "after": shown})
        if took:
            out.append({"type": "jewel", "player": mover, "square": name(move), "count": int(mid[n + COUNT + mover])})
        died = [name(q) for q in range(n) if mid[q] == ROBOT and after[q] == DEAD]
        if died:
            out.append({"type": "death", "squares": died, "after": squares_json(g, after)})
    lit = np.zeros(n, dtype=np.uint8)
    kernel.lit_map(after, nb, lit, np.empty(n, dtype=np.int32))
    if int(after[n + PHASE]) == OVER:
        for k in (0, 1):
            if lit[after[n + MAN + k]]:
                out.append({"type": "hit", "player": k, "square": name(after[n + MAN + k])})
        outcome = state.outcome()
        assert outcome is not None
        out.append({"type": "win", "player": outcome.winner, "reason": outcome.reason} if outcome.winner is not None
                   else {"type": "draw", "reason": outcome.reason})
    lit_before = np.zeros(n, dtype=np.uint8)
    kernel.lit_map(before, nb, lit_before, np.empty(n, dtype=np.int32))
    out.append({"type": "lit", "before": [name(q) for q in range(n) if lit_before[q]],
                "after": [name(q) for q in range(n) if lit[q]]})
    return out


def describe_events(state: Any) -> list[str]:
    """What the last move did, for the terminal (``describe_events``).

    >>> import damier
    >>> state = damier.load("jewels", size=6, jewels=2, walls=2, robots=2).state_from_position(
    ...     "6/1R2J1/AW4/4WB/1J2R1/6 a 0-0 AB 0")
    >>> state.play(state.parse_move("A3-A6"))
    >>> describe_events(state)
    ['Gold slides A3-A6']
    >>> state.play(state.parse_move("rE5-E6"))
    >>> describe_events(state)
    ['the robot on E5 steps to E6', "Gold's man is hit by a laser on A6"]
    """
    names = state.game.player_names
    lines = []
    for e in state.events():
        kind = e["type"]
        if kind == "place":
            lines.append(f"the men are placed on {e['square']} (Gold) and {e['mirror']} (Silver)")
        elif kind == "slide":
            lines.append(f"{names[e['player']]} slides {e['from']}-{e['to']}")
        elif kind == "jewel":
            lines.append(f"{names[e['player']]} takes the jewel on {e['square']} ({e['count']} in all)")
        elif kind == "explosion":
            gone = ", ".join(f"{d['piece']} {d['square']}" for d in e["destroyed"])
            lines.append(f"{names[e['player']]} blows up the wall on {e['wall']} (destroyed: {gone})")
        elif kind == "pass":
            lines.append(f"{names[e['player']]} has no legal move and passes")
        elif kind == "death":
            lines.append(f"robots that cannot step die: {', '.join(e['squares'])}")
        elif kind == "step":
            lines.append(f"the robot on {e['from']} steps to {e['to']}")
        elif kind == "stay":
            lines.append(f"the robot on {e['square']} cannot step and stays")
        elif kind == "hit":
            lines.append(f"{names[e['player']]}'s man is hit by a laser on {e['square']}")
    return lines


# ----- the terminal --------------------------------------------------------------------------------------------
_GLYPHS = {WALL: ("#", "bright_black"), JEWEL: ("J", "cyan bold"), ROBOT: ("R", "red bold"),
           DEAD: ("x", "bright_black")}


def render_styled(state: JewelsState) -> list[tuple[str, str | None]]:
    """The text board as (text, colour) segments: ``#`` walls, ``J`` jewels, ``R`` robots, ``x`` dead robots,
    ``A`` and ``B`` the men, ``+`` lit squares, then the jewels, the explosions and who moves."""
    g = state.game
    s, n, size = state._s, g.n, g.size
    lit = state.lit()
    out: list[tuple[str, str | None]] = [("    " + " ".join(chr(65 + c) for c in range(size)) + "\n", None)]
    for r in range(size):
        out.append((f"{r + 1:>3} ", None))
        for c in range(size):
            sq = r * size + c
            if sq == state.man(0) or sq == state.man(1):
                who = 0 if sq == state.man(0) else 1
                glyph, style = "AB"[who], ("yellow bold" if who == 0 else "white bold")
                if lit[sq]:
                    style = "bold reverse red"
            elif s[sq] != EMPTY:
                glyph, style = _GLYPHS[int(s[sq])]
            elif lit[sq]:
                glyph, style = "+", "yellow"
            else:
                glyph, style = ".", None
            out.append((glyph, style))
            out.append((" " if c < size - 1 else "", None))
        filled = [state.jewels(k) > size - 1 - r for k in (0, 1)]  # the columns fill from the bottom
        out.append(("  ", None))
        out.append(("A" if filled[0] else ":", "yellow bold" if filled[0] else "bright_black"))
        out.append(("B" if filled[1] else ":", "white bold" if filled[1] else "bright_black"))
        out.append(("\n", None))
    names = g.player_names
    bombs = [names[k] for k in (0, 1) if state.explosive(k)]
    out.append((f"Jewels: {names[0]} {state.jewels(0)}, {names[1]} {state.jewels(1)}; {int(s[n + LEFT])} left "
                f"(a full column is {g.column}). Explosions unused: {', '.join(bombs) or 'none'}.\n", None))
    if state.player == TERMINAL:
        out.append((state.outcome_reason() + ".", "bold"))
    elif state.player == CHANCE:
        out.append(("The robots move.", None))
    elif state.placing:
        out.append((f"{names[0]} places the men ({names[1]}'s goes on the mirror square).", None))
    else:
        out.append((f"{names[state.player]} to move.", None))
    out.append(("\n(# wall, J jewel, R robot, x dead robot, + lit; A, B the men; the columns at the right count "
                "the jewels)", None))
    return out
