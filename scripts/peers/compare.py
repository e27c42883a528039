"""Kiln against its peers, in one run (scripts/peers.sh sets up the peers and calls this).

Per workload, Kiln's measurement and then the peer's, one after another so that both see the
same machine. All costs are CPU time (every thread of the process) per frame pixel:
ns·core/px = CPU seconds · 1e9 / (frames · pixels), so "per core" holds however many threads a
side uses; wall times are reported beside them.

- Kiln's rows run in `kiln-bench --only ROW` processes, each twice (KILN_FRAMES + 3 and 3 frames
  per row): the difference of the two processes' CPU times is the rows' cost for KILN_FRAMES
  frames, free of start-up (which varies by ±0.05 s between processes, hence the many frames).
  The two card rows ("composite" and "→ YUV") always run together; the composite's share is split
  off by the rows' own median times.
- Kiln's showcase renders jobs/showcase.json's frames without encoding (`kiln-bench
  __render-frames`, the frames of `kiln-bench --jobs`, written to /dev/null), all 300 and then the
  first 3: the difference is 297 frames' cost without job loading and the first frames' set-up
  (the cover's blur, kept from then on). The frames still go through Kiln's YUV conversion, which
  MoviePy does not do.
- Kiln's warp over a blurred cover is jobs/warp.json's layer at 1920×1080 (a job made in a
  scratch folder), rendered the same way: 120 frames and then 3. Kiln evaluates that picture on
  its reduced grid, checked and refined to within the tolerance `ReducedEvaluationTests` holds
  it to (at most 3 code values from full resolution, 99.9 % within 1); OpenCV computes every
  pixel in one row and, in the next, computes its maps at every fourth pixel of every fourth row
  and enlarges them (`cv2.resize`), a smooth picture's shortcut in NumPy. The frames still go
  through Kiln's YUV conversion.
- The peers (scripts/peers/*.py) run in processes of their own with one thread
  (KILN_PEER_THREADS, default 1, for OpenCV; NumPy's and OpenBLAS's pools at 1; Skia and MoviePy
  draw on one thread anyway), each timing its frames after one warm-up frame, set-up excluded.
"""

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
W, H = 1920, 1080
PIXELS = W * H

# key (--only), the row (kiln-bench's row name, or the job), the peer, the target ratio
WORKLOADS = [
    ("cards", "six rotated clipped photo cards, composite", "Skia raster (skia-python)", 5.0),
    ("ripple", "ripple, two waves", "OpenCV remap, NumPy maps", 3.0),
    ("warp", "domain warp (2 lookups + sample)", "OpenCV remap, NumPy maps", 3.0),
    ("warp-cover", "domain warp over a blurred cover (jobs/warp.json at 1080p)", "OpenCV remap, NumPy maps",
     3.0),
    ("warp-cover-quarter", "domain warp over a blurred cover, the peer's maps at 1/4 size",
     "OpenCV remap, NumPy maps at every 4th pixel, cv2.resize", 3.0),
    ("showcase", "showcase-like scene (jobs/showcase.json)", "MoviePy 2", 5.0),
]


def log(message):
    print(f"peers: {message}", file=sys.stderr, flush=True)


def run_child(command, env=None):
    """Runs a command to completion; returns (stdout, its CPU seconds, its wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, env=env, cwd=ROOT, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"peers: {' '.join(command)} failed (exit {done.returncode})")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done.stdout.decode(), cpu, wall


def kiln_row(bench, only, names, frames):
    """CPU and wall seconds per frame of kiln-bench rows: two processes, FRAMES + 3 and 3 frames."""
    runs = {}
    for n in (frames + 3, 3):
        out, cpu, wall = run_child([bench, "--only", only, "--frames", str(n), "--json"])
        runs[n] = (json.loads(out), cpu, wall)
    report, cpu_big, wall_big = runs[frames + 3]
    _, cpu_small, wall_small = runs[3]
    medians = {r["name"]: r["msPerFrame"] for r in report["rows"]}
    missing = [n for n in names if n not in medians]
    if missing:
        sys.exit(f"peers: kiln-bench has no row {missing[0]!r} (rows: {sorted(medians)})")
    share = medians[names[0]] / sum(medians[n] for n in names)
    return {
        "cpuPerFrame": (cpu_big - cpu_small) / frames * share,
        "wallPerFrame": (wall_big - wall_small) / frames * share,
        "kilnBenchMedianMs": medians[names[0]],
        "threads": 1,
    }


def kiln_render(bench, job, seconds):
    """A job's frames without encoding: its first SECONDS, then its first 0.1 s; the difference."""
    reports = {}
    for length in (seconds, "0.1"):
        out, _, _ = run_child([bench, "__render-frames", job, length, "/dev/null"])
        reports[length] = json.loads(out)
    big, small = reports[seconds], reports["0.1"]
    frames = big["frames"] - small["frames"]
    return {
        "cpuPerFrame": (big["cpuSeconds"] - small["cpuSeconds"]) / frames,
        "wallPerFrame": (big["wallSeconds"] - small["wallSeconds"]) / frames,
        "frames": frames,
        "threads": os.cpu_count(),
    }


def kiln_warp_cover(bench, scratch):
    """jobs/warp.json's blurred, warped cover at 1080p: 120 frames, then 3."""
    with open(os.path.join(ROOT, "jobs/warp.json")) as f:
        job = json.load(f)
    job["output"].update({"width": W, "height": H, "duration": 4, "path": os.path.join(scratch, "warp.mp4")})
    layer = job["layers"][0]
    layer["path"] = os.path.join(ROOT, "jobs", layer["path"])
    layer["size"] = [W, H]
    path = os.path.join(scratch, "warp-cover.json")
    with open(path, "w") as f:
        json.dump(job, f)
    return kiln_render(bench, path, "4")


def peer(script, args, env):
    out, _, _ = run_child([sys.executable, os.path.join(HERE, script)] + args, env)
    return json.loads(out)["rows"]


def versions():
    found = {}
    for module, name in (("skia", "skia-python"), ("cv2", "opencv-python-headless"), ("numpy", "numpy")):
        try:
            found[name] = __import__(module).__version__
        except ImportError:
            found[name] = None
    try:
        from importlib.metadata import version
        found["moviepy"] = version("moviepy")
        found["pillow"] = version("pillow")
    except Exception:  # noqa: BLE001 - reported as unknown
        found["moviepy"] = None
    return found


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def measure_once(args, scratch, env):
    bench = os.path.join(args.bin, "kiln-bench")
    source = os.path.join(scratch, "mesh.png")
    if not os.path.exists(source):
        # The kiln-bench effect rows' source: the seed mesh gradient halfway through its move.
        run_child([os.path.join(args.bin, "kiln"), "preview", "jobs/mesh-gradient.json", "--at", "1.5",
                   "-o", source])
    results = {}
    if "cards" in args.only:
        log("cards: Kiln")
        results["cards"] = kiln_row(bench, "six rotated clipped photo cards",
                                    ["six rotated clipped photo cards, composite",
                                     "six rotated clipped photo cards → YUV"], args.kiln_frames)
        log("cards: Skia")
        results["cards"]["peer"] = peer(
            "skia_cards.py", [os.path.join(ROOT, "jobs/photos"), str(args.frames)], env)[0]
    for key, row in (("ripple", "ripple, two waves"), ("warp", "domain warp (2 lookups + sample)")):
        if key in args.only:
            log(f"{key}: Kiln")
            results[key] = kiln_row(bench, row, [row], args.kiln_frames)
            log(f"{key}: OpenCV")
            results[key]["peer"] = peer("opencv_remap.py", [source, str(args.frames), key], env)[0]
    if "warp-cover" in args.only:
        log("warp-cover: Kiln (120 frames, then 3)")
        results["warp-cover"] = kiln_warp_cover(bench, scratch)
        log("warp-cover: OpenCV, maps at every pixel and at every 4th")
        full, quarter = peer(
            "opencv_remap.py", [os.path.join(ROOT, "jobs/photos/dusk.png"), str(args.frames), "warp-cover"],
            env)
        results["warp-cover-quarter"] = dict(results["warp-cover"], peer=quarter)
        results["warp-cover"]["peer"] = full
    if "showcase" in args.only:
        log("showcase: Kiln (300 frames, then 3)")
        results["showcase"] = kiln_render(bench, "jobs/showcase.json", "10")
        log(f"showcase: MoviePy ({args.showcase_frames} frames)")
        results["showcase"]["peer"] = peer(
            "moviepy_showcase.py", [os.path.join(ROOT, "jobs"), str(args.showcase_frames)], env)[0]
    return results


def results_keys(only):
    """The rows the workloads asked for give: warp-cover gives two (the peer's two kinds of maps)."""
    return only | ({"warp-cover-quarter"} if "warp-cover" in only else set())


def main():
    parser = argparse.ArgumentParser(description="Kiln against MoviePy 2, Skia and OpenCV, in one run.")
    parser.add_argument("--bin", required=True, help="the folder with release kiln and kiln-bench")
    parser.add_argument("--frames", type=int, default=30, help="frames per peer row (default 30)")
    parser.add_argument("--kiln-frames", type=int, default=90,
                        help="frames per Kiln row, beyond the 3 of the start-up run (default 90)")
    parser.add_argument("--showcase-frames", type=int, default=30,
                        help="MoviePy frames, spread over the showcase's 10 s (default 30)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="measure everything this many times, alternating, and take medians")
    parser.add_argument("--only", default="cards,ripple,warp,warp-cover,showcase",
                        help="comma-separated workloads: cards, ripple, warp, warp-cover, showcase")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args()
    args.only = set(args.only.split(","))
    if (not args.only <= {w[0] for w in WORKLOADS} - {"warp-cover-quarter"} or args.frames < 1 or args.showcase_frames < 1
            or args.kiln_frames < 1):
        parser.error("bad --only, --frames, --kiln-frames or --showcase-frames")

    threads = os.environ.get("KILN_PEER_THREADS", "1")
    env = dict(os.environ, KILN_PEER_THREADS=threads, OMP_NUM_THREADS=threads,
               OPENBLAS_NUM_THREADS=threads, MKL_NUM_THREADS=threads, PYTHONPATH=HERE)
    with tempfile.TemporaryDirectory(prefix="kiln-peers-") as scratch:
        runs = []
        for i in range(args.repeat):
            if args.repeat > 1:
                log(f"run {i + 1} of {args.repeat}")
            runs.append(measure_once(args, scratch, env))

    rows = []
    for key, name, peer_name, target in WORKLOADS:
        if key not in results_keys(args.only):
            continue
        ks = [r[key] for r in runs]
        ps = [r[key]["peer"] for r in runs]
        kiln_ns = statistics.median(k["cpuPerFrame"] * 1e9 / PIXELS for k in ks)
        peer_ns = statistics.median(p["nsCorePerPixel"] for p in ps)
        ratio = statistics.median(
            (p["nsCorePerPixel"]) / (k["cpuPerFrame"] * 1e9 / PIXELS) for k, p in zip(ks, ps))
        rows.append({
            "workload": name,
            "kilnNsCorePerPixel": kiln_ns,
            "kilnWallMsPerFrame": statistics.median(k["wallPerFrame"] * 1e3 for k in ks),
            "kilnThreads": ks[0]["threads"],
            "peer": peer_name,
            "peerDetail": ps[0].get("peer"),
            "peerNsCorePerPixel": peer_ns,
            "peerWallMsPerFrame": statistics.median(p["wallSeconds"] / p["frames"] * 1e3 for p in ps),
            "peerThreads": int(threads),
            "peerFrames": ps[0]["frames"],
            "speedRatio": ratio,
            "ratios": [p["nsCorePerPixel"] / (k["cpuPerFrame"] * 1e9 / PIXELS) for k, p in zip(ks, ps)],
            "target": target,
            "met": ratio >= target,
            "kilnBenchMedianMs": statistics.median(k["kilnBenchMedianMs"] for k in ks)
            if "kilnBenchMedianMs" in ks[0] else None,
        })
    report = {
        "date": datetime.date.today().isoformat(),
        "cores": os.cpu_count(),
        "cpu": cpu_model(),
        "python": platform.python_version(),
        "versions": versions(),
        "repeat": args.repeat,
        "frames": args.frames,
        "kilnFrames": args.kiln_frames,
        "showcaseFrames": args.showcase_frames,
        "rows": rows,
    }
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    v = report["versions"]
    print(f"Kiln against its peers, {report['date']}, {report['cores']} cores ({report['cpu']}), "
          f"Python {report['python']}: MoviePy {v.get('moviepy')}, skia-python {v.get('skia-python')}, "
          f"OpenCV {v.get('opencv-python-headless')}, NumPy {v.get('numpy')}.")
    print("CPU time per frame pixel (all threads); wall ms per frame; × = peer ÷ Kiln per core.\n")
    print("| workload | Kiln ns·core/px | Kiln ms/frame (threads) | peer | peer ns·core/px "
          "| peer ms/frame (threads) | × per core | target | met |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|")
    for r in rows:
        spread = f" ({min(r['ratios']):.2f}–{max(r['ratios']):.2f})" if len(r["ratios"]) > 1 else ""
        print(f"| {r['workload']} | {r['kilnNsCorePerPixel']:.1f} | {r['kilnWallMsPerFrame']:.1f} ({r['kilnThreads']}) "
              f"| {r['peer']} | {r['peerNsCorePerPixel']:.1f} | {r['peerWallMsPerFrame']:.1f} ({r['peerThreads']}) "
              f"| {r['speedRatio']:.2f}{spread} | ≥ {r['target']:g} | {'met' if r['met'] else '**not met**'} |")
    if args.repeat > 1:
        print(f"\nMedians of {args.repeat} alternated runs; × is the median of the runs' ratios (their range).")


if __name__ == "__main__":
    main()
