"""Synthetic die faces for the classifier: any die and pip colour, glare, shadow.

The shared photos show a few dice sets; drawing faces in colours they lack keeps the
classifier counting pips rather than memorising those sets.
"""
from __future__ import annotations

import cv2
import numpy as np

# Pip positions on a unit face (-1..1), per value.
LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def _colour(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, 256, 3).astype(np.float32)


def _logo(rng: np.random.Generator, img: np.ndarray, c: float, face: float, colour: list[float]) -> None:
    """A picture instead of pips: a letter, a star or a swirl, about half the face."""
    kind = int(rng.integers(3))
    size = face * rng.uniform(0.35, 0.6)
    if kind == 0:
        letter = chr(int(rng.integers(65, 91)))
        scale = size / 22.0
        (tw, th), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        # putText draws on 8-bit images only: draw a mask, then blend it in.
        mask = np.zeros(img.shape[:2], np.uint8)
        cv2.putText(mask, letter, (int(c - tw / 2), int(c + th / 2)), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, 255, max(1, int(face * 0.06)), cv2.LINE_AA)
        a = mask.astype(np.float32)[..., None] / 255.0
        img[:] = img * (1 - a) + np.array(colour, np.float32) * a
    elif kind == 1:
        n = int(rng.integers(5, 8))
        ang = np.linspace(0, 2 * np.pi, 2 * n, endpoint=False) + rng.uniform(0, np.pi)
        rad = np.where(np.arange(2 * n) % 2 == 0, size / 2, size / 5)
        pts = np.stack([c + rad * np.cos(ang), c + rad * np.sin(ang)], 1).astype(np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    else:
        t = np.linspace(0, rng.uniform(3, 5) * np.pi, 60)
        r = size / 2 * t / t[-1]
        pts = np.stack([c + r * np.cos(t), c + r * np.sin(t)], 1).astype(np.int32)
        cv2.polylines(img, [pts], False, colour, max(1, int(face * 0.06)), cv2.LINE_AA)


def _glare(rng: np.random.Generator, img: np.ndarray, face: float) -> np.ndarray:
    """A soft white spot somewhere on the centred top face of ``face`` px."""
    canvas = img.shape[0]
    c, h = canvas / 2, face / 2
    g = np.zeros((canvas, canvas), np.float32)
    cv2.circle(g, (int(c + rng.uniform(-h, h)), int(c + rng.uniform(-h, h))),
               int(face * rng.uniform(0.05, 0.2)), 1.0, -1)
    g = np.asarray(cv2.GaussianBlur(g, (0, 0), face * 0.05), np.float32)
    return np.asarray(img + g[..., None] * rng.uniform(60, 200), np.float32)


def synth_face(rng: np.random.Generator, value: int, canvas: int = 96,
               picture: bool = False, pips: list[tuple[float, float]] | None = None,
               ) -> tuple[np.ndarray, float]:
    """A BGR canvas with one die seen from above, centred; returns (image, face px).

    With ``picture`` the face carries a logo instead of its pips; ``pips``, when given,
    receives the pip centres."""
    bg = _colour(rng)
    img = np.empty((canvas, canvas, 3), np.float32)
    img[:] = bg
    img += rng.normal(0, rng.uniform(0, 12), (canvas, canvas, 1)).astype(np.float32)
    face = float(rng.uniform(0.35, 0.5) * canvas)
    c = canvas / 2
    die = _colour(rng)
    pip = _colour(rng)
    # Pips must differ from the face enough for a person to read them.
    while np.abs(die - pip).sum() < 180:
        pip = _colour(rng)
    # Visible sides: a darker skirt offset from the top face, as a slightly oblique view.
    off = rng.uniform(-0.15, 0.15, 2) * face
    side = die * rng.uniform(0.4, 0.8)
    h = face / 2
    cv2.rectangle(img, (int(c - h + min(0, off[0])), int(c - h + min(0, off[1]))),
                  (int(c + h + max(0, off[0])), int(c + h + max(0, off[1]))),
                  side.tolist(), -1)
    radius = int(face * rng.uniform(0.05, 0.15))
    x0, y0, x1, y1 = int(c - h), int(c - h), int(c + h), int(c + h)
    cv2.rectangle(img, (x0 + radius, y0), (x1 - radius, y1), die.tolist(), -1)
    cv2.rectangle(img, (x0, y0 + radius), (x1, y1 - radius), die.tolist(), -1)
    for cx, cy in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius),
                   (x0 + radius, y1 - radius), (x1 - radius, y1 - radius)):
        cv2.circle(img, (cx, cy), radius, die.tolist(), -1)
    spread = face * rng.uniform(0.24, 0.3)
    r = face * rng.uniform(0.07, 0.11)
    for px, py in [] if picture else LAYOUT[value]:
        if pips is not None:
            pips.append((c + px * spread, c + py * spread))
        cv2.circle(img, (int(c + px * spread), int(c + py * spread)), max(1, int(r)),
                   pip.tolist(), -1, lineType=cv2.LINE_AA)
    if picture:
        _logo(rng, img, c, face, pip.tolist())
    if rng.random() < 0.3:
        img = _glare(rng, img, face)
    return np.clip(img, 0, 255).astype(np.uint8), face


def synth_tilted(rng: np.random.Generator, canvas: int = 96) -> tuple[np.ndarray, float]:
    """A die leaning on the tray wall, seen from above: two faces, both foreshortened.

    Returns (image, apparent size); the classifier learns these as "tilted".
    """
    a, fa = synth_face(rng, int(rng.integers(1, 7)), canvas)
    b, fb = synth_face(rng, int(rng.integers(1, 7)), canvas)
    c = canvas // 2
    ha, hb = int(fa / 2), int(fb / 2)
    top = a[c - ha:c + ha, c - ha:c + ha]
    side = (b[c - hb:c + hb, c - hb:c + hb].astype(np.float32) * rng.uniform(0.5, 0.9)).astype(np.uint8)
    side = np.asarray(cv2.resize(side, (top.shape[1], top.shape[0])), np.uint8)
    theta = rng.uniform(np.radians(25), np.radians(65))
    s = top.shape[0]
    h1 = max(2, int(s * np.cos(theta)))
    h2 = max(2, int(s * np.sin(theta)))
    die = np.vstack([cv2.resize(top, (s, h1)), cv2.resize(side, (s, h2))])
    img = a.copy()
    img[:] = a[0, 0]
    y0 = c - die.shape[0] // 2
    img[y0:y0 + die.shape[0], c - s // 2:c - s // 2 + s] = die
    m = cv2.getRotationMatrix2D((c, c), float(rng.uniform(0, 360)), 1.0)
    img = cv2.warpAffine(img, m, (canvas, canvas), borderMode=cv2.BORDER_REPLICATE)
    return img, float(s * rng.uniform(0.8, 1.0))


def _marble(rng: np.random.Generator, canvas: int, base: np.ndarray) -> np.ndarray:
    """A marbled or swirled body colour: ``base`` veined with a second colour."""
    g = int(rng.integers(3, 8))
    field = cv2.resize(rng.uniform(0, 1, (g, g)).astype(np.float32), (canvas, canvas),
                       interpolation=cv2.INTER_CUBIC)
    # Veins: thin bands where a smooth field crosses a few levels.
    veins = np.abs(np.sin(field * rng.uniform(6, 18)))
    mix = np.clip(1.0 - veins * rng.uniform(1.0, 3.0), 0, 1) * rng.uniform(0.5, 1.0)
    other = _colour(rng)
    body = base[None, None, :] * (1 - mix[..., None]) + other[None, None, :] * mix[..., None]
    return body.astype(np.float32)


def _pip_colour(rng: np.random.Generator, die: np.ndarray) -> np.ndarray:
    # Real dice include low-contrast pairs (red pips on a dark red marbled body), so
    # the required difference is sometimes small; a person can still read them.
    need = 180 if rng.random() < 0.5 else 90
    pip = _colour(rng)
    while np.abs(die - pip).sum() < need:
        pip = _colour(rng)
    return pip


def synth_die(rng: np.random.Generator, value: int, canvas: int = 96,
              pips: list[tuple[float, float]] | None = None) -> tuple[np.ndarray, float]:
    """A die as an oblique camera sees it: marbled or plain body, a top face with
    ``value`` pips and up to two visible side faces carrying pips of their own, which
    the classifier must learn not to count. Returns (image, top face px)."""
    img = np.empty((canvas, canvas, 3), np.float32)
    img[:] = _colour(rng)
    img += rng.normal(0, rng.uniform(0, 12), (canvas, canvas, 1)).astype(np.float32)
    face = float(rng.uniform(0.35, 0.5) * canvas)
    c = canvas / 2
    h = face / 2
    die = _colour(rng)
    body = _marble(rng, canvas, die) if rng.random() < 0.5 else np.broadcast_to(
        die, (canvas, canvas, 3)).astype(np.float32)
    pip = _pip_colour(rng, die)
    radius = int(face * rng.uniform(0.05, 0.15))
    top = np.zeros((canvas, canvas), np.uint8)
    x0, y0, x1, y1 = int(c - h), int(c - h), int(c + h), int(c + h)
    cv2.rectangle(top, (x0 + radius, y0), (x1 - radius, y1), 255, -1)
    cv2.rectangle(top, (x0, y0 + radius), (x1, y1 - radius), 255, -1)
    for cx, cy in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius),
                   (x0 + radius, y1 - radius), (x1 - radius, y1 - radius)):
        cv2.circle(top, (cx, cy), radius, 255, -1)
    # Side faces: the top face's outline pushed away from the camera by ``off``.
    off = rng.uniform(-0.35, 0.35, 2) * face
    m = np.float32([[1, 0, off[0]], [0, 1, off[1]]])
    below = cv2.warpAffine(top, m, (canvas, canvas))
    skirt = np.zeros_like(top)
    for t in np.linspace(0, 1, 8):
        mt = np.float32([[1, 0, off[0] * t], [0, 1, off[1] * t]])
        skirt |= cv2.warpAffine(top, mt, (canvas, canvas))
    skirt |= below
    skirt[top > 0] = 0
    shade = rng.uniform(0.45, 0.85)
    spread = face * rng.uniform(0.24, 0.3)
    r = face * rng.uniform(0.07, 0.11)
    side_pips = np.zeros_like(top)
    for axis in (0, 1):  # the side face seen along x, then along y
        depth = off[axis]
        if abs(depth) < 0.1 * face:
            continue
        edge = c + np.sign(depth) * h + depth / 2  # the side face's middle, foreshortened
        for a, b in LAYOUT[int(rng.integers(1, 7))]:
            along = c + a * spread
            across = edge + b * abs(depth) * 0.3
            centre = (across, along) if axis == 0 else (along, across)
            axes = (abs(depth) * 0.25 * r / (0.09 * face), r) if axis == 0 else (
                r, abs(depth) * 0.25 * r / (0.09 * face))
            cv2.ellipse(side_pips, (int(centre[0]), int(centre[1])),
                        (max(1, int(axes[0])), max(1, int(axes[1]))), 0, 0, 360, 255, -1)
    top_pips = np.zeros_like(top)
    for px, py in LAYOUT[value]:
        if pips is not None:
            pips.append((c + px * spread, c + py * spread))
        cv2.circle(top_pips, (int(c + px * spread), int(c + py * spread)), max(1, int(r)),
                   255, -1, lineType=cv2.LINE_AA)
    side_pips[skirt == 0] = 0
    top_pips[top == 0] = 0
    sk, tp = skirt[..., None] / 255.0, top[..., None] / 255.0
    img = img * (1 - sk) + body * shade * sk
    img = img * (1 - tp) + body * tp
    for mask, k in ((side_pips, shade), (top_pips, 1.0)):
        a = mask[..., None].astype(np.float32) / 255.0
        img = img * (1 - a) + pip[None, None, :] * k * a
    if rng.random() < 0.3:
        img = _glare(rng, img, face)
    return np.clip(img, 0, 255).astype(np.uint8), face


def glare_streak(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """A thin bright arc across a die crop: the window or lamp reflected by a glossy or
    translucent die, which on the shared photos runs along edges and across pips.

    The arc is long and thin, so it never looks like a round pip; the net learns to
    count past it instead of flagging every glossy die."""
    n = crop.shape[0]
    mask = np.zeros((n, n), np.float32)
    # On the die: its top face fills the middle 70 % of a crop (vision/crops.py).
    centre = (int(n / 2 + rng.normal(0, n / 10)), int(n / 2 + rng.normal(0, n / 10)))
    axes = (int(rng.uniform(0.1, 0.45) * n), int(rng.uniform(0.1, 0.45) * n))
    start = float(rng.uniform(0, 360))
    span = float(rng.uniform(40, 140))
    thick = max(1, int(round(n * rng.uniform(0.02, 0.06))))
    cv2.ellipse(mask, centre, axes, float(rng.uniform(0, 180)), start, start + span, 1.0,
                thick, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.3, 0.8))[..., None]
    strength = rng.uniform(0.5, 1.0)
    white = rng.uniform(215, 255)
    out = crop.astype(np.float32) * (1 - strength * mask) + white * strength * mask
    return np.clip(out, 0, 255).astype(np.uint8)
