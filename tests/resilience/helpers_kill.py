"""Stopping a Step Functions execution in the middle of a step, on moto.

A Lambda task stopped with its execution dies with its work undone: :class:`DyingEmbedder`
holds the step at one of its embedding calls until the execution was stopped, then fails, so
nothing after that call is written. moto's engine notices the stop once the task returns, and
then ends the execution without its Catch (it reports FAILED where AWS says ABORTED).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt


class DyingEmbedder:
    """``inner``, except that its ``dies_on``-th ``embed_documents`` call (1: write_episode's,
    2: confirm_facts') holds until ``gate`` opens and then raises.
    """

    def __init__(self, inner: Any, dies_on: int = 1) -> None:
        self.inner, self.dies_on, self.calls = inner, dies_on, 0
        self.entered, self.gate = threading.Event(), threading.Event()
        self.model_id, self.dimension = inner.model_id, inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls += 1
        if self.calls == self.dies_on:
            self.entered.set()
            self.gate.wait(timeout=60)
            raise RuntimeError("the function was stopped with its execution")
        return np.asarray(self.inner.embed_documents(texts), dtype=np.float32)

    def embed_query(self, text: str) -> npt.NDArray[np.float32]:
        return np.asarray(self.inner.embed_query(text), dtype=np.float32)


def stopped_mid_step(
    runtime: Any,
    sfn: Any,
    start: Callable[[], str],
    wait: Callable[[str], dict[str, Any]],
    dies_on: int = 1,
) -> dict[str, Any]:
    """Start an execution with ``start`` and stop it inside the step that makes the
    ``dies_on``-th embedding call (the runtime's embedder is swapped meanwhile); the stopped
    execution's description.
    """
    embedder = DyingEmbedder(runtime.embedder, dies_on)
    inner, runtime.embedder = runtime.embedder, embedder
    try:
        arn = start()
        if not embedder.entered.wait(timeout=60):
            raise AssertionError("the execution never reached the step")
        sfn.stop_execution(executionArn=arn, error="Aborted", cause="stopped mid-step")
        embedder.gate.set()
        return wait(arn)
    finally:
        embedder.gate.set()
        runtime.embedder = inner
