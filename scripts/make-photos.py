#!/usr/bin/env python3
"""Makes the demos' pictures. The showcase's card pictures: landscape "photographs" (sky, sun glow, hazy ridges in
aerial perspective, mist, water) and two app screens, each written as a Kiln job to
jobs/showcase/NAME.json and rendered by Kiln itself to jobs/showcase/NAME.jpg, so the repository
stays self-contained; and the podcast's cover art (jobs/podcast/cover.jpg): big colour fields
and bold type, so that blurred and warped behind the podcast and the audiogram it still reads as
the same picture shown sharp beside the transcript. The ridges are seeded midpoint-displacement lines: rerunning gives the same
jobs. Usage: scripts/make-photos.py [KILN]   (default: the release build's kiln)
"""
import json
import math
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "jobs", "showcase")
SIZE = 560


def ridge(rng, base, roughness, peaks=1.0, steps=7):
    """A mountain line across the frame: midpoint displacement from two ends, then closed below."""
    heights = [base + rng.uniform(-0.5, 0.5) * roughness, base + rng.uniform(-0.5, 0.5) * roughness]
    spread = roughness * peaks
    for _ in range(steps):
        refined = []
        for a, b in zip(heights, heights[1:]):
            refined += [a, (a + b) / 2 + rng.uniform(-0.5, 0.5) * spread]
        heights = refined + [heights[-1]]
        spread *= 0.52
    step = SIZE / (len(heights) - 1)
    points = " ".join(f"L{i * step:.1f},{h:.1f}" for i, h in enumerate(heights))
    return f"M0,{SIZE} {points} L{SIZE},{SIZE} Z"


def dunes(rng, base, amplitude, waves):
    """A smooth dune line: a sum of a few sines, sampled finely."""
    phases = [rng.uniform(0, 6.28) for _ in waves]
    points = []
    for i in range(0, SIZE + 1, 8):
        x = i / SIZE
        h = base + sum(a * math.sin(x * f * 6.283 + p) for (a, f), p in zip(waves, phases)) * amplitude
        points.append(f"L{i},{h:.1f}")
    return f"M0,{SIZE} " + " ".join(points) + f" L{SIZE},{SIZE} Z"


def shape(path, colors, opacity=1.0, blur=0.0):
    layer = {"type": "shape", "shape": "path", "size": [SIZE, SIZE], "path": path, "gradient": colors}
    if opacity < 1:
        layer["opacity"] = opacity
    if blur:
        layer["effects"] = [{"blur": blur}]
    return layer


def sky(colors):
    return {"type": "shape", "shape": "rect", "size": [SIZE, SIZE], "gradient": colors}


def glow(x, y, core, color, halo):
    return [
        {"type": "shape", "shape": "circle", "size": [halo, halo], "position": [x, y], "fill": color,
         "effects": [{"blur": halo / 4}]},
        {"type": "shape", "shape": "circle", "size": [core, core], "position": [x, y], "fill": "#fff6e0",
         "effects": [{"blur": core / 10}]},
    ]


def band(y, height, color, blur, opacity=1.0):
    """A soft horizontal band: mist over a valley, a cloud bank, the sheen on water."""
    layer = {"type": "shape", "shape": "capsule", "size": [SIZE * 1.6, height], "position": [SIZE / 2, y],
             "fill": color, "effects": [{"blur": blur}]}
    if opacity < 1:
        layer["opacity"] = opacity
    return layer


def graded(layers, vignette=0.45, contrast=1.08):
    """The whole picture as one graded photograph: a touch of contrast and a lens vignette."""
    return [{"type": "group", "size": [SIZE, SIZE], "layers": layers,
             "effects": [{"contrast": contrast}, {"vignette": {"amount": vignette, "radius": 0.5}}]}]


def alpine(rng):
    layers = [sky(["#2b4a7a", "#7f9cc4", "#f3c9a0", "#ffd9a8"])]
    layers += glow(380, 250, 70, "#ffcf8a", 420)
    hazes = [["#9fb0cc", "#c8c6d2"], ["#6d7fa6", "#9ea6c0"], ["#3f4f78", "#6a7396"], ["#1d2746", "#2f3a5c"],
             ["#0d1328", "#141b33"]]
    for i, colors in enumerate(hazes):
        layers.append(shape(ridge(rng, 250 + i * 62, 200 - i * 26, 1.0), colors, blur=max(0, 1.5 - i * 0.5)))
        if i in (1, 3):
            layers.append(band(300 + i * 62, 60, "#f6dcc0", 18, 0.45))
    return graded(layers)


def coast(rng):
    layers = [sky(["#0e2a4d", "#3c6e9e", "#9cc3d9", "#f0d9b5"])]
    layers += glow(150, 270, 56, "#ffd9a0", 360)
    layers.append(band(150, 40, "#ffffff", 14, 0.35))
    layers.append(band(205, 26, "#ffffff", 10, 0.25))
    layers.append({"type": "shape", "shape": "rect", "size": [SIZE, 270], "position": [SIZE / 2, 425],
                   "gradient": ["#3d6f93", "#1b4466", "#0b2238"]})
    layers.append({"type": "shape", "shape": "capsule", "size": [60, 200], "position": [150, 380],
                   "fill": "#ffe2b0", "opacity": 0.55, "effects": [{"blur": 16}]})
    for i in range(9):
        y = 300 + i * i * 3.2
        layers.append({"type": "shape", "shape": "capsule", "size": [SIZE * 1.2, 2 + i * 0.6],
                       "position": [SIZE / 2 + rng.uniform(-60, 60), y], "fill": "#cfe6f5",
                       "opacity": 0.05 + 0.012 * i, "effects": [{"blur": 1.2}]})
    layers.append(shape(ridge(rng, 420, 120, 1.2), ["#141a1f", "#06080a"]))
    return graded(layers, 0.5)


def desert(rng):
    layers = [sky(["#5b7fb5", "#b7c7d8", "#f2d3ad"])]
    layers += glow(430, 150, 50, "#fff0d0", 300)
    layers.append(shape(dunes(rng, 300, 18, [(1, 0.6), (0.5, 1.7)]), ["#e9b98a", "#d39a6a"], blur=1.2))
    layers.append(shape(dunes(rng, 360, 30, [(1, 0.8), (0.4, 2.1)]), ["#dc9c62", "#b8703f"]))
    layers.append(shape(dunes(rng, 430, 40, [(1, 0.5), (0.35, 1.9)]), ["#c8783c", "#8e4a22"]))
    layers.append(shape(dunes(rng, 505, 30, [(1, 0.9), (0.3, 2.6)]), ["#9c5228", "#5a2a12"]))
    return graded(layers, 0.4)


def forest(rng):
    layers = [sky(["#c9d7cf", "#e7ead8", "#f4efd9"])]
    layers += glow(300, 170, 60, "#fff4d8", 460)
    tones = ["#a9bdb4", "#7e9a8f", "#52716a", "#2c4540", "#13231f"]
    for i, tone in enumerate(tones):
        base = 250 + i * 70
        trees = []
        x = rng.uniform(-20, 0)
        while x < SIZE + 20:
            width, height = rng.uniform(26, 50) + i * 8, rng.uniform(60, 120) + i * 26
            top = base - height + rng.uniform(-15, 15)
            trees.append(f"M{x - width / 2:.1f},{SIZE} L{x - width / 2:.1f},{top + height:.1f} "
                         f"L{x:.1f},{top:.1f} L{x + width / 2:.1f},{top + height:.1f} "
                         f"L{x + width / 2:.1f},{SIZE} Z")
            x += width * rng.uniform(0.55, 0.9)
        layers.append(shape(" ".join(trees), [tone, tones[min(i + 1, 4)]], blur=max(0, 2.0 - i * 0.6)))
        layers.append(band(base + 40, 70, "#eef0e2", 22, 0.55 - i * 0.08))
    return graded(layers, 0.5, 1.05)


def aurora(rng):
    layers = [sky(["#030714", "#071a33", "#0c3147", "#123c4c"])]
    for _ in range(90):
        r = rng.uniform(1.2, 3.0)
        layers.append({"type": "shape", "shape": "circle", "size": [r, r],
                       "position": [rng.uniform(0, SIZE), rng.uniform(0, 330)], "fill": "#ffffff",
                       "opacity": rng.uniform(0.35, 0.95)})
    for (x, tilt, color) in [(210, -18, "#38f5a3"), (330, 12, "#2fd8c4"), (420, -8, "#a46bff")]:
        layers.append({"type": "shape", "shape": "capsule", "size": [70, 420], "position": [x, 180],
                       "rotation": tilt, "gradient": [color + "00", color, color + "00"],
                       "opacity": 0.75, "effects": [{"blur": 26}]})
    layers.append(shape(ridge(rng, 430, 110, 1.0), ["#0b1d26", "#050c12"]))
    layers.append(shape(ridge(rng, 490, 70, 1.0), ["#03080c", "#010305"]))
    return graded(layers, 0.5, 1.1)


def lake(rng):
    layers = [sky(["#241a45", "#7a3f78", "#e2706a", "#ffb574"])]
    layers += glow(280, 300, 64, "#ffb06a", 380)
    layers.append(shape(ridge(rng, 280, 80, 1.1), ["#5a3660", "#3c2448"], blur=1.2))
    layers.append(shape(ridge(rng, 315, 60, 1.1), ["#2c1838", "#1d1027"]))
    layers.append({"type": "shape", "shape": "rect", "size": [SIZE, 230], "position": [SIZE / 2, 445],
                   "gradient": ["#d86d68", "#6e3a66", "#1a1030"]})
    layers.append({"type": "shape", "shape": "capsule", "size": [80, 210], "position": [280, 430],
                   "fill": "#ffc489", "opacity": 0.6, "effects": [{"blur": 18}]})
    for i in range(8):
        layers.append({"type": "shape", "shape": "capsule", "size": [SIZE * 1.2, 1.5 + i * 0.5],
                       "position": [SIZE / 2 + rng.uniform(-40, 40), 345 + i * i * 3.5], "fill": "#ffd2a8",
                       "opacity": 0.07, "effects": [{"blur": 1}]})
    return graded(layers, 0.5)


def text(string, x, y, size, weight="regular", color="#ffffff", align="leading"):
    return {"type": "text", "text": string, "position": [x, y], "size": size, "weight": weight,
            "color": color, "alignment": align}


def weather_app(rng):
    layers = [sky(["#2f6fd6", "#5a9cf0", "#9cc8f7"])]
    layers += glow(430, 120, 80, "#fff2c4", 260)
    layers += [
        text("Lisbon", 280, 90, 34, "semibold"),
        text("24°", 280, 175, 120, "thin"),
        text("Sunny  ·  H 27°  L 18°", 280, 262, 22, "medium", "#eaf3ff"),
        {"type": "shape", "shape": "roundedRect", "size": [370, 150], "cornerRadius": 26,
         "position": [280, 400], "fill": "#ffffff2e"},
    ]
    for i, (hour, temp) in enumerate([("Now", "24°"), ("14", "25°"), ("15", "26°"), ("16", "25°")]):
        x = 145 + i * 90
        layers += [text(hour, x, 360, 20, "medium", "#eaf3ff"),
                   {"type": "shape", "shape": "circle", "size": [26, 26], "position": [x, 400],
                    "fill": "#ffd75e"},
                   text(temp, x, 442, 22, "semibold")]
    layers.append({"type": "shape", "shape": "capsule", "size": [150, 6], "position": [280, 535],
                   "fill": "#ffffffaa"})
    return layers


def player_app(rng):
    layers = [sky(["#1b1230", "#2a1747", "#120b20"])]
    cover = {"type": "group", "size": [310, 310], "position": [280, 200], "clip": "roundedRect",
             "cornerRadius": 22, "layers": lake(random.Random(11)),
             "effects": [{"shadow": {"radius": 24, "y": 14, "color": "#00000080"}}]}
    layers += [
        cover,
        text("Low Tide", 280, 412, 32, "bold"),
        text("The Harbour Lights", 280, 448, 21, "regular", "#c9bfe0"),
        {"type": "shape", "shape": "capsule", "size": [320, 6], "position": [280, 462], "fill": "#ffffff33"},
        {"type": "shape", "shape": "capsule", "size": [120, 6], "position": [180, 462], "fill": "#ffffff"},
        {"type": "shape", "shape": "circle", "size": [16, 16], "position": [240, 462], "fill": "#ffffff"},
        {"type": "shape", "shape": "circle", "size": [62, 62], "position": [280, 500], "fill": "#ffffff"},
        {"type": "shape", "shape": "path", "size": [22, 24], "position": [283, 500], "path": "M0,0 L22,12 L0,24 Z",
         "fill": "#1b1230"},
        {"type": "shape", "shape": "path", "size": [28, 18], "position": [200, 500],
         "path": "M14,0 L14,18 L0,9 Z M28,0 L28,18 L14,9 Z", "fill": "#ffffffcc"},
        {"type": "shape", "shape": "path", "size": [28, 18], "position": [360, 500],
         "path": "M0,0 L14,9 L0,18 Z M14,0 L28,9 L14,18 Z", "fill": "#ffffffcc"},
    ]
    return layers


PICTURES = {
    "alpine": (alpine, 3), "coast": (coast, 5), "weather": (weather_app, 1), "dunes": (desert, 8),
    "forest": (forest, 2), "player": (player_app, 1), "aurora": (aurora, 4), "lake": (lake, 11),
}


def podcast_cover():
    side = 1080
    wave = " ".join(f"L{x},{760 + 70 * math.sin(x / side * 6.283 * 1.2 + 0.8):.1f}" for x in range(0, side + 1, 12))
    return [
        {"type": "shape", "shape": "rect", "size": [side, side], "gradient": ["#1b1446", "#2a1b6b", "#3a1c71"]},
        {"type": "shape", "shape": "circle", "size": [760, 760], "position": [690, 430],
         "gradient": ["#ffd27a", "#ff7a3d", "#e0245e"], "gradientStart": [0.2, 0.1], "gradientEnd": [0.8, 0.95]},
        {"type": "shape", "shape": "circle", "size": [230, 230], "position": [230, 250], "fill": "#2ee6c5"},
        {"type": "shape", "shape": "path", "size": [side, side], "path": f"M0,{side} {wave} L{side},{side} Z",
         "gradient": ["#00a8cc", "#0f3a8a"]},
        {"type": "text", "text": "THE RENDER\nLOOP", "size": 150, "weight": "black", "color": "#ffffff",
         "lineHeight": 0.95, "position": [80, 1000], "anchor": [0, 1]},
        {"type": "text", "text": "EPISODE 12", "size": 40, "weight": "bold", "color": "#ffd27a",
         "position": [84, 690], "anchor": [0, 1]},
    ]


def render(kiln, folder, name, size, layers, comment):
    job = {
        "kiln": 1,
        "comment": comment + f" Written by scripts/make-photos.py and rendered by Kiln: kiln preview "
                   f"{os.path.relpath(folder, ROOT)}/{name}.json --frame 0 -o {os.path.relpath(folder, ROOT)}/{name}.jpg",
        "output": {"path": f"{name}.mp4", "width": size, "height": size, "fps": 1, "duration": {"frames": 1}},
        "layers": layers,
    }
    path = os.path.join(folder, f"{name}.json")
    with open(path, "w") as f:
        json.dump(job, f, indent=1)
        f.write("\n")
    subprocess.run([kiln, "preview", path, "--frame", "0", "-o", os.path.join(folder, f"{name}.jpg")], check=True)


def main():
    kiln = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "kiln")
    os.makedirs(FOLDER, exist_ok=True)
    for name, (make, seed) in PICTURES.items():
        render(kiln, FOLDER, name, SIZE, make(random.Random(seed)), f"A card picture ('{name}') for jobs/showcase.json.")
    render(kiln, os.path.join(ROOT, "jobs", "podcast"), "cover", 1080, podcast_cover(),
           "The podcast's cover art, for jobs/podcast.json and jobs/audiogram.json.")


if __name__ == "__main__":
    main()
