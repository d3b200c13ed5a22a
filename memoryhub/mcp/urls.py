from django.urls import path

from memoryhub.mcp.apis import mcp_endpoint

# Mounted at /mcp/ by memoryhub/urls.py; both spellings answer, as MCP clients are configured either way.
urlpatterns = [
    path("mcp/", mcp_endpoint, name="mcp"),
    path("mcp", mcp_endpoint, name="mcp-no-slash"),
]
