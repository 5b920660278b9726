"""The Khet engine: principal-variation alpha-beta inside numba.

Negamax with iterative deepening and aspiration windows (driven from Python), principal variation search,
late-move reductions, a Zobrist transposition table, move ordering (the table's move, then moves whose shot
removes an enemy piece, killer moves, other moves that change what either laser hits, then the history
heuristic), and a quiescence search over the moves that change what the mover's laser removes. Repetitions
inside the search (and of the game's earlier positions) score as draws. Time control: a node limit, a wall-clock
deadline and a stop flag that another thread may set (the kernel runs without the GIL).

>>> import damier
>>> from damier.ai.deepening import Deepening
>>> state = damier.load("khet").new_state()
>>> result = Deepening(Engine(tt_bits=16)).think(state, max_depth=2)
>>> result.depth, state.is_legal(result.move)
(2, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from damier.core.game import Iteration
from damier.core.scores import from_table, to_table
from damier.games.khet.evaluation import PHARAOH_IN_SIGHT, WIN, evaluate, index_of, piece_value
from damier.games.khet.kernel import (
    ACTIONS,
    CLAIM,
    MAX_MOVES,
    NEIGHBOURS,
    PHARAOH,
    SPHINX_SQUARE,
    SQUARES,
    STATE_LENGTH,
    TERMINAL,
    TO_MOVE,
    WINNER,
    _copy,
    apply,
    generate,
    light,
    move_piece,
    record_position,
    shot_target,
)

MAX_PLY = 96
QUIESCENCE_PLIES = 6
INF = 1 << 30
EXACT, LOWER, UPPER = 0, 1, 2
#: scores beyond this are forced wins or losses (``WIN - plies``)
DECIDED = WIN - 1000

# control array slots
CONTROL = 11
NODES, NODE_LIMIT, ABORTED, EVAL, PHARAOH_ROT, STRICT, QUIET_LIMIT, ROOT_INDEX, BEST_MOVE, SELDEPTH, NO_ABORT = range(
    CONTROL
)
#: column of the principal-variation table holding the length of each ply's line
PV_LEN = MAX_PLY + 1
#: move selections of ``_order``: every move ordered, only shots that remove an enemy piece, or (the Pharaoh in
#: danger) every move that changes what either laser hits
ALL_MOVES, CAPTURES, EVASIONS = 0, 1, 2

_ORDER_TT, _ORDER_WIN, _ORDER_CAPTURE, _ORDER_KILLER, _ORDER_LASER = 1 << 29, 1 << 28, 1 << 26, 1 << 25, 1 << 24


@njit(cache=True, inline="always")
def _terminal_score(child: np.ndarray, mover: int, ply: int) -> int:
    """The score of a finished ``child`` for the player who just moved into it, ``ply`` plies from the root."""
    winner = child[WINNER]
    if winner < 0:
        return 0
    return WIN - ply if winner == mover else -(WIN - ply)


@njit(cache=True)
def _order(s: np.ndarray, moves: np.ndarray, k: int, keys: np.ndarray, tt_move: int, killers: np.ndarray,
           history: np.ndarray, mine: np.ndarray, theirs: np.ndarray, scratch: np.ndarray, mode: int) -> int:
    """Give each of ``moves[:k]`` an ordering key and keep the moves ``mode`` selects (``ALL_MOVES``,
    ``CAPTURES`` or ``EVASIONS``) at the front; returns how many are kept. A move that touches neither the
    mover's beam nor its Sphinx cannot change the mover's shot."""
    me = s[TO_MOVE]
    light(s, me, mine)
    if mode != CAPTURES:
        light(s, 1 - me, theirs)
    captures_only = mode == CAPTURES
    sphinx = SPHINX_SQUARE[me]
    kept = 0
    for i in range(k):
        m = moves[i]
        sq = m // ACTIONS
        a = m - sq * ACTIONS
        to = NEIGHBOURS[sq, a] if a < 8 else sq
        key = 0
        laser = mine[sq] != 0 or mine[to] != 0 or sq == sphinx
        if mode == EVASIONS and not (laser or theirs[sq] != 0 or theirs[to] != 0):
            continue
        if laser:
            _copy(s, scratch)
            move_piece(scratch, m)
            hit = shot_target(scratch, me)
            if hit >= 0:
                victim = scratch[hit]
                if ((victim >> 2) & 1) != me:
                    key = _ORDER_WIN if (victim >> 3) == PHARAOH else _ORDER_CAPTURE + piece_value(victim)
                else:
                    key = -_ORDER_CAPTURE - piece_value(victim)  # shoots its own piece: try it last
                    if (victim >> 3) == PHARAOH:
                        key = -_ORDER_WIN
            elif not captures_only:
                key = _ORDER_LASER
        if captures_only:
            if key >= _ORDER_CAPTURE:
                moves[kept] = m
                keys[kept] = key
                kept += 1
            continue
        if mode == EVASIONS:
            moves[kept] = m
            keys[kept] = key
            kept += 1
            continue
        if m == tt_move:
            key = _ORDER_TT
        elif key == 0 or key == _ORDER_LASER:
            if m == killers[0] or m == killers[1]:
                key = _ORDER_KILLER + (1 if m == killers[0] else 0)
            elif key == 0 and (theirs[sq] != 0 or theirs[to] != 0):
                key = _ORDER_LASER + history[m] // 2  # blocks or opens the other laser
            elif key == 0:
                key = history[m] // 4
            else:
                key += history[m] // 2
        keys[i] = key
        kept += 1
    return kept


@njit(cache=True, inline="always")
def _pick(moves: np.ndarray, keys: np.ndarray, start: int, k: int) -> int:
    best = start
    for j in range(start + 1, k):
        if keys[j] > keys[best]:
            best = j
    if best != start:
        m, key = moves[best], keys[best]
        moves[best], keys[best] = moves[start], keys[start]
        moves[start], keys[start] = m, key
    return moves[start]


#: the recursive kernels take their work arrays one by one: passed as one tuple (numba copies it by value at every
#: call) the search measured 10% fewer nodes per second
_SIGNATURE = (
    "int64(int32[:, ::1], int32[:, ::1], int32[:, ::1], uint64[::1], uint8[:, ::1], uint8[:, ::1], "
    "int32[::1], uint64[::1], int32[:, ::1], int32[:, ::1], int32[::1], int64[::1], int32[::1], int32[:, ::1], "
    "int64, int64, int64, int64)"
)


@njit(_SIGNATURE, cache=True, nogil=True)
def _quiesce(stack: np.ndarray, moves: np.ndarray, keys: np.ndarray, hashes: np.ndarray, mine: np.ndarray,
             theirs: np.ndarray, scratch: np.ndarray, tt_keys: np.ndarray, tt_data: np.ndarray,
             killers: np.ndarray, history: np.ndarray, ctl: np.ndarray, stop: np.ndarray, pv: np.ndarray, ply: int,
             qply: int, alpha: int, beta: int) -> int:
    """Quiescence: the static evaluation unless a shot that removes an enemy piece does better; when a laser
    already points at the mover's Pharaoh, no standing pat: only moves that change a beam can save it."""
    ctl[NODES] += 1
    pv[ply, PV_LEN] = 0
    if ply > ctl[SELDEPTH]:
        ctl[SELDEPTH] = ply
    s = stack[ply]
    stand = evaluate(s, ctl[EVAL])
    if stand >= PHARAOH_IN_SIGHT or qply >= QUIESCENCE_PLIES or ply >= MAX_PLY - 1:
        return stand
    me = s[TO_MOVE]
    danger = False
    for colour in range(2):
        target = shot_target(s, colour)
        if target >= 0 and (s[target] >> 3) == PHARAOH and ((s[target] >> 2) & 1) == me:
            danger = True
    if not danger:
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
    out = moves[ply]
    k = generate(s, out, ctl[PHARAOH_ROT] != 0, ctl[STRICT] != 0)
    k = _order(s, out, k, keys[ply], -1, killers[ply], history, mine[ply], theirs[ply], scratch,
               EVASIONS if danger else CAPTURES)
    child = stack[ply + 1]
    best = -INF if danger else stand
    if danger and k == 0:
        return stand
    for i in range(k):
        m = _pick(out, keys[ply], i, k)
        _copy(s, child)
        apply(child, m, ctl[QUIET_LIMIT])
        if child[TO_MOVE] == TERMINAL:
            score = _terminal_score(child, me, ply + 1)
        else:
            score = -_quiesce(stack, moves, keys, hashes, mine, theirs, scratch, tt_keys, tt_data, killers,
                              history, ctl, stop, pv, ply + 1, qply + 1, -beta, -alpha)
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
    return best


@njit(_SIGNATURE, cache=True, nogil=True)
def _negamax(stack: np.ndarray, moves: np.ndarray, keys: np.ndarray, hashes: np.ndarray, mine: np.ndarray,
             theirs: np.ndarray, scratch: np.ndarray, tt_keys: np.ndarray, tt_data: np.ndarray,
             killers: np.ndarray, history: np.ndarray, ctl: np.ndarray, stop: np.ndarray, pv: np.ndarray, ply: int,
             depth: int, alpha: int, beta: int) -> int:
    if depth <= 0 or ply >= MAX_PLY - QUIESCENCE_PLIES - 2:
        return _quiesce(stack, moves, keys, hashes, mine, theirs, scratch, tt_keys, tt_data, killers,
                        history, ctl, stop, pv, ply, 0, alpha, beta)
    ctl[NODES] += 1
    pv[ply, PV_LEN] = 0
    if (ctl[NODES] & 1023) == 0 and ctl[NO_ABORT] == 0 and (ctl[NODES] >= ctl[NODE_LIMIT] or stop[0] != 0):
        ctl[ABORTED] = 1
    if ctl[ABORTED] != 0:
        return 0
    s = stack[ply]
    h = hashes[ctl[ROOT_INDEX] + ply]
    mask = tt_keys.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    tt_move = -1
    if tt_keys[slot] == h:
        tt_move = tt_data[slot, 2]
        if ply > 0 and tt_data[slot, 0] >= depth:
            score = from_table(tt_data[slot, 3], ply, DECIDED)
            flag = tt_data[slot, 1]
            if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                return score
    out = moves[ply]
    k = generate(s, out, ctl[PHARAOH_ROT] != 0, ctl[STRICT] != 0)
    _order(s, out, k, keys[ply], tt_move, killers[ply], history, mine[ply], theirs[ply], scratch, ALL_MOVES)
    me = s[TO_MOVE]
    child = stack[ply + 1]
    alpha0 = alpha
    best = -INF
    best_move = out[0] if k > 0 else -1
    for i in range(k):
        m = _pick(out, keys[ply], i, k)
        quiet_move = keys[ply, i] < _ORDER_CAPTURE
        _copy(s, child)
        apply(child, m, ctl[QUIET_LIMIT])
        pv[ply + 1, PV_LEN] = 0
        if child[TO_MOVE] == TERMINAL:
            score = _terminal_score(child, me, ply + 1)
        else:
            if record_position(child, hashes, ctl[ROOT_INDEX] + ply + 1, False) >= 2:
                score = 0  # a position met again in the search, or from the game: a draw if it is repeated
            elif i == 0:
                score = -_negamax(stack, moves, keys, hashes, mine, theirs, scratch, tt_keys, tt_data,
                                  killers, history, ctl, stop, pv, ply + 1, depth - 1, -beta, -alpha)
            else:
                reduce = 1 if (keys[ply, i] < _ORDER_KILLER and i >= 4 and depth >= 3) else 0
                score = -_negamax(stack, moves, keys, hashes, mine, theirs, scratch, tt_keys, tt_data,
                                  killers, history, ctl, stop, pv, ply + 1, depth - 1 - reduce, -alpha - 1, -alpha)
                if score > alpha and (reduce or score < beta):
                    score = -_negamax(stack, moves, keys, hashes, mine, theirs, scratch, tt_keys, tt_data,
                                      killers, history, ctl, stop, pv, ply + 1, depth - 1, -beta, -alpha)
        if ctl[ABORTED] != 0:
            return 0
        if score > best:
            best = score
            best_move = m
            if ply == 0:
                ctl[BEST_MOVE] = m
            if score > alpha:
                alpha = score
                length = pv[ply + 1, PV_LEN]
                pv[ply, 0] = m
                for j in range(length):
                    pv[ply, j + 1] = pv[ply + 1, j]
                pv[ply, PV_LEN] = length + 1
                if alpha >= beta:
                    if quiet_move:
                        if killers[ply, 0] != m:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = m
                        history[m] += depth * depth
                        if history[m] > (1 << 22):
                            for j in range(history.shape[0]):
                                history[j] >>= 1
                    break
    if k == 0:
        return 0
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    if tt_keys[slot] != h or tt_data[slot, 0] <= depth or flag == EXACT:
        tt_keys[slot] = h
        tt_data[slot, 0] = depth
        tt_data[slot, 1] = flag
        tt_data[slot, 2] = best_move
        tt_data[slot, 3] = to_table(best, ply, DECIDED)
    return best


@njit(cache=True, nogil=True)
def search_root(stack: np.ndarray, moves: np.ndarray, keys: np.ndarray, hashes: np.ndarray, mine: np.ndarray,
                theirs: np.ndarray, scratch: np.ndarray, tt_keys: np.ndarray,
                tt_data: np.ndarray, killers: np.ndarray, history: np.ndarray, ctl: np.ndarray, stop: np.ndarray,
                pv: np.ndarray, depth: int, alpha: int, beta: int) -> int:
    """Search ``stack[0]`` to ``depth``; the best move goes to ``ctl[BEST_MOVE]``, its line to ``pv[0]``."""
    ctl[ABORTED] = 0
    ctl[BEST_MOVE] = -1
    return _negamax(stack, moves, keys, hashes, mine, theirs, scratch, tt_keys, tt_data, killers, history,
                    ctl, stop, pv, 0, depth, alpha, beta)


class Engine:
    """Khet's fixed-depth search (the ``search`` feature, driven by ``damier.ai.deepening``), with its own
    transposition table, killer and history tables, reused between searches."""

    def __init__(self, game: Any = None, tt_bits: int = 20, evaluation: str = "strong") -> None:
        self.evaluation = evaluation
        index_of(evaluation)
        size = 1 << tt_bits
        self.tt_keys = np.zeros(size, dtype=np.uint64)
        self.tt_data = np.zeros((size, 4), dtype=np.int32)
        self.killers = np.full((MAX_PLY + 1, 2), -1, dtype=np.int32)
        self.history = np.zeros(CLAIM + 1, dtype=np.int32)
        self.stack = np.zeros((MAX_PLY + 1, STATE_LENGTH), dtype=np.int32)
        self.moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int32)
        self.keys = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int32)
        self.mine = np.zeros((MAX_PLY + 1, SQUARES), dtype=np.uint8)
        self.theirs = np.zeros((MAX_PLY + 1, SQUARES), dtype=np.uint8)
        self.scratch = np.zeros(STATE_LENGTH, dtype=np.int32)
        self.ctl = np.zeros(CONTROL, dtype=np.int64)
        self.pv = np.zeros((MAX_PLY + 1, PV_LEN + 1), dtype=np.int32)
        #: ``stop[0] = 1`` (set by ``stop`` from another thread) ends a running search
        self.stop_flag = np.zeros(1, dtype=np.int32)
        self.hashes = np.zeros(MAX_PLY + 2, dtype=np.uint64)
        self._last: tuple[bytes, int] | None = None  # (root key, score) for aspiration windows

    def new_game(self) -> None:
        """Forget everything learnt (transposition table, killers, history)."""
        self.tt_keys[:] = 0
        self.killers[:] = -1
        self.history[:] = 0
        self._last = None

    def new_search(self, state: Any) -> None:
        """Before searching a new root: keep the table (its scores do not depend on the root), age the rest."""
        self.stop_flag[0] = 0
        self.killers[:] = -1
        self.history >>= 2
        self._prepare(state, None)

    def stop(self) -> None:
        self.stop_flag[0] = 1

    # ----- one depth ------------------------------------------------------------------------------------
    def _prepare(self, state: Any, evaluation: str | None) -> None:
        g = state.game
        self.stack[0] = state.kernel_array()
        history = state.position_hashes()
        count = len(history)
        self.hashes = np.zeros(count + MAX_PLY + 2, dtype=np.uint64)
        self.hashes[:count] = history
        self.ctl[:] = 0
        self.ctl[EVAL] = index_of(evaluation or self.evaluation)
        self.ctl[PHARAOH_ROT] = int(g.pharaoh_rotation)
        self.ctl[STRICT] = int(g.strict_swap)
        self.ctl[QUIET_LIMIT] = g.quiet_limit
        self.ctl[ROOT_INDEX] = count - 1

    def _root(self, depth: int, alpha: int, beta: int, node_limit: int) -> tuple[int, int, bool]:
        """One search of the root; ``node_limit`` counts from the start of this depth (``ctl[NODES]`` is not
        reset between the attempts of an aspiration window)."""
        self.ctl[NODE_LIMIT] = node_limit
        self.ctl[NO_ABORT] = int(depth == 1)  # depth 1 always completes: there is always a searched move
        score = search_root(self.stack, self.moves, self.keys, self.hashes, self.mine, self.theirs,
                            self.scratch, self.tt_keys, self.tt_data, self.killers, self.history, self.ctl,
                            self.stop_flag, self.pv, depth, alpha, beta)
        return int(score), int(self.ctl[BEST_MOVE]), not bool(self.ctl[ABORTED])

    def _depth(self, state: Any, depth: int, node_limit: int) -> tuple[int, int, bool]:
        """One depth with an aspiration window around the last score of this root, widened on failure."""
        root = self.stack[0].tobytes()
        limit = min(int(self.ctl[NODES]) + node_limit, 2**62)
        if self._last is not None and self._last[0] == root and depth >= 4 and abs(self._last[1]) < DECIDED:
            window = 300
            alpha, beta = self._last[1] - window, self._last[1] + window
            while True:
                score, move, done = self._root(depth, alpha, beta, limit)
                if not done or alpha < score < beta:
                    break
                window *= 4
                if window > 5000:
                    alpha, beta = -INF, INF
                elif score <= alpha:
                    alpha = score - window
                else:
                    beta = score + window
        else:
            score, move, done = self._root(depth, -INF, INF, limit)
        if done:
            self._last = (root, score)
        return score, move, done

    def principal_variation(self, state: Any) -> list[int]:
        """The line of the last completed root search from ``state`` (checked legal move by move)."""
        line: list[int] = []
        scratch = state.copy()
        for move in self.pv[0, : int(self.pv[0, PV_LEN])]:
            if scratch.player < 0 or not scratch.is_legal(int(move)):
                break
            line.append(int(move))
            scratch.play(int(move))
        return line

    @staticmethod
    def _claim_instead(state: Any, score: int) -> bool:
        """Whether to claim a repetition draw (``repetition=claim``) rather than play on for no more than a draw."""
        return bool(state.can_claim_draw()) and score <= 0

    def search(self, state: Any, depth: int, node_limit: int | None, evaluation: str | None) -> Iteration:
        """One fixed-depth search of the root given to ``new_search`` (``FixedDepthSearch``)."""
        if evaluation is not None:
            self.ctl[EVAL] = index_of(evaluation)
        self.ctl[NODES] = 0
        score, move, done = self._depth(state, depth, 2**62 if node_limit is None else node_limit)
        nodes = int(self.ctl[NODES])
        if move < 0:
            move = next(m for m in state.legal_moves() if m != CLAIM)
        pv = self.principal_variation(state) if done else [move]
        if not pv or pv[0] != move:
            pv = [move]
        if done and self._claim_instead(state, score):
            move, score, pv = CLAIM, 0, [CLAIM]
        return Iteration(depth=depth, score=score, move=move, pv=pv, nodes=nodes, completed=done)
