"""Providers the layers share: embeddings, keyword tokenisation, token counting, LLM."""


def warm_up() -> None:
    """Load every model a request may need (embedding model, jieba dictionary, tokenizer) in this
    process now: a web worker calls this as it starts, so no first request pays seconds of loading."""
    from memoryhub.providers import embeddings, keywords, tokens

    embeddings.warm_up()
    keywords.warm_up()
    tokens.count_tokens("warm up")
