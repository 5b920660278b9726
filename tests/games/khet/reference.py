"""A naive Khet 2.0, written from ``shared/rules/khet.md`` alone, to check the numba kernel against.

Plain Python over a dict of squares, with its own position parser and writer, its own move generator, the
rules file's reflection table copied as a literal, and its own repetition and quiet-ply bookkeeping. It shares
no code with ``damier.games.khet``; only the notation (documented in ``docs/games/khet.md``) is common.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

FILES = "abcdefghij"
DIRECTIONS = "NESW"
STEP = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
EIGHT = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
SILVER, RED = 0, 1
KINDS = {"X": "sphinx", "P": "pharaoh", "A": "anubis", "Y": "pyramid", "S": "scarab"}
LETTER = {kind: letter for letter, kind in KINDS.items()}
SPHINX_SQUARE = {SILVER: "j1", RED: "a8"}
#: the legal facings of each Sphinx, and its facing in every setup
SPHINX_FACINGS = {SILVER: "NW", RED: "SE"}
COUNTS = {"sphinx": 1, "pharaoh": 1, "anubis": 2, "pyramid": 7, "scarab": 2}

#: the rules file's table: beam travelling -> result for a pyramid facing N, E, S, W (None: removed)
PYRAMID: dict[str, tuple[str | None, ...]] = {
    "N": (None, "E", "W", None),
    "E": (None, None, "S", "N"),
    "S": ("E", None, None, "W"),
    "W": ("N", "S", None, None),
}
#: a Scarab facing N or S is a "\" mirror, facing E or W a "/" mirror
SCARAB = {
    "\\": {"N": "W", "E": "S", "S": "E", "W": "N"},
    "/": {"N": "E", "E": "N", "S": "W", "W": "S"},
}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
CLOCKWISE = {"N": "E", "E": "S", "S": "W", "W": "N"}
ANTICLOCKWISE = {v: k for k, v in CLOCKWISE.items()}


def reserved_for(square: str) -> int | None:
    """The only colour that may enter ``square``, or None."""
    if square[0] == "a" or square in ("i1", "i8"):
        return RED
    if square[0] == "j" or square in ("b1", "b8"):
        return SILVER
    return None


def neighbour(square: str, df: int, dr: int) -> str | None:
    f, r = FILES.index(square[0]) + df, int(square[1:]) + dr
    return f"{FILES[f]}{r}" if 0 <= f < 10 and 1 <= r <= 8 else None


def all_squares() -> list[str]:
    return [f"{f}{r}" for r in range(1, 9) for f in FILES]


@dataclass(frozen=True)
class Piece:
    kind: str  # sphinx, pharaoh, anubis, pyramid, scarab
    colour: int
    facing: str  # N E S W; a Scarab keeps the facing it was given

    @property
    def mirror(self) -> str:
        return "\\" if self.facing in "NS" else "/"

    def letters(self) -> str:
        letter = LETTER[self.kind] if self.colour == SILVER else LETTER[self.kind].lower()
        facing = ("n" if self.mirror == "\\" else "e") if self.kind == "scarab" else self.facing.lower()
        return letter + facing

    def same(self) -> tuple[str, int, str]:
        """What repetition compares: a Scarab by its mirror only."""
        return (self.kind, self.colour, self.mirror if self.kind == "scarab" else self.facing)


@dataclass
class Board:
    pieces: dict[str, Piece]
    to_move: int | None = SILVER  # None once the game is over
    quiet: int = 0
    end: str = ""  # P, R, Q, C once over

    def position(self) -> str:
        ranks = []
        for r in range(8, 0, -1):
            out, empty = "", 0
            for f in FILES:
                piece = self.pieces.get(f"{f}{r}")
                if piece is None:
                    empty += 1
                    continue
                out += (str(empty) if empty else "") + piece.letters()
                empty = 0
            ranks.append(out + (str(empty) if empty else ""))
        side = "sr"[self.to_move] if self.to_move is not None else "-" + self.end
        return f"{'/'.join(ranks)} {side} {self.quiet}"

    def key(self) -> tuple[object, ...]:
        return (tuple(sorted((sq, p.same()) for sq, p in self.pieces.items())), self.to_move)


def parse(position: str) -> Board:
    """Our own reading of the position notation (trusting the string: the engine checks it)."""
    board_text, side, quiet = position.split()
    pieces: dict[str, Piece] = {}
    for i, rank in enumerate(board_text.split("/")):
        r, f, j = 8 - i, 0, 0
        while j < len(rank):
            if rank[j].isdigit():
                n = 2 if rank[j : j + 2] == "10" else 1
                f += int(rank[j : j + n])
                j += n
                continue
            letter, facing = rank[j], rank[j + 1].upper()
            pieces[f"{FILES[f]}{r}"] = Piece(KINDS[letter.upper()], SILVER if letter.isupper() else RED, facing)
            f += 1
            j += 2
        assert f == 10, rank
    if side.startswith("-"):
        return Board(pieces, None, int(quiet), side[1:])
    return Board(pieces, SILVER if side == "s" else RED, int(quiet))


@dataclass(frozen=True)
class Beam:
    squares: list[str]
    directions: list[str]
    stop: str  # left, absorbed, removed
    at: str | None


def trace(board: Board, colour: int) -> Beam:
    """Fire ``colour``'s laser: follow the beam square by square through the reflection table."""
    square: str | None = SPHINX_SQUARE[colour]
    assert square is not None
    d = board.pieces[square].facing
    squares: list[str] = []
    directions: list[str] = []
    while True:
        square = neighbour(square, *STEP[d])
        if square is None:
            return Beam(squares, directions, "left", None)
        piece = board.pieces.get(square)
        squares.append(square)
        if piece is None:
            directions.append(d)
            continue
        if piece.kind == "scarab":
            d = SCARAB[piece.mirror][d]
        elif piece.kind == "pyramid":
            turned = PYRAMID[d][DIRECTIONS.index(piece.facing)]
            if turned is None:
                directions.append(d)
                return Beam(squares, directions, "removed", square)
            d = turned
        elif piece.kind == "anubis":
            directions.append(d)
            front = d == OPPOSITE[piece.facing]
            return Beam(squares, directions, "absorbed" if front else "removed", square)
        elif piece.kind == "pharaoh":
            directions.append(d)
            return Beam(squares, directions, "removed", square)
        else:  # a Sphinx
            directions.append(d)
            return Beam(squares, directions, "absorbed", square)
        directions.append(d)
        assert len(squares) < 400, "the beam cycles"


@dataclass(frozen=True)
class Rules:
    pharaoh_rotation: bool = False
    strict_swap_reserved: bool = True
    repetition: str = "automatic"
    quiet_ply_limit: int = 100


def moves(board: Board, rules: Rules = Rules()) -> list[str]:
    """The legal moves in notation (a Scarab's one rotation written ``+``; no ``claim``)."""
    me = board.to_move
    if me is None:
        return []
    out = []
    for square, piece in board.pieces.items():
        if piece.colour != me:
            continue
        if piece.kind == "sphinx":
            out.append(square + ("-" if piece.facing in "NS" else "+"))
            continue
        for df, dr in EIGHT:
            to = neighbour(square, df, dr)
            if to is None or reserved_for(to) == 1 - me:
                continue
            other = board.pieces.get(to)
            if other is None:
                out.append(square + to)
            elif piece.kind == "scarab" and other.kind in ("pyramid", "anubis"):
                if rules.strict_swap_reserved and reserved_for(square) == 1 - other.colour:
                    continue
                out.append(square + to)
        if piece.kind == "scarab":
            out.append(square + "+")
        elif piece.kind != "pharaoh" or rules.pharaoh_rotation:
            out += [square + "+", square + "-"]
    return sorted(out)


def move_piece(board: Board, move: str) -> Board:
    """The piece part of ``move`` (a step, swap or rotation), without firing."""
    pieces = dict(board.pieces)
    square = move[:2]
    piece = pieces[square]
    if move[2:] in ("+", "-"):
        turn = CLOCKWISE if move[2] == "+" else ANTICLOCKWISE
        pieces[square] = replace(piece, facing=turn[piece.facing])
    else:
        to = move[2:]
        other = pieces.pop(to, None)
        del pieces[square]
        pieces[to] = piece
        if other is not None:
            pieces[square] = other
    return Board(pieces, board.to_move, board.quiet, board.end)


@dataclass
class Game:
    """A game from ``board`` with its history of positions (for repetition)."""

    board: Board
    rules: Rules = Rules()
    keys: list[tuple[object, ...]] = field(default_factory=list)
    removed: list[Piece] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.keys = [self.board.key()]

    def repetitions(self) -> int:
        return self.keys.count(self.keys[-1])

    def play(self, move: str) -> Beam | None:
        me = self.board.to_move
        assert me is not None
        if move == "claim":
            assert self.rules.repetition == "claim" and self.repetitions() >= 3
            self.board = Board(self.board.pieces, None, self.board.quiet, "C")
            return None
        assert move in moves(self.board, self.rules), move
        board = move_piece(self.board, move)
        beam = trace(board, me)
        if beam.stop == "removed":
            assert beam.at is not None
            self.removed.append(board.pieces.pop(beam.at))
            board.quiet = 0
            self.keys = []  # no earlier position can come back: a piece is gone for good
        else:
            board.quiet += 1
        board.to_move = 1 - me
        if beam.stop == "removed" and self.removed[-1].kind == "pharaoh":
            board.to_move, board.end = None, "P"
        elif self.rules.quiet_ply_limit and board.quiet >= self.rules.quiet_ply_limit:
            board.to_move, board.end = None, "Q"
        self.board = board
        self.keys.append(board.key())
        if board.to_move is not None and self.rules.repetition == "automatic" and self.repetitions() >= 3:
            board.to_move, board.end = None, "R"
        return beam

    def winner(self) -> int | None:
        if self.board.end != "P":
            return None
        return 1 - self.removed[-1].colour


def random_placement(rng: random.Random) -> Board:
    """Random pieces that a position may hold: each side's Sphinx in its corner facing one of its two legal
    directions, one Pharaoh, at most 2 Anubis, 7 Pyramids and 2 Scarabs, never on the other colour's squares."""
    free = [sq for sq in all_squares() if sq not in SPHINX_SQUARE.values()]
    rng.shuffle(free)
    pieces: dict[str, Piece] = {}
    for colour in (SILVER, RED):
        pieces[SPHINX_SQUARE[colour]] = Piece("sphinx", colour, rng.choice(SPHINX_FACINGS[colour]))
    for colour in (SILVER, RED):
        kinds = ["pharaoh"] + [k for k in ("anubis", "pyramid", "scarab") for _ in range(rng.randint(0, COUNTS[k]))]
        for kind in kinds:
            square = next(sq for sq in free if sq not in pieces and reserved_for(sq) != 1 - colour)
            pieces[square] = Piece(kind, colour, rng.choice(DIRECTIONS))
    return Board(pieces, rng.choice((SILVER, RED)), rng.randint(0, 99))


def board_of(pieces: dict[str, str], side: str = "s", quiet: int = 0) -> str:
    """A position string from ``{"e4": "Yn", ...}`` (the two letters of the notation); the Sphinxes (j1 N, a8 S)
    and the Pharaohs (Silver e1, Red f8) are added unless given (a value None leaves a square empty)."""
    squares: dict[str, str | None] = {"j1": "Xn", "a8": "xs", "e1": "Pn", "f8": "ps"}
    squares.update(pieces)
    placed = {sq: Piece(KINDS[v[0].upper()], SILVER if v[0].isupper() else RED, v[1].upper())
              for sq, v in squares.items() if v is not None}
    return Board(placed, SILVER if side == "s" else RED, quiet).position()
