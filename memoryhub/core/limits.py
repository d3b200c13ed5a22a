"""Limits every layer shares, so a value valid in one layer is valid in all of them."""

# An end user's id: the same limit in every layer's validation and API. It is the smallest of the
# existing columns (short-term sessions, 128); the long-term (200) and permanent (255) columns stay as
# they are, wider than anything now accepted, so no migration narrows a column that may hold data.
USER_ID_MAX_LENGTH = 128
