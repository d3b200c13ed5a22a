"""The context's token counts are kept by text (layers/context/selectors.py): the same figures as counting anew,
a part whose text changes is counted again, and long texts are not kept."""
from __future__ import annotations

from layers.context import selectors
from layers.context.selectors import Block, Part
from memoryhub.providers.tokens import count_tokens


def test_kept_counts_equal_fresh_counts_and_follow_a_changed_text():
    part = Part("memory:1", "- (fact) 用户对花生过敏 and avoids peanuts at dinner")
    assert part.token_count == count_tokens(part.text)
    part.text += " [applies: when travelling for work]"  # as profile_conditions_apply rewrites a line
    assert part.token_count == count_tokens(part.text)
    block = Block("user_profile", [part, Part("memory:2", "- (preference) window seat")])
    assert block.token_count == count_tokens(block.content)
    block.parts.pop()
    assert block.token_count == count_tokens(part.text)


def test_long_texts_are_counted_without_being_kept():
    selectors._kept_count.cache_clear()
    long_text = "lorem ipsum " * (selectors.TOKEN_COUNT_CACHED_CHARS // 10)
    assert Part("turn:1", long_text).token_count == count_tokens(long_text)
    assert selectors._kept_count.cache_info().currsize == 0
    Part("turn:2", "short").token_count
    assert selectors._kept_count.cache_info().currsize == 1
