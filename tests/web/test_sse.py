"""Server-Sent Events: the first event is the current state; each change a newer one."""
from __future__ import annotations

import json
from typing import Any, Iterator


def events(resp: Any) -> Iterator[tuple[str | None, int | None, Any]]:
    """Parse an SSE response into ``(event, id, data)`` (a keep-alive has no id); comments
    give ``(None, None, text)``."""
    buffer = ""
    for chunk in resp.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields: dict[str, str] = {}
            for line in block.split("\n"):
                if line.startswith(":"):
                    yield None, None, line
                    continue
                key, _, value = line.partition(": ")
                fields[key] = value
            if "event" in fields:
                rid = int(fields["id"]) if "id" in fields else None
                yield fields["event"], rid, json.loads(fields["data"])


def open_stream(api: Any, last: int | None = None) -> Any:
    headers = {"Last-Event-ID": str(last)} if last is not None else {}
    resp = api.client.get("/api/events", headers=headers, buffered=False)
    assert resp.status_code == 200
    assert resp.mimetype == "text/event-stream"
    return resp


def test_first_event_is_the_current_state_then_newer_ones(api: Any) -> None:
    api.start()
    resp = open_stream(api)
    stream = (e for e in events(resp) if e[0] == "state")
    kind, rid, data = next(stream)
    current = api.state()
    assert kind == "state" and rid == current["revision"] and data == current
    after = api.post("roll", {"dice": [1, 1]})
    kind, rid2, data = next(stream)
    assert kind == "state" and rid is not None and rid2 is not None
    assert rid2 > rid and rid2 == after["revision"]
    assert data["game"]["players"][0]["score"] == 2
    resp.close()


def test_every_event_is_a_state_and_a_keep_alive_is_a_comment(api: Any) -> None:
    """DESIGN.md's stream: every event is ``event: state`` carrying the whole state, and a
    keep-alive comment comes when nothing happens (tools other than the pages read it)."""
    resp = open_stream(api)
    stream = events(resp)
    assert next(stream)[0] == "state"
    assert next(stream) == (None, None, ": keep-alive")   # keep_alive is 0.2 s in these tests
    api.start()
    kinds = [next(stream)[0] for _ in range(3)]
    assert set(kinds) <= {"state", None} and "state" in kinds
    resp.close()


def test_a_reconnecting_screen_gets_the_current_state_first_whatever_it_held(api: Any) -> None:
    """A server started afresh (another data folder) counts revisions anew and may reach
    the very number a screen still holds from its old game: the screen must not keep
    showing that game. So every connection starts with the current state (DESIGN.md)."""
    api.start()
    current = api.state()["revision"]
    for held in (current, current - 1, current + 50):
        resp = open_stream(api, last=held)
        kind, rid, data = next(events(resp))    # before any keep-alive
        assert kind == "state" and rid == current and data == api.state(), held
        resp.close()
    resp = open_stream(api, last=current)
    stream = events(resp)
    next(e for e in stream if e[0] == "state")
    api.post("roll", {"dice": [1, 1]})
    kind, rid, data = next(e for e in stream if e[0] == "state")
    assert rid is not None and rid > current and data["game"]["players"][0]["score"] == 2
    resp.close()


def test_past_its_streams_the_oldest_screen_is_let_go_and_taps_still_come_through(
        table: Any) -> None:
    """Sleeping tablets with half-open connections held every server thread, and no tap
    got through: past the streams allowed, the oldest ends (a screen still there
    reconnects by itself)."""
    from web.app import create_app

    app = create_app(table, keep_alive=0.2, max_streams=2)
    client = app.test_client()
    opened = [client.get("/api/events", buffered=False) for _ in range(3)]
    for resp in opened:
        next(events(resp))                               # each got the current state
    oldest = list(events(opened[0]))                     # ends within a second
    assert all(kind is None for kind, _, _ in oldest)      # keep-alives, then its end
    newest = events(opened[2])
    client.post("/api/games", json={"family": "sum_chicago", "players": ["Aino"]})
    kind, _, data = next(e for e in newest if e[0] == "state")
    assert kind == "state" and data["game"]["players"][0]["name"] == "Aino"
    for resp in opened[1:]:
        resp.close()


def test_the_examples_in_the_apps_docstrings_hold() -> None:
    import doctest

    from web import app

    result = doctest.testmod(app)
    assert result.attempted > 0 and result.failed == 0
