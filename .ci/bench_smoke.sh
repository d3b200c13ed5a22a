#!/usr/bin/env bash
# Every bench script runs here on tiny data against a real server, so none of them can rot.
# Needs DATABASE_URL and REDIS_URL (CI sets them to the machine's servers) and an installed .venv.
# Starts gunicorn on a free port and a Celery worker (formation runs in it) after `manage.py migrate`,
# makes an API key, runs each
# `bench/*.py --smoke` (files starting with _ are helpers), and always stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob

: "${DATABASE_URL:?set DATABASE_URL (and REDIS_URL) to the servers to benchmark against}"
PY=.venv/bin/python
LOG="$(mktemp -t bench-smoke-gunicorn.XXXXXX)"
SERVER_PID=""
WORKER_PID=""
WORKER_LOG="$(mktemp -t bench-smoke-worker.XXXXXX)"

stop_server() {
  if [ -n "$WORKER_PID" ] && kill -0 "$WORKER_PID" 2>/dev/null; then
    kill -TERM "$WORKER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$WORKER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$WORKER_PID" 2>/dev/null || true
  fi
  rm -f "$WORKER_LOG"
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -f "$LOG"
}
trap stop_server EXIT

"$PY" manage.py migrate --no-input -v 0
KEY="$("$PY" manage.py create_api_key bench-smoke --quiet --scopes read,write,admin --name "bench smoke")"
PORT="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
BASE_URL="http://127.0.0.1:${PORT}"

# Its own queue, so no other worker on this broker takes the smoke run's formation jobs.
export CELERY_QUEUE="bench-smoke-$$"
.venv/bin/gunicorn memoryhub.wsgi --bind "127.0.0.1:${PORT}" --workers 2 --threads 4 \
  --timeout 120 --graceful-timeout 5 >"$LOG" 2>&1 &
SERVER_PID=$!
.venv/bin/celery -A memoryhub worker -Q "$CELERY_QUEUE" -c 1 -l warning --without-gossip --without-mingle \
  >"$WORKER_LOG" 2>&1 &
WORKER_PID=$!

# Wait for /api/v1/health (200, or 503 if only a dependency is degraded: the server is up either way).
# Generous: the server loads its models before it answers, which took ~36 s on a loaded 2-core machine.
deadline=$((SECONDS + 180))
until "$PY" - "$BASE_URL" <<'EOF'
import sys, urllib.error, urllib.request
try:
    urllib.request.urlopen(sys.argv[1] + "/api/v1/health", timeout=2)
except urllib.error.HTTPError:
    pass
except OSError:
    sys.exit(1)
EOF
do
  if ! kill -0 "$SERVER_PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
    echo "bench smoke: the server did not come up; its log:" >&2
    cat "$LOG" >&2
    exit 1
  fi
  sleep 0.3
done

status=0
for script in bench/*.py; do
  case "$(basename "$script")" in _*) continue ;; esac
  echo "-- $script --smoke"
  if ! timeout 300 "$PY" "$script" --smoke --base-url "$BASE_URL" --api-key "$KEY"; then
    echo "bench smoke: $script failed" >&2
    status=1
  fi
done
# scale.py's other way to a size: the bulk import (issue 16 item 2), then the same HTTP measurements
echo "-- bench/scale.py --smoke --import-command"
if ! timeout 300 "$PY" bench/scale.py --smoke --base-url "$BASE_URL" --api-key "$KEY" --tenant bench-smoke \
    --import-command "$PY manage.py import_memories {file} --tenant {tenant} --no-progress"; then
  echo "bench smoke: bench/scale.py --import-command failed" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "bench smoke: server log (last 80 lines):" >&2
  tail -n 80 "$LOG" >&2
fi
exit "$status"
