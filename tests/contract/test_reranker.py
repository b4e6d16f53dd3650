"""The ``Reranker`` contract: every test runs once per adapter in ``rerankers.ADAPTERS``.

The read path hands a reranker the passages the index found and orders them by its scores;
it must get one score per passage, in the passages' order, whatever the model's own order.
"""

from __future__ import annotations

import pytest

from agent_memory.adapters.aws.bedrock_rerank import MAX_SOURCES
from agent_memory.core.ports import Reranker
from tests.contract.rerankers import ADAPTERS, overlap

QUERY = "liability cap clause"
PASSAGES = [
    "Invoices are paid within 30 days.",
    "Clause 7.3 sets the liability cap at 0.5x fees.",
    "The liability clause is unchanged.",
]


@pytest.fixture(params=sorted(ADAPTERS))
def reranker(request: pytest.FixtureRequest) -> Reranker:
    return ADAPTERS[request.param]()


def test_adapter_satisfies_the_reranker_port_and_names_its_model(reranker: Reranker) -> None:
    assert isinstance(reranker, Reranker)
    assert isinstance(reranker.model_id, str) and reranker.model_id


def test_one_score_per_passage_in_the_passages_order(reranker: Reranker) -> None:
    # When passages are scored (the model answers best first)
    scores = reranker.scores(QUERY, PASSAGES)
    # Then each passage has its own score, where it stood
    assert scores == pytest.approx([overlap(QUERY, p) for p in PASSAGES])


def test_a_better_passage_scores_higher(reranker: Reranker) -> None:
    scores = reranker.scores(QUERY, PASSAGES)
    assert scores[1] > scores[2] > scores[0]


def test_nothing_to_score_is_no_scores(reranker: Reranker) -> None:
    assert reranker.scores(QUERY, []) == []


def test_a_blank_passage_scores_the_bottom_of_the_scale(reranker: Reranker) -> None:
    scores = reranker.scores(QUERY, ["", PASSAGES[1], "   "])
    assert scores[0] == scores[2] == 0.0 < scores[1]


def test_more_passages_than_one_request_takes_keep_their_order(reranker: Reranker) -> None:
    # Given more passages than one call of the model may carry, the best one last
    passages = [f"Passage {i} about invoices." for i in range(MAX_SOURCES + 5)] + [PASSAGES[1]]
    # Then every one is scored where it stands
    scores = reranker.scores(QUERY, passages)
    assert len(scores) == len(passages)
    assert scores.index(max(scores)) == len(passages) - 1
