"""The MCP server: memoryhub's REST operations as MCP tools, over stdio and streamable HTTP at /mcp/."""
