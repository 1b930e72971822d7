"""What the pages download is gzipped for a browser that takes it: an old tablet on a
slow Wi-Fi (400 kb/s) took 3.7 s to show the control page, downloading 127 kB."""
from __future__ import annotations

import gzip
import re
from typing import Any

GZIP = {"Accept-Encoding": "gzip, deflate"}


def _control_page_files(api: Any) -> list[str]:
    """The control page and what it loads before it shows a score."""
    page = api.client.get("/control").get_data(as_text=True)
    return ["/control", *re.findall(r'(?:src|href)="(/static/[^"]+)"', page),
            "/api/state", "/api/families"]


def test_the_control_page_and_its_scripts_come_gzipped_in_under_a_third_of_the_bytes(
        api: Any) -> None:
    api.start()
    files = _control_page_files(api)
    assert any(f.endswith(".js") for f in files) and any(f.endswith(".css") for f in files)
    plain_bytes = squeezed_bytes = 0
    for path in files:
        plain = api.client.get(path)
        squeezed = api.client.get(path, headers=GZIP)
        assert plain.headers.get("Content-Encoding") is None, path
        assert squeezed.headers.get("Content-Encoding") == "gzip", path
        assert "Accept-Encoding" in squeezed.headers["Vary"], path
        assert gzip.decompress(squeezed.get_data()) == plain.get_data(), path
        plain_bytes += len(plain.get_data())
        squeezed_bytes += len(squeezed.get_data())
    assert squeezed_bytes < plain_bytes / 3, (squeezed_bytes, plain_bytes)


def test_a_script_the_tablet_has_is_not_sent_again(api: Any) -> None:
    first = api.client.get("/static/control.js", headers=GZIP)
    again = api.client.get("/static/control.js",
                           headers={**GZIP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.get_data() == b""


def test_the_live_stream_and_the_pictures_are_sent_as_they_are(api: Any) -> None:
    api.start()
    stream = api.client.get("/api/events", headers=GZIP, buffered=False)
    assert stream.mimetype == "text/event-stream"
    assert stream.headers.get("Content-Encoding") is None      # each state sent as it comes
    assert next(iter(stream.response))                         # and it does come
    stream.close()
    # A refusal is JSON too, small: sent plain.
    refused = api.client.get("/api/games/99/file", headers=GZIP)
    assert refused.status_code == 404
    assert refused.headers.get("Content-Encoding") is None
    assert refused.get_json()["error"]
