"""Pages, scripts, styles and JSON sent gzipped to a browser that takes them.

An old tablet on a slow Wi-Fi (400 kb/s) took 3.7 s to show the control page's first
score, most of it downloading 127 kB of scripts, styles and state that gzip makes a
quarter of that. The live stream (sent as it comes) and the pictures (JPEG and PNG,
compressed already) are sent as they are.
"""
from __future__ import annotations

import gzip

from flask import Request, Response

SQUEEZED = {"text/html", "text/css", "text/javascript", "application/javascript",
            "application/json"}
# Below this many bytes gzip's own header and the work outweigh what is saved.
SMALLEST = 1024
# Quick enough on a Raspberry Pi (a few ms for the largest script), most of the gain.
LEVEL = 6


def squeeze(request: Request, response: Response) -> Response:
    """``response`` gzipped when the browser takes gzip and it is text worth squeezing."""
    if (response.status_code != 200 or response.mimetype not in SQUEEZED
            or "Content-Encoding" in response.headers
            or request.accept_encodings.quality("gzip") <= 0):
        return response
    if response.is_streamed and not response.direct_passthrough:
        return response          # made as it is sent (none of the above now): left so
    response.direct_passthrough = False      # a static file: read whole, a few tens of kB
    body = response.get_data()
    if len(body) < SMALLEST:
        return response
    response.set_data(gzip.compress(body, LEVEL))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    # The same file sent either way: its tag says "the same content", not "the same bytes".
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response
