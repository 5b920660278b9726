"""The one writer thread: every write is queued and committed with whatever else is queued, in one transaction
(group commit: under load many games share one commit); each caller's future resolves once its write is
committed, or fails alone (a batch with a failed write is run again one write a transaction)."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from damier.server.storage.errors import ConflictError


class Writer:
    """The writer thread of ``engine``'s database (started at once; ``close`` ends it after what is queued)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._queue: queue.SimpleQueue[tuple[Callable[[Connection], Any], Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write_loop, name="damier-db-writer", daemon=True)
        self._thread.start()

    def submit(self, operation: Callable[[Connection], Any]) -> Future[Any]:
        """Queue a write; the future resolves (or fails) once it is committed."""
        future: Future[Any] = Future()
        self._queue.put((operation, future))
        return future

    def _write_loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if not item[1].set_running_or_notify_cancel():
                continue  # the caller gave up before the write started: skip it
            batch = [item]
            while len(batch) < 256:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)  # stop after this batch
                    break
                if more[1].set_running_or_notify_cancel():
                    batch.append(more)
            try:
                self._commit_batch(batch)
            except Exception as exc:  # never let the writer die: fail what is left of the batch
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)

    def _commit_batch(self, batch: list[tuple[Callable[[Connection], Any], Future[Any]]]) -> None:
        try:
            with self.engine.begin() as conn:
                results = [operation(conn) for operation, _ in batch]
        except Exception:
            if len(batch) == 1:
                operation, future = batch[0]
                self._run_alone(operation, future)
                return
            for operation, future in batch:  # one write failed: give each its own transaction and verdict
                self._run_alone(operation, future)
            return
        for (_, future), result in zip(batch, results, strict=True):
            future.set_result(result)

    def _run_alone(self, operation: Callable[[Connection], Any], future: Future[Any]) -> None:
        try:
            with self.engine.begin() as conn:
                result = operation(conn)
        except IntegrityError as exc:
            future.set_exception(ConflictError(str(exc.orig)))
        except Exception as exc:
            future.set_exception(exc)
        else:
            future.set_result(result)

    def close(self) -> None:
        """Commit what is queued, then end the thread."""
        self._queue.put(None)
        self._thread.join(timeout=30)
