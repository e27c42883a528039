"""jobs/showcase.json's composition rebuilt with MoviePy 2 (NumPy, Pillow and OpenCV inside), as
closely as MoviePy's building blocks allow, at the job's size and frame rate; frames are made with
`clip.get_frame(t)` (no encoding). What it has, layer by layer (bottom to top):

- background: #0b0a1a (the composite's background colour);
- cover: photos/dusk.png filled to 1920×1080, Gaussian blur σ = 36, saturation 1.3 (Rec. 709
  luma), brightness −0.08, made once before timing (Kiln also blurs and grades it once and keeps
  it); fading in over 1.2 s (MoviePy's CrossFadeIn, linear, where Kiln eases out) to opacity 0.9;
- gradient: a smooth 4×4 colour surface (separable Catmull-Rom weights, the two animated colours
  of the job's mesh animated the same way) at opacity 0.55, computed every frame. Kiln's mesh
  gradient also moves four of its control points (two keyframed, two springs); MoviePy has no
  mesh gradient and this one keeps its points fixed, which is less work than Kiln does;
- banner: a 640×44 capsule (#ffd27a), moving in from the top and fading in with the job's spring
  from 0.4 s, out the same way from 9.0 s;
- carousel: the six photo cards, 420×560 with corner radius 34, the photo 560 wide sliding inside
  by ±70 px, laid out and paged as Kiln's scroll layer (spacing 44, padding 240, a page every
  1.4 s with the job's spring, back to the first after the last), each card's rotation (±24°),
  drop (70 px), scale (0.84) and blur (4) following its scroll phase; only cards on the frame
  are composited (Kiln skips the others' bands too). Per card MoviePy's own effects: a crop, a
  blur (cv2.GaussianBlur, image and mask), Resize (Pillow, Lanczos — MoviePy's only filter) and
  Rotate (Pillow, bilinear). While the carousel twirls in (from 0.6 s) and out (from 8.6 s) it is
  composited on its own and then blurred, brightened, faded, scaled and rotated as a whole, as
  Kiln's twirl transition does.

usage: moviepy_showcase.py JOBS_DIR FRAMES [PNG_DIR]
FRAMES frames are spread evenly over the job's 10 s (every 300/FRAMES-th frame).
"""

import math
import os
import sys

import cv2
import numpy as np
from moviepy import CompositeVideoClip, ImageClip, VideoClip, vfx

from peerlib import Stopwatch, emit, measure

W, H, FPS, DURATION = 1920, 1080, 30, 10.0


def spring(response, damping):
    """Kiln's (SwiftUI's) spring released at rest: fraction of the way after t seconds."""
    omega = 2 * math.pi / response
    damped = omega * math.sqrt(1 - damping * damping)

    def progress(t):
        if t <= 0:
            return 0.0
        e = math.exp(-damping * omega * t)
        return 1 - e * (math.cos(damped * t) + damping * omega / damped * math.sin(damped * t))

    return progress


def settle(progress):
    t = 20.0
    while t > 0 and abs(1 - progress(t)) < 1e-3:
        t -= 0.001
    return t + 0.001


def smooth(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def rgb(hex_colour):
    return np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], np.float32)


def fill(image, width, height):
    """Kiln's fit "fill": scaled to cover the box, centred, cut."""
    scale = max(width / image.shape[1], height / image.shape[0])
    w, h = round(image.shape[1] * scale), round(image.shape[0] * scale)
    scaled = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    x, y = (w - width) // 2, (h - height) // 2
    return np.ascontiguousarray(scaled[y:y + height, x:x + width])


def rounded_mask(width, height, radius, supersample=4):
    """An anti-aliased rounded-rectangle coverage mask, 0…1 (float, as MoviePy's masks)."""
    s = supersample
    big = np.zeros((height * s, width * s), np.uint8)
    r = radius * s
    cv2.rectangle(big, (r, 0), (width * s - r - 1, height * s - 1), 255, -1)
    cv2.rectangle(big, (0, r), (width * s - 1, height * s - r - 1), 255, -1)
    right, bottom = width * s - r - 1, height * s - r - 1
    for centre in ((r, r), (right, r), (r, bottom), (right, bottom)):
        cv2.circle(big, centre, r, 255, -1)
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA).astype(np.float64) / 255


def load(path):
    return cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def cover_clip(jobs):
    image = fill(load(f"{jobs}/photos/dusk.png"), W, H).astype(np.float32) / 255
    image = cv2.GaussianBlur(image, (0, 0), 36)
    luma = image @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    image = luma[..., None] + (image - luma[..., None]) * 1.3 - 0.08
    image = (np.clip(image, 0, 1) * 255 + 0.5).astype(np.uint8)
    return (ImageClip(image).with_duration(DURATION)
            .with_effects([vfx.CrossFadeIn(1.2)]).with_opacity(0.9))


def gradient_clip():
    """The mesh's 16 colours on a bicubic (Catmull-Rom) surface, two colours animated."""
    colours = ["#120c2e", "#1d1b5e", "#2c1f6b", "#120c2e", "#3a1c71", "#ff5a36", "#d76d77", "#1d1b5e",
               "#0f3057", "#00a8cc", "#7b2ff7", "#3a1c71", "#050514", "#0f3057", "#120c2e", "#050514"]
    grid = np.array([rgb(c) for c in colours]).reshape(4, 4, 3)

    def weights(n):
        u = (np.arange(n) + 0.5) / n * 3  # 0…3 across the three spans between four points
        i = np.minimum(u.astype(int), 2)
        f = u - i
        basis = np.stack([(-f ** 3 + 2 * f ** 2 - f) / 2, (3 * f ** 3 - 5 * f ** 2 + 2) / 2,
                          (-3 * f ** 3 + 4 * f ** 2 + f) / 2, (f ** 3 - f ** 2) / 2], 1)
        w = np.zeros((n, 4))
        for k in range(4):
            np.add.at(w, (np.arange(n), np.clip(i - 1 + k, 0, 3)), basis[:, k])
        return w.astype(np.float32)

    wx, wy = weights(W), weights(H)
    orange, amber = rgb("#ff5a36"), rgb("#ffb347")
    violet, pink = rgb("#7b2ff7"), rgb("#f107a3")

    def frame(t):
        g = grid.copy()
        g[1, 1] = orange + (amber - orange) * (smooth(t / 4) if t < 4 else 1 - smooth((t - 4) / 4))
        g[2, 2] = violet + (pink - violet) * smooth(t / 6)
        rows = np.tensordot(wy, g, axes=([1], [0]))              # H × 4 × 3
        image = np.tensordot(rows, wx, axes=([1], [1]))          # H × 3 × W
        return np.clip(image.transpose(0, 2, 1), 0, 255).astype(np.uint8)

    return VideoClip(frame_function=frame, duration=DURATION).with_opacity(0.55)


def banner_clip():
    mask = rounded_mask(640, 44, 22)
    image = np.empty((44, 640, 3), np.uint8)
    image[:] = rgb("#ffd27a").astype(np.uint8)
    move = spring(0.6, 0.78)
    gone = settle(move)

    def shown(t):  # absolute time → how far in (0…1)
        return move(t - 0.4) if t < 9.0 else 1 - move(t - 9.0)

    start, end = 0.4, min(DURATION, 9.0 + gone)
    clip = ImageClip(image).with_mask(ImageClip(mask, is_mask=True)).with_duration(end - start)
    clip = clip.with_effects([vfx.Resize(1.0)])  # keeps the mask's type straight through transforms
    # A spring overshoots: the position follows it, the opacity stops at 1 (as Kiln's).
    clip.mask = clip.mask.transform(lambda get, t: get(t) * min(shown(t + start), 1.0))
    # Kiln's move(edge: top): offset up by the distance from the top of the frame to its bottom.
    return clip.with_position(lambda t: (640, 98 - 142 * (1 - shown(t + start)))).with_start(start)


class Carousel:
    """Kiln's scroll layer as jobs/showcase.json sets it up: the page, each card's phase."""

    NAMES = ["sunset", "ocean", "forest", "dusk", "desert", "aurora"]
    VIEW_X, VIEW_Y, VIEW_W = 510, 280, 900
    CARD_W, CARD_H, STRIDE, PADDING = 420, 560, 464, 240
    APPEAR, DISAPPEAR = 0.6, 8.6

    def __init__(self, jobs):
        self.photos = [fill(load(f"{jobs}/photos/{n}.png"), 560, 560) for n in self.NAMES]
        self.mask = rounded_mask(self.CARD_W, self.CARD_H, 34)
        self.advance = spring(0.7, 0.85)
        self.twirl = spring(0.9, 0.9)
        self.twirl_time = settle(self.twirl)
        self.max_offset = 6 * self.CARD_W + 5 * 44 + 2 * self.PADDING - self.VIEW_W

    def scrolled(self, t):
        steps = int(t // 1.4)
        page = 0.0
        if steps > 0:
            before, after = (steps - 1) % 6, steps % 6
            page = before + (after - before) * self.advance(t - steps * 1.4)
        page = min(max(page, 0), 5)
        return min(max(page * self.STRIDE, 0), self.max_offset)

    def slot(self, i, t):
        low = self.PADDING + self.STRIDE * i - self.scrolled(t)
        high = low + self.CARD_W
        phase = (max(0, high - self.VIEW_W) - max(0, -low)) / self.CARD_W
        return low, min(max(phase, -1), 1)

    def card(self, i, dx=0, dy=0):
        """Card i over the whole timeline, as MoviePy effects driven by its scroll phase."""
        photo, mask = self.photos[i], self.mask
        phase = lambda t: self.slot(i, t)[1]

        def crop(t):  # the photo slides by phase · 70 inside the card
            x = int(round(70 - 70 * phase(t)))
            return photo[:, x:x + self.CARD_W]

        def blur(get, t):
            sigma = 4 * abs(phase(t))
            frame = get(t)
            return cv2.GaussianBlur(frame, (0, 0), sigma) if sigma > 0.05 else frame

        scale = lambda t: 1 - 0.16 * abs(phase(t))
        angle = lambda t: -24 * phase(t)  # Pillow turns anticlockwise, Kiln clockwise

        def bounds(t):  # the turned card's box on the canvas: x, y, width, height
            low, p = self.slot(i, t)
            s, a = scale(t), math.radians(24 * p)
            w = self.CARD_W * s * abs(math.cos(a)) + self.CARD_H * s * abs(math.sin(a))
            h = self.CARD_W * s * abs(math.sin(a)) + self.CARD_H * s * abs(math.cos(a))
            cx = self.VIEW_X + low + self.CARD_W / 2 + dx
            cy = self.VIEW_Y + 320 + 70 * abs(p) + dy
            return (cx - w / 2, cy - h / 2, w, h)

        clip = VideoClip(frame_function=crop, duration=DURATION).with_mask(
            ImageClip(mask, is_mask=True).with_duration(DURATION))
        clip = clip.transform(blur, apply_to=["mask"])
        clip = clip.with_effects([vfx.Resize(scale), vfx.Rotate(angle, resample="bilinear")])
        return clip, bounds

    def pieces(self, i, start, end, canvas=(W, H), dx=0, dy=0):
        """Card i within [start, end), where it is on the canvas, as clips at absolute times."""
        frames = [n / FPS for n in range(int(math.ceil(start * FPS)), int(math.ceil(end * FPS)))]
        whole, bounds = self.card(i, dx, dy)

        def shown(t):
            x, y, w, h = bounds(t)
            return x < canvas[0] and y < canvas[1] and x + w > 0 and y + h > 0

        runs, run = [], None
        for t in frames:
            if shown(t):
                run = [t, t] if run is None else [run[0], t]
            elif run:
                runs.append(run)
                run = None
        if run:
            runs.append(run)
        # A piece's own time starts at 0 (MoviePy shifts its frames, not its position function).
        return [whole.subclipped(a, min(b + 1 / FPS, DURATION)).with_start(a)
                .with_position(lambda ct, a=a: bounds(ct + a)[:2]) for a, b in runs]

    def twirl_clip(self, start, appearing):
        """The carousel on its own, twirling in or out as a whole about its centre."""
        end = min(start + self.twirl_time, DURATION)
        # A canvas centred on the carousel's centre (960, 600), so it turns and scales about it,
        # 2640 wide (x from −360 to 2280 on the frame): cards beyond it are left out, where
        # Kiln, turning and shrinking the carousel, may show a few more pixels of them.
        gw, gh, dx, dy = 2640, 1200, 360, 60
        cards = [p.with_start(p.start - start) for i in range(6)
                 for p in self.pieces(i, start, end, (gw, gh), dx, dy)]
        # (a piece's position function reads the piece's own time, so moving its start is safe)
        group = CompositeVideoClip(cards, size=(gw, gh)).with_duration(end - start)

        def far(t):  # t: the group's own time, from `start`
            p = self.twirl(t)
            return 1 - p if appearing else p

        def look(get, t):
            f, frame = far(t), get(t)
            if f > 0.005:
                frame = cv2.GaussianBlur(frame, (0, 0), 10 * f)
                if appearing and frame.dtype == np.uint8:
                    frame = np.clip(frame.astype(np.float32) + 255 * f, 0, 255).astype(np.uint8)
            return frame

        group = group.transform(look, apply_to=["mask"])
        group.mask = group.mask.transform(lambda get, t: get(t) * min(max(1 - far(t), 0.0), 1.0))
        scale = lambda t: max(1 - 0.5 * far(t), 0.01)
        angle = lambda t: (-360 if appearing else 360) * far(t)
        group = group.with_effects([vfx.Resize(scale), vfx.Rotate(angle, resample="bilinear")])

        def position(t):
            s, a = scale(t), math.radians(360 * far(t))
            w = gw * s * abs(math.cos(a)) + gh * s * abs(math.sin(a))
            h = gw * s * abs(math.sin(a)) + gh * s * abs(math.cos(a))
            return (960 - w / 2, 600 - h / 2)

        return group.with_position(position).with_start(start)

    def clips(self):
        settled = self.APPEAR + self.twirl_time
        steady = [p for i in range(6) for p in self.pieces(i, settled, self.DISAPPEAR)]
        return [self.twirl_clip(self.APPEAR, True)] + steady + [self.twirl_clip(self.DISAPPEAR, False)]


def main():
    cv2.setNumThreads(int(os.environ.get("KILN_PEER_THREADS", "1")))
    jobs, frames = sys.argv[1], int(sys.argv[2])
    pngs = sys.argv[3] if len(sys.argv) > 3 else None
    with Stopwatch() as setup:
        layers = [cover_clip(jobs), gradient_clip(), banner_clip()] + Carousel(jobs).clips()
        scene = CompositeVideoClip(layers, size=(W, H), bg_color=(0x0B, 0x0A, 0x1A)).with_duration(DURATION)
    total = int(DURATION * FPS)
    # Frames spread over the whole video: frame k·step + step/2 for k = 0 … FRAMES − 1.
    step = total / frames
    times = [int(k * step + step / 2) / FPS for k in range(frames)]

    def render(i):
        t = 0.0 if i == 0 else times[i - 1]
        frame = scene.get_frame(t)
        if pngs and i > 0:
            cv2.imwrite(f"{pngs}/moviepy-{int(round(t * FPS)):03d}.png", cv2.cvtColor(frame, cv2.COLOR_RGB2BGR))

    from importlib.metadata import version  # moviepy.__version__ lags behind the package's
    row = measure("showcase-like scene (jobs/showcase.json)", frames, W * H, render, setup.cpu, setup.wall,
                  peer=f"MoviePy {version('moviepy')} (frames spread over the 10 s)",
                  frameTimes=times)
    emit([row])


if __name__ == "__main__":
    main()
