"""The simulated tray camera: a top-down dice tray drawn from a seeded generator.

Everything random comes from one ``numpy.random.Generator``, so a seed gives the same
frames every time. A frame is built cheaply: the tray background is rendered once, each
die is drawn with OpenCV on a small sprite and warped into a region of interest around
it, and sensor noise is a random window into a pre-made noise bank. At 1280x960 a
frame at rest costs about 1.5 ms (the clean picture is reused, only noise is new) and
one with dice tumbling 10-20 ms (see ``vision/bench_watcher.py``), so tests and the
live demo can afford it.
"""
from __future__ import annotations

import dataclasses
import math
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

Size = tuple[int, int]  # (width, height), as OpenCV takes it
BGR = tuple[float, float, float]

__all__ = ["DieLook", "PIP_LAYOUTS", "SimDie", "SimulatedTray", "TrayStyle", "render_tray", "write_dataset"]


@dataclass(frozen=True)
class SimDie:
    """One settled die as drawn: the truth a reader is scored against.

    ``center`` is the centre of the top face, ``box`` the axis-aligned box
    ``(x0, y0, x1, y1)`` of the whole die in pixels, ``angle`` its rotation in degrees
    (counter-clockwise as seen on screen), ``side`` the top face's side in pixels.
    """

    value: int
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    angle: float
    tilted: bool = False
    side: float = 0.0


# Pip centres in units of the pip offset from the face centre (about 0.27 of the side).
# The 2, 3 and 6 layouts are not symmetric under a quarter turn, so they visibly rotate
# with the die, as on real dice.
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-1.0, -1.0), (1.0, 1.0)),
    3: ((-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)),
    4: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)),
    5: ((-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
    6: ((-1.0, -1.0), (-1.0, 0.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 1.0)),
}


@dataclass(frozen=True)
class DieLook:
    """One kind of die: body and pip colours, an optional big coloured one-pip, marble
    veins of a second colour, or a translucent body that lets the tray show through."""

    body: BGR
    pip: BGR
    big_one: BGR | None = None
    vein: BGR | None = None
    translucent: bool = False


# Base looks; each tray jitters the colours a little. Body and pip colours are BGR.
_LOOKS: tuple[DieLook, ...] = (
    DieLook((236, 238, 240), (28, 28, 30)),  # white, black pips
    DieLook((236, 238, 240), (28, 28, 30), big_one=(40, 40, 200)),  # white, big red one
    DieLook((196, 226, 238), (34, 32, 36)),  # ivory
    DieLook((42, 40, 190), (240, 240, 240)),  # red, white pips
    DieLook((64, 142, 44), (238, 238, 238)),  # green
    DieLook((168, 84, 30), (240, 240, 240)),  # blue
    DieLook((34, 32, 32), (236, 236, 236)),  # black, white pips
    DieLook((236, 238, 240), (40, 40, 196)),  # white, red pips
    DieLook((34, 32, 32), (40, 186, 226)),  # black, gold pips
    DieLook((40, 200, 230), (30, 30, 30)),  # yellow, black pips
    DieLook((60, 120, 40), (240, 240, 240), vein=(24, 44, 18)),  # green marble
    DieLook((140, 50, 110), (40, 190, 230), vein=(226, 214, 226)),  # purple/white swirl, gold pips
    DieLook((50, 40, 200), (245, 245, 245), translucent=True),  # translucent red
    DieLook((200, 120, 40), (245, 245, 245), translucent=True),  # translucent blue
)

_FLOORS: tuple[tuple[str, BGR], ...] = (
    ("felt", (48, 112, 40)),  # green felt
    ("felt", (118, 62, 24)),  # blue felt
    ("felt", (44, 34, 112)),  # burgundy felt
    ("felt", (38, 38, 38)),  # black felt
    ("plain", (112, 112, 110)),  # grey
    ("plain", (168, 170, 170)),  # light grey
    ("wood", (62, 108, 158)),  # mid wood
    ("wood", (112, 168, 206)),  # light wood
)


@dataclass(frozen=True)
class TrayStyle:
    """Everything about one tray set-up: surface, light, camera, and the dice kind.

    Make one with :meth:`random`; a tray keeps its style across frames, as a real
    camera over a real tray does.
    """

    floor_kind: str
    floor: BGR
    rim: BGR
    table: BGR
    margin: float  # tray inset from the frame edge, fraction of the width
    rim_width: float  # wall band, fraction of the width
    die_side: float  # top-face side, fraction of the width
    die_side_jitter: float  # each die's side varies by up to this fraction
    corner: float  # corner radius, fraction of the side
    pip_radius: float  # fraction of the side
    looks: tuple[DieLook, ...]
    light_gradient: tuple[float, float]  # gain change across x and y
    light_center: tuple[float, float]  # vignette centre, fractions of the frame
    vignette: float
    brightness: float
    shadow_offset: tuple[float, float]  # fractions of the die side
    shadow_blur: float  # fraction of the die side
    shadow_strength: float
    blur: float  # Gaussian sigma in pixels
    noise: int  # sensor noise sigma, grey levels
    glare: float  # chance that a die shows a specular spot
    touching: float  # chance that a die is placed touching another
    texture_seed: int = 0
    tilt: float = 0.0  # chance that a die leans against the tray wall (render_tray only)
    on_die: float = 0.0  # chance that a leaning die leans on a flat die instead (render_tray only)
    wall: float = 0.0  # chance that a flat die lies against the tray wall (render_tray only)
    clutter: int = 0  # things that are not dice (pen, playing card, coin), render_tray only

    @classmethod
    def random(cls, rng: np.random.Generator, size: Size = (1280, 960)) -> TrayStyle:
        """Draw a plausible tray, light and dice kind from ``rng``."""
        kind, floor = _FLOORS[int(rng.integers(len(_FLOORS)))]
        floor = _jitter(rng, floor, 14)
        rim = _jitter(rng, tuple(0.8 * c for c in floor), 10) if rng.random() < 0.6 else _jitter(
            rng, (70, 90, 110), 20
        )
        n_looks = int(rng.choice([1, 1, 2, 3]))
        picks = rng.choice(len(_LOOKS), size=n_looks, replace=False)
        looks = tuple(
            dataclasses.replace(
                _LOOKS[int(i)],
                body=_jitter(rng, _LOOKS[int(i)].body, 10),
                pip=_jitter(rng, _LOOKS[int(i)].pip, 8),
            )
            for i in picks
        )
        angle = rng.uniform(0, 2 * math.pi)
        return cls(
            floor_kind=kind,
            floor=floor,
            rim=rim,
            table=_jitter(rng, (40, 50, 60), 20),
            margin=float(rng.uniform(0.0, 0.06)),
            rim_width=float(rng.uniform(0.025, 0.05)),
            die_side=float(rng.uniform(0.045, 0.08)),
            die_side_jitter=float(rng.uniform(0.0, 0.05)),
            corner=float(rng.uniform(0.1, 0.22)),
            pip_radius=float(rng.uniform(0.075, 0.1)),
            looks=looks,
            light_gradient=(float(rng.uniform(-0.25, 0.25)), float(rng.uniform(-0.25, 0.25))),
            light_center=(float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.3, 0.7))),
            vignette=float(rng.uniform(0.0, 0.35)),
            brightness=float(rng.uniform(0.8, 1.1)),
            shadow_offset=(0.12 * math.cos(angle), 0.12 * math.sin(angle)),
            shadow_blur=float(rng.uniform(0.06, 0.14)),
            shadow_strength=float(rng.uniform(0.25, 0.55)),
            blur=float(rng.uniform(0.4, 1.1)),
            noise=int(rng.integers(2, 7)),
            glare=float(rng.choice([0.0, 0.0, 0.3, 0.7])),
            touching=float(rng.uniform(0.0, 0.3)),
            texture_seed=int(rng.integers(2**31)),
            # A quarter of the trays have some dice leaning on the wall, so a reader
            # trained on these frames learns to say "tilted" rather than guess.
            tilt=float(rng.choice([0.0, 0.0, 0.0, 0.15])),
            # Some trays hold a pen, a card or a coin, which a reader must not count.
            clutter=int(rng.choice([0, 0, 0, 1, 2])),
        )


def _jitter(rng: np.random.Generator, colour: Sequence[float], amount: float) -> BGR:
    b, g, r = (float(np.clip(c + rng.uniform(-amount, amount), 0, 255)) for c in colour)
    return (b, g, r)


# ---------------------------------------------------------------------------- background


@dataclass(frozen=True)
class _Tray:
    """A rendered, lit tray without dice, and where dice may lie."""

    image: np.ndarray  # uint8 HxWx3, blurred and lit
    gain: np.ndarray  # small float32 light field, to light dice the same way
    floor: tuple[float, float, float, float]  # x0, y0, x1, y1 where dice may lie


def _build_tray(style: TrayStyle, size: Size) -> _Tray:
    # Painted at half resolution and scaled up: the tray is smooth apart from its grain,
    # and this makes a fresh tray (render_tray for training) four times cheaper.
    full_w, full_h = size
    width, height = max(8, full_w // 2), max(8, full_h // 2)
    trng = np.random.default_rng(style.texture_seed)
    img: np.ndarray = np.empty((height, width, 3), np.float32)
    img[:] = style.table
    m = style.margin * width
    rim = max(3.0, style.rim_width * width)
    tx0, ty0, tx1, ty1 = m, m, width - m, height - m
    fx0, fy0, fx1, fy1 = tx0 + rim, ty0 + rim, tx1 - rim, ty1 - rim
    # The four walls seen from above, shaded differently because the light comes from
    # one side: a camera sees the lit wall brighter than the one facing away.
    outer = [(tx0, ty0), (tx1, ty0), (tx1, ty1), (tx0, ty1)]
    inner = [(fx0, fy0), (fx1, fy0), (fx1, fy1), (fx0, fy1)]
    for k, shade in enumerate((1.15, 0.95, 0.78, 1.0)):
        quad = np.array([outer[k], outer[(k + 1) % 4], inner[(k + 1) % 4], inner[k]], np.float32)
        colour = tuple(min(255.0, c * shade) for c in style.rim)
        cv2.fillConvexPoly(img, np.round(quad).astype(np.int32), colour, cv2.LINE_AA)
    # Floor texture, made at low resolution and scaled up (cheap, and felt/wood grain is
    # low-frequency anyway).
    fw, fh = max(2, int(fx1 - fx0)), max(2, int(fy1 - fy0))
    sw, sh = max(2, fw // 2), max(2, fh // 2)
    if style.floor_kind == "wood":
        ys = np.arange(sh, dtype=np.float32)[:, None]
        xs = np.arange(sw, dtype=np.float32)[None, :]
        wobble = cv2.GaussianBlur(trng.normal(0, 6, (sh, sw)).astype(np.float32), (0, 0), 8)
        grain = np.sin((ys * 0.5 + xs * 0.03 + wobble) * trng.uniform(0.2, 0.5))
        tex = (grain * 10 + trng.normal(0, 3, (sh, sw))).astype(np.float32)
    elif style.floor_kind == "felt":
        tex = cv2.GaussianBlur(trng.normal(0, 9, (sh, sw)).astype(np.float32), (0, 0), 0.8)
    else:
        tex = cv2.GaussianBlur(trng.normal(0, 4, (sh, sw)).astype(np.float32), (0, 0), 3)
    tex = cv2.resize(tex, (fw, fh), interpolation=cv2.INTER_LINEAR)
    floor: np.ndarray = np.empty((fh, fw, 3), np.float32)
    floor[:] = style.floor
    floor += tex[..., None]
    # Ambient occlusion: the floor darkens towards the walls.
    occ: np.ndarray = np.zeros((sh, sw), np.float32)
    occ[2:-2, 2:-2] = 1.0
    occ = cv2.GaussianBlur(occ, (0, 0), max(1.0, min(sw, sh) * 0.02))
    occ = cv2.resize(occ, (fw, fh), interpolation=cv2.INTER_LINEAR)
    floor *= (0.8 + 0.2 * occ)[..., None]
    ix0, iy0 = int(fx0), int(fy0)
    img[iy0 : iy0 + fh, ix0 : ix0 + fw] = floor
    # Uneven light: a gradient and a vignette around an off-centre light.
    gw, gh = 64, max(2, round(64 * height / width))
    gx = np.linspace(-0.5, 0.5, gw, dtype=np.float32)[None, :]
    gy = np.linspace(-0.5, 0.5, gh, dtype=np.float32)[:, None]
    cx, cy = style.light_center
    r2 = (gx + 0.5 - cx) ** 2 + ((gy + 0.5 - cy) * height / width) ** 2
    gain = style.brightness * (1 + style.light_gradient[0] * gx + style.light_gradient[1] * gy)
    gain = (gain * (1 - style.vignette * r2 / 0.5)).astype(np.float32)
    full_gain = cv2.resize(gain, (width, height), interpolation=cv2.INTER_LINEAR)
    img *= full_gain[..., None]
    img = cv2.GaussianBlur(img, (0, 0), max(0.3, style.blur / 2))
    image = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), size, interpolation=cv2.INTER_LINEAR)
    sx, sy = full_w / width, full_h / height
    return _Tray(image=image, gain=gain, floor=(fx0 * sx, fy0 * sy, fx1 * sx, fy1 * sy))


# --------------------------------------------------------------------------------- dice


_SUPER = 2  # sprites are drawn at twice the final scale, so the warp antialiases them


@dataclass(frozen=True)
class _Sprite:
    rgba: np.ndarray  # float32 sxsx4: colour premultiplied by alpha, then alpha (0..1)
    alpha: np.ndarray  # float32 sxs, 0..1 (for the shadow)
    side: float  # top-face side in frame pixels


def _rounded_square(img: np.ndarray, lo: float, hi: float, radius: float, colour: float | tuple[float, ...]) -> None:
    """Fill a rounded square from ``lo`` to ``hi`` (both axes) with ``colour``."""
    r = max(1, int(round(radius)))
    a, b = int(round(lo)), int(round(hi))
    r = min(r, (b - a) // 2)
    cv2.rectangle(img, (a + r, a), (b - r, b), colour, -1, cv2.LINE_AA)
    cv2.rectangle(img, (a, a + r), (b, b - r), colour, -1, cv2.LINE_AA)
    for cx in (a + r, b - r):
        for cy in (a + r, b - r):
            cv2.circle(img, (cx, cy), r, colour, -1, cv2.LINE_AA)


def _marble(colour: np.ndarray, alpha: np.ndarray, look: DieLook, value: int, s: float) -> np.ndarray:
    """Swirled veins of ``look.vein`` through the body, as on marbled dice.

    Veins are where a smooth random field crosses a few level sets; the field is seeded
    by the die, so a die keeps its pattern frame to frame.
    """
    assert look.vein is not None
    n = colour.shape[0]
    seed = zlib.crc32(repr((look.body, value, round(s))).encode())
    coarse = np.random.default_rng(seed).normal(0, 1, (5, 5)).astype(np.float32)
    field = cv2.resize(coarse, (n, n), interpolation=cv2.INTER_CUBIC)
    veins = np.clip(1.6 - np.abs(np.sin(field * 4.0)) * 4.0, 0, 1).astype(np.float32)
    veins = cv2.GaussianBlur(veins, (0, 0), max(0.8, s * 0.01))[..., None] * (alpha[..., None] > 0)
    return np.asarray(colour * (1 - veins) + np.asarray(look.vein, np.float32) * veins, np.float32)


def _make_sprite(value: int, look: DieLook, side: float, style: TrayStyle) -> _Sprite:
    """Draw one die face-up: bevelled rounded body and pips in the real layout."""
    s = side * _SUPER
    canvas = int(math.ceil(s)) + 6
    lo, hi = 3.0, 3.0 + s
    colour: np.ndarray = np.zeros((canvas, canvas, 3), np.float32)
    alpha = np.zeros((canvas, canvas), np.float32)
    _rounded_square(alpha, lo, hi, style.corner * s, 1.0)
    # The rounded edges of a die seen from above catch less light than the flat top.
    edge = tuple(c * 0.72 for c in look.body)
    _rounded_square(colour, lo, hi, style.corner * s, edge)
    bevel = 0.06 * s
    _rounded_square(colour, lo + bevel, hi - bevel, style.corner * s * 0.8, look.body)
    if look.vein is not None:
        colour = _marble(colour, alpha, look, value, s)
    colour = cv2.GaussianBlur(colour, (0, 0), max(0.5, bevel * 0.5))
    if look.translucent:
        # The tray shows through the body; the painted pips below stay opaque.
        alpha *= np.float32(0.72)
    centre = (lo + hi) / 2
    offset = 0.27 * s
    for u, v in PIP_LAYOUTS[value]:
        x, y = centre + u * offset, centre + v * offset
        if value == 1 and look.big_one is not None:
            radius, pip = 0.17 * s, look.big_one
        else:
            radius, pip = style.pip_radius * s, look.pip
        # Pips are dimples: a slightly darker rim around the paint.
        rim = tuple(c * 0.8 for c in pip)
        cv2.circle(colour, (round(x * 4), round(y * 4)), round(radius * 4), rim, -1, cv2.LINE_AA, 2)
        inner = round(radius * 0.82 * 4)
        cv2.circle(colour, (round(x * 4), round(y * 4)), inner, pip, -1, cv2.LINE_AA, 2)
        if look.translucent:
            cv2.circle(alpha, (round(x * 4), round(y * 4)), round(radius * 4), 1.0, -1, cv2.LINE_AA, 2)
    # Premultiplied, so one warp moves colour and coverage together and averaging
    # warps (motion blur) blends the edges right.
    rgba = np.dstack([colour * alpha[..., None], alpha]).astype(np.float32)
    return _Sprite(rgba=rgba, alpha=alpha, side=side)


def _make_tilted_sprite(value: int, look: DieLook, side: float, lean: float, style: TrayStyle) -> _Sprite:
    """A die leaning against the wall, seen from above.

    Tipped by ``lean`` degrees about its bottom edge, its top face shows foreshortened by
    cos(lean) (the wall side is sprite-up) and the face below it by sin(lean), darker
    because it faces away from the light above. :func:`_tilted_face_center` finds
    where the top face lands in the frame.
    """
    flat = _make_sprite(value, look, side, style)
    # The visible side face: any face adjacent to the top one (not it, not its opposite).
    neighbour = next(v for v in (2, 3, 1, 5, 4, 6) if v not in (value, 7 - value))
    below = _make_sprite(neighbour, look, side, style)
    n = flat.rgba.shape[1]
    c, s = math.cos(math.radians(lean)), math.sin(math.radians(lean))
    top: np.ndarray = cv2.resize(flat.rgba, (n, max(2, round(n * c))), interpolation=cv2.INTER_AREA)
    low: np.ndarray = cv2.resize(below.rgba, (n, max(2, round(n * s))), interpolation=cv2.INTER_AREA)
    low[..., :3] *= np.float32(0.6)
    rgba = np.ascontiguousarray(np.vstack([top, low]))
    return _Sprite(rgba=rgba, alpha=np.ascontiguousarray(rgba[..., 3]), side=side)


def _tilted_face_center(sprite: _Sprite, center: tuple[float, float], angle: float, lean: float) -> tuple[float, float]:
    """Frame position of the top face's centre of a tilted die drawn at ``center``."""
    h = sprite.alpha.shape[0] / _SUPER
    top = h * math.cos(math.radians(lean)) / (math.cos(math.radians(lean)) + math.sin(math.radians(lean)))
    dy = top / 2 - h / 2  # from the sprite centre, along sprite-down
    a = math.radians(angle)
    # Same rotation as the warp: sprite (0, dy) maps to (dy sin a, dy cos a).
    return (center[0] + dy * math.sin(a), center[1] + dy * math.cos(a))


@dataclass(frozen=True)
class _Placement:
    """Where and how one die is drawn in a frame."""

    sprite: _Sprite
    center: tuple[float, float]
    angle: float
    lift: float = 0.0  # 0 on the floor; >0 in the air (drawn bigger, shadow further)
    velocity: tuple[float, float] = (0.0, 0.0)  # pixels per frame, for motion blur
    glare: tuple[float, float, float] | None = None  # dx, dy (fractions of side), strength
    shadow_scale: float = 1.0  # flat things (a card, a coin) cast a shorter, sharper shadow


def _die_matrix(p: _Placement, origin: tuple[int, int], shift: tuple[float, float] = (0, 0)) -> np.ndarray:
    """Affine map from sprite pixels to ROI pixels for placement ``p``."""
    h, w = p.sprite.alpha.shape
    cx, cy = (w - 1) / 2, (h - 1) / 2
    m = cv2.getRotationMatrix2D((cx, cy), p.angle, (1 + p.lift) / _SUPER)
    m[0, 2] += p.center[0] + shift[0] - origin[0] - cx
    m[1, 2] += p.center[1] + shift[1] - origin[1] - cy
    return m


def _motion_offsets(velocity: tuple[float, float]) -> list[tuple[float, float]]:
    """Sub-positions along the motion where the shutter catches the die.

    The shutter is open for about half a frame; averaging a few warps along that path is
    a motion blur that costs a handful of small warps instead of a large 2-D filter.
    """
    vx, vy = velocity[0] * 0.5, velocity[1] * 0.5
    length = math.hypot(vx, vy)
    if length < 1.5:
        return [(0.0, 0.0)]
    n = min(5, 2 + int(length / 6))
    return [(vx * (k / (n - 1) - 0.5), vy * (k / (n - 1) - 0.5)) for k in range(n)]


def _soft(img: np.ndarray, sigma: float) -> np.ndarray:
    """A wide blur at a cost independent of its width: two box filters ~ one Gaussian."""
    k = max(1, int(round(math.sqrt(6 * sigma * sigma + 1))))
    return np.asarray(cv2.blur(cv2.blur(img, (k, k)), (k, k)))


def _composite(
    frame: np.ndarray,
    tray: _Tray,
    style: TrayStyle,
    placements: Sequence[_Placement],
    *,
    boxes: bool = False,
) -> list[tuple[float, float, float, float]]:
    """Draw dice (shadow, body, glare, blur) into ``frame`` in place.

    With ``boxes``, returns each die's axis-aligned box (where its coverage exceeds half).
    """
    height, width = frame.shape[:2]
    found: list[tuple[float, float, float, float]] = []
    gh, gw = tray.gain.shape
    for p in placements:
        side = p.sprite.side * (1 + p.lift)
        tall = side * p.shadow_scale
        shadow_shift = (
            style.shadow_offset[0] * tall * (1 + 6 * p.lift),
            style.shadow_offset[1] * tall * (1 + 6 * p.lift),
        )
        sigma = max(1.0, style.shadow_blur * tall * (1 + 4 * p.lift))
        reach = side * 0.75 + abs(shadow_shift[0]) + abs(shadow_shift[1]) + 2.5 * sigma
        reach += (abs(p.velocity[0]) + abs(p.velocity[1])) / 4 + 4
        x0, y0 = max(0, int(p.center[0] - reach)), max(0, int(p.center[1] - reach))
        x1, y1 = min(width, int(p.center[0] + reach) + 1), min(height, int(p.center[1] + reach) + 1)
        if x1 <= x0 or y1 <= y0:
            found.append((p.center[0], p.center[1], p.center[0], p.center[1]))
            continue
        dsize = (x1 - x0, y1 - y0)
        offsets = _motion_offsets(p.velocity)
        layer: np.ndarray = cv2.warpAffine(
            p.sprite.rgba, _die_matrix(p, (x0, y0), offsets[0]), dsize, flags=cv2.INTER_LINEAR
        )
        for offset in offsets[1:]:
            layer += cv2.warpAffine(p.sprite.rgba, _die_matrix(p, (x0, y0), offset), dsize, flags=cv2.INTER_LINEAR)
        if len(offsets) > 1:
            layer *= np.float32(1.0 / len(offsets))
        m_shadow = _die_matrix(p, (x0, y0), shadow_shift)
        shadow = _soft(cv2.warpAffine(p.sprite.alpha, m_shadow, dsize, flags=cv2.INTER_LINEAR), sigma)
        shadow *= np.float32(style.shadow_strength / (1 + 3 * p.lift))
        alpha = layer[..., 3]
        if boxes:
            ys, xs = np.nonzero(alpha > 0.5)
            if len(xs):
                found.append((float(xs.min() + x0), float(ys.min() + y0), float(xs.max() + x0 + 1), float(ys.max() + y0 + 1)))
            else:
                found.append((p.center[0], p.center[1], p.center[0], p.center[1]))
        gi = min(gh - 1, max(0, int(p.center[1] / height * gh)))
        gj = min(gw - 1, max(0, int(p.center[0] / width * gw)))
        g = float(tray.gain[gi, gj])
        # A per-channel scalar (the stubs do not know this form); ~4x faster than a
        # strided numpy multiply of the colour channels.
        layer = cv2.multiply(layer, (g, g, g, 1.0))  # type: ignore[call-overload]
        if p.glare is not None:
            gx, gy, strength = p.glare
            yy, xx = np.ogrid[: dsize[1], : dsize[0]]
            cx = p.center[0] - x0 + gx * side
            cy = p.center[1] - y0 + gy * side
            spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (0.09 * side) ** 2)).astype(np.float32)
            spot *= alpha * np.float32(strength)
            layer = cv2.add(layer, cv2.merge([spot, spot, spot, np.zeros_like(spot)]))
        # The lens blurs the die, not the (already blurred) tray behind it again.
        layer = cv2.GaussianBlur(layer, (0, 0), style.blur)
        # Over-compositing of the premultiplied die on the shadowed tray, with OpenCV calls
        # on contiguous planes (numpy's strided channel views cost 3x more here).
        keep = cv2.multiply(1 - shadow, 1 - cv2.extractChannel(layer, 3))
        roi = frame[y0:y1, x0:x1].astype(np.float32)
        out = cv2.multiply(roi, cv2.cvtColor(keep, cv2.COLOR_GRAY2BGR))
        cv2.add(out, cv2.cvtColor(layer, cv2.COLOR_BGRA2BGR), dst=out)
        frame[y0:y1, x0:x1] = cv2.convertScaleAbs(out)  # values are >= 0: this just saturates
    return found


# ------------------------------------------------------------------------------- layout


def _corners(center: tuple[float, float], side: float, angle: float, length: float | None = None) -> np.ndarray:
    """The four corners of a die's footprint: ``side`` wide, ``length`` (default side)
    along sprite-up; same rotation sense as the warp."""
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    hx, hy = side / 2, (side if length is None else length) / 2
    local = np.array([(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)], np.float64)
    rot = np.array([[c, s], [-s, c]])
    return np.asarray(local @ rot.T + np.asarray(center), np.float64)


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test for two convex quads: True when they overlap (touching is fine)."""
    for poly in (a, b):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() + 1e-6 or pb.max() <= pa.min() + 1e-6:
                return False
    return True


def _layout(
    rng: np.random.Generator,
    sides: Sequence[float],
    floor: tuple[float, float, float, float],
    touching: float,
    leans: Sequence[float | None] | None = None,
    on_die: Sequence[bool] | None = None,
) -> list[tuple[tuple[float, float], float]]:
    """Place dice on the floor without overlap; some touch a neighbour face to face.

    A die with a ``lean`` (degrees) leans against one of the four walls: its footprint is
    longer, and its sprite-up side faces the wall; a lean of 0 is a flat die pushed
    against a wall. A leaning die marked ``on_die`` leans on a flat die instead: seen
    from above that is the same picture, the flat die's side standing for the wall (a
    cube tipped against a cube of its size rests its top edge on the other's side face,
    below its top). Such dice are placed last, and against the wall when no flat die
    could hold them. Returns (centre, angle) per die.
    """
    fx0, fy0, fx1, fy1 = floor
    leans = leans if leans is not None else [None] * len(sides)
    on_die = on_die if on_die is not None else [False] * len(sides)
    placed: dict[int, tuple[tuple[float, float], float]] = {}
    flat: list[int] = []  # indices of flat dice, the only ones others touch face to face
    quads: list[np.ndarray] = []
    order = sorted(range(len(sides)), key=lambda i: bool(on_die[i] and leans[i]))
    for i in order:
        side, lean = sides[i], leans[i]
        length = side if lean is None else side * (math.cos(math.radians(lean)) + math.sin(math.radians(lean)))
        for attempt in range(400):
            if lean and on_die[i] and flat and attempt < 200:
                j = flat[int(rng.integers(len(flat)))]
                (jx, jy), ja = placed[j]
                # Out of one of the flat die's four faces (_corners' sense of rotation),
                # the leaning die's sprite-up side towards it.
                a = math.radians(ja + 90.0 * int(rng.integers(4)))
                ux, uy = math.cos(a), -math.sin(a)
                d = sides[j] / 2 + length / 2 + float(rng.uniform(0.3, 1.5))
                center = (jx + d * ux, jy + d * uy)
                angle = math.degrees(math.atan2(ux, uy)) + float(rng.uniform(-3, 3))
            elif lean is not None:
                wall = int(rng.integers(4))
                angle = 90.0 * wall + float(rng.uniform(-2, 2))
                gap = length / 2 + 2 + 0.04 * side
                along_x = float(rng.uniform(fx0 + side, fx1 - side))
                along_y = float(rng.uniform(fy0 + side, fy1 - side))
                center = [(along_x, fy0 + gap), (fx0 + gap, along_y), (along_x, fy1 - gap), (fx1 - gap, along_y)][wall]
            elif flat and rng.random() < touching:
                j = flat[int(rng.integers(len(flat)))]
                (jx, jy), angle = placed[j]
                d = (side + sides[j]) / 2 + rng.uniform(0.5, 2.0)
                a = math.radians(angle) + rng.integers(4) * math.pi / 2
                # Same rotation sense as _corners: local +x maps to (cos a, -sin a).
                center = (jx + d * math.cos(a), jy - d * math.sin(a))
            else:
                angle = float(rng.uniform(0, 360))
                center = (float(rng.uniform(fx0, fx1)), float(rng.uniform(fy0, fy1)))
            quad = _corners(center, side, angle, length)
            inside = (
                quad[:, 0].min() >= fx0 + 2
                and quad[:, 0].max() <= fx1 - 2
                and quad[:, 1].min() >= fy0 + 2
                and quad[:, 1].max() <= fy1 - 2
            )
            if inside and not any(_overlap(quad, q) for q in quads):
                placed[i] = (center, angle)
                quads.append(quad)
                if lean is None:
                    flat.append(i)
                break
        else:
            raise ValueError(f"cannot fit {len(sides)} dice of about {side:.0f} px in the tray")
    return [placed[i] for i in range(len(sides))]


# -------------------------------------------------------------------------------- noise

_NOISE_PAD = 61
_noise_banks: dict[tuple[int, int, int], np.ndarray] = {}


def _noise_bank(sigma: int, height: int, width: int) -> np.ndarray:
    """A fixed field of Gaussian noise a bit larger than the frame.

    Each frame adds a window at a random offset: independent-looking noise per frame for
    ~1.5 ms instead of ~40 ms of fresh normal draws. Seeded by its shape, so deterministic.
    """
    key = (sigma, height, width)
    bank = _noise_banks.get(key)
    if bank is None:
        nrng = np.random.default_rng([sigma, height, width])
        raw = nrng.standard_normal((height + _NOISE_PAD, width + _NOISE_PAD, 3), dtype=np.float32)
        bank = np.rint(raw * sigma).astype(np.int16)
        if len(_noise_banks) > 8:
            _noise_banks.clear()
        _noise_banks[key] = bank
    return bank


def _add_noise(rng: np.random.Generator, frame: np.ndarray, sigma: int) -> np.ndarray:
    if sigma <= 0:
        return frame
    h, w = frame.shape[:2]
    bank = _noise_bank(sigma, h, w)
    oy, ox = (int(v) for v in rng.integers(0, _NOISE_PAD, 2))
    return np.asarray(cv2.add(frame, bank[oy : oy + h, ox : ox + w], dtype=cv2.CV_8U))


# ---------------------------------------------------------------------------- rendering


def _kit(rng: np.random.Generator, style: TrayStyle, count: int) -> list[tuple[DieLook, float]]:
    """The physical dice in play: a look and a side length for each."""
    return [
        (
            style.looks[int(rng.integers(len(style.looks)))],
            style.die_side * (1 + rng.uniform(-style.die_side_jitter, style.die_side_jitter)),
        )
        for _ in range(count)
    ]


def _glare(rng: np.random.Generator, style: TrayStyle) -> tuple[float, float, float] | None:
    if rng.random() >= style.glare:
        return None
    # The highlight sits toward the light, away from the shadow.
    return (
        -style.shadow_offset[0] * 2.5 + rng.uniform(-0.08, 0.08),
        -style.shadow_offset[1] * 2.5 + rng.uniform(-0.08, 0.08),
        float(rng.uniform(60, 160)),
    )


def _clutter_sprite(rng: np.random.Generator, kind: str, die: float) -> tuple[_Sprite, float, float, float]:
    """A thing that is not a die, drawn flat: returns (sprite, length, width, height),
    sizes in frame pixels (length along sprite-up), height in dice for its shadow."""
    if kind == "pen":
        length, width, height = die * rng.uniform(4.0, 6.0), die * rng.uniform(0.14, 0.2), 0.6
    elif kind == "card":
        width = die * rng.uniform(3.2, 3.8)
        length, height = width * 1.4, 0.05
    else:  # coin
        length = width = die * rng.uniform(1.1, 1.5)
        height = 0.15
    w, h = int(math.ceil(width * _SUPER)) + 6, int(math.ceil(length * _SUPER)) + 6
    colour: np.ndarray = np.zeros((h, w, 3), np.float32)
    alpha: np.ndarray = np.zeros((h, w), np.float32)
    x0, y0, x1, y1 = 3, 3, w - 4, h - 4
    if kind == "pen":
        body = _jitter(rng, [(150, 60, 20), (30, 30, 30), (40, 40, 180), (190, 190, 195)][int(rng.integers(4))], 10)
        r = (x1 - x0) // 2
        for img, c in ((alpha, 1.0), (colour, body)):
            cv2.rectangle(img, (x0, y0 + r), (x1, y1 - 3 * r), c, -1, cv2.LINE_AA)
            cv2.circle(img, ((x0 + x1) // 2, y0 + r), r, c, -1, cv2.LINE_AA)
            tip = np.array([(x0, y1 - 3 * r), (x1, y1 - 3 * r), ((x0 + x1) // 2, y1)], np.int32)
            cv2.fillConvexPoly(img, tip, c if img is alpha else (190.0, 200.0, 205.0), cv2.LINE_AA)
        cv2.line(colour, ((x0 + x1) // 2, y0 + r), ((x0 + x1) // 2, y0 + (y1 - y0) // 4), (220, 220, 225), max(1, r // 3))
    elif kind == "card":
        r = max(2, (x1 - x0) // 12)
        _rounded_square_rect(alpha, (x0, y0, x1, y1), r, 1.0)
        _rounded_square_rect(colour, (x0, y0, x1, y1), r, (238, 240, 242))
        ink = (40, 40, 190) if rng.random() < 0.5 else (30, 30, 30)
        # Suit marks laid out like a 2-10 card: the very pips a reader must not count.
        count = int(rng.integers(2, 11))
        cols = 1 if count <= 3 else 2
        rows = math.ceil(count / cols)
        pip = max(2, (x1 - x0) // 14)
        for k in range(count):
            cx = (x0 + x1) / 2 if cols == 1 else x0 + (x1 - x0) * (0.32 if k % cols == 0 else 0.68)
            cy = y0 + (y1 - y0) * (0.2 + 0.6 * (k // cols + 0.5) / rows)
            cv2.circle(colour, (round(cx), round(cy)), pip, ink, -1, cv2.LINE_AA)
        scale = (x1 - x0) / 160
        # The rank in the corner (putText draws on 8-bit pictures only).
        mark = np.zeros((h, w), np.uint8)
        cv2.putText(mark, str(count), (x0 + 4, y0 + int(40 * scale)), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, max(1, int(3 * scale)))
        colour[mark > 0] = ink
    else:
        metal = (40.0, 160.0, 200.0) if rng.random() < 0.5 else (175.0, 178.0, 182.0)
        mid, r = ((x0 + x1) // 2, (y0 + y1) // 2), (x1 - x0) // 2
        cv2.circle(alpha, mid, r, 1.0, -1, cv2.LINE_AA)
        cv2.circle(colour, mid, r, tuple(v * 0.75 for v in metal), -1, cv2.LINE_AA)
        cv2.circle(colour, mid, int(r * 0.86), metal, -1, cv2.LINE_AA)
        cv2.circle(colour, mid, int(r * 0.5), tuple(v * 0.85 for v in metal), max(1, r // 12), cv2.LINE_AA)
    colour = cv2.GaussianBlur(colour, (0, 0), 0.7)
    rgba = np.dstack([colour * alpha[..., None], alpha]).astype(np.float32)
    return _Sprite(rgba=rgba, alpha=alpha, side=max(length, width)), length, width, height


def _rounded_square_rect(img: np.ndarray, rect: tuple[int, int, int, int], r: int, colour: float | tuple[float, ...]) -> None:
    """Fill a rounded rectangle (``rect`` is x0, y0, x1, y1)."""
    x0, y0, x1, y1 = rect
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), colour, -1, cv2.LINE_AA)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), colour, -1, cv2.LINE_AA)
    for cx in (x0 + r, x1 - r):
        for cy in (y0 + r, y1 - r):
            cv2.circle(img, (cx, cy), r, colour, -1, cv2.LINE_AA)


def _clutter(
    rng: np.random.Generator,
    style: TrayStyle,
    floor: tuple[float, float, float, float],
    sides: Sequence[float],
    poses: Sequence[tuple[tuple[float, float], float]],
    leans: Sequence[float | None],
) -> list[_Placement]:
    """Place ``style.clutter`` non-dice things on the floor, clear of every die.

    A thing that finds no room is left out: clutter is decoration, never a reason to fail.
    """
    if style.clutter <= 0:
        return []
    taken = [
        _corners(c, s, a, s if lean is None else s * (math.cos(math.radians(lean)) + math.sin(math.radians(lean))))
        for s, (c, a), lean in zip(sides, poses, leans)
    ]
    die = float(np.median(sides)) if sides else style.die_side * (floor[2] - floor[0])
    fx0, fy0, fx1, fy1 = floor
    out = []
    for _ in range(style.clutter):
        kind = ["pen", "card", "coin"][int(rng.integers(3))]
        sprite, length, width, height = _clutter_sprite(rng, kind, die)
        for _attempt in range(60):
            angle = float(rng.uniform(0, 360))
            center = (float(rng.uniform(fx0, fx1)), float(rng.uniform(fy0, fy1)))
            quad = _corners(center, width, angle, length)
            inside = quad[:, 0].min() >= fx0 and quad[:, 0].max() <= fx1 and quad[:, 1].min() >= fy0 and quad[:, 1].max() <= fy1
            if inside and not any(_overlap(quad, q) for q in taken):
                taken.append(quad)
                out.append(_Placement(sprite, center, angle, shadow_scale=height * die / sprite.side))
                break
    return out


def _check_values(dice: Sequence[int]) -> tuple[int, ...]:
    values = tuple(int(v) for v in dice)
    bad = [v for v in values if v not in PIP_LAYOUTS]
    if bad:
        raise ValueError(f"die values must be 1-6, got {bad}")
    return values


def render_tray(
    rng: np.random.Generator,
    dice: Sequence[int],
    size: Size = (1280, 960),
    *,
    style: TrayStyle | None = None,
) -> tuple[np.ndarray, tuple[SimDie, ...]]:
    """Render one still frame of a tray with ``dice`` (values 1-6) settled in it.

    ``size`` is (width, height). A style is drawn from ``rng`` when not given. Returns the
    BGR uint8 frame and the truth for each die, in the order of ``dice``.
    """
    values = _check_values(dice)
    style = style or TrayStyle.random(rng, size)
    tray = _build_tray(style, size)
    width = size[0]
    kit = _kit(rng, style, len(values))
    sides = [side * width for _, side in kit]
    leans: list[float | None] = [None] * len(values)
    if style.tilt > 0:
        leans = [float(rng.uniform(25, 45)) if rng.random() < style.tilt else None for _ in values]
    if style.wall > 0:
        # A flat die against the wall is placed as a leaning one with no lean.
        leans = [0.0 if lean is None and rng.random() < style.wall else lean for lean in leans]
    on_die = [False] * len(values)
    if style.on_die > 0:
        on_die = [bool(lean) and rng.random() < style.on_die for lean in leans]
    poses = _layout(rng, sides, tray.floor, style.touching, leans, on_die)
    clutter = _clutter(rng, style, tray.floor, sides, poses, leans)
    placements = []
    centers = []
    for v, (look, _), s, (center, angle), lean in zip(values, kit, sides, poses, leans):
        if not lean:
            sprite = _make_sprite(v, look, s, style)
            centers.append(center)
        else:
            sprite = _make_tilted_sprite(v, look, s, lean, style)
            centers.append(_tilted_face_center(sprite, center, angle, lean))
        placements.append(_Placement(sprite, center, angle, glare=_glare(rng, style)))
    frame = tray.image.copy()
    _composite(frame, tray, style, clutter)
    boxes = _composite(frame, tray, style, placements, boxes=True)
    truth = tuple(
        SimDie(v, (float(c[0]), float(c[1])), box, float(a % 360), bool(lean), float(s))
        for v, s, c, (_, a), box, lean in zip(values, sides, centers, poses, boxes, leans)
    )
    return _add_noise(rng, frame, style.noise), truth


def empty_tray(style: TrayStyle, size: Size = (1280, 960), *, seed: int = 0) -> np.ndarray:
    """The tray of ``style`` with nothing in it, as a camera sees it between throws
    (with sensor noise of its own, drawn from ``seed``): a calibration's empty-tray
    picture for the frames :func:`render_tray` makes with that style and size."""
    return _add_noise(np.random.default_rng(seed), _build_tray(style, size).image, style.noise)


def render_close_up(rng: np.random.Generator, n: int, die_side: float,
                    size: Size = (640, 480)) -> tuple[np.ndarray, tuple[SimDie, ...]]:
    """A close-up: ``n`` flat dice, each ``die_side`` of the frame's width across.

    The tray styles draw dice 4.5-8 % of the width; a phone held near the tray sees
    them far bigger, which the reader must find too.
    """
    style = dataclasses.replace(TrayStyle.random(rng, size), die_side=die_side, tilt=0.0)
    values = [int(v) for v in rng.integers(1, 7, size=n)]
    return render_tray(rng, values, size, style=style)


# The kinds of trays the tests and the benchmark read, each a fixed style change and a
# number of dice: ``(style -> style, dice count from rng)``.
TRAY_KINDS: dict[str, tuple[Callable[[TrayStyle], TrayStyle],
                            Callable[[np.random.Generator], int]]] = {
    "leaning": (lambda s: dataclasses.replace(s, tilt=0.5, clutter=0), lambda rng: 4),
    "wall": (lambda s: dataclasses.replace(s, tilt=0.3, wall=0.5, clutter=0),
             lambda rng: int(rng.integers(3, 7))),
    "on_die": (lambda s: dataclasses.replace(s, tilt=0.35, on_die=1.0, clutter=0),
               lambda rng: int(rng.integers(4, 6))),
    "cluster": (lambda s: dataclasses.replace(s, tilt=0.0, clutter=0, touching=0.6,
                                              die_side=min(s.die_side, 0.06)),
                lambda rng: 6),
}


def styled_trays(kind: str, seeds: range, size: Size = (640, 480), count: int | None = None
                 ) -> Iterator[tuple[np.ndarray, tuple[SimDie, ...], TrayStyle]]:
    """The trays of :data:`TRAY_KINDS` ``kind``, one per seed (a seed whose dice do not
    fit is skipped), each with its style: for :func:`empty_tray`, and the outline at the
    style's margin, as a calibration takes them. ``count`` dice instead of the kind's."""
    change, kind_count = TRAY_KINDS[kind]
    for seed in seeds:
        rng = np.random.default_rng(seed)
        style = change(TrayStyle.random(rng, size))
        n = kind_count(rng) if count is None else count
        values = [int(v) for v in rng.integers(1, 7, size=n)]
        try:
            image, truth = render_tray(rng, values, size, style=style)
        except ValueError:
            continue
        yield image, truth, style


def leaning_trays(seeds: range) -> Iterator[tuple[np.ndarray, tuple[SimDie, ...]]]:
    """640x480 trays of four dice, about half of them leaning on the wall (tilted), no
    clutter: one tray per seed, the same for every caller (tests, the benchmark)."""
    for image, truth, _style in styled_trays("leaning", seeds):
        yield image, truth


def wall_trays(seeds: range, size: Size = (640, 480)
               ) -> Iterator[tuple[np.ndarray, tuple[SimDie, ...], tuple[float, float, float, float]]]:
    """Trays of three to six dice, many by the wall: each die leans on it with a chance
    of 30 %, and half the others lie flat against it. One tray per seed, the same for
    every caller (tests, the benchmark), with the tray's outline ``(x0, y0, x1, y1)`` for
    a calibration; a seed whose dice do not fit is skipped."""
    for image, truth, style in styled_trays("wall", seeds, size):
        m = style.margin * size[0]
        yield image, truth, (m, m, size[0] - m, size[1] - m)


def die_leaning_trays(seeds: range, size: Size = (640, 480)
                      ) -> Iterator[tuple[np.ndarray, tuple[SimDie, ...]]]:
    """Trays of four or five dice, each leaning on a flat die with a chance of 35 %
    (on the wall when no flat die can hold it): a throw that ends with a die cocked
    against another. No clutter; one tray per seed, the same for every caller (tests,
    the benchmark); a seed whose dice do not fit is skipped."""
    for image, truth, _style in styled_trays("on_die", seeds, size):
        yield image, truth


def cluster_trays(seeds: range, count: int = 6, size: Size = (640, 480)
                  ) -> Iterator[tuple[np.ndarray, tuple[SimDie, ...]]]:
    """Trays of ``count`` flat dice, each placed touching another with a chance of 60 %:
    clusters, as a throw of six often ends. One tray per seed, the same for every caller
    (tests, the benchmark); a seed whose dice do not fit is skipped."""
    for image, truth, _style in styled_trays("cluster", seeds, size, count):
        yield image, truth


def leaning_flagged(read: Callable[[np.ndarray], Any], seeds: range) -> tuple[int, int]:
    """Of the leaning dice in :func:`leaning_trays`, how many ``read`` (a reader
    returning a ``Reading``) flags, and how many there are: a leaning die scored with a
    value is a misread."""
    flagged = total = 0
    for image, truth in leaning_trays(seeds):
        reading = read(image)
        for die in truth:
            if die.tilted:
                total += 1
                flagged += all(d.flagged for d in read_near(reading, die))
    return flagged, total


def read_near(reading: Any, die: SimDie) -> list[Any]:
    """The dice of ``reading`` whose centre lies within 0.6 of a side of ``die``'s: what
    was read of that die (none when it was missed)."""
    return [d for d in reading.dice if d.center is not None
            and np.hypot(d.center[0] - die.center[0], d.center[1] - die.center[1]) < 0.6 * die.side]


# ------------------------------------------------------------------------ the live tray


@dataclass
class _Throw:
    """One die's path in a throw: from where it enters to where it rests."""

    value: int
    kit_index: int
    start: tuple[float, float]
    end: tuple[float, float]
    spin: float  # degrees turned on the way
    angle: float  # resting angle
    frames: int  # frames until it rests (it is at rest from this throw frame on)
    glare: tuple[float, float, float] | None


class SimulatedTray:
    """A simulated camera stream over one tray: dice rest, get thrown, tumble, settle.

    ``next_frame()`` returns frame after frame. ``roll()`` starts a throw: the old dice
    are picked up, the new ones tumble in for several frames (moving, motion-blurred,
    showing random faces) and come to rest; then frames stay still apart from sensor
    noise. The tray starts with ``dice`` dice already at rest.
    """

    def __init__(
        self,
        seed: int = 0,
        size: Size = (1280, 960),
        dice: int = 2,
        fps: float = 15.0,
        *,
        style: TrayStyle | None = None,
    ) -> None:
        if dice < 0:
            raise ValueError("dice must be >= 0")
        self.size = size
        self.dice = dice
        self.fps = fps
        self._rng = np.random.default_rng(seed)
        # Thrown dice always land flat here: leaning dice are for render_tray's stills.
        self.style = style or dataclasses.replace(TrayStyle.random(self._rng, size), tilt=0.0)
        self._tray = _build_tray(self.style, size)
        self._kit = _kit(self._rng, self.style, max(dice, 1))
        self._sprites: dict[tuple[int, int], _Sprite] = {}
        self.frame_index = -1
        """Index of the frame last returned by :meth:`next_frame` (-1 before the first)."""
        self.moving = False
        """True when a die was in motion in the frame last returned."""
        self.truth: tuple[SimDie, ...] = ()
        """The dice of the current throw as they lie (or will lie) at rest."""
        self.settled_at: int | None = None
        """Index of the first frame in which every die of the current throw is at rest."""
        self._still: np.ndarray | None = None  # the clean frame once every die rests
        self._throw: list[_Throw] = []
        self._throw_start = 0
        self._start_resting(self._rng.integers(1, 7, dice).tolist())

    # -- throws

    def _sprite(self, kit_index: int, value: int) -> _Sprite:
        key = (kit_index, value)
        sprite = self._sprites.get(key)
        if sprite is None:
            look, side = self._kit[kit_index]
            sprite = _make_sprite(value, look, side * self.size[0], self.style)
            self._sprites[key] = sprite
        return sprite

    def _plan(self, values: Sequence[int], frames: Sequence[int] | None) -> list[_Throw]:
        while len(self._kit) < len(values):
            self._kit.extend(_kit(self._rng, self.style, 1))
        width, height = self.size
        sides = [self._kit[i][1] * width for i in range(len(values))]
        poses = _layout(self._rng, sides, self._tray.floor, self.style.touching)
        fx0, fy0, fx1, fy1 = self._tray.floor
        reach = 0.2 * min(width, height)
        throws = []
        for i, (value, (end, angle)) in enumerate(zip(values, poses)):
            # Each die lands somewhere in the tray (the camera sees it from then on, so no
            # die hides off-picture while others have stopped) and travels a visible way.
            start = end
            for _attempt in range(30):
                start = (float(self._rng.uniform(fx0, fx1)), float(self._rng.uniform(fy0, fy1)))
                if math.dist(start, end) >= reach:
                    break
            n = int(frames[i]) if frames is not None else int(
                self._rng.integers(max(3, round(0.45 * self.fps)), max(4, round(1.1 * self.fps)) + 1)
            )
            spin = float(self._rng.uniform(180, 720) * self._rng.choice([-1, 1]))
            throws.append(_Throw(int(value), i, start, end, spin, angle, max(1, n), _glare(self._rng, self.style)))
        return throws

    def _start_resting(self, values: Sequence[int]) -> None:
        self._throw = self._plan(_check_values(values), [0] * len(values))
        self._still = None
        self._throw_start = self.frame_index + 1
        self._set_truth()
        self.settled_at = None

    def _set_truth(self) -> None:
        frame = np.zeros((self.size[1], self.size[0], 3), np.uint8)
        placements = [self._pose(t, t.frames) for t in self._throw]
        boxes = _composite(frame, self._tray, self.style, placements, boxes=True)
        self.truth = tuple(
            SimDie(t.value, t.end, box, t.angle % 360, False, self._sprite(t.kit_index, t.value).side)
            for t, box in zip(self._throw, boxes)
        )

    def roll(
        self,
        values: Sequence[int] | None = None,
        count: int | None = None,
        *,
        frames: Sequence[int] | None = None,
    ) -> tuple[int, ...]:
        """Throw the dice; the next frames show them tumbling, then settling.

        ``values`` fixes the result (else drawn from the seeded generator); ``count`` is
        how many dice are thrown (default the constructor's ``dice``, or ``len(values)``).
        ``frames`` optionally fixes, per die, how many frames it moves (for tests: a die
        that stops late). Returns the values thrown.
        """
        if values is not None:
            chosen = _check_values(values)
            if count is not None and count != len(chosen):
                raise ValueError(f"count={count} but {len(chosen)} values given")
        else:
            n = self.dice if count is None else count
            if n < 0:
                raise ValueError("count must be >= 0")
            chosen = tuple(int(v) for v in self._rng.integers(1, 7, n))
        if frames is not None and len(frames) != len(chosen):
            raise ValueError(f"frames has {len(frames)} entries for {len(chosen)} dice")
        self._throw = self._plan(chosen, frames)
        self._still = None
        self._throw_start = self.frame_index + 1
        self._set_truth()
        self.settled_at = self._throw_start + max((t.frames for t in self._throw), default=0) - 1
        return chosen

    def nudge(self, die: int, dx: float, dy: float, turn: float = 0.0) -> None:
        """Shift a resting die by (dx, dy) pixels and turn it by ``turn`` degrees, at once,
        as a hand touching it would; its face stays. For tests of the roll watcher; the
        caller keeps the shift small enough not to push it into another die."""
        t = self._throw[die]
        t.end = (t.end[0] + dx, t.end[1] + dy)
        t.angle += turn
        self._still = None
        self._set_truth()

    # -- frames

    def _pose(self, t: _Throw, step: int) -> _Placement:
        """Where die ``t`` is at throw frame ``step`` (1-based); at rest when step >= frames."""
        if step >= t.frames:
            return _Placement(self._sprite(t.kit_index, t.value), t.end, t.angle, glare=t.glare)
        # Slowing down, but with a visible last step: a tumbling die stops with a final
        # drop onto its face, not by creeping sub-pixel distances for a second.
        left = (1 - step / t.frames) ** 1.3
        prev = (1 - (step - 1) / t.frames) ** 1.3
        x = t.end[0] + (t.start[0] - t.end[0]) * left
        y = t.end[1] + (t.start[1] - t.end[1]) * left
        vx = (t.start[0] - t.end[0]) * (left - prev)
        vy = (t.start[1] - t.end[1]) * (left - prev)
        angle = t.angle + t.spin * left
        tumbling = step < 0.7 * t.frames
        value = int(self._rng.integers(1, 7)) if tumbling else t.value
        lift = 0.12 * abs(math.sin(step * 1.3)) * left if tumbling else 0.0
        return _Placement(self._sprite(t.kit_index, value), (x, y), angle, lift, (vx, vy))

    def next_frame(self) -> np.ndarray:
        """The next BGR uint8 frame (height x width x 3) of the stream."""
        self.frame_index += 1
        step = self.frame_index - self._throw_start + 1
        placements = [self._pose(t, step) for t in self._throw]
        self.moving = any(step < t.frames for t in self._throw)
        if self.moving or self._still is None:
            frame = self._tray.image.copy()
            # Dice in the air are drawn last, so they pass over resting ones.
            order = sorted(range(len(placements)), key=lambda i: placements[i].lift)
            _composite(frame, self._tray, self.style, [placements[i] for i in order])
            if not self.moving:
                # At rest only the sensor noise changes, so the clean frame is reused.
                self._still = frame
        else:
            frame = self._still
        return _add_noise(self._rng, frame, self.style.noise)


# ------------------------------------------------------------------- labelled folders


def write_dataset(folder: str, count: int, *, seed: int = 0, size: Size = (1280, 960)) -> list[str]:
    """Write ``count`` simulated tray photos as a labelled folder (DESIGN.md's format).

    JPEG photos, ``labels.json`` and ``split.json`` (every fifth photo for checking, as
    the shared folders do), so ``dicetray eval`` can score a reader on simulated trays
    too. Dice never lean on the wall here: a labelled die must have a readable value.
    Returns the file names written.
    """
    import json
    from pathlib import Path

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    images: list[dict[str, object]] = []
    names: list[str] = []
    for k in range(count):
        style = dataclasses.replace(TrayStyle.random(rng, size), tilt=0.0)
        values = [int(v) for v in rng.integers(1, 7, int(rng.integers(1, 9)))]
        frame, truth = render_tray(rng, values, size, style=style)
        name = f"sim_{seed}_{k:05d}.jpg"
        # A camera's JPEG, not a lossless picture: compression is part of what a reader sees.
        cv2.imwrite(str(out / name), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
        dice = [{"value": d.value, "box": [round(v, 1) for v in d.box]} for d in truth]
        images.append({"file": name, "width": size[0], "height": size[1], "dice": dice})
        names.append(name)
    labels = {
        "source": "vision.sim",
        "commit": "",
        "license": "generated",
        "notes": f"simulated tray photos, seed {seed}: a sanity check for readers, not a target. "
        "Boxes cover the whole die.",
        "images": images,
    }
    (out / "labels.json").write_text(json.dumps(labels, indent=1))
    split = {
        "rule": "every fifth photo in order (index % 5 == 4) is for checking",
        "train": [n for i, n in enumerate(names) if i % 5 != 4],
        "check": [n for i, n in enumerate(names) if i % 5 == 4],
    }
    (out / "split.json").write_text(json.dumps(split, indent=1))
    return names


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m vision.sim DIR [--count N] [--seed S] [--size WxH]``: write a folder."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m vision.sim", description=write_dataset.__doc__)
    parser.add_argument("folder")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", default="1280x960", help="WIDTHxHEIGHT")
    args = parser.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 1280x960, not {args.size!r}")
    names = write_dataset(args.folder, args.count, seed=args.seed, size=(width, height))
    print(f"wrote {len(names)} simulated photos and labels.json to {args.folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
