"""A naive Jewels and Lasers reference, written from ``../shared/rules/jewels.md`` in plain Python for the
differential tests: lit squares, the men's legal moves and the robots' steps, on a dict-free grid of letters.

A position is read from its string (board letters, the side, the explosions), never from the kernel's array.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N, E, S, W


@dataclass
class Naive:
    size: int
    grid: list[list[str]]  # "." empty, "W", "J", "R", "D"
    men: list[tuple[int, int] | None]
    side: str
    bombs: str
    edge: bool = False

    @classmethod
    def parse(cls, position: str, edge: bool = False) -> Naive:
        fields = position.split()
        rows = fields[0].split("/")
        size = len(rows)
        grid: list[list[str]] = []
        men: list[tuple[int, int] | None] = [None, None]
        for r, row in enumerate(rows):
            line: list[str] = []
            for token in re.findall(r"[0-9]+|.", row):
                if token.isdigit():
                    line.extend("." * int(token))
                elif token in "AB":
                    men["AB".index(token)] = (r, len(line))
                    line.append(".")
                else:
                    line.append(token)
            grid.append(line)
        return cls(size, grid, men, fields[1], fields[3], edge)

    def on(self, r: int, c: int) -> bool:
        return 0 <= r < self.size and 0 <= c < self.size

    def lit(self) -> set[tuple[int, int]]:
        """Every square a living robot's ray covers: rays stop before any piece; men do not stop them."""
        out = set()
        for r in range(self.size):
            for c in range(self.size):
                if self.grid[r][c] != "R":
                    continue
                for dr, dc in STEPS:
                    y, x = r + dr, c + dc
                    while self.on(y, x) and self.grid[y][x] == ".":
                        out.add((y, x))
                        y, x = y + dr, x + dc
        return out

    def man_moves(self) -> set[str]:
        """The legal moves of the man to move, in notation (the placement when the side is p)."""
        name = lambda r, c: f"{chr(65 + c)}{r + 1}"  # noqa: E731
        lit = self.lit()
        if self.side == "p":
            out = set()
            for r in range(self.size):
                for c in range(self.size):
                    m = (self.size - 1 - r, self.size - 1 - c)
                    if (r, c) != m and self.grid[r][c] == "." and self.grid[m[0]][m[1]] == "." and (r, c) not in lit \
                            and m not in lit:
                        out.add("@" + name(r, c))
            return out
        me = "ab".index(self.side[-1])
        man, other = self.men[me], self.men[1 - me]
        assert man is not None
        out = set()
        for dr, dc in STEPS:
            path = []
            y, x = man[0] + dr, man[1] + dc
            while self.on(y, x) and (y, x) != other:
                path.append((y, x))
                piece = self.grid[y][x]
                if piece == "J":
                    self.grid[y][x] = "."
                    after = self.lit()
                    self.grid[y][x] = "J"
                    if not any(sq in after for sq in path):
                        out.add(f"{name(*man)}-{name(y, x)}")
                    break
                if piece != "." or (y, x) in lit:
                    break
                out.add(f"{name(*man)}-{name(y, x)}")
                y, x = y + dr, x + dc
        if self.bombs["AB".index("AB"[me])] != "-":
            for dr, dc in STEPS:
                wy, wx = man[0] + dr, man[1] + dc
                if not self.on(wy, wx) or self.grid[wy][wx] != "W":
                    continue
                by, bx = wy + dr, wx + dc
                if self.on(by, bx):
                    if self.grid[by][bx] == "." and (by, bx) != other:
                        continue
                elif not self.edge:
                    continue
                saved = [row[:] for row in self.grid]
                self.grid[wy][wx] = "."
                for er, ec in STEPS:
                    y, x = wy + er, wx + ec
                    if self.on(y, x) and (y, x) != man and self.grid[y][x] in "WRD":
                        self.grid[y][x] = "."
                after = self.lit()
                self.grid = saved
                if (wy, wx) not in after:
                    out.add(f"{name(*man)}x{name(wy, wx)}")
        return out or {"pass"}

    def robot_steps(self) -> set[str]:
        """Every single step of a living robot onto an empty square (no piece, no man)."""
        name = lambda r, c: f"{chr(65 + c)}{r + 1}"  # noqa: E731
        out = set()
        for r in range(self.size):
            for c in range(self.size):
                if self.grid[r][c] != "R":
                    continue
                for dr, dc in STEPS:
                    y, x = r + dr, c + dc
                    if self.on(y, x) and self.grid[y][x] == "." and (y, x) not in self.men:
                        out.add(f"r{name(r, c)}-{name(y, x)}")
        return out
