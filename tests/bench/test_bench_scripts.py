"""The benchmark scripts' own logic (the server-backed `--smoke` runs live in .ci/bench_smoke.sh)."""
import importlib.util
import json
import random
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load(name):
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


locomo = _load("locomo_retrieval")
scale = _load("scale")
client_mod = _load("_client")


def test_evidence_ids_are_normalised_and_unknown_ones_dropped():
    known = {"D8:6", "D9:17", "D11:26", "D1:3"}
    assert locomo.normalise_evidence(["D8:6; D9:17"], known) == ["D8:6", "D9:17"]
    assert locomo.normalise_evidence(["D:11:26"], known) == ["D11:26"]
    assert locomo.normalise_evidence(["D1:3", "D1:3", "D99:1", "junk"], known) == ["D1:3"]


def test_memory_text_carries_session_date_speaker_and_caption():
    memories = locomo.conversation_memories(locomo.SMOKE_SAMPLE)
    by_id = {m["dia_id"]: m for m in memories}
    assert by_id["D1:1"]["content"] == "[9:00 am on 3 March, 2024] Ada: Morning Ben! I finally adopted a grey cat called Pixel."
    assert by_id["D1:4"]["content"].endswith(" [image: a photo of a tram on a hill]")
    assert (by_id["D2:3"]["session"], by_id["D2:3"]["turn"]) == (2, 3)


def test_questions_keep_categories_1_to_4_and_count_those_left_without_evidence():
    sample = json.loads(json.dumps(locomo.SMOKE_SAMPLE))
    sample["qa"].append({"question": "orphan?", "answer": "x", "evidence": ["D7:7"], "category": 4})
    memories = locomo.conversation_memories(sample)
    questions, skipped = locomo.conversation_questions(sample, {m["dia_id"] for m in memories})
    assert [q["category"] for q in questions] == [4, 4, 1, 2, 3, 4]  # the category-5 item is not scored
    assert questions[2]["evidence"] == ["D1:4", "D2:3"]
    assert skipped == 1


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert client_mod.percentile(values, 50) == 50
    assert client_mod.percentile(values, 95) == 95
    assert client_mod.percentile([7.0], 95) == 7.0
    assert client_mod.percentile([], 50) is None


def test_synthetic_users_get_distinct_memories_and_varied_queries():
    texts = scale.user_memories(random.Random(3), scale.PER_USER)
    assert len(texts) == scale.PER_USER == len(set(texts))
    rng = random.Random(5)
    queries = [scale.random_query(rng) for _ in range(1500)]
    # the service caches query embeddings; a 30-client run's queries must be new to measure real cost
    assert len(set(queries)) > 0.95 * len(queries)
    assert all(not q.endswith("??") and "? " not in q for q in queries)


class _Recorder(BaseHTTPRequestHandler):
    """A stand-in HTTP endpoint for the client's error handling (not the memoryhub API)."""

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(length))
        if self.path == "/bad":
            payload, status = {"error": {"code": "invalid", "message": "no", "details": {}}}, 400
        else:
            payload, status = {"echo": body, "auth": self.headers.get("Authorization")}, 200
        raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args):
        pass


@pytest.fixture
def local_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_client_sends_bearer_key_and_raises_api_errors(local_server):
    client = client_mod.Client(local_server, "mh_x_y")
    body, elapsed = client.post("/ok", {"q": "花生"})
    assert body == {"echo": {"q": "花生"}, "auth": "Bearer mh_x_y"} and elapsed > 0
    with pytest.raises(client_mod.ApiError) as caught:
        client.post("/bad", {})
    assert caught.value.status == 400 and not caught.value.route_missing


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("*.py") if not p.name.startswith("_")))
def test_every_bench_script_offers_smoke_and_the_common_options(script):
    out = subprocess.run([sys.executable, str(BENCH / script), "--help"], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    for option in ("--smoke", "--base-url", "--api-key", "--json"):
        assert option in out, f"{script} lacks {option}"


class _KeepAlive(_Recorder):
    """HTTP/1.1 with persistent connections; counts the connections it accepted."""

    protocol_version = "HTTP/1.1"
    connections: list = []

    def setup(self):
        super().setup()
        type(self).connections.append(self.client_address)

    def do_POST(self):
        super().do_POST()
        if self.path == "/then-hang-up":
            # closes without announcing it, as a server does with a connection idle past its keep-alive
            self.close_connection = True


@pytest.fixture
def keep_alive_server():
    _KeepAlive.connections = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _KeepAlive)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_client_keeps_one_connection_per_thread_and_reopens_one_the_server_closed(keep_alive_server):
    client = client_mod.Client(f"http://127.0.0.1:{keep_alive_server.server_address[1]}", "mh_x_y")
    for i in range(5):
        assert client.post("/ok", {"i": i})[0]["echo"] == {"i": i}
    assert len(_KeepAlive.connections) == 1
    client.post("/then-hang-up", {})
    assert client.post("/ok", {"i": "again"})[0]["echo"] == {"i": "again"}  # retried on a new connection
    assert len(_KeepAlive.connections) == 2
    other = threading.Thread(target=client.post, args=("/ok", {"i": "other thread"}))
    other.start()
    other.join(10)
    assert len(_KeepAlive.connections) == 3


sessions_bench = _load("locomo_sessions")


def test_session_dates_become_aware_iso_times():
    assert sessions_bench.locomo_date("1:56 pm on 8 May, 2023") == "2023-05-08T13:56:00+00:00"
    assert sessions_bench.locomo_date("12:05 am on 1 January, 2024") == "2024-01-01T00:05:00+00:00"
    assert sessions_bench.locomo_date("sometime") is None


def test_replayed_sessions_keep_turn_order_captions_and_dates():
    sessions = sessions_bench.sessions_of(locomo.SMOKE_SAMPLE)
    assert [s["number"] for s in sessions] == [1, 2]
    assert sessions[0]["date"] == "2024-03-03T09:00:00+00:00"
    assert [t["dia_id"] for t in sessions[0]["turns"]] == ["D1:1", "D1:2", "D1:3", "D1:4"]
    assert sessions[0]["turns"][3]["text"].endswith("[image: a photo of a tram on a hill]")


def test_a_question_goes_to_the_speaker_it_names_or_to_both():
    speakers = ["Ada", "Ben"]
    assert sessions_bench.speakers_named("What is the name of Ada's cat?", speakers) == ["Ada"]
    assert sessions_bench.speakers_named("Where did they meet?", speakers) == speakers
    assert sessions_bench.speakers_named("Did Ada visit Ben?", speakers) == speakers


_FAKE_IMPORT = (
    "import json, shutil, sys\n"
    "lines = open(sys.argv[1], encoding='utf-8').read().splitlines()\n"
    "shutil.copy(sys.argv[1], sys.argv[2] + '/' + sys.argv[1].rsplit('/', 1)[-1])\n"
    "print('committed through line', len(lines))\n"
    "print(json.dumps({'lines': len(lines), 'created': len(lines) - int(sys.argv[3])}))\n"
    "sys.exit(int(sys.argv[4]))\n")


def _import_command(tmp_path, existing=0, exit_code=0):
    script = tmp_path / "fake_import.py"
    script.write_text(_FAKE_IMPORT)
    copies = tmp_path / "copies"
    copies.mkdir(exist_ok=True)
    return f"{sys.executable} {script} {{file}} {copies} {existing} {exit_code}", copies


def test_the_import_path_writes_what_the_http_ingest_would_post_in_files_of_whole_users(tmp_path):
    command, copies = _import_command(tmp_path, existing=1)
    run = scale.Run(client_mod.Client("http://127.0.0.1:9", None), "r1", seed=1)
    ingest = run.import_to(5 * scale.PER_USER, command, tenant=None, chunk=2 * scale.PER_USER, directory=str(tmp_path))
    files = sorted(copies.iterdir(), key=lambda p: int(p.name.split("-u")[1]))
    assert [p.name for p in files] == ["r1-u0-u1.jsonl", "r1-u2-u3.jsonl", "r1-u4-u4.jsonl"]
    items = [json.loads(line) for p in files for line in p.read_text(encoding="utf-8").splitlines()]
    # the same items, in the same order, that ingest_to posts in batches of 100
    assert items == [item for index in range(5) for item in run.user_items(index)]
    assert len({item["client_id"] for item in items}) == 5 * scale.PER_USER
    assert items[0]["client_id"] == "scale-r1-u0-0" and items[0]["user_id"] == "scale-r1-u0"
    assert run.users == [run.user_id(i) for i in range(5)]
    # what the command's last JSON line says it created, not the lines written
    assert ingest["memories"] == 5 * scale.PER_USER - 3 and ingest["lines"] == 5 * scale.PER_USER
    assert ingest["errors"] == 0 and [r["returncode"] for r in ingest["runs"]] == [0, 0, 0]
    assert not list(tmp_path.glob("scale-import-*"))  # the files are removed after their run
    # a second call reaches a larger size from where the first stopped
    again = run.import_to(6 * scale.PER_USER, command, tenant=None, chunk=1000, directory=str(tmp_path))
    assert again["runs"][0]["users"] == [5, 5] and len(run.users) == 6


def test_a_failed_import_run_stops_the_build_and_counts_no_users(tmp_path):
    command, _ = _import_command(tmp_path, exit_code=3)
    run = scale.Run(client_mod.Client("http://127.0.0.1:9", None), "r2", seed=1)
    ingest = run.import_to(3 * scale.PER_USER, command, tenant=None, chunk=scale.PER_USER, directory=str(tmp_path))
    assert ingest["errors"] == 1 and [r["returncode"] for r in ingest["runs"]] == [3, None, None]
    assert ingest["memories"] == 0 and run.users == []


def test_parallel_import_files_count_users_only_up_to_the_first_failed_file(tmp_path):
    script = tmp_path / "fails_on_u2.py"
    script.write_text("import json, sys\nn = len(open(sys.argv[1]).read().splitlines())\n"
                      "print(json.dumps({'created': n}))\nsys.exit(5 if '-u2-' in sys.argv[1] else 0)\n")
    run = scale.Run(client_mod.Client("http://127.0.0.1:9", None), "r4", seed=1)
    ingest = run.import_to(4 * scale.PER_USER, f"{sys.executable} {script} {{file}}", tenant=None,
                           chunk=scale.PER_USER, directory=str(tmp_path), jobs=4)
    # all four ran at once; the third failed, so only the first two users count, though the fourth was stored
    assert [r["returncode"] for r in ingest["runs"]] == [0, 0, 5, 0]
    assert run.users == [run.user_id(0), run.user_id(1)] and ingest["errors"] == 1
    assert ingest["memories"] == 3 * scale.PER_USER


def test_the_import_command_gets_the_tenant_and_a_quoted_file_name(tmp_path):
    seen = tmp_path / "argv.json"
    script = tmp_path / "argv.py"
    script.write_text(f"import json, sys\njson.dump(sys.argv[1:], open({str(seen)!r}, 'w'))\n")
    folder = tmp_path / "a dir"
    folder.mkdir()
    run = scale.Run(client_mod.Client("http://127.0.0.1:9", None), "r3", seed=1)
    run.import_to(scale.PER_USER, f"{sys.executable} {script} {{file}} --tenant {{tenant}}", tenant="acme co",
                  chunk=1000, directory=str(folder))
    argv = json.loads(seen.read_text())
    assert argv[0].startswith(str(folder) + "/") and argv[0].endswith("r3-u0-u0.jsonl")
    assert argv[1:] == ["--tenant", "acme co"]
