"""One store per aggregate beside the games and races of ``damier.server.storage``: each works through the
storage's engine (reads, in the caller's thread) and its one writer (writes, group-committed)."""
