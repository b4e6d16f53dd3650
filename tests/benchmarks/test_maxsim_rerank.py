import numpy as np

from benchmarks.research.maxsim_rerank import States, content, maxsim


def _unit(*rows: list[float]) -> np.ndarray:
    v = np.array(rows, dtype=np.float32)
    out: np.ndarray = v / np.linalg.norm(v, axis=1, keepdims=True)
    return out


def test_maxsim_averages_each_query_tokens_best_match_not_the_pooled_vectors() -> None:
    # Given a query of two tokens and a unit holding one exact match for each among noise
    query = _unit([1, 0, 0], [0, 1, 0])
    unit = States(_unit([0, 0, 1], [1, 0, 0], [0, 1, 0]), ("x", "a", "b"))
    other = States(_unit([1, 1, 0], [0, 0, 1]), ("ab", "x"))
    # When both are scored
    exact, blurred = maxsim(query, unit), maxsim(query, other)
    # Then every query token finds its own token in the first, and only a half match in the
    # second, though the second's pooled vector is nearer the query's
    assert exact == 1.0
    assert round(blurred, 3) == round(1 / np.sqrt(2), 3)


def test_the_questions_stop_words_and_marks_are_dropped_and_word_pieces_kept() -> None:
    # Given a question's WordPieces: stop words, a mark, a word and its continuation piece
    pieces = ("what", "did", "melanie", "paint", "##ing", "?")
    query = States(np.eye(6, dtype=np.float32), pieces)
    # When its content tokens are taken
    kept = content(query)
    # Then the word, the name and the piece remain, in order
    assert kept.tolist() == np.eye(6, dtype=np.float32)[[2, 3, 4]].tolist()


def test_a_question_of_stop_words_only_keeps_every_token() -> None:
    # Given a question whose every piece is a stop word
    query = States(np.eye(2, dtype=np.float32), ("what", "?"))
    # When its content tokens are taken
    # Then nothing is dropped, so it still has a query
    assert content(query).shape == (2, 2)
