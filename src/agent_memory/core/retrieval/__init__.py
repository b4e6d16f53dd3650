"""Finding episodes again: lexical and vector indexes, periods, reranking."""
