#!/usr/bin/env python3
"""Makes the podcast demo's audio and transcript: speaks each line of jobs/podcast/script.txt with
espeak-ng, joins the lines with short pauses into jobs/podcast/voice.wav (22.05 kHz mono, as
espeak-ng writes it), and writes jobs/podcast/transcript.json, whose segment starts are the
moments each line begins in that audio. Both are derived files: rerun after editing the script.

Usage: scripts/make-podcast.py [--force]   (skips the work when both outputs are newer than the script)
"""
import json
import os
import subprocess
import sys
import tempfile
import wave

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "jobs", "podcast")
SCRIPT = os.path.join(FOLDER, "script.txt")
VOICE = os.path.join(FOLDER, "voice.wav")
TRANSCRIPT = os.path.join(FOLDER, "transcript.json")
JOB = os.path.join(ROOT, "jobs", "podcast.json")
LEAD_IN = 0.6  # seconds of silence before the first line
PAUSE = 0.45  # seconds between lines
VOICE_ARGS = ["-v", "en-us", "-s", "150", "-p", "45"]


def up_to_date():
    inputs = [SCRIPT, os.path.abspath(__file__)]
    outputs = [VOICE, TRANSCRIPT]
    if not all(os.path.exists(p) for p in outputs):
        return False
    return min(os.path.getmtime(p) for p in outputs) >= max(os.path.getmtime(p) for p in inputs)


def spoken_lines():
    with open(SCRIPT, encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    return [line for line in lines if line and not line.startswith("#")]


def speak(text, path):
    subprocess.run(["espeak-ng", *VOICE_ARGS, "-w", path, text], check=True)
    with wave.open(path, "rb") as w:
        params = w.getparams()
        frames = w.readframes(w.getnframes())
    return params, trim_silence(frames, params.sampwidth * params.nchannels)


def trim_silence(frames, frame_bytes, threshold=64):
    """Cuts espeak-ng's leading and trailing silence so a segment starts when its voice does."""
    count = len(frames) // frame_bytes

    def loud(i):
        sample = int.from_bytes(frames[i * frame_bytes : i * frame_bytes + 2], "little", signed=True)
        return abs(sample) > threshold

    first = next((i for i in range(count) if loud(i)), 0)
    last = next((i for i in range(count - 1, -1, -1) if loud(i)), count - 1)
    return frames[first * frame_bytes : (last + 1) * frame_bytes]


def main():
    if "--force" not in sys.argv and up_to_date():
        return
    lines = spoken_lines()
    if not lines:
        sys.exit(f"make-podcast: {SCRIPT} has no lines to speak")
    segments, chunks, params = [], [], None
    with tempfile.TemporaryDirectory() as scratch:
        for index, text in enumerate(lines):
            line_params, frames = speak(text, os.path.join(scratch, f"{index}.wav"))
            params = params or line_params
            rate, frame_bytes = params.framerate, params.sampwidth * params.nchannels
            silence = b"\0" * (int((LEAD_IN if index == 0 else PAUSE) * rate) * frame_bytes)
            chunks.append(silence)
            start = sum(len(c) for c in chunks) / frame_bytes / rate
            segments.append({"start": round(start, 3), "text": text})
            chunks.append(frames)
    chunks.append(b"\0" * (int(1.0 * params.framerate) * params.sampwidth * params.nchannels))
    total = sum(len(c) for c in chunks) / (params.sampwidth * params.nchannels) / params.framerate

    with open(JOB, encoding="utf-8") as f:
        duration = json.load(f)["output"]["duration"]
    if total > duration:
        sys.exit(f"make-podcast: the speech lasts {total:.1f} s, longer than {JOB}'s duration ({duration} s)")

    # Written beside the final names and renamed, so an interrupted run leaves no half file.
    with wave.open(VOICE + ".tmp", "wb") as w:
        w.setparams(params)
        w.writeframes(b"".join(chunks))
    with open(TRANSCRIPT + ".tmp", "w", encoding="utf-8") as f:
        json.dump({"source": "scripts/make-podcast.py from jobs/podcast/script.txt", "segments": segments},
                  f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(VOICE + ".tmp", VOICE)
    os.replace(TRANSCRIPT + ".tmp", TRANSCRIPT)
    print(f"make-podcast: {len(segments)} lines, {total:.1f} s of speech → {os.path.relpath(VOICE, ROOT)}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
