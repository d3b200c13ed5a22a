"""manage.py mcp --api-key mh_...: the MCP server over stdio, for desktop agents (memoryhub/mcp/server.py)."""
from __future__ import annotations

import os

from asgiref.sync import async_to_sync
from django.core.management.base import BaseCommand, CommandError

from memoryhub.mcp.operations import Caller, stdio_host
from memoryhub.mcp.schemas import openapi_schema
from memoryhub.mcp.server import build_server, mcp_caller
from memoryhub.tenancy.services import api_key_authenticate

KEY_ENVIRONMENT_VARIABLE = "MEMORYHUB_API_KEY"


class Command(BaseCommand):
    help = ("Serve memoryhub's MCP tools over stdin/stdout with one API key (its tenant and scopes apply). "
            f"The key may also come from ${KEY_ENVIRONMENT_VARIABLE}, which keeps it out of process listings.")

    def add_arguments(self, parser):
        parser.add_argument("--api-key", default=os.environ.get(KEY_ENVIRONMENT_VARIABLE, ""),
                            help=f"mh_<prefix>_<secret> (default: ${KEY_ENVIRONMENT_VARIABLE})")

    def handle(self, *args, **options):
        presented = (options["api_key"] or "").strip()
        if not presented:
            raise CommandError(f"Give --api-key or set {KEY_ENVIRONMENT_VARIABLE}.")
        if api_key_authenticate(presented=presented) is None:
            raise CommandError("Invalid or revoked API key.")
        # Built before the first message, so tools/list does not wait for the schema.
        openapi_schema()
        mcp_caller.set(Caller(presented_key=presented, host=stdio_host(), secure=True, long_lived=True))
        # async_to_sync makes this (the main) thread the one the tools' Django code runs on
        # (memoryhub/mcp/server.py), with its own database connection, as a request thread has.
        async_to_sync(self._serve)()

    @staticmethod
    async def _serve():
        from mcp.server.stdio import stdio_server

        server = build_server()
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
