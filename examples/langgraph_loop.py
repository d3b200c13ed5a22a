"""A LangGraph agent that remembers through memoryhub (memoryhub_client.langgraph.MemoryhubStore).

Each user message goes through three nodes: `recall` (hybrid search over the user's memories),
`respond` (a scripted stand-in for the model that answers from what was recalled) and `remember`
(a statement about the user is put into the store as a long-term memory). Offline, against `make run`:

    python examples/langgraph_loop.py --api-key "$KEY"            # prints the conversation
    python examples/langgraph_loop.py --api-key "$KEY" --smoke    # checks it, exit status 0 or 1
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import uuid
from typing import TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from memoryhub_client import MemoryhubClient
from memoryhub_client.langgraph import MemoryhubStore

AGENT = "langgraph-example"
STATEMENT = re.compile(r"^(?:I am|I'm|I live|I like|I love|I work|My)\b", re.IGNORECASE)


class Turn(TypedDict):
    user_id: str
    message: str
    recalled: list[str]
    reply: str


def recall(state: Turn, *, store: BaseStore) -> dict:
    hits = store.search((state["user_id"],), query=state["message"], limit=3)
    return {"recalled": [hit.value["content"] for hit in hits]}


def respond(state: Turn) -> dict:
    """The scripted model: it acknowledges statements and answers questions from what was recalled."""
    if STATEMENT.match(state["message"]):
        return {"reply": "Noted."}
    if state["recalled"]:
        return {"reply": "From what you told me: " + "; ".join(state["recalled"])}
    return {"reply": "I do not know yet."}


def remember(state: Turn, *, store: BaseStore) -> dict:
    if STATEMENT.match(state["message"]):
        key = "statement-" + uuid.uuid5(uuid.NAMESPACE_OID, state["message"]).hex[:12]
        store.put((state["user_id"], AGENT, "fact"), key, {"content": state["message"]})
    return {}


def build(store: BaseStore):
    graph = StateGraph(Turn)
    for name, node in (("recall", recall), ("respond", respond), ("remember", remember)):
        graph.add_node(name, node)
    graph.add_edge(START, "recall")
    graph.add_edge("recall", "respond")
    graph.add_edge("respond", "remember")
    graph.add_edge("remember", END)
    return graph.compile(store=store)


def main(base_url: str, api_key: str, smoke: bool) -> int:
    user_id = f"example-{uuid.uuid4().hex[:8]}"
    with MemoryhubClient(base_url, api_key) as hub:
        store = MemoryhubStore(hub)
        app = build(store)
        replies = []
        for said in ["I am vegetarian.", "I live in Lyon.", "What food do I eat?"]:
            reply = app.invoke({"user_id": user_id, "message": said, "recalled": [], "reply": ""})["reply"]
            replies.append(reply)
            print(f"user: {said}\nagent: {reply}")
        namespaces = store.list_namespaces(prefix=(user_id,))
        stored = store.search((user_id, AGENT))
        for item in stored:
            store.delete(item.namespace, item.key)
        left = store.search((user_id, AGENT))
    print(f"namespaces of {user_id}: {namespaces}")
    if not smoke:
        return 0
    checks = {
        "two statements stored as memories": sorted(i.value["content"] for i in stored) == [
            "I am vegetarian.", "I live in Lyon."],
        "the question was answered from memory": "vegetarian" in replies[2],
        "one namespace": namespaces == [(user_id, AGENT, "fact")],
        "deleting through the store removed them": left == [],
    }
    for name, passed in checks.items():
        print(f"{'ok' if passed else 'FAILED'}: {name}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default=os.environ.get("MEMORYHUB_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--api-key", default=os.environ.get("MEMORYHUB_API_KEY"))
    parser.add_argument("--smoke", action="store_true", help="check the outcome; exit 1 when a check fails")
    arguments = parser.parse_args()
    if not arguments.api_key:
        parser.error("--api-key (or MEMORYHUB_API_KEY) is required")
    sys.exit(main(arguments.base_url, arguments.api_key, arguments.smoke))
