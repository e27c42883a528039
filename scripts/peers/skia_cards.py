"""Six rotated, clipped photo cards with Skia's raster backend (skia-python), the same scene as
kiln-bench's row "six rotated clipped photo cards, composite" (Sources/kiln-bench/RenderBenchmarks.swift):
over a #0b0a1a background, six 420×300 cards from jobs/photos, card i centred at
(260 + (i % 3)·700, 290 + (i / 3)·500), rotated (7i − 17)° clockwise, clipped to a rounded
rectangle of radius 28 with anti-aliasing, the photo filled into the card (cover) and sampled
bilinearly. As in Kiln, the photos are decoded and resized to the card once, before timing; each
frame clears the surface and draws the six cards.

Each card is drawn as an anti-aliased rounded rectangle filled by the photo as an image shader,
Skia's quickest way to this picture here: `clipRRect(…, doAntiAlias=True)` + `drawImage` gives the
same pixels and measured 3–10 % slower (`--clip` draws it that way).

usage: skia_cards.py [--clip] PHOTOS_DIR FRAMES [WIDTH HEIGHT [PNG]]
"""

import sys

import skia

from peerlib import Stopwatch, emit, measure

NAMES = ["sunset", "ocean", "forest", "dusk", "desert", "aurora"]
CARD_W, CARD_H, RADIUS = 420, 300, 28


def card_image(path):
    """The photo filled into the card: scaled to cover it, centred, cut (Kiln's fit "fill")."""
    photo = skia.Image.open(path)
    scale = max(CARD_W / photo.width(), CARD_H / photo.height())
    w, h = photo.width() * scale, photo.height() * scale
    surface = skia.Surface(CARD_W, CARD_H)
    canvas = surface.getCanvas()
    canvas.drawImageRect(
        photo,
        skia.Rect.MakeXYWH((CARD_W - w) / 2, (CARD_H - h) / 2, w, h),
        skia.SamplingOptions(skia.CubicResampler.Mitchell()),
    )
    return surface.makeImageSnapshot().makeRasterImage()


def main():
    use_clip = "--clip" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--clip"]
    photos, frames = args[0], int(args[1])
    width, height = (int(args[2]), int(args[3])) if len(args) > 3 else (1920, 1080)
    with Stopwatch() as setup:
        images = [card_image(f"{photos}/{name}.png") for name in NAMES]
        surface = skia.Surface(width, height)  # N32 premultiplied, 8 bits per channel
        canvas = surface.getCanvas()
        sampling = skia.SamplingOptions(skia.FilterMode.kLinear)
        clip = skia.RRect.MakeRectXY(
            skia.Rect.MakeXYWH(-CARD_W / 2, -CARD_H / 2, CARD_W, CARD_H), RADIUS, RADIUS)
        background = skia.Color(0x0B, 0x0A, 0x1A)

        paints = []
        for image in images:
            paint = skia.Paint(AntiAlias=True)
            paint.setShader(image.makeShader(
                skia.TileMode.kClamp, skia.TileMode.kClamp, sampling,
                skia.Matrix.Translate(-CARD_W / 2, -CARD_H / 2)))
            paints.append(paint)

    def render(_):
        canvas.clear(background)
        for i, image in enumerate(images):
            canvas.save()
            canvas.translate(260 + (i % 3) * 700, 290 + (i // 3) * 500)
            canvas.rotate(i * 7 - 17)  # degrees, clockwise on screen (y down), as Kiln's rotation
            if use_clip:
                canvas.clipRRect(clip, skia.ClipOp.kIntersect, True)
                canvas.drawImage(image, -CARD_W / 2, -CARD_H / 2, sampling)
            else:
                canvas.drawRRect(clip, paints[i])
            canvas.restore()
        surface.flushAndSubmit()

    row = measure(
        "six rotated clipped photo cards, composite", frames, width * height, render,
        setup.cpu, setup.wall,
        peer=f"skia-python {skia.__version__} (raster, {'clipRRect + drawImage' if use_clip else 'drawRRect, image shader'})")
    if len(args) > 4:  # a PNG of the last frame, to compare with Kiln's
        surface.makeImageSnapshot().save(args[4], skia.kPNG)
    emit([row])


if __name__ == "__main__":
    main()
