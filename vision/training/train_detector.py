"""Train the die-centre detector and export it to ``vision/models/detector.onnx``.

Run from the repository root in the training venv (torch, onnx)::

    python -m vision.training.train_detector [--steps 3000] [--threads 1]

A small fully-convolutional network (CenterNet-style) looks at the frame shrunk so its
long side is about 320 px and outputs, at a quarter of that resolution, a die-centre
heatmap, the log of the top face's size, and a sub-cell offset of the centre. Training
uses random rotated, rescaled, colour-shifted patches of the ``train`` photos and of
simulated tray frames (when ``vision.sim`` exists), so dice of any colour, scale and
rotation are found.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from vision.training import space_to_depth
from vision.training.common import Sample, colour_jitter, held_out, load_train, sim_samples

MODELS = Path(__file__).resolve().parents[1] / "models"
STRIDE = 4
PATCH = 192
LONG_SIDE = 320  # the reader's input size without calibration (vision.detect)


def _dws(cin: int, cout: int, stride: int = 1, dil: int = 1) -> nn.Sequential:
    """Depthwise-separable conv: cheap enough for one Pi core."""
    return nn.Sequential(
        nn.Conv2d(cin, cin, 3, stride, padding=dil, dilation=dil, groups=cin, bias=False),
        nn.BatchNorm2d(cin), nn.ReLU(),
        nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
    )


class Detector(nn.Module):
    """Stride-4 output: [heat (sigmoid), log face px, offset x, offset y].

    ``v4`` is the committed detector (about 62 M multiply-adds at 320×320): its context
    at stride 8 comes from dilated convolutions. ``lean`` (about 29 M) is narrower and
    takes its context from a stride-16 stage instead, which OpenCV runs faster than
    dilated depthwise convolutions (2.1 against 3.7 ms a 320 px frame here)."""

    def __init__(self, arch: str = "v4") -> None:
        super().__init__()
        c4, c8 = (32, 64) if arch == "v4" else (24, 48)
        stem = 16 if arch == "v4" else 8
        self.stem = nn.Sequential(nn.Conv2d(3, stem, 3, 2, 1, bias=False), nn.BatchNorm2d(stem), nn.ReLU())
        self.s4 = nn.Sequential(_dws(stem, c4, 2), _dws(c4, c4))
        if arch == "v4":
            self.s8 = nn.Sequential(_dws(c4, c8, 2), _dws(c8, c8), _dws(c8, c8, dil=2), _dws(c8, c8, dil=4))
            self.s16: nn.Module | None = None
        else:
            self.s8 = nn.Sequential(_dws(c4, c8, 2), _dws(c8, c8))
            self.s16 = nn.Sequential(_dws(c8, c8, 2), _dws(c8, c8), nn.Upsample(scale_factor=2, mode="nearest"))
        self.reduce = nn.Sequential(nn.Conv2d(c8, c4, 1, bias=False), nn.BatchNorm2d(c4), nn.ReLU())
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(_dws(c4, c4), nn.Conv2d(c4, 4, 1))
        self.head[-1].bias.data[0] = -2.2  # start with a low prior of "die here"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        a = self.s4(self.stem(x))
        b = self.s8(a)
        if self.s16 is not None:
            b = b + self.s16(b)
        out = self.head(a + self.up(self.reduce(b)))
        return out

    def export_forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.forward(x)
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)


class _Export(nn.Module):
    def __init__(self, net: Detector) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net.export_forward(x)


MIN_SCALE = [0.6]  # smallest rescaling of a frame around LONG_SIDE; --min-scale changes it


def make_patch(rng: np.random.Generator, s: Sample) -> tuple[np.ndarray, np.ndarray]:
    """A random training patch and its dice as (x, y, face) in patch pixels."""
    img, dice = s.image, s.dice
    h, w = img.shape[:2]
    scale = LONG_SIDE / max(h, w) * float(np.exp(rng.uniform(np.log(MIN_SCALE[0]), np.log(1.6))))
    small = cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    if len(dice) and rng.random() < 0.7:
        k = int(rng.integers(len(dice)))
        cx, cy = dice[k, 0] * scale + rng.normal(0, 40), dice[k, 1] * scale + rng.normal(0, 40)
    else:
        cx, cy = rng.uniform(0, sw), rng.uniform(0, sh)
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(rng.uniform(0, 360)), 1.0)
    m[0, 2] += PATCH / 2 - cx
    m[1, 2] += PATCH / 2 - cy
    fill = tuple(int(v) for v in rng.integers(0, 256, 3))
    patch = cv2.warpAffine(small, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    if rng.random() < 0.5:
        patch = patch[:, ::-1].copy()
        m = np.array([[-1, 0, PATCH], [0, 1, 0]], np.float64) @ np.vstack([m, [0, 0, 1]])
    pts = dice[:, :2] * scale if len(dice) else np.zeros((0, 2))
    pts = pts @ m[:, :2].T + m[:, 2]
    out = np.column_stack([pts, dice[:, 2] * scale]) if len(dice) else np.zeros((0, 3))
    return colour_jitter(rng, patch), out


def targets(dice: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heatmap (H, W), regression targets (3, H, W) and their mask (H, W)."""
    n = PATCH // STRIDE
    heat = np.zeros((n, n), np.float32)
    reg = np.zeros((3, n, n), np.float32)
    mask = np.zeros((n, n), np.float32)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    for x, y, face in dice:
        ox, oy = x / STRIDE, y / STRIDE
        ix, iy = int(np.floor(ox)), int(np.floor(oy))
        if not (0 <= ix < n and 0 <= iy < n):
            continue
        sigma = max(0.6, face / STRIDE / 6)
        # Peak at the centre cell itself so the focal loss has an exact positive.
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma ** 2))
        heat = np.maximum(heat, g)
        reg[:, iy, ix] = (np.log(max(face, 1.0)), ox - ix, oy - iy)
        mask[iy, ix] = 1.0
    return heat, reg, mask


def focal(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on logits."""
    p = torch.sigmoid(pred).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p ** 2 * (1 - gt) ** 4 * neg).sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--sim", type=int, default=150, help="simulated tray frames")
    ap.add_argument("--out", type=Path, default=MODELS / "detector.onnx")
    ap.add_argument("--init", type=Path, default=None, help="torch weights to start from")
    ap.add_argument("--min-scale", type=float, default=0.6,
                    help="smallest frame rescaling (lower: smaller dice, for a cheaper "
                         "calibrated read at vision.detect.CAL_DIE_PX)")
    ap.add_argument("--sim-touch", type=float, default=0.0,
                    help="a third of the simulated trays hold 6-12 dice touching with this chance")
    ap.add_argument("--arch", choices=("v4", "lean"), default="v4",
                    help="v4: the committed net; lean: half its multiply-adds")
    ap.add_argument("--holdout", action="store_true",
                    help="leave every fourth train photo out (to judge on them)")
    args = ap.parse_args()
    MIN_SCALE[0] = args.min_scale
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    photos = load_train()
    if args.holdout:
        photos = held_out(photos)[0]
    samples = photos + sim_samples(args.sim, seed=2, touch=args.sim_touch)
    print(f"{len(samples)} photos/frames", flush=True)
    net = Detector(args.arch)
    if args.init is not None:
        net.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    t0 = time.time()
    run = 0.0
    for step in range(args.steps):
        lr = 2e-3 * min(1.0, (step + 1) / 100) * 0.5 * (1 + np.cos(np.pi * step / args.steps))
        for group in opt.param_groups:
            group["lr"] = lr
        xs, hs, rs, ms = [], [], [], []
        for _ in range(args.batch):
            patch, dice = make_patch(rng, samples[int(rng.integers(len(samples)))])
            h, r, m = targets(dice)
            xs.append(patch)
            hs.append(h)
            rs.append(r)
            ms.append(m)
        x = torch.from_numpy(np.stack(xs).astype(np.float32).transpose(0, 3, 1, 2) / 255.0)
        heat, reg, mask = (torch.from_numpy(np.stack(a)) for a in (hs, rs, ms))
        out = net(x)
        lh = focal(out[:, 0], heat)
        npos = mask.sum().clamp(min=1)
        lr_ = ((out[:, 1:] - reg).abs() * mask[:, None]).sum() / npos
        loss = lh + lr_
        opt.zero_grad()
        loss.backward()
        opt.step()
        run = 0.98 * run + 0.02 * float(loss) if step else float(loss)
        if step % 100 == 0 or step == args.steps - 1:
            print(f"step {step}: loss {run:.3f} (heat {float(lh):.3f} reg {float(lr_):.3f}) "
                  f"{time.time() - t0:.0f} s", flush=True)
    net.eval()
    # Keep the torch weights beside the ONNX file so a later run can continue from them.
    torch.save(net.state_dict(), args.out.with_suffix(".pt"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(_Export(net), torch.zeros(1, 3, 240, 320), str(args.out),
                      input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}},
                      opset_version=13, dynamo=False)
    # The reader feeds the net its picture as 2x2 space-to-depth (faster in OpenCV).
    space_to_depth.rewrite(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
