from django.apps import AppConfig


class McpConfig(AppConfig):
    name = "memoryhub.mcp"
    label = "memoryhub_mcp"
    verbose_name = "MCP server"
