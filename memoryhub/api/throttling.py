"""Per-key rate limits that fail open when Redis is unreachable (authenticated callers only)."""
from rest_framework.throttling import SimpleRateThrottle

from memoryhub.cache import cache as resilient_cache


class ApiKeyRateThrottle(SimpleRateThrottle):
    scope = "api_key"
    # A miss on an unreachable cache reads as "no history", so the request is allowed.
    cache = resilient_cache

    def get_cache_key(self, request, view):
        api_key = request.auth
        if api_key is None or not hasattr(api_key, "prefix"):
            return None
        return self.cache_format % {"scope": self.scope, "ident": api_key.prefix}
