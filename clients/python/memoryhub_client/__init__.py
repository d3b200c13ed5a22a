"""Python client of memoryhub: typed models, sync and async clients, LangGraph and Agents SDK adapters."""
from memoryhub_client import errors, models
from memoryhub_client.client import AsyncMemoryhubClient, MemoryhubClient, RetryPolicy
from memoryhub_client.errors import APIError, MemoryhubError, TransportError

__all__ = ["APIError", "AsyncMemoryhubClient", "MemoryhubClient", "MemoryhubError", "RetryPolicy",
           "TransportError", "errors", "models"]
