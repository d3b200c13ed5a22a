#!/usr/bin/env bash
# Starts `make run` with no DATABASE_URL / REDIS_URL, waits for health 200, checks the printed key,
# then stops it with SIGINT and requires a clean exit.
set -euo pipefail
cd "$(dirname "$0")/.."
port="${SMOKE_PORT:-8765}"
log=$(mktemp)
env -u DATABASE_URL -u REDIS_URL PORT="$port" setsid make run >"$log" 2>&1 &
runner=$!
cleanup() { kill -INT -- -"$runner" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 180); do
  if curl -sf "http://127.0.0.1:$port/api/v1/health" -o /dev/null; then break; fi
  if ! kill -0 "$runner" 2>/dev/null; then cat "$log"; echo "make run exited early"; exit 1; fi
  sleep 1
done
curl -sf "http://127.0.0.1:$port/api/v1/health"; echo
curl -sf "http://127.0.0.1:$port/api/docs/" -o /dev/null
key=$(grep -o 'mh_[A-Za-z0-9]*_[A-Za-z0-9_-]*' "$log" | head -1)
curl -sf -H "Authorization: Bearer $key" "http://127.0.0.1:$port/api/v1/whoami"; echo
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer mh_00000000_nope" "http://127.0.0.1:$port/api/v1/whoami")
[ "$code" = "401" ] || { echo "a bad key answered $code"; exit 1; }
# The MCP server on both transports: /mcp/ in the same deployment, and `manage.py mcp` over stdio.
tools=$(curl -sf -X POST "http://127.0.0.1:$port/mcp/" -H "Authorization: Bearer $key" \
  -H "Content-Type: application/json" -H "Accept: application/json" \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' \
  | .venv/bin/python -c "import json, sys; print(len(json.load(sys.stdin)['result']['tools']))")
[ "$tools" = "12" ] || { echo "MCP over HTTP listed $tools tools"; exit 1; }
# Like make run above: no DATABASE_URL / REDIS_URL, so the command finds the embedded servers (.data/embedded.json).
env -u DATABASE_URL -u REDIS_URL MEMORYHUB_API_KEY="$key" .venv/bin/python - <<'EOF'
import os
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def main():
    params = StdioServerParameters(command=sys.executable, args=["manage.py", "mcp"], env=dict(os.environ))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        assert len(listed.tools) == 12, [tool.name for tool in listed.tools]

anyio.run(main)
EOF
echo "MCP: 12 tools over HTTP and over stdio"
trap - EXIT
# Ctrl-C as the supervisor sees it: SIGINT to the process that owns the servers (named in its state file).
supervisor=$(.venv/bin/python -c "import json; print(json.load(open('.data/embedded.json'))['pid'])")
kill -INT "$supervisor"
status=0
wait "$runner" || status=$?
tail -3 "$log"
[ "$status" = "0" ] || { echo "make run did not stop cleanly (exit $status)"; cat "$log"; exit 1; }
# Only this checkout's servers count (their working directory is it): another checkout's service on
# the same machine is not something this run left behind.
for pid in $(pgrep -f "memoryhub.wsgi|celery -A memoryhub" || true); do
  if [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$(pwd -P)" ]; then echo "processes left behind"; ps -o pid,args -p "$pid"; exit 1; fi
done
echo "embedded default: up, healthy, stopped cleanly"
