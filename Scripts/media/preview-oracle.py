#!/usr/bin/env python3
"""Judges `album previews --json` on a catalog against the field's own decoders.

    preview-oracle.py PREVIEWS.json LIBRARY

For every picture AlbumKit could not make, asks whether a viewer opens the file: Pillow (with
pillow-heif, and pillow-avif-plugin when installed) for photos, ffmpeg for videos (a frame comes out).
Checks every kept thumbnail and preview in LIBRARY/derivatives: a JPEG Pillow opens whose longest
side is at most its size (256, 512, 2048) and never larger than the original's (when Pillow reads
the original's size). Prints one JSON object: the counts, and each problem as a line naming the file.
"""
import hashlib
import json
import os
import subprocess
import sys
import warnings

from PIL import Image

# Pillow warns about the odd files it reads anyway (an APNG it reads as PNG): only the verdict counts.
warnings.simplefilter("ignore")

try:
    import pillow_heif

    pillow_heif.register_heif_opener()
    # pillow-heif 1.x reads no AVIF (Pillow 11.2 and later does, itself).
    getattr(pillow_heif, "register_avif_opener", lambda: None)()
except ImportError:
    pass
try:
    import pillow_avif  # noqa: F401  (registers the AVIF opener on import)
except ImportError:
    pass

Image.MAX_IMAGE_PIXELS = None
VIDEO_EXTENSIONS = {"mov", "mp4", "m4v", "3gp", "m2ts", "mts", "ts", "avi", "mkv", "webm", "mpg", "mpeg", "wmv"}
SIZES = (256, 512, 2048)


def viewer_opens(path):
    """(opens, what the viewer said)."""
    extension = path.rsplit(".", 1)[-1].lower()
    if extension in VIDEO_EXTENSIONS:
        try:
            run = subprocess.run(
                ["ffmpeg", "-v", "error", "-i", path, "-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "-"],
                capture_output=True,
                timeout=120,
            )
        except subprocess.TimeoutExpired:
            return False, "ffmpeg took more than 120 s"
        frame = run.stdout.startswith(b"\x89PNG")
        return frame, "ffmpeg decodes a frame" if frame else "ffmpeg: " + run.stderr.decode(errors="replace")[:160]
    try:
        with Image.open(path) as image:
            image.load()
            return True, "Pillow opens it: %s %s %dx%d" % (image.format, image.mode, image.width, image.height)
    except Exception as error:  # any failure of Pillow's means a viewer does not open it
        return False, "Pillow: " + repr(error)[:160]


def original_side(path):
    try:
        with Image.open(path) as image:
            return max(image.size)
    except Exception:  # a video, or a file Pillow does not read: no size to compare with
        return None


def main():
    report = json.load(open(sys.argv[1]))
    # Absolute, as `album previews --json` names the originals.
    library = os.path.abspath(sys.argv[2])
    problems = []
    failed = report.get("failed", [])
    failed_files = {entry["file"] for entry in failed}
    failed_opened = 0
    for entry in failed:
        opens, said = viewer_opens(entry["file"])
        if opens:
            failed_opened += 1
            problems.append("a viewer opens it but AlbumKit failed: %s [%s]" % (entry["reason"], said))
    checked = 0
    originals = os.path.join(library, "originals")
    for folder, _, names in os.walk(originals):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as file:
                digest = hashlib.sha256(file.read()).hexdigest()
            side = original_side(path)
            for size in SIZES:
                kept = os.path.join(library, "derivatives", str(size), digest[:2], digest + ".jpg")
                if not os.path.exists(kept):
                    if path not in failed_files:
                        problems.append("no %d-pixel derivative of %s, and no failure said" % (size, path))
                    continue
                checked += 1
                try:
                    with Image.open(kept) as image:
                        image.load()
                        if image.format != "JPEG":
                            problems.append("%s is %s, not JPEG" % (kept, image.format))
                        longest = max(image.size)
                        if longest > size:
                            problems.append("%s is %dx%d, larger than %d" % (kept, image.width, image.height, size))
                        if side is not None and longest > side:
                            problems.append("%s is larger (%d) than its original %s (%d)" % (kept, longest, path, side))
                except Exception as error:  # a kept derivative Pillow cannot read is a problem to report
                    problems.append("%s does not open: %r" % (kept, error))
    print(
        json.dumps(
            {
                "made": report.get("made", 0),
                "reused": report.get("reused", 0),
                "failed": len(failed),
                "failedViewerOpens": failed_opened,
                "derivativesChecked": checked,
                "problems": problems,
            }
        )
    )


if __name__ == "__main__":
    main()
