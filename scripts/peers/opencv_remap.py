"""The ripple and the domain warp with OpenCV's remap, displacement maps computed with NumPy every
frame: the same effects as kiln-bench's rows "ripple, two waves" and "domain warp (2 lookups +
sample)" (Sources/kiln-bench/EffectBenchmarks.swift; the maths of
Sources/KilnScene/Effects/RippleEffect.swift and BackgroundWarpEffect.swift), on the same
frame (the seed's mesh gradient, rendered by Kiln to a PNG) at the same size.

The maps are recomputed every frame, as they change with time in a video (a ripple's elapsed
time, a warp's flow). The source is 8-bit BGRA, OpenCV's usual format; sampling is bilinear
(INTER_LINEAR) with transparent edges (BORDER_CONSTANT 0), as Kiln's `edges: transparent`.

- ripple: two waves, amplitude 12, frequency 15, decay 8, speed 1200 px/s, from (0.3, 0.4) and
  (0.7, 0.6) of the frame, 0.5 s and 0.2 s after their triggers. Per wave, d = distance to the
  origin, t' = max(0, elapsed − d / speed), amount = 12 · sin(15 t') · exp(−8 t'); the pixel
  samples at position + amount · (position − origin) / d, and its colour gains
  0.3 · (Σ amount / 12) · alpha. NumPy computes each wave only inside the square its front has
  reached (outside it the amount is exactly 0, the same saving Kiln's kernel makes per 8 pixels).
- domain warp: a tileable 256×256 two-channel gradient noise (4 cells, 4 octaves, made once,
  before timing), uv = position / size + 0.25; q = noise(uv), n = noise(uv + q), both lookups
  bilinear with wrapping (cv2.remap on the noise texture); the pixel samples at
  position + (n − 0.5) · 200.

Written for speed as NumPy and OpenCV allow: float32 throughout, buffers made once and reused
(`out=`, `dst=`), positions wrapped with floor and the noise padded by one texel rather than
np.mod or BORDER_WRAP (each about twice as slow here).

- warp-cover: the same domain warp over a picture blurred once (σ = 30, before timing) with its
  edges clamped (BORDER_REPLICATE), as jobs/warp.json renders it: SOURCE_PNG is then the cover
  photo, resized to fill the frame (1920×1080). Twice: with the maps at every pixel, and at every
  4th pixel of every 4th row enlarged by cv2.resize (a smooth picture's shortcut in NumPy, as
  Kiln's reduced grid is its own).

usage: opencv_remap.py SOURCE_PNG FRAMES [ripple|warp|ripple-everywhere|warp-cover ...]
"""

import sys

import cv2
import numpy as np

from peerlib import Stopwatch, emit, measure


def gradient_noise(size=256, cells=4, octaves=4, seed=7):
    """Tileable gradient (Perlin-style) noise, two independent channels, stretched to 0…1."""
    rng = np.random.default_rng(seed)
    channels = []
    for _ in range(2):
        total = np.zeros((size, size))
        amplitude = 1.0
        for octave in range(octaves):
            period = cells << octave
            angles = rng.uniform(0, 2 * np.pi, (period, period))
            gx, gy = np.cos(angles), np.sin(angles)
            p = (np.arange(size) + 0.5) * period / size
            i0 = np.floor(p).astype(int)
            f = p - i0
            i1 = (i0 + 1) % period
            i0 %= period
            fx, fy = f[None, :], f[:, None]

            def dot(iy, ix, dx, dy):
                return gx[iy[:, None], ix[None, :]] * dx + gy[iy[:, None], ix[None, :]] * dy

            n00, n10 = dot(i0, i0, fx, fy), dot(i0, i1, fx - 1, fy)
            n01, n11 = dot(i1, i0, fx, fy - 1), dot(i1, i1, fx - 1, fy - 1)
            sx = fx * fx * fx * (fx * (fx * 6 - 15) + 10)
            sy = fy * fy * fy * (fy * (fy * 6 - 15) + 10)
            upper, lower = n00 + (n10 - n00) * sx, n01 + (n11 - n01) * sx
            total += (upper + (lower - upper) * sy) * amplitude
            amplitude *= 0.5
        channels.append((total - total.min()) / (total.max() - total.min()))
    return np.dstack(channels).astype(np.float32)


class Ripple:
    def __init__(self, source, waves, amplitude=12.0, frequency=15.0, decay=8.0, speed=1200.0):
        self.source = source
        h, w = source.shape[:2]
        self.waves, self.a, self.f, self.k, self.speed = waves, amplitude, frequency, decay, speed
        # Kiln's positions are pixel centres (x + 0.5); remap's coordinates are pixel indices.
        self.xs = np.arange(w, dtype=np.float32)[None, :]
        self.ys = np.arange(h, dtype=np.float32)[:, None]
        # Buffers made once and reused: a fresh 8 MB array every step costs its page faults.
        self.mapx, self.mapy, self.total = (np.empty((h, w), np.float32) for _ in range(3))
        self.d, self.t, self.amount, self.scratch = (np.empty((h, w), np.float32) for _ in range(4))
        self.lifted = np.empty((h, w, 4), np.float32)
        self.zeros = np.zeros((h, w), np.float32)
        self.out = np.empty_like(source)

    def render(self, _):
        h, w = self.source.shape[:2]
        self.mapx[:] = self.xs
        self.mapy[:] = self.ys
        self.total.fill(0)
        union = [h, w, 0, 0]
        for (ox, oy, elapsed) in self.waves:
            reach = elapsed * self.speed + 1
            r0, r1 = max(0, int(oy - reach)), min(h, int(oy + reach) + 1)
            c0, c1 = max(0, int(ox - reach)), min(w, int(ox + reach) + 1)
            if r0 >= r1 or c0 >= c1:
                continue
            union = [min(union[0], r0), min(union[1], c0), max(union[2], r1), max(union[3], c1)]
            box = (slice(0, r1 - r0), slice(0, c1 - c0))
            d, t, amount, scratch = self.d[box], self.t[box], self.amount[box], self.scratch[box]
            dx = self.xs[:, c0:c1] + np.float32(0.5 - ox)
            dy = self.ys[r0:r1] + np.float32(0.5 - oy)
            np.add(dx * dx, dy * dy, out=d)
            np.sqrt(d, out=d)
            # t' = max(0, elapsed − d / speed); amount = a · sin(f t') · exp(−k t')
            np.multiply(d, np.float32(-1 / self.speed), out=t)
            t += np.float32(elapsed)
            np.maximum(t, 0, out=t)
            np.multiply(t, np.float32(self.f), out=amount)
            np.sin(amount, out=amount)
            np.multiply(t, np.float32(-self.k), out=scratch)
            np.exp(scratch, out=scratch)
            amount *= scratch
            amount *= np.float32(self.a)
            # amount / d (at the origin itself dx = dy = 0, so the move is 0 whatever this is)
            np.maximum(d, np.float32(1e-20), out=d)
            np.divide(amount, d, out=scratch)
            np.multiply(scratch, dx, out=t)
            self.mapx[r0:r1, c0:c1] += t
            np.multiply(scratch, dy, out=t)
            self.mapy[r0:r1, c0:c1] += t
            self.total[r0:r1, c0:c1] += amount
        out = cv2.remap(self.source, self.mapx, self.mapy, cv2.INTER_LINEAR, dst=self.out,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        r0, c0, r1, c1 = union
        if r0 < r1:
            # rgb += 0.3 · (amount / amplitude) · alpha, on 0…255 values.
            box = out[r0:r1, c0:c1]
            lift = self.scratch[:r1 - r0, :c1 - c0]
            np.multiply(self.total[r0:r1, c0:c1], np.float32(0.3 / self.a), out=lift)
            lift *= box[..., 3]
            # Added by OpenCV, saturating (NumPy's mixed uint8 + float add is 5× slower).
            lifted = self.lifted[:r1 - r0, :c1 - c0]
            cv2.merge([lift, lift, lift, self.zeros[:r1 - r0, :c1 - c0]], dst=lifted)
            cv2.add(box, lifted, dst=box, dtype=cv2.CV_8U)
        return out


class DomainWarp:
    """With `reduction` r > 1 the maps are computed at every r-th pixel of every r-th row (the
    centres of r × r blocks) and enlarged by `cv2.resize` (bilinear) before the frame's remap: the
    shortcut a NumPy user has for a smooth picture, as Kiln's reduced grid is its own."""

    def __init__(self, source, noise, strength=200.0, flow=0.25, border=cv2.BORDER_CONSTANT, reduction=1):
        self.source, self.strength, self.flow, self.border = source, strength, flow, border
        h, w = source.shape[:2]
        size = noise.shape[0]
        self.size = size
        # One extra row and column repeating the first (as Kiln's NoiseTexture stores it): with
        # positions wrapped into [0, size) the bilinear taps never leave the texture.
        self.noise = np.ascontiguousarray(np.pad(noise, ((0, 1), (0, 1), (0, 0)), mode="wrap"))
        r = reduction
        x = np.arange(w // r, dtype=np.float32) * r + (r - 1) / 2
        y = np.arange(h // r, dtype=np.float32) * r + (r - 1) / 2
        # Noise texel coordinates of uv = (position + 0.5) / frame size, before the flow.
        tx = (x + 0.5) / w * size - 0.5
        ty = (y + 0.5) / h * size - 0.5
        self.base = np.dstack(np.meshgrid(tx, ty)).astype(np.float32)
        # The pixel grid, less the 0.5 the offset subtracts: map = grid + n · strength.
        self.grid = (np.dstack(np.meshgrid(x, y)) - 0.5 * strength).astype(np.float32)
        self.where, self.scratch, self.q = (np.empty((h // r, w // r, 2), np.float32) for _ in range(3))
        self.full = np.empty((h, w, 2), np.float32) if r > 1 else None
        self.out = np.empty_like(source)

    def wrap(self, p):
        """p − floor(p / size) · size, in place (np.mod is ten times slower)."""
        s = self.scratch
        np.multiply(p, np.float32(1 / self.size), out=s)
        np.floor(s, out=s)
        np.multiply(s, np.float32(self.size), out=s)
        np.subtract(p, s, out=p)

    def render(self, _):
        where, q = self.where, self.q
        np.add(self.base, np.float32(self.flow * self.size), out=where)
        self.wrap(where)
        cv2.remap(self.noise, where, None, cv2.INTER_LINEAR, dst=q, borderMode=cv2.BORDER_REPLICATE)
        cv2.scaleAdd(q, float(self.size), where, dst=where)  # uv + q, in texels
        self.wrap(where)
        cv2.remap(self.noise, where, None, cv2.INTER_LINEAR, dst=q, borderMode=cv2.BORDER_REPLICATE)
        cv2.scaleAdd(q, float(self.strength), self.grid, dst=where)
        if self.full is not None:
            h, w = self.source.shape[:2]
            where = cv2.resize(where, (w, h), dst=self.full, interpolation=cv2.INTER_LINEAR)
        return cv2.remap(self.source, where, None, cv2.INTER_LINEAR, dst=self.out,
                         borderMode=self.border, borderValue=0)


def main():
    cv2.setNumThreads(int(__import__("os").environ.get("KILN_PEER_THREADS", "1")))
    path, frames = sys.argv[1], int(sys.argv[2])
    wanted = sys.argv[3:] or ["ripple", "warp"]
    rows = []
    with Stopwatch() as setup:
        source = cv2.imread(path, cv2.IMREAD_UNCHANGED)
        if source.shape[2] == 3:
            source = cv2.cvtColor(source, cv2.COLOR_BGR2BGRA)
        h, w = source.shape[:2]
    peer = f"OpenCV {cv2.__version__} remap + NumPy {np.__version__} maps"
    if "ripple" in wanted:
        ripple = Ripple(source, [(w * 0.3, h * 0.4, 0.5), (w * 0.7, h * 0.6, 0.2)])
        rows.append(measure("ripple, two waves", frames, w * h, ripple.render, setup.cpu, setup.wall,
                            peer=peer))
    if "ripple-everywhere" in wanted:
        ripple = Ripple(source, [(w / 2, h / 2, 5.0)])
        rows.append(measure("ripple, front past every pixel", frames, w * h, ripple.render,
                            setup.cpu, setup.wall, peer=peer))
    if "warp" in wanted:
        with Stopwatch() as noise_setup:
            warp = DomainWarp(source, gradient_noise())
        rows.append(measure("domain warp (2 lookups + sample)", frames, w * h, warp.render,
                            setup.cpu + noise_setup.cpu, setup.wall + noise_setup.wall, peer=peer))
    if "warp-cover" in wanted:
        with Stopwatch() as cover_setup:
            # Resized to fill 1920×1080 (cropped to its shape), then blurred once.
            sh, sw = source.shape[:2]
            scale = max(1920 / sw, 1080 / sh)
            filled = cv2.resize(source, (round(sw * scale), round(sh * scale)), interpolation=cv2.INTER_AREA)
            top, left = (filled.shape[0] - 1080) // 2, (filled.shape[1] - 1920) // 2
            cover = np.ascontiguousarray(filled[top:top + 1080, left:left + 1920])
            cover = cv2.GaussianBlur(cover, (0, 0), 30, borderType=cv2.BORDER_REPLICATE)
            noise = gradient_noise()
            warp = DomainWarp(cover, noise, border=cv2.BORDER_REPLICATE)
            reduced = DomainWarp(cover, noise, border=cv2.BORDER_REPLICATE, reduction=4)
        rows.append(measure("domain warp over a blurred cover", frames, 1920 * 1080, warp.render,
                            setup.cpu + cover_setup.cpu, setup.wall + cover_setup.wall, peer=peer))
        rows.append(measure("domain warp over a blurred cover, maps at 1/4 size", frames, 1920 * 1080,
                            reduced.render, setup.cpu + cover_setup.cpu, setup.wall + cover_setup.wall,
                            peer=peer + ", maps computed at every 4th pixel and enlarged (cv2.resize)"))
    emit(rows)


if __name__ == "__main__":
    main()
