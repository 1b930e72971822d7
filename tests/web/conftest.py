"""Fixtures of the web tests: a table with no camera and its Flask test client."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask.testing import FlaskClient

from web.app import create_app
from web.live import CHROMIUM, launch_chromium
from web.store import Store
from web.table import Table


class Api:
    """The test client with JSON helpers."""

    def __init__(self, client: FlaskClient, table: Table) -> None:
        self.client = client
        self.table = table

    def state(self) -> dict[str, Any]:
        resp = self.client.get("/api/state")
        assert resp.status_code == 200
        data: dict[str, Any] = resp.get_json()
        return data

    def post(self, path: str, body: Any = None, *, raw: str | None = None,
             status: int | None = 200) -> dict[str, Any]:
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        resp = self.client.post(f"/api/{path}", data=data, content_type="application/json")
        if status is not None:
            assert resp.status_code == status, resp.get_data(as_text=True)
        out: dict[str, Any] = resp.get_json()
        out["_status"] = resp.status_code
        return out

    def start(self, players: list[str] | None = None, **options: Any) -> dict[str, Any]:
        return self.post("games", {"family": "sum_chicago",
                                   "players": players or ["Aino", "Bertil", "Cecilia"],
                                   "options": options})


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def table(data_dir: Path) -> Iterator[Table]:
    store = Store(data_dir)
    t = Table(store)
    yield t
    t.stop()
    store.close()


@pytest.fixture
def api(table: Table) -> Api:
    app = create_app(table, keep_alive=0.2)
    app.testing = True
    return Api(app.test_client(), table)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """The system Chromium; skips where it is not installed, unless the run requires it."""
    if not Path(CHROMIUM).exists():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("DICETRAY_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = launch_chromium(p)
        yield b
        b.close()
