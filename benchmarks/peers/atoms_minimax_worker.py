"""The peer's search served over a pipe, for ``atoms_minimax.py --interpreter PYTHON`` (for instance PyPy).

    PYTHON benchmarks/peers/atoms_minimax_worker.py PEER_DIR ROWS COLS

It imports only the standard library and the peer (notshridhar/chain-reaction-ai, its Python backend) from
PEER_DIR, so it runs under any Python 3 interpreter, damier's dependencies not installed. One JSON message a
line on stdin, one answer a line on stdout:

- ``["seed", s]``: seeds the peer's ``random`` (its ``best_move`` draws among its best moves with it); ``"ok"``;
- ``["search", board, player, depth, randomness]``: ``best_move``'s move and the seconds it took (the peer's
  search alone, timed here);
- ``["quit"]`` or the end of stdin: the worker ends.
"""

import json
import random
import sys
import time


def main() -> None:
    folder, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sys.path.insert(0, folder)
    from chain_reaction.wrappers import engine, minimax  # type: ignore[import-not-found]  # the peer's modules

    engine.init((rows, cols))
    minimax.init("python")
    print(json.dumps(["ready", sys.version.split()[0], sys.implementation.name]), flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        if message[0] == "seed":
            random.seed(message[1])
            answer: object = "ok"
        elif message[0] == "search":
            _, board, player, depth, randomness = message
            started = time.perf_counter()
            move = minimax.best_move(board, player, depth, randomness)
            answer = [int(move), time.perf_counter() - started]
        else:
            return
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
