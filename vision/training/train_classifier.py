"""Train the die-face classifier and export it to ``vision/models/classifier.onnx``.

Run from the repository root in the training venv (torch, onnx)::

    python -m vision.training.train_classifier [--epochs 14] [--threads 1]

Inputs are :func:`vision.crops.cut` crops (32×32 BGR, 0-1) of the ``train`` split dice,
of synthetic faces, and of simulated tray dice when ``vision.sim`` exists, each at a
random rotation with jittered centre and size, colour changes, blur, noise and glare.
Classes: values 1-6, "not a die centre" (background, a crop well off a die, or where
a trained detector fires on no die), "tilted" (synthetic dice leaning on the wall) and
"picture face" (synthetic faces with a logo instead of pips).
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.classify import probabilities
from vision.crops import CROP_PX, cut
from vision.training.common import (
    FOLDERS,
    N_CLASSES,
    NOT_DIE,
    PICTURE,
    TILTED,
    Sample,
    camera_change,
    colour_jitter,
    held_out,
    load_train,
    sim_samples,
)
from vision.training.synth import glare_streak, synth_die, synth_face, synth_tilted

MODELS = Path(__file__).resolve().parents[1] / "models"
_OUT = [CROP_PX]  # crop side in pixels; --crop-px changes it (a second-opinion model)


def _cut(image: np.ndarray, x: float, y: float, face: float, angle: float = 0.0) -> np.ndarray:
    return cut(image, x, y, face, angle, out=_OUT[0])


class WithContrast(nn.Module):
    """A net that sees each crop twice: as it is, and stretched to its own contrast.

    Each channel of the second copy has zero mean and unit spread over the crop (a
    spread under 0.1 is not stretched further, so a plain floor stays plain): red pips
    on a dark marbled die, faint in the raw crop, are as strong there as black pips on
    a white die. The raw copy keeps what the stretch loses (how bright the die is)."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.stretch = nn.InstanceNorm2d(3, eps=0.01, affine=False)
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(torch.cat([x, self.stretch(x)], 1))


def make_net(arch: str = "small", contrast: bool = False) -> nn.Module:
    """A small CNN: about 13 M multiply-adds per 32×32 crop (``small``).

    ``deep`` starts with a strided convolution (cheap at full crop resolution) and
    spends the saved work on a third, wider stage: about 15 M multiply-adds at 40×40.
    With ``contrast`` the net also sees the crop stretched (:class:`WithContrast`)."""
    if contrast:
        return WithContrast(_layers(arch, 6))
    return _layers(arch, 3)


def _layers(arch: str, cin0: int) -> nn.Sequential:
    def block(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU()]

    if arch == "deep":
        return nn.Sequential(
            *block(cin0, 32, 2),
            *block(32, 48), nn.MaxPool2d(2),
            *block(48, 64), *block(64, 64), nn.MaxPool2d(2),
            *block(64, 96), *block(96, 96),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(96, N_CLASSES),
        )
    if arch == "tiny":  # about 6 M multiply-adds at 32×32: half the small net's cost
        return nn.Sequential(
            *block(cin0, 16), nn.MaxPool2d(2),
            *block(16, 32), *block(32, 32), nn.MaxPool2d(2),
            *block(32, 48), *block(48, 48),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(48, N_CLASSES),
        )
    if arch == "wide":
        return nn.Sequential(
            *block(cin0, 32, 2),
            *block(32, 64), nn.MaxPool2d(2),
            *block(64, 96), *block(96, 96), nn.MaxPool2d(2),
            *block(96, 128), *block(128, 128),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(128, N_CLASSES),
        )
    return nn.Sequential(
        *block(cin0, 24), nn.MaxPool2d(2),
        *block(24, 48), *block(48, 48), nn.MaxPool2d(2),
        *block(48, 64), *block(64, 64),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1), nn.Linear(64, N_CLASSES),
    )


def _die_crop(rng: np.random.Generator, image: np.ndarray, cx: float, cy: float,
              face: float) -> np.ndarray:
    # Jitter as the detector errs: centre within ~15 % of the face, size within ~20 %.
    jx, jy = rng.normal(0, 0.07 * face, 2)
    f = face * float(np.exp(rng.normal(0, 0.1)))
    return _cut(image, cx + jx, cy + jy, f, float(rng.uniform(0, 360)))


def strong_aug(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """What the byler-d6 losses show: oblique (squashed) faces, small dice (few pixels),
    marbled and translucent dice (smooth colour swirls over face and pips), and glare."""
    out = crop
    n = out.shape[0]
    if rng.random() < 0.3:  # an oblique view squashes the face along one direction
        a = rng.uniform(0, np.pi)
        k = rng.uniform(0.65, 1.0)
        u = np.array([np.cos(a), np.sin(a)])
        m2 = np.eye(2) + (k - 1.0) * np.outer(u, u)
        c = np.array([n / 2, n / 2])
        m = np.hstack([m2, (c - m2 @ c)[:, None]]).astype(np.float32)
        out = cv2.warpAffine(out, m, (n, n), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.25:  # a small die: only a few pixels across
        s = int(rng.integers(max(8, n // 4), max(9, (2 * n) // 3)))
        out = cv2.resize(cv2.resize(out, (s, s), interpolation=cv2.INTER_AREA), (n, n),
                         interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.3:  # marbled / translucent: smooth colour swirls
        g = int(rng.integers(3, 7))
        field = rng.uniform(0, 255, (g, g, 3)).astype(np.float32)
        swirl = cv2.resize(field, (n, n), interpolation=cv2.INTER_CUBIC)
        alpha = rng.uniform(0.1, 0.4)
        out = np.clip(out.astype(np.float32) * (1 - alpha) + swirl * alpha, 0, 255).astype(np.uint8)
    if rng.random() < 0.2:  # glare: a bright soft spot
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        cx, cy = rng.uniform(0.2 * n, 0.8 * n, 2)
        sg = rng.uniform(0.05, 0.2) * n
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sg * sg))[..., None]
        out = np.clip(out.astype(np.float32) + spot * rng.uniform(80, 220), 0, 255).astype(np.uint8)
    return out


def mine_negatives(samples: list[Sample], detector: Path) -> list[np.ndarray]:
    """Where a trained detector fires on a training frame but no die is: (x, y, face) rows.

    The classifier learns these as "not a die centre", so it rejects the detector's
    typical false alarms (tray holes, wall patterns, gaps between dice).
    """
    from vision import detect

    detect.MODEL = detector
    detect._net.cache_clear()
    out = []
    for s in samples:
        rows = []
        for c in detect.detect(s.image):
            if len(s.dice) == 0 or np.min(
                np.hypot(s.dice[:, 0] - c.x, s.dice[:, 1] - c.y) / s.dice[:, 2]) > 0.6:
                rows.append((c.x, c.y, c.face))
        out.append(np.array(rows, np.float32).reshape(-1, 3))
    return out


def hard_dice(samples: list[Sample], model: Path, times: int) -> list[np.ndarray]:
    """Per sample, ``times`` for each photo die that ``model`` reads wrong or below 0.9
    at its labelled place (the dice a model finds hard), 1 for the rest."""
    net = cv2.dnn.readNetFromONNX(str(model))
    out = []
    for s in samples:
        reps = np.ones(len(s.dice), np.int64)
        if s.source != "sim" and len(s.dice):
            crops = np.stack([_cut(s.image, x, y, f) for x, y, f, _v in s.dice])
            p = probabilities(net, crops)
            for i, (_x, _y, _f, v) in enumerate(s.dice):
                if v > 0 and (int(np.argmax(p[i])) != int(v) - 1 or p[i, int(v) - 1] < 0.9):
                    reps[i] = times
        out.append(reps)
    return out


def recolour(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """The crop in two random colours, its darkest parts in one and its lightest in the
    other: a white die with black pips becomes a die of any colour with pips of any
    other, lighter or darker (the shared photos hold only a few sets of dice)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lo, hi = float(grey.min()), float(grey.max())
    t = (grey - lo) / max(hi - lo, 1.0)
    while True:
        dark, light = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
        # Pips must stay visible: the two colours differ in brightness.
        if abs(float(light.mean()) - float(dark.mean())) >= 60:
            break
    out = dark + (light - dark) * t[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def make_epoch(rng: np.random.Generator, samples: list[Sample], n_synth: int,
               negatives: list[np.ndarray] | None = None,
               tilted_reps: int = 1, strong: bool = False,
               rich: float = 0.0, light: float = 1.0,
               hard: list[np.ndarray] | None = None,
               streaks: float = 0.0, duotone: float = 0.0,
               grey: float = 0.0, camera: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """One epoch of freshly augmented crops and their classes.

    ``rich`` is the share of synthetic dice drawn by :func:`synth_die` (marbled bodies,
    side faces with pips) instead of :func:`synth_face`; ``light`` scales the colour
    changes applied to crops of real photos (1 = as strong as for synthetic ones);
    ``hard`` holds, per sample, how many times more often each die is shown;
    ``streaks`` is the share of crops given a thin glare arc (:func:`glare_streak`);
    ``duotone`` the share of real photo crops recoloured by :func:`recolour`; ``grey``
    the share of all crops made grey, as a monochrome camera sees them; ``camera`` the
    share of photos and frames changed by :func:`camera_change` before their crops are
    cut."""
    def face_or_die(v: int, pips: list[tuple[float, float]] | None = None
                    ) -> tuple[np.ndarray, float]:
        if rich > 0 and rng.random() < rich:
            return synth_die(rng, v, pips=pips)
        return synth_face(rng, v, pips=pips)

    crops: list[np.ndarray] = []
    labels: list[int] = []
    photo: list[bool] = []  # crop comes from a real photo (not simulated or synthetic)
    for k, s in enumerate(samples):
        before = len(crops)
        img = camera_change(rng, s.image) if camera > 0 and rng.random() < camera else s.image
        if negatives is not None:
            for x, y, f in negatives[k]:
                crops.append(_die_crop(rng, img, x, y, f))
                labels.append(NOT_DIE)
        h, w = img.shape[:2]
        faces = s.dice
        # byler-d6's marbled, small, oblique dice are the hardest: show them more often.
        reps = {"byler-d6": 4, "sim": 1}.get(s.source, 2)
        extra = hard[k] if hard is not None else np.ones(len(faces), np.int64)
        for (cx, cy, face, value), more in zip(faces, extra):
            for _ in range(int(more) * reps * (tilted_reps if value < 0 else 1)):
                crops.append(_die_crop(rng, img, cx, cy, face))
                labels.append(TILTED if value < 0 else int(value) - 1)
        if len(faces) == 0:
            photo.extend([s.source != "sim"] * (len(crops) - before))
            continue
        med = float(np.median(faces[:, 2]))
        # Background: points at least a face away from every die.
        for _ in range(max(1, len(faces) // 2)):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if np.min(np.hypot(faces[:, 0] - x, faces[:, 1] - y) / faces[:, 2]) > 1.0:
                crops.append(_cut(img, x, y, med * float(np.exp(rng.normal(0, 0.2))),
                                 float(rng.uniform(0, 360))))
                labels.append(NOT_DIE)
        # A small crop on one pip of a bigger die looks like a one; it is not a die
        # centre (the detector sometimes proposes a pip of a close-up die).
        for cx, cy, face, v in faces[(faces[:, 3] >= 2) & (rng.random(len(faces)) < 0.3)]:
            ang = rng.uniform(0, 2 * np.pi)
            d = rng.uniform(0.25, 0.4) * face
            crops.append(_cut(img, cx + d * np.cos(ang), cy + d * np.sin(ang),
                             face * rng.uniform(0.3, 0.6), float(rng.uniform(0, 360))))
            labels.append(NOT_DIE)
        # Off-centre: a crop that straddles a die's edge is not a die centre.
        for cx, cy, face, _v in faces[rng.random(len(faces)) < 0.25]:
            ang = rng.uniform(0, 2 * np.pi)
            d = rng.uniform(0.65, 1.0) * face
            x, y = cx + d * np.cos(ang), cy + d * np.sin(ang)
            if np.min(np.hypot(faces[:, 0] - x, faces[:, 1] - y) / faces[:, 2]) > 0.6:
                crops.append(_cut(img, x, y, face, float(rng.uniform(0, 360))))
                labels.append(NOT_DIE)
        photo.extend([s.source != "sim"] * (len(crops) - before))
    for _ in range(n_synth):
        v = int(rng.integers(1, 7))
        canvas, face = face_or_die(v)
        c = canvas.shape[0] / 2
        crops.append(_die_crop(rng, canvas, c, c, face))
        labels.append(v - 1)
    for _ in range(n_synth // 6):
        pips: list[tuple[float, float]] = []
        canvas, face = face_or_die(int(rng.integers(2, 7)), pips=pips)
        px, py = pips[int(rng.integers(len(pips)))]
        crops.append(_cut(canvas, px + rng.normal(0, 1), py + rng.normal(0, 1),
                         face * rng.uniform(0.3, 0.6), float(rng.uniform(0, 360))))
        labels.append(NOT_DIE)
    for _ in range(n_synth // 10):
        canvas, face = synth_face(rng, 1, picture=True)
        c = canvas.shape[0] / 2
        crops.append(_die_crop(rng, canvas, c, c, face))
        labels.append(PICTURE)
    for _ in range(n_synth // 8):
        canvas, face = synth_tilted(rng)
        c = canvas.shape[0] / 2
        crops.append(_die_crop(rng, canvas, c, c, face))
        labels.append(TILTED)
    if strong:
        crops = [strong_aug(rng, c) for c in crops]
    if streaks > 0:
        crops = [glare_streak(rng, c) if rng.random() < streaks else c for c in crops]
    photo.extend([False] * (len(crops) - len(photo)))
    if duotone > 0:
        crops = [recolour(rng, c) if p and rng.random() < duotone else c
                 for c, p in zip(crops, photo)]
    jittered = [colour_jitter(rng, c, max_blur=3, strength=light if p else 1.0)
                for c, p in zip(crops, photo)]
    if grey > 0:
        jittered = [cv2.cvtColor(cv2.cvtColor(c, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
                    if rng.random() < grey else c for c in jittered]
    x = np.stack(jittered).astype(np.float32) / 255.0
    return x.transpose(0, 3, 1, 2).copy(), np.array(labels, np.int64)


def _teacher(path: Path) -> cv2.dnn.Net:
    cv2.setNumThreads(1)  # beside torch's own thread, not on every core
    return cv2.dnn.readNetFromONNX(str(path), cv2.dnn.ENGINE_CLASSIC)


def _distance(teacher: cv2.dnn.Net, crops: np.ndarray, logits: torch.Tensor) -> torch.Tensor:
    """How far the net's class probabilities for ``crops`` (N, 3, px, px, 0-1) are from the
    teacher's: the Kullback-Leibler divergence, per crop.

    At temperature 1, because the reader acts on the probabilities themselves (a value is
    scored from 0.85): a cheaper net that learns them is sure and unsure where the teacher
    is, and its "tilted" and "not a die" hints mean what the reader's rules expect."""
    teacher.setInput(np.ascontiguousarray(crops))
    target = torch.softmax(torch.from_numpy(teacher.forward().reshape(len(crops), -1)), 1)
    return nn.functional.kl_div(nn.functional.log_softmax(logits, 1), target,
                                reduction="batchmean")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--synth", type=int, default=3000, help="synthetic faces per epoch")
    ap.add_argument("--sim", type=int, default=150, help="simulated tray frames")
    ap.add_argument("--out", type=Path, default=MODELS / "classifier.onnx")
    ap.add_argument("--tilted-reps", type=int, default=1,
                    help="show each simulated leaning die this many times more often")
    ap.add_argument("--sim-tilt", type=float, default=0.0,
                    help="force this share of leaning dice in half the simulated trays")
    ap.add_argument("--sim-on-die", type=float, default=0.0,
                    help="a quarter of the simulated trays lean dice, on a flat die with this chance")
    ap.add_argument("--sim-touch", type=float, default=0.0,
                    help="a third of the simulated trays hold 6-12 dice touching with this chance")
    ap.add_argument("--crop-px", type=int, default=CROP_PX, help="crop side in pixels")
    ap.add_argument("--holdout", action="store_true",
                    help="leave every fourth train photo out (to judge a model on unseen photos)")
    ap.add_argument("--strong-aug", action="store_true",
                    help="add oblique squash, small-die blur, marbling and glare to every crop")
    ap.add_argument("--arch", choices=("small", "tiny", "deep", "wide"), default="small",
                    help="network shape (see make_net)")
    ap.add_argument("--rich-synth", type=float, default=0.0,
                    help="share of synthetic dice drawn marbled and with pipped side faces")
    ap.add_argument("--light-real", type=float, default=1.0,
                    help="strength of the colour changes on real photo crops (0-1)")
    ap.add_argument("--hard", type=Path, default=None,
                    help="a classifier.onnx (same crop size): photo dice it finds hard are shown more")
    ap.add_argument("--hard-times", type=int, default=3)
    ap.add_argument("--streaks", type=float, default=0.0,
                    help="share of crops given a thin glare arc (glossy, translucent dice)")
    ap.add_argument("--init", type=Path, default=None, help="torch weights to start from")
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    ap.add_argument("--detector", type=Path, default=None,
                    help="a trained detector.onnx whose false alarms become negatives")
    ap.add_argument("--contrast", action="store_true",
                    help="also give the net each crop stretched to its own contrast")
    ap.add_argument("--duotone", type=float, default=0.0,
                    help="share of real photo crops recoloured in two random colours")
    ap.add_argument("--grey", type=float, default=0.0,
                    help="share of crops made grey (a monochrome camera, a night mode)")
    ap.add_argument("--camera", type=float, default=0.0,
                    help="share of photos and frames given another camera's JPEG, blur or "
                         "grain before their crops are cut (each epoch anew)")
    ap.add_argument("--only", choices=FOLDERS, default=None,
                    help="train on this shared folder's photos only (to judge how the net "
                         "reads dice and cameras it has never seen: the other folder)")
    ap.add_argument("--teacher", type=Path, default=None,
                    help="a classifier.onnx (same crop size) whose probabilities the net "
                         "also learns to give (distillation into a cheaper --arch)")
    ap.add_argument("--distill", type=float, default=0.8,
                    help="with --teacher: the share of the loss that is the teacher's")
    ap.add_argument("--seed", type=int, default=0,
                    help="seed of the weights and the augmentation (models to average)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    _OUT[0] = args.crop_px
    real = load_train()
    if args.holdout:
        real = held_out(real)[0]
    if args.only:
        real = [s for s in real if s.source == args.only]
    samples = real + sim_samples(args.sim, seed=1, tilt=args.sim_tilt, touch=args.sim_touch,
                                 on_die=args.sim_on_die)
    print(f"{len(samples)} photos/frames, {sum(len(s.dice) for s in samples)} dice", flush=True)
    negatives = mine_negatives(samples, args.detector) if args.detector else None
    if negatives is not None:
        print(f"{sum(len(n) for n in negatives)} mined negatives", flush=True)
    hard = hard_dice(samples, args.hard, args.hard_times) if args.hard else None
    if hard is not None:
        print(f"{sum(int((h > 1).sum()) for h in hard)} hard photo dice", flush=True)
    net = make_net(args.arch, args.contrast)
    if args.init is not None:
        net.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    teacher = _teacher(args.teacher) if args.teacher else None
    for epoch in range(args.epochs):
        # Cosine decay over epochs (epoch sizes vary, so no per-step schedule).
        for group in opt.param_groups:
            group["lr"] = args.lr * 0.5 * (1 + np.cos(np.pi * epoch / args.epochs))
        t0 = time.time()
        x, y = make_epoch(rng, samples, args.synth, negatives, args.tilted_reps,
                          args.strong_aug, args.rich_synth, args.light_real, hard,
                          args.streaks, args.duotone, args.grey, args.camera)
        order = rng.permutation(len(y))
        net.train()
        total, right, seen = 0.0, 0, 0
        for i in range(0, len(order), 64):
            idx = order[i:i + 64]
            xb, yb = torch.from_numpy(x[idx]), torch.from_numpy(y[idx])
            out = net(xb)
            loss = loss_fn(out, yb)
            if teacher is not None:
                loss = (1 - args.distill) * loss + args.distill * _distance(teacher, x[idx], out)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss) * len(idx)
            right += int((out.argmax(1) == yb).sum())
            seen += len(idx)
        print(f"epoch {epoch}: {seen} crops, loss {total / seen:.3f}, "
              f"train acc {right / seen:.3f}, {time.time() - t0:.0f} s", flush=True)
    net.eval()
    torch.save(net.state_dict(), args.out.with_suffix(".pt"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, args.crop_px, args.crop_px), str(args.out),
                      input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=13,
                      dynamo=False)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
