"""A PostgreSQL primary, its streaming replica and PgBouncer, started by the scale-out test under a
temporary directory and torn down even when the test fails.

The primary is our own (initdb) rather than the machine's server on 127.0.0.1:5432: that server's
pg_hba.conf has no `replication` line (`no pg_hba.conf entry for replication connection`), so
pg_basebackup cannot copy it, and changing the machine's server is not the test's business.
PostgreSQL and PgBouncer refuse to run as root; as root the test runs them as `postgres`.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from memoryhub.embedded import _free_port
from tests.support.processes import kill_group, wait_for

DATABASE = "memoryhub_scaleout"
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


def _bindir() -> Path:
    """The server binaries of the PostgreSQL that pg_config names (Debian keeps them off PATH)."""
    found = shutil.which("pg_config")
    if found:
        out = subprocess.run([found, "--bindir"], capture_output=True, text=True, check=True).stdout.strip()
        if (Path(out) / "initdb").exists():
            return Path(out)
    return Path(shutil.which("initdb")).resolve().parent


def _as_server_user(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def _run(args: list[str]) -> None:
    done = subprocess.run(_as_server_user(args), capture_output=True, text=True)
    if done.returncode:
        raise AssertionError(f"{' '.join(args)} failed ({done.returncode}): {done.stdout}{done.stderr}")


@dataclass
class Cluster:
    primary_port: int
    replica_port: int
    bouncer_port: int
    bindir: Path = Path()
    replica_data: Path = Path()

    def stop_replica(self) -> None:
        _run([str(self.bindir / "pg_ctl"), "-D", str(self.replica_data), "-m", "fast", "-w", "stop"])

    def dsn(self, port: int, dbname: str = DATABASE) -> str:
        return f"host=127.0.0.1 port={port} user=postgres dbname={dbname}"

    def primary(self, sql: str, params=()) -> list[tuple]:
        return self._query(self.primary_port, sql, params)

    def replica(self, sql: str, params=()) -> list[tuple]:
        return self._query(self.replica_port, sql, params)

    def _query(self, port: int, sql: str, params) -> list[tuple]:
        with psycopg.connect(self.dsn(port), autocommit=True) as conn:
            cursor = conn.execute(sql, params)
            return cursor.fetchall() if cursor.description else []

    def urls(self) -> dict:
        """The service's view: both databases through PgBouncer, in transaction mode."""
        return {"DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.bouncer_port}/primary",
                "DATABASE_REPLICA_URL": f"postgres://postgres@127.0.0.1:{self.bouncer_port}/replica",
                "DB_PREPARED_STATEMENTS": "false", "DB_DISABLE_SERVER_SIDE_CURSORS": "true"}


def _server_conf(data: Path, port: int, sockets: Path) -> None:
    with open(data / "postgresql.auto.conf", "a") as conf:
        conf.write(f"port = {port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{sockets}'\n")


def _started(bindir: Path, data: Path, log: Path, stack: ExitStack) -> None:
    _run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60", "start"])
    stack.callback(lambda: subprocess.run(_as_server_user([str(bindir / "pg_ctl"), "-D", str(data), "-m",
                                                           "immediate", "-w", "stop"]), capture_output=True))


def _bouncer_conf(root: Path, ports: Cluster) -> Path:
    (root / "userlist.txt").write_text('"postgres" ""\n')
    ini = root / "pgbouncer.ini"
    ini.write_text(f"""[databases]
primary = host=127.0.0.1 port={ports.primary_port} dbname={DATABASE}
replica = host=127.0.0.1 port={ports.replica_port} dbname={DATABASE}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {ports.bouncer_port}
unix_socket_dir =
auth_type = trust
auth_file = {root / "userlist.txt"}
pool_mode = transaction
default_pool_size = 10
max_client_conn = 200
ignore_startup_parameters = extra_float_digits,options
; A server that is down answers its clients with an error within seconds instead of queueing them for
; two minutes (the default), so the router can hand a replica's reads to the primary (docs/deploy.md).
server_login_retry = 1
query_wait_timeout = 3
logfile = {root / "pgbouncer.log"}
""")
    return ini


def _keep_logs(root: Path, logs: Path) -> None:
    for log in root.glob("*.log"):
        shutil.copy(log, logs / log.name)


@contextmanager
def cluster(logs: Path):
    """Yields a running Cluster (primary, replica streaming from it, PgBouncer in front of both); stops
    every process and deletes the data directories on the way out, whatever happened inside, keeping
    the servers' logs in `logs`."""
    bindir = _bindir()
    assert Path(PGBOUNCER).exists(), "PgBouncer is missing: bash .ci/install_pgbouncer.sh (make test does)"
    ports = Cluster(primary_port=_free_port(), replica_port=_free_port(), bouncer_port=_free_port(), bindir=bindir)
    # Not under pytest's tmp_path: its directories are private to the test's user, and the servers
    # run as postgres.
    root = Path(tempfile.mkdtemp(prefix="mh-scaleout-"))
    primary, replica, sockets = root / "primary", root / "replica", root / "sockets"
    ports.replica_data = replica
    with ExitStack() as stack:
        stack.callback(shutil.rmtree, root, ignore_errors=True)
        stack.callback(_keep_logs, root, logs)
        sockets.mkdir()
        if os.geteuid() == 0:
            for path in (root, sockets):
                shutil.chown(path, "postgres", "postgres")
        _run([str(bindir / "initdb"), "-D", str(primary), "-U", "postgres", "--auth=trust", "-E", "UTF8",
              "--no-sync", "--no-instructions"])
        _server_conf(primary, ports.primary_port, sockets)
        with open(primary / "postgresql.auto.conf", "a") as conf:
            # Durability is not under test: without fsync the servers start in seconds on a loaded machine.
            conf.write("wal_level = replica\nmax_wal_senders = 4\nfsync = off\nfull_page_writes = off\n")
        with open(primary / "pg_hba.conf", "a") as hba:
            hba.write("host replication postgres 127.0.0.1/32 trust\n")
        _started(bindir, primary, root / "primary.log", stack)
        with psycopg.connect(ports.dsn(ports.primary_port, "postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        ports.primary("CREATE EXTENSION IF NOT EXISTS vector")

        # -R writes standby.signal and primary_conninfo: the copy starts as a streaming hot standby.
        _run([str(bindir / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(ports.primary_port), "-U", "postgres",
              "-D", str(replica), "-R", "-X", "stream", "-c", "fast", "--no-sync"])
        _server_conf(replica, ports.replica_port, sockets)
        _started(bindir, replica, root / "replica.log", stack)
        wait_for(lambda: ports.primary("SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")[0][0],
                 timeout=30, message="the replica to stream")

        bouncer = subprocess.Popen(_as_server_user([PGBOUNCER, str(_bouncer_conf(root, ports))]),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
        stack.callback(stop_group, bouncer)

        def bouncer_answers() -> bool:
            if bouncer.poll() is not None:
                raise AssertionError(f"pgbouncer exited; see {root / 'pgbouncer.log'}")
            return _answers(ports.dsn(ports.bouncer_port, "primary"))
        wait_for(bouncer_answers, timeout=30, message="pgbouncer")
        yield ports


def stop_group(process: subprocess.Popen) -> None:
    """SIGTERM to the process group, SIGKILL if it is still there after kill_group's wait (a gunicorn
    finishing a request stuck on a database that went away)."""
    try:
        kill_group(process, signal.SIGTERM)
    except subprocess.TimeoutExpired:
        kill_group(process, signal.SIGKILL)


def _answers(dsn: str) -> bool:
    try:
        with psycopg.connect(dsn, connect_timeout=2) as conn:
            return conn.execute("SELECT 1").fetchone() == (1,)
    except psycopg.OperationalError:
        return False
