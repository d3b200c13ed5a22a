"""Per-key rate limits that fail open when Redis is unreachable (authenticated callers only)."""
import logging

from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)


class ApiKeyRateThrottle(SimpleRateThrottle):
    scope = "api_key"

    def get_cache_key(self, request, view):
        api_key = request.auth
        if api_key is None or not hasattr(api_key, "prefix"):
            return None
        return self.cache_format % {"scope": self.scope, "ident": api_key.prefix}

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except Exception as exc:  # Redis down: an authenticated key keeps working.
            logger.warning("rate limit store unavailable, allowing request: %s", exc)
            return True
