"""The Ricochet Robots solver's inner loops as numba kernels: stop tables, admissible bounds, a best-first search
in cost buckets with a table of the cheapest cost each position was reached at, and walks of the optimal lines
that table holds.

Cells are ``y * 16 + x``, walls a bitmask N 1 E 2 S 4 W 8 on both sides of every wall (``boards``).

The search's position: the movable robots in *slots*: first the robot that must finish (a coloured target), then
the *pool* (the other robots but the transparent one; for the vortex every such robot), kept sorted by cell since
they are interchangeable, then the transparent robot. Each robot carries its *axes*: ``0`` not moved yet, ``1``
moved east or west only, ``2`` north or south only, ``3`` both: it has turned (a robot the ricochet rule does not
concern is always ``3``). When rebounds are forbidden the last move (slot, direction) is part of the position.
Robots that may not move in a search (``fixed``) are obstacles, outside the key. The key packs each slot's cell
(and axes where the rule concerns the role: 10 bits, else 8) and the last move in two int64 words (``Layout``).

``bound[cell * 4 + axes]`` is a lower bound of the cost a robot still needs to finish from ``cell`` with
``axes``, computed from the target with every other robot ignored and the robot allowed to stop on any cell of
a slide (another robot could be there to stop it): a relaxation, so never more than the truth, and consistent
(one move lowers it by at most its cost). The search raises it by one where no robot of the smallest bound can
finish *alone* in that many moves, the others standing still (``alone``): a line then needs another robot's move
or more moves of its own. The raised bound stays consistent.

The search (``search``) is A* in buckets of ``cost so far + bound``. Children are pushed without being looked
up; a position is looked up in the table (open addressing, one int64 per entry) when it comes off its bucket
(delayed duplicate detection) and expanded only when no cheaper or equal cost was recorded for it. The alone
check is made then too, once per position: one that fails is marked in the table and put back one bucket up. A
bucket is kept in ``SPLIT`` lists by the top bits of the positions' hashes, which are the table region they are
looked up in, and taken list by list; the children that land in the bucket being expanded go on a stack taken
first, so the last bucket runs depth first to its goal. With a consistent bound every expanded position has its
cheapest cost, so the table holds the exact cost of every expanded position: ``trace`` walks the line found back
from its last move, and ``walk`` follows the table forward from the start to count and list every optimal line.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from damier.games.ricochet.kernel import LINE, MAX_PASS, MOVES, slide_from, transparent_stops
from damier.games.ricochet.kernel import moves as all_moves

SIZE = 16
CELLS = SIZE * SIZE
STEP = np.array([-16, 1, 16, -1], dtype=np.int64)
BIT = np.array([1, 2, 4, 8], dtype=np.int64)
#: the axis bit a move in each direction sets: N, S vertical (2); E, W horizontal (1)
AXIS = np.array([2, 1, 2, 1], dtype=np.int64)
INF = 1 << 20
#: most robots (red, green, blue, yellow, silver, transparent)
ROBOTS = 6
#: deepest cost searched (the stack of a walk, the buckets)
MAX_DEPTH = 120
#: key bits in a table word beside the 8 bits of cost and mark (an int64 that stays positive)
KEY_BITS = 55
#: positions per chunk of a bucket's list
CHUNK = 512
#: the most memory the waiting positions may take (the table takes at most 1 GiB): past it a search gives up
POOL_BYTES = 768 << 20
HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15
HASH2 = np.int64(-4658895280553007687)  # 0xBF58476D1CE4E5B9
#: the mark bit of a table entry: during a search, "put back by the alone check"; in a walk, "no line from here"
MARK = 128

# search outcomes
FOUND = 1
NONE_WITHIN = 0
LIMIT = -1

# walk modes
WALK_ONE = 0
WALK_COUNT = 1
WALK_LIST = 2


@njit(cache=True)
def robot_bound(walls: np.ndarray, target: int, turning: bool, out: np.ndarray) -> None:
    """``out[cell * 4 + axes]``: the fewest moves a robot needs to end on ``target`` having turned (axes 3) if it
    could stop on any cell of a slide; ``INF`` where it cannot. A breadth-first search back from the target; only
    for axes 3 unless ``turning`` (no robot's turn matters: all count as turned)."""
    for i in range(CELLS * 4):
        out[i] = INF
    queue = np.empty(CELLS * 4, dtype=np.int64)
    head = 0
    tail = 0
    out[target * 4 + 3] = 0
    queue[tail] = target * 4 + 3
    tail += 1
    while head < tail:
        node = queue[head]
        head += 1
        cell = node >> 2
        axes = node & 3
        dist = out[node]
        for d in range(4):
            ax = AXIS[d]
            if (axes & ax) == 0:
                continue
            back = (d + 2) & 3
            c = cell
            while (walls[c] & BIT[back]) == 0:  # every cell from which a slide in d passes over ``cell``
                c += STEP[back]
                k = c * 4 + axes
                if out[k] == INF:
                    out[k] = dist + 1
                    queue[tail] = k
                    tail += 1
                if turning:
                    k = c * 4 + (axes & ~ax)
                    if out[k] == INF:
                        out[k] = dist + 1
                        queue[tail] = k
                        tail += 1


@njit(cache=True)
def transparent_bound(walls: np.ndarray, solid: np.ndarray, coloured: np.ndarray, target: int,
                      out: np.ndarray) -> None:
    """``robot_bound`` for the transparent robot (the vortex): a slide may also pass walls that are not solid, one
    more move each, and never ends on a coloured target. Relaxed until nothing changes (weighted moves)."""
    for i in range(CELLS * 4):
        out[i] = INF
    out[target * 4 + 3] = 0
    changed = True
    while changed:
        changed = False
        for c in range(CELLS):
            for axes in range(4):
                best = out[c * 4 + axes]
                for d in range(4):
                    after = axes | AXIS[d]
                    cell = c
                    cost = 1
                    while True:
                        if (walls[cell] & BIT[d]) != 0:
                            if (solid[cell] & BIT[d]) != 0:
                                break
                            cost += 1
                        cell += STEP[d]
                        if not coloured[cell]:
                            v = cost + out[cell * 4 + after]
                            if v < best:
                                best = v
                if best < out[c * 4 + axes]:
                    out[c * 4 + axes] = best
                    changed = True




#: the deepest "alone" check of the bound (beyond it, a robot is taken to manage alone)
ALONE_DEPTH = 10


@njit(cache=True)
def alone(stops: np.ndarray, bound: np.ndarray, cells: np.ndarray, nall: int, r: int, axes_r: int, h: int,
          target: int) -> bool:
    """Whether the robot in slot ``r`` (``axes_r``, bound ``h``) can end on the target having turned in exactly
    ``h`` moves of its own, every other robot where it is (each move then lowers the bound by one). When it cannot,
    a line needs another robot's move, or more moves of its own: the bound plus one is still a lower bound."""
    if h > ALONE_DEPTH:
        return True
    at = np.empty(ALONE_DEPTH + 1, dtype=np.int64)
    ax = np.empty(ALONE_DEPTH + 1, dtype=np.int64)
    nd = np.zeros(ALONE_DEPTH + 1, dtype=np.int64)
    at[0] = cells[r]
    ax[0] = axes_r
    depth = 0
    while depth >= 0:
        if nd[depth] >= 4:
            depth -= 1
            continue
        d = nd[depth]
        nd[depth] += 1
        mine = at[depth]
        stop = slide_from(stops, cells, nall, r, mine, d)
        if stop == mine:
            continue
        na = ax[depth] | AXIS[d]
        if bound[stop * 4 + na] != h - depth - 1:
            continue
        if h - depth - 1 == 0:
            return True
        depth += 1
        at[depth] = stop
        ax[depth] = na
        nd[depth] = 0
    return False


@njit(cache=True)
def _bound(cells: np.ndarray, axes: np.ndarray, nr: int, finisher: np.ndarray, tslot: int, bound: np.ndarray,
           tbound: np.ndarray) -> int:
    """The smallest bound over the slots that may finish."""
    best = INF
    for s in range(nr):
        if finisher[s]:
            h = tbound[cells[s] * 4 + axes[s]] if s == tslot else bound[cells[s] * 4 + axes[s]]
            if h < best:
                best = h
    return best


@njit(cache=True)
def _encode(cells: np.ndarray, axes: np.ndarray, nr: int, layout: np.ndarray, last_s: int, last_d: int,
            out: np.ndarray) -> None:
    """The key of a position in ``out[0]``, ``out[1]``. ``layout[s] = word << 16 | shift << 8 | width`` for each
    slot, ``layout[nr]`` the last move's field (width 0: not keyed)."""
    lo = np.int64(0)
    hi = np.int64(0)
    for s in range(nr):
        f = layout[s]
        v = (cells[s] << 2 | axes[s]) if (f & 255) == 10 else cells[s]
        if (f >> 16) == 0:
            lo |= v << ((f >> 8) & 255)
        else:
            hi |= v << ((f >> 8) & 255)
    f = layout[nr]
    if (f & 255) != 0:
        v = last_s * 4 + last_d + 1 if last_s >= 0 else 0
        if (f >> 16) == 0:
            lo |= v << ((f >> 8) & 255)
        else:
            hi |= v << ((f >> 8) & 255)
    out[0] = lo
    out[1] = hi


@njit(cache=True)
def _decode(lo: np.int64, hi: np.int64, nr: int, layout: np.ndarray, cells: np.ndarray, axes: np.ndarray,
            last: np.ndarray) -> None:
    """The position of a key: ``cells`` and ``axes`` of the slots (an untracked robot's axes are 3), ``last`` =
    (slot, direction) of the last move, slot -1 when none or not keyed."""
    for s in range(nr):
        f = layout[s]
        word = lo if (f >> 16) == 0 else hi
        width = f & 255
        v = (word >> ((f >> 8) & 255)) & ((1 << width) - 1)
        if width == 10:
            cells[s] = v >> 2
            axes[s] = v & 3
        else:
            cells[s] = v
            axes[s] = 3
    f = layout[nr]
    last[0] = -1
    last[1] = 0
    if (f & 255) != 0:
        word = lo if (f >> 16) == 0 else hi
        v = (word >> ((f >> 8) & 255)) & 31
        if v > 0:
            last[0] = (v - 1) >> 2
            last[1] = (v - 1) & 3


@njit(cache=True, inline="always")
def _home(x: np.int64, log2: int) -> int:
    """The first entry a key of hash ``x`` may take in a table of ``2**log2`` entries (the hash's top bits)."""
    return int((x >> (64 - log2)) & ((1 << log2) - 1))


@njit(cache=True)
def _find(table: np.ndarray, log2: int, width: int, lo: np.int64, hi: np.int64) -> int:
    """The index of the key's entry in ``table`` (open addressing, linear probing), or -1."""
    mask = (1 << log2) - 1
    i = _home((lo ^ (hi * HASH2)) * HASH, log2)
    while True:
        e = table[i * width]
        if e == 0:
            return -1
        if (e >> 8) == lo and (width == 1 or table[i * width + 1] == hi):
            return i * width
        i = (i + 1) & mask


@njit(cache=True)
def _cost_at(table: np.ndarray, at: int) -> int:
    return int(table[at] & 127) - 1


@njit(cache=True)
def _grown(table: np.ndarray, log2: int, width: int, new_log2: int) -> np.ndarray:
    """``table`` rehashed into ``2**new_log2`` entries."""
    out = np.zeros((1 << new_log2) * width, dtype=np.int64)
    mask = (1 << new_log2) - 1
    for i in range(1 << log2):
        e = table[i * width]
        if e != 0:
            hi = table[i * width + 1] if width == 2 else np.int64(0)
            j = _home(((e >> 8) ^ (hi * HASH2)) * HASH, new_log2)
            while out[j * width] != 0:
                j = (j + 1) & mask
            out[j * width] = e  # the mark kept
            if width == 2:
                out[j * width + 1] = hi
    return out


@njit(cache=True)
def _child(cells: np.ndarray, axes: np.ndarray, nr: int, p0: int, p1: int, s: int, dest: int, d: int,
           out_cells: np.ndarray, out_axes: np.ndarray) -> int:
    """The position after slot ``s`` moves to ``dest`` in direction ``d`` (the pool kept sorted, obstacles past
    ``nr`` copied too): written to ``out_cells``, ``out_axes``; returns the moved robot's slot there."""
    for i in range(cells.shape[0]):
        out_cells[i] = cells[i]
    for i in range(nr):
        out_axes[i] = axes[i]
    out_cells[s] = dest
    out_axes[s] = axes[s] | AXIS[d]
    j = s
    if p0 <= s < p1:
        while j > p0 and out_cells[j - 1] > out_cells[j]:
            c = out_cells[j - 1]
            out_cells[j - 1] = out_cells[j]
            out_cells[j] = c
            a = out_axes[j - 1]
            out_axes[j - 1] = out_axes[j]
            out_axes[j] = a
            j -= 1
        while j < p1 - 1 and out_cells[j + 1] < out_cells[j]:
            c = out_cells[j + 1]
            out_cells[j + 1] = out_cells[j]
            out_cells[j] = c
            a = out_axes[j + 1]
            out_axes[j + 1] = out_axes[j]
            out_axes[j] = a
            j += 1
    return j


# the search's running state, kept between calls of ``_phase`` (which returns to have its arrays grown)
(R_F, R_BEST, R_CAP, R_USED, R_FREE, R_NFREE, R_ENTRIES, R_LOST, R_EXPANDED, R_CHILDREN, R_LOG2, R_CHUNKS,
 R_OUTCOME, R_NEXT, R_PUSHED, R_GOAL_LO, R_GOAL_HI, R_GOAL_MOVE) = range(18)
RUN_SIZE = 18
DONE = 0
GROW_TABLE = 1
GROW_POOL = 2
#: each cost bucket is split by the top bits of its positions' hashes (where each is looked up in the table) into
#: up to this many lists, taken in order: the table is then read a region at a time, a region that stays in the
#: cache (a small table has a single list per bucket: it fits the cache whole)
SPLIT_BITS = 10
SPLIT = 1 << SPLIT_BITS
SPLIT_BY_HASH = True
#: the list of a cost bucket's own new positions (depth first), after the split lists of every cost
STACK = (MAX_DEPTH + 2) * SPLIT
#: then, per cost, the list of positions put back by the "alone" check (their bound one more: see ``alone``)
BOOSTED = STACK + 1
#: the inverse of HASH modulo 2**64: a list holds its positions' hashes, the key is found back from it
UNHASH = np.int64(-1018231460777725123)


@njit(cache=True)
def search(walls: np.ndarray, solid: np.ndarray, coloured: np.ndarray, stops: np.ndarray, bound: np.ndarray,
           tbound: np.ndarray, cells0: np.ndarray, axes0: np.ndarray, nr: int, finisher: np.ndarray, p0: int,
           p1: int, tslot: int, layout: np.ndarray, width: int, last_s0: int, last_d0: int, rebound: bool,
           target: int, last: int, complete: bool, node_limit: int, log2_start: int, log2_max: int,
           stats: np.ndarray, boost: bool = True, alive: int = INF) -> np.ndarray:
    """A* from the position ``cells0`` (the ``nr`` movable slots, then fixed robots), ``axes0``, last move
    (``last_s0``, ``last_d0``), for lines of cost at most ``last``; returns the table of the cheapest cost of
    every expanded position (for ``walk``). ``stats``: [outcome (``FOUND``, ``NONE_WITHIN``, ``LIMIT``), the
    optimal cost, positions expanded, children made, table entries, table log2, 1 if the table lost entries,
    positions pushed, then the key (two words) of the position before the last move of the line found, and that
    move as (cell moved from << 16 | direction << 8 | walls passed), 1 if no position was left to expand (then
    ``NONE_WITHIN`` means no line at all)]. ``complete``: expand the last bucket to its end (so that every
    optimal line's positions are in the table), else stop at the first goal of the optimal cost. ``boost``: raise
    the bound by the alone check. ``alive``: a position not solved at this cost or more ends the puzzle (the rules'
    move limit), so it has no children.

    The positions of a cost bucket wait in ``SPLIT`` lists by the top bits of their hash (the region of the table
    they are looked up in), taken one list after the other; the children that land in the bucket being expanded
    go on a stack, taken first (depth first)."""
    table = np.zeros((1 << log2_start) * width, dtype=np.int64)
    n_chunks = 256
    pool = np.empty(n_chunks * CHUNK * width, dtype=np.int64)
    link = np.empty(n_chunks, dtype=np.int64)
    fill = np.empty(n_chunks, dtype=np.int64)
    head = np.empty(BOOSTED + MAX_DEPTH + 2, dtype=np.int64)  # a cost's split lists are set -1 when first used
    ready = np.zeros(MAX_DEPTH + 2, dtype=np.bool_)
    for i in range(STACK, BOOSTED + MAX_DEPTH + 2):
        head[i] = -1
    count = np.zeros(MAX_DEPTH + 2, dtype=np.int64)  # positions waiting at each cost
    run = np.zeros(RUN_SIZE, dtype=np.int64)
    run[R_BEST] = INF
    run[R_CAP] = last
    run[R_FREE] = -1
    run[R_LOG2] = log2_start
    run[R_CHUNKS] = n_chunks
    run[R_OUTCOME] = NONE_WITHIN
    keyed_last = (layout[nr] & 255) != 0
    h0 = INF
    for s in range(nr):
        if finisher[s]:
            h0 = min(h0, tbound[cells0[s] * 4 + axes0[s]] if s == tslot else bound[cells0[s] * 4 + axes0[s]])
    if h0 <= last:
        key = np.zeros(2, dtype=np.int64)
        _encode(cells0, axes0, nr, layout, last_s0 if keyed_last else -1, last_d0, key)
        run[R_USED] = 1
        link[0] = -1
        fill[0] = 1
        pool[0] = (key[0] ^ (key[1] * HASH2)) * HASH
        if width == 2:
            pool[1] = key[1]
        head[STACK] = 0
        count[h0] = 1
        run[R_PUSHED] = 1
    f = h0
    while f <= run[R_CAP]:
        run[R_F] = f
        run[R_NEXT] = 0
        while True:
            code = _phase(walls, solid, coloured, stops, bound, tbound, cells0, axes0, nr, finisher, p0, p1, tslot,
                          layout, width, rebound, target, last, complete, node_limit, log2_max, table, pool, link,
                          fill, head, ready, count, run, boost, alive)
            if code == GROW_TABLE:
                new_log2 = min(int(run[R_LOG2]) + 1, log2_max)
                table = _grown(table, int(run[R_LOG2]), width, new_log2)
                run[R_LOG2] = new_log2
            elif code == GROW_POOL:
                if n_chunks * 2 * CHUNK * width * 8 > POOL_BYTES:
                    run[R_OUTCOME] = LIMIT  # as many positions waiting as memory allows: given up
                    break
                n_chunks *= 2
                pool = _longer(pool, n_chunks * CHUNK * width)
                link = _longer(link, n_chunks)
                fill = _longer(fill, n_chunks)
                run[R_CHUNKS] = n_chunks
            else:
                break
        if run[R_OUTCOME] == LIMIT or run[R_BEST] <= f:
            break  # (with ``complete``, this last bucket was expanded to its end)
        f += 1
    if run[R_OUTCOME] != LIMIT and run[R_BEST] <= last:
        run[R_OUTCOME] = FOUND
    waiting = 0
    for i in range(MAX_DEPTH + 2):
        waiting += count[i]
    stats[11] = 1 if waiting == 0 else 0
    stats[0] = run[R_OUTCOME]
    stats[1] = run[R_BEST] if run[R_OUTCOME] == FOUND else -1
    stats[2] = run[R_EXPANDED]
    stats[3] = run[R_CHILDREN]
    stats[4] = run[R_ENTRIES]
    stats[5] = run[R_LOG2]
    stats[6] = run[R_LOST]
    stats[7] = run[R_PUSHED]
    stats[8] = run[R_GOAL_LO]
    stats[9] = run[R_GOAL_HI]
    stats[10] = run[R_GOAL_MOVE]
    return table


@njit(cache=True)
def _wide_key(cells: np.ndarray, axes: np.ndarray, nr: int, layout: np.ndarray, s: int, j: int, dest: int,
              moved_axes: int, d: int, kc: np.ndarray, ka: np.ndarray, out: np.ndarray) -> None:
    """The two-word key of the child where slot ``s`` moved to ``dest`` (slot ``j`` in the sorted pool), direction
    ``d``: ``_encode`` of the child (the one-word keys are changed in place in ``_phase`` instead)."""
    for o in range(nr):
        kc[o] = cells[o]
        ka[o] = axes[o]
    if j < s:
        for o in range(s, j, -1):
            kc[o] = kc[o - 1]
            ka[o] = ka[o - 1]
    else:
        for o in range(s, j):
            kc[o] = kc[o + 1]
            ka[o] = ka[o + 1]
    kc[j] = dest
    ka[j] = moved_axes
    _encode(kc, ka, nr, layout, j, d, out)


@njit(cache=True)
def _phase(walls: np.ndarray, solid: np.ndarray, coloured: np.ndarray, stops: np.ndarray, bound: np.ndarray,
           tbound: np.ndarray, cells0: np.ndarray, axes0: np.ndarray, nr: int, finisher: np.ndarray, p0: int,
           p1: int, tslot: int, layout: np.ndarray, width: int, rebound: bool, target: int, last: int,
           complete: bool, node_limit: int, log2_max: int, table: np.ndarray, pool: np.ndarray, link: np.ndarray,
           fill: np.ndarray, head: np.ndarray, ready: np.ndarray, count: np.ndarray, run: np.ndarray,
           boost: bool, alive: int) -> int:
    """Expand bucket ``run[R_F]``: its lists from ``run[R_NEXT]`` on, and the stack of its own new positions
    (first); ``DONE``, or ``GROW_TABLE`` / ``GROW_POOL`` when it needs a bigger table or more chunks (it returns
    before taking a position, so that the caller grows them and calls again). No array is assigned here and the
    helpers above are written out by hand: a numba call that passes arrays costs atomic reference counts worth
    ten slides."""
    nall = cells0.shape[0]
    f = int(run[R_F])
    best = int(run[R_BEST])
    cap = int(run[R_CAP])
    used = int(run[R_USED])
    free = int(run[R_FREE])
    n_free = int(run[R_NFREE])
    entries = int(run[R_ENTRIES])
    lost = int(run[R_LOST])
    expanded = int(run[R_EXPANDED])
    children = int(run[R_CHILDREN])
    log2 = int(run[R_LOG2])
    n_chunks = int(run[R_CHUNKS])
    outcome = int(run[R_OUTCOME])
    nxt = int(run[R_NEXT])
    pushed = int(run[R_PUSHED])
    code = DONE
    mask = (1 << log2) - 1
    # the lists a bucket is split into: as many as make the table's regions fit the cache (one for a small table)
    split_bits = min(max(log2 - 15, 0), SPLIT_BITS) if SPLIT_BY_HASH else 0

    cells = cells0.copy()  # the fixed robots past nr stay as they are
    axes = axes0.copy()
    kc = np.empty(ROBOTS, dtype=np.int64)
    ka = np.empty(ROBOTS, dtype=np.int64)
    cbuf = np.empty(MAX_PASS, dtype=np.int64)
    pbuf = np.empty(MAX_PASS, dtype=np.int64)
    hs = np.empty(ROBOTS, dtype=np.int64)  # each slot's bound
    wide = np.zeros(2, dtype=np.int64)  # a two-word key
    a_at = np.empty(ALONE_DEPTH + 1, dtype=np.int64)  # the alone check's stack
    a_ax = np.empty(ALONE_DEPTH + 1, dtype=np.int64)
    a_nd = np.empty(ALONE_DEPTH + 1, dtype=np.int64)
    last_field = layout[nr]
    keyed_last = (last_field & 255) != 0
    last_shift = (last_field >> 8) & 255
    last_clear = ~(np.int64(31) << last_shift)
    reserve = MOVES + 1  # at most one new chunk per child
    # the incremental key (one word): the fields of slots, the pool's fields side by side, all of one width
    shift = np.empty(ROBOTS + 1, dtype=np.int64)
    for i in range(nr):
        shift[i] = (layout[i] >> 8) & 255
    pool_width = (layout[p0] & 255) if p1 > p0 else 8
    pool_base = shift[p0] if p1 > p0 else 0

    while True:
        if best == f and not complete:
            break  # nothing can cost less than this bucket
        if entries * 2 > (1 << log2) and log2 < log2_max:
            code = GROW_TABLE
            break
        if n_chunks - used + n_free < reserve:
            code = GROW_POOL
            break
        # ---- the next position: the newest of the stack, else of the boosted list, else of the next split list
        lst = STACK
        if head[STACK] < 0:
            lst = BOOSTED + f
            if head[lst] < 0:
                if not ready[f]:
                    break
                while nxt < SPLIT and head[f * SPLIT + nxt] < 0:
                    nxt += 1
                if nxt == SPLIT:
                    break
                lst = f * SPLIT + nxt
        boosted = lst == BOOSTED + f
        c = head[lst]
        fill[c] -= 1
        count[f] -= 1
        at = (c * CHUNK + fill[c]) * width
        x = pool[at]
        hi = pool[at + 1] if width == 2 else np.int64(0)
        if fill[c] == 0:
            head[lst] = link[c]
            link[c] = free
            free = c
            n_free += 1
        lo = (x * UNHASH) ^ (hi * HASH2)
        for s in range(nr):
            fl = layout[s]
            word = lo if (fl >> 16) == 0 else hi
            w = fl & 255
            v = (word >> ((fl >> 8) & 255)) & ((1 << w) - 1)
            if w == 10:
                cells[s] = v >> 2
                axes[s] = v & 3
            else:
                cells[s] = v
                axes[s] = 3
        h = INF
        h_other = INF  # the second smallest: what the others keep when the smallest moves
        h_who = -1
        for s in range(nr):
            hh = INF
            if finisher[s]:
                hh = tbound[cells[s] * 4 + axes[s]] if s == tslot else bound[cells[s] * 4 + axes[s]]
            hs[s] = hh
            if hh < h:
                h_other = h
                h = hh
                h_who = s
            elif hh < h_other:
                h_other = hh
        raw_h = h
        g = f - h - (1 if boosted else 0)
        # ---- in the table: expanded before at this cost or less?
        i = int((x >> (64 - log2)) & mask)
        while True:
            e = table[i * width]
            if e == 0 or ((e >> 8) == lo and (width == 1 or table[i * width + 1] == hi)):
                break
            i = (i + 1) & mask
        e = table[i * width]
        if e != 0:
            known = (e & 127) - 1
            if known < g or (known == g and (not boosted or (e & MARK) == 0)):
                continue  # reached before as cheaply (or already put back at this cost): a duplicate
        mark = 0
        if boost and not boosted:
            # ---- the "alone" check (``alone``, written out: a call here measured slower on the hardest puzzles;
            # test_solver checks both find the same costs): can a robot of the smallest bound finish by itself?
            manages = False
            for o in range(nr):
                if hs[o] != h:
                    continue
                if o == tslot or h > ALONE_DEPTH:
                    manages = True
                    break
                a_at[0] = cells[o]
                a_ax[0] = axes[o]
                a_nd[0] = 0
                depth = 0
                while depth >= 0 and not manages:
                    if a_nd[depth] >= 4:
                        depth -= 1
                        continue
                    d = a_nd[depth]
                    a_nd[depth] += 1
                    here = a_at[depth]
                    stop = stops[here * 4 + d]
                    if stop == here:
                        continue
                    step = STEP[d]
                    line = LINE[d]
                    for q_slot in range(nall):
                        q = cells[q_slot]
                        if q_slot != o and (q & line) == (here & line) and (
                                here < q <= stop if step > 0 else stop <= q < here):
                            stop = q - step
                    if stop == here:
                        continue
                    na = a_ax[depth] | AXIS[d]
                    if bound[stop * 4 + na] != h - depth - 1:
                        continue
                    if h - depth - 1 == 0:
                        manages = True
                        break
                    depth += 1
                    a_at[depth] = stop
                    a_ax[depth] = na
                    a_nd[depth] = 0
                if manages:
                    break
            if not manages:
                mark = MARK  # put back one bucket up; the table keeps its cost, marked as waiting
        if e != 0:
            table[i * width] = (lo << 8) | mark | (g + 1)
        elif entries * 8 < (1 << log2) * 7:
            table[i * width] = (lo << 8) | mark | (g + 1)
            if width == 2:
                table[i * width + 1] = hi
            entries += 1
        else:
            lost = 1  # the table is as big and as full as allowed: this position goes unrecorded
        if mark != 0:
            if f + 1 <= cap:
                cc = head[BOOSTED + f + 1]
                if cc < 0 or fill[cc] == CHUNK:
                    if free >= 0:
                        nc = free
                        free = link[free]
                        n_free -= 1
                    else:
                        nc = used
                        used += 1
                    link[nc] = cc
                    fill[nc] = 0
                    head[BOOSTED + f + 1] = nc
                    cc = nc
                at = (cc * CHUNK + fill[cc]) * width
                pool[at] = x
                if width == 2:
                    pool[at + 1] = hi
                fill[cc] += 1
                count[f + 1] += 1
                pushed += 1
            continue
        h = raw_h + (1 if boosted else 0)
        expanded += 1
        if node_limit >= 0 and expanded > node_limit:
            outcome = LIMIT
            break
        last_s = -1
        last_d = 0
        if keyed_last:
            word = lo if (last_field >> 16) == 0 else hi
            v = (word >> last_shift) & 31
            if v > 0:
                last_s = (v - 1) >> 2
                last_d = (v - 1) & 3
        # ---- its children
        for s in range(nr):
            mine = cells[s]
            others = h_other if s == h_who else raw_h
            if not finisher[s] and g + 1 + raw_h > cap:
                continue  # its moves leave the bound as it is: no child fits
            for d in range(4):
                if s == last_s and d == ((last_d + 2) & 3) and not rebound:
                    continue  # no rebound
                if s == tslot:
                    n_stops = transparent_stops(walls, solid, coloured, cells, nall, s, d, cbuf, pbuf)
                else:  # ``slide``, written out: a call in this loop measured slower on the hardest puzzles
                    stop = stops[mine * 4 + d]
                    if stop == mine:
                        continue
                    step = STEP[d]
                    line = LINE[d]
                    for o in range(nall):
                        q = cells[o]
                        if (q & line) == (mine & line) and (mine < q <= stop if step > 0 else stop <= q < mine):
                            stop = q - step  # short of the nearest robot on the way
                    if stop == mine:
                        continue
                    cbuf[0] = stop
                    pbuf[0] = 0
                    n_stops = 1
                moved_axes = axes[s] | AXIS[d]
                for q in range(n_stops):
                    dest = cbuf[q]
                    g2 = g + 1 + pbuf[q]
                    if g2 > cap:
                        break  # the transparent robot's stops come in increasing cost
                    children += 1
                    if finisher[s]:
                        if dest == target and moved_axes == 3:
                            if g2 < best:
                                best = g2
                                cap = min(last, best if complete else best - 1)
                                run[R_GOAL_LO] = lo  # the position before the last move, and that move
                                run[R_GOAL_HI] = hi
                                run[R_GOAL_MOVE] = (mine << 16) | (d << 8) | pbuf[q]
                            continue
                        mine_h = tbound[dest * 4 + moved_axes] if s == tslot else bound[dest * 4 + moved_axes]
                        h2 = min(others, mine_h)
                    else:
                        h2 = raw_h
                    f2 = g2 + h2
                    if f2 > cap or g2 >= alive:
                        continue  # too dear, or past the rules' move limit (the puzzle ends there unsolved)
                    # ---- the child's slot: the pool kept sorted by cell
                    j = s
                    if p0 <= s < p1:
                        j = p0
                        for o in range(p0, p1):
                            if o != s and cells[o] < dest:
                                j += 1
                    # ---- its key
                    if width == 1:
                        v = (dest << 2 | moved_axes) if (layout[s] & 255) == 10 else dest
                        if p0 <= s < p1 and j != s:
                            w = pool_width
                            lo_s = pool_base + (s - p0) * w
                            lo_j = pool_base + (j - p0) * w
                            if j < s:  # the fields from j to s - 1 move up one
                                a = lo_j
                                b = lo_s + w
                                seg = (lo >> a) & ((np.int64(1) << (lo_s - lo_j)) - 1)
                                new = (seg << w) | v
                            else:  # the fields from s + 1 to j move down one
                                a = lo_s
                                b = lo_j + w
                                seg = (lo >> (lo_s + w)) & ((np.int64(1) << (lo_j - lo_s)) - 1)
                                new = seg | (v << (lo_j - lo_s))
                            span = ((np.int64(1) << (b - a)) - 1) << a
                            lo2 = (lo & ~span) | (new << a)
                        else:
                            w = layout[s] & 255
                            span = ((np.int64(1) << w) - 1) << shift[s]
                            lo2 = (lo & ~span) | (v << shift[s])
                        if keyed_last:
                            lo2 = (lo2 & last_clear) | ((j * 4 + d + 1) << last_shift)
                        hi2 = np.int64(0)
                    else:
                        _wide_key(cells, axes, nr, layout, s, j, dest, moved_axes, d, kc, ka, wide)
                        lo2 = wide[0]
                        hi2 = wide[1]
                    # ---- push onto its list
                    x2 = (lo2 ^ (hi2 * HASH2)) * HASH
                    if f2 < f:
                        # below the bucket of a position put back by the alone check: the child must fail the
                        # check too (the boosted bound is consistent), so it is put back at once
                        f2 = f
                        lst = BOOSTED + f
                    elif f2 == f:
                        lst = STACK
                    else:
                        if not ready[f2]:
                            for o in range(SPLIT):
                                head[f2 * SPLIT + o] = -1
                            ready[f2] = True
                        if split_bits == 0:  # by bound, the smallest first (deepest first)
                            lst = f2 * SPLIT + min(h2, SPLIT - 1)
                        else:  # (a shift by 64 is undefined)
                            lst = f2 * SPLIT + (((x2 >> (64 - split_bits)) & ((1 << split_bits) - 1))
                                                << (SPLIT_BITS - split_bits))
                    cc = head[lst]
                    if cc < 0 or fill[cc] == CHUNK:
                        if free >= 0:
                            nc = free
                            free = link[free]
                            n_free -= 1
                        else:
                            nc = used
                            used += 1
                        link[nc] = cc
                        fill[nc] = 0
                        head[lst] = nc
                        cc = nc
                    at = (cc * CHUNK + fill[cc]) * width
                    pool[at] = x2
                    if width == 2:
                        pool[at + 1] = hi2
                    fill[cc] += 1
                    count[f2] += 1
                    pushed += 1
    if code == DONE and outcome != LIMIT and best <= last:
        outcome = FOUND
    run[R_BEST] = best
    run[R_CAP] = cap
    run[R_USED] = used
    run[R_FREE] = free
    run[R_NFREE] = n_free
    run[R_ENTRIES] = entries
    run[R_LOST] = lost
    run[R_EXPANDED] = expanded
    run[R_CHILDREN] = children
    run[R_OUTCOME] = outcome
    run[R_NEXT] = nxt
    run[R_PUSHED] = pushed
    return code


@njit(cache=True)
def _longer(a: np.ndarray, n: int) -> np.ndarray:
    """``a`` copied into the start of a new array of ``n`` elements."""
    out = np.empty(n, dtype=a.dtype)
    for i in range(a.shape[0]):
        out[i] = a[i]
    return out


@njit(cache=True)
def walk(table: np.ndarray, log2: int, width: int, walls: np.ndarray, solid: np.ndarray, coloured: np.ndarray,
         stops: np.ndarray, bound: np.ndarray, tbound: np.ndarray, cells0: np.ndarray, axes0: np.ndarray, nr: int,
         finisher: np.ndarray, p0: int, p1: int, tslot: int, layout: np.ndarray, last_s0: int, last_d0: int,
         rebound: bool, target: int, cost: int, mode: int, lines: np.ndarray, sizes: np.ndarray,
         counts: np.ndarray) -> int:
    """The optimal lines of cost ``cost`` that ``search``'s table holds, walked depth first from the start: a
    position is entered only when the table has it at exactly the cost it is reached at.

    ``WALK_ONE``: the first line, written to ``lines[0]`` as (cell the robot moves from, direction, walls passed)
    rows (its number of moves in ``sizes[0]``); returns its number of moves (0: none; positions found to lead
    nowhere are marked in the table). ``WALK_COUNT``: how many lines (saturating at 2**62); ``counts`` (an array
    like ``table``, zeroed) keeps the lines below each position, plus one (0: not counted yet). ``WALK_LIST``:
    after a count, the first ``lines.shape[0]`` lines, their numbers of moves in ``sizes`` (returns how many were
    written)."""
    nall = cells0.shape[0]
    depth = MAX_DEPTH + 1
    lv_cells = np.empty((depth, nall), dtype=np.int64)
    lv_axes = np.empty((depth, nr), dtype=np.int64)
    lv_moves = np.empty((depth, MOVES, 4), dtype=np.int64)
    lv_n = np.zeros(depth, dtype=np.int64)
    lv_i = np.zeros(depth, dtype=np.int64)
    lv_g = np.zeros(depth, dtype=np.int64)
    lv_last = np.zeros((depth, 2), dtype=np.int64)
    lv_at = np.zeros(depth, dtype=np.int64)  # the position's entry in the table
    lv_sum = np.zeros(depth, dtype=np.int64)  # lines counted below it so far
    lv_take = np.zeros(depth, dtype=np.int64)  # the move taken from it (index into its moves)
    cbuf = np.empty(MAX_PASS, dtype=np.int64)
    pbuf = np.empty(MAX_PASS, dtype=np.int64)
    key = np.zeros(2, dtype=np.int64)
    saturated = np.int64(1) << 62
    listed = 0
    for i in range(nall):
        lv_cells[0, i] = cells0[i]
    for i in range(nr):
        lv_axes[0, i] = axes0[i]
    lv_last[0, 0] = last_s0
    lv_last[0, 1] = last_d0
    _encode(lv_cells[0], lv_axes[0], nr, layout, last_s0, last_d0, key)
    lv_at[0] = _find(table, log2, width, key[0], key[1])
    if lv_at[0] < 0:
        return 0
    lv_n[0] = all_moves(walls, solid, coloured, stops, lv_cells[0], nr, tslot, last_s0, last_d0, rebound, lv_moves[0],
                     cbuf, pbuf)
    level = 0
    while True:
        if lv_i[level] >= lv_n[level]:
            # ---- every move from this position tried
            total = lv_sum[level]
            if mode == WALK_ONE:
                table[lv_at[level]] |= MARK  # no line from here
            elif mode == WALK_COUNT:
                counts[lv_at[level]] = total + 1
            if level == 0:
                return listed if mode != WALK_COUNT else min(total, saturated)
            level -= 1
            lv_sum[level] = min(lv_sum[level] + total, saturated)
            continue
        i = lv_i[level]
        lv_i[level] += 1
        s = lv_moves[level, i, 0]
        d = lv_moves[level, i, 1]
        k = lv_moves[level, i, 2]
        dest = lv_moves[level, i, 3]
        g2 = lv_g[level] + 1 + k
        if g2 > cost:
            continue
        lv_take[level] = i
        if finisher[s] and dest == target and (lv_axes[level, s] | AXIS[d]) == 3:
            if g2 != cost:
                continue
            if mode == WALK_COUNT:
                lv_sum[level] = min(lv_sum[level] + 1, saturated)
                continue
            row = lines[listed] if mode == WALK_LIST else lines[0]
            for at_level in range(level + 1):
                t = lv_take[at_level]
                row[at_level, 0] = lv_cells[at_level, lv_moves[at_level, t, 0]]
                row[at_level, 1] = lv_moves[at_level, t, 1]
                row[at_level, 2] = lv_moves[at_level, t, 2]
            sizes[listed if mode == WALK_LIST else 0] = level + 1
            listed += 1
            if mode == WALK_ONE:
                return level + 1
            if listed >= lines.shape[0]:
                return listed
            continue
        nxt = level + 1
        j = _child(lv_cells[level], lv_axes[level], nr, p0, p1, s, dest, d, lv_cells[nxt], lv_axes[nxt])
        if g2 + _bound(lv_cells[nxt], lv_axes[nxt], nr, finisher, tslot, bound, tbound) > cost:
            continue
        _encode(lv_cells[nxt], lv_axes[nxt], nr, layout, j, d, key)
        at = _find(table, log2, width, key[0], key[1])
        if at < 0 or _cost_at(table, at) != g2:
            continue
        if mode == WALK_ONE and (table[at] & MARK) != 0:
            continue
        if mode == WALK_COUNT and counts[at] > 0:
            lv_sum[level] = min(lv_sum[level] + counts[at] - 1, saturated)
            continue
        if mode == WALK_LIST and counts[at] <= 1:
            continue  # no line below it
        level = nxt
        lv_g[level] = g2
        lv_at[level] = at
        lv_sum[level] = 0
        lv_i[level] = 0
        lv_last[level, 0] = j
        lv_last[level, 1] = d
        lv_n[level] = all_moves(walls, solid, coloured, stops, lv_cells[level], nr, tslot, j, d, rebound,
                             lv_moves[level], cbuf, pbuf)


@njit(cache=True)
def trace(table: np.ndarray, log2: int, width: int, walls: np.ndarray, solid: np.ndarray, coloured: np.ndarray,
          stops: np.ndarray, cells0: np.ndarray, nr: int, p0: int, p1: int, tslot: int, layout: np.ndarray,
          rebound: bool, goal_lo: np.int64, goal_hi: np.int64, goal_move: int, cost: int, line: np.ndarray) -> int:
    """The line ``search`` found, walked back from the position before its last move (``goal_lo``, ``goal_hi``,
    the move ``goal_move``) to the start, through positions the table holds at exactly the cost of a line to them:
    each step back tries every robot, every direction it may have come from and every cell it may have left,
    and keeps a position from which that move is really played (the rules' slide, forward). Rows of ``line``:
    (cell moved from, direction, walls passed), in playing order; returns the number of moves (0: lost)."""
    nall = cells0.shape[0]
    cells = cells0.copy()
    axes = np.zeros(ROBOTS, dtype=np.int64)
    before = cells0.copy()
    before_axes = np.zeros(ROBOTS, dtype=np.int64)
    last = np.zeros(2, dtype=np.int64)
    key = np.zeros(2, dtype=np.int64)
    moves = np.empty((MOVES, 4), dtype=np.int64)
    cbuf = np.empty(MAX_PASS, dtype=np.int64)
    pbuf = np.empty(MAX_PASS, dtype=np.int64)
    rows = np.empty((MAX_DEPTH, 3), dtype=np.int64)
    keyed_last = (layout[nr] & 255) != 0
    n = 0
    rows[0, 0] = goal_move >> 16
    rows[0, 1] = (goal_move >> 8) & 255
    rows[0, 2] = goal_move & 255
    n = 1
    lo = goal_lo
    hi = goal_hi
    g = cost - 1 - rows[0, 2]
    while g > 0:
        _decode(lo, hi, nr, layout, cells, axes, last)
        found = False
        for r in range(nr):
            c = cells[r]
            for d in range(4):
                if keyed_last and (r != last[0] or d != last[1]):
                    continue  # the key names the move that led here
                back = (d + 2) & 3
                prev = c
                while not found:
                    if (solid[prev] & BIT[back]) != 0:
                        break
                    if (walls[prev] & BIT[back]) != 0 and r != tslot:
                        break
                    prev += STEP[back]
                    occupied = False
                    for o in range(nall):
                        if cells[o] == prev:
                            occupied = True
                    if occupied:
                        break
                    for was_axes in range(4):
                        if (was_axes | AXIS[d]) != axes[r] or (axes[r] == 3 and (layout[r] & 255) != 10
                                                                and was_axes != 3):
                            continue
                        for i in range(nall):
                            before[i] = cells[i]
                        for i in range(nr):
                            before_axes[i] = axes[i]
                        before[r] = prev
                        before_axes[r] = was_axes
                        # the pool sorted again
                        j = r
                        if p0 <= r < p1:
                            while j > p0 and before[j - 1] > prev:
                                before[j] = before[j - 1]
                                before_axes[j] = before_axes[j - 1]
                                j -= 1
                            while j < p1 - 1 and before[j + 1] < prev:
                                before[j] = before[j + 1]
                                before_axes[j] = before_axes[j + 1]
                                j += 1
                            before[j] = prev
                            before_axes[j] = was_axes
                        for last_s in range(-1, nr if keyed_last else 0):
                            for last_d in range(4 if last_s >= 0 else 1):
                                if last_s == j and d == ((last_d + 2) & 3) and not rebound:
                                    continue
                                _encode(before, before_axes, nr, layout, last_s if keyed_last else -1, last_d, key)
                                at = _find(table, log2, width, key[0], key[1])
                                if at < 0:
                                    continue
                                k_moves = all_moves(walls, solid, coloured, stops, before, nr, tslot, -1, 0, True,
                                                 moves, cbuf, pbuf)
                                for m in range(k_moves):
                                    if moves[m, 0] == j and moves[m, 1] == d and moves[m, 3] == c and \
                                            _cost_at(table, at) == g - 1 - moves[m, 2]:
                                        rows[n, 0] = prev
                                        rows[n, 1] = d
                                        rows[n, 2] = moves[m, 2]
                                        n += 1
                                        g -= 1 + moves[m, 2]
                                        lo = key[0]
                                        hi = key[1]
                                        found = True
                                        break
                                if found:
                                    break
                            if found:
                                break
                        if found:
                            break
                if found:
                    break
            if found:
                break
        if not found:
            return 0
    for i in range(n):
        line[i, 0] = rows[n - 1 - i, 0]
        line[i, 1] = rows[n - 1 - i, 1]
        line[i, 2] = rows[n - 1 - i, 2]
    return n
