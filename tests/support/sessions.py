"""Opening a session and appending turns over HTTP, shared by the working-memory tests."""


def open_session(client, session_id="home-1", user_id="alice"):
    response = client.post_json("/api/v1/sessions", {"session_id": session_id, "user_id": user_id})
    assert response.status_code == 201, response.json()


def append(client, turns, session_id="home-1"):
    response = client.post_json(f"/api/v1/sessions/{session_id}/turns", {"turns": turns})
    assert response.status_code in (200, 201), response.json()
    return response.json()


def say(*pairs):
    return [{"role": role, "content": content} for role, content in pairs]
