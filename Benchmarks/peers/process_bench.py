"""Whole-process comparison of imgcli with its peers, all measured in the same run.

Every command runs under GNU time, which forks it from a small process, so the peak RSS it
reports is the command's own. Wall time is measured here around each run. Each tool gets one
warm-up run, then RUNS measured runs, interleaved across tools so that drift in the machine's
load spreads evenly; the median is reported with its ratio to vipsthumbnail's median.

    python process_bench.py --imgcli PATH --corpus DIR --python PATH [--runs N] [--json FILE]
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def measure(argv):
    """Runs argv once under GNU time: (wall seconds, peak RSS KiB)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        start = time.perf_counter()
        result = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", report.name] + argv,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if result.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed ({result.returncode}): {result.stderr.decode()[-500:]}")
        rss = int(report.read().strip().splitlines()[-1])
    return wall, rss


def run_case(name, tools, runs, images=1):
    """tools: {label: argv}. Returns the case's rows, vipsthumbnail first."""
    for argv in tools.values():
        measure(argv)  # warm-up: page cache, dynamic loader
    samples = {label: [] for label in tools}
    for _ in range(runs):
        for label, argv in tools.items():
            samples[label].append(measure(argv))
    base_wall = statistics.median(w for w, _ in samples["vipsthumbnail"])
    base_rss = statistics.median(r for _, r in samples["vipsthumbnail"])
    rows = []
    for label, values in samples.items():
        wall = statistics.median(w for w, _ in values)
        rss = statistics.median(r for _, r in values)
        rows.append({
            "case": name, "tool": label, "runs": runs,
            "wall_ms": round(wall * 1000, 1), "wall_ms_min": round(min(w for w, _ in values) * 1000, 1),
            "peak_rss_mib": round(rss / 1024, 1),
            "time_vs_vips": round(wall / base_wall, 2), "rss_vs_vips": round(rss / base_rss, 2),
            "images_per_s": round(images / wall, 1),
        })
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--imgcli", required=True, help="imgcli built with the Swift runtime linked statically")
    parser.add_argument("--imgcli-dynamic", help="imgcli built the default way, measured in case 1 too")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--python", required=True, help="the Python with Pillow")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json")
    args = parser.parse_args()

    out = tempfile.mkdtemp(prefix="imago-bench-")
    corpus = os.path.abspath(args.corpus)
    pillow = [args.python, os.path.join(HERE, "pillow_thumb.py")]
    imgcli = os.path.abspath(args.imgcli)

    def single(name, image, floor=None, dynamic=False):
        source = os.path.join(corpus, image)
        resize = ["resize", source, "-o", f"{out}/imgcli.jpg", "--width", "400", "--quality", "80"]
        tools = {
            "vipsthumbnail": ["vipsthumbnail", source, "-s", "400x", "-o", f"{out}/vips.jpg[Q=80]"],
            "imgcli": [imgcli] + resize,
            "pillow": pillow + [source, f"{out}/pillow.jpg"],
        }
        if dynamic and args.imgcli_dynamic:
            tools["imgcli (Swift runtime linked dynamically)"] = [os.path.abspath(args.imgcli_dynamic)] + resize
        if floor:
            label, command = floor
            tools[label] = command(source)
        return run_case(name, tools, args.runs)

    rows = []
    djpeg = ("djpeg 1/8 (decode floor)", lambda s: ["djpeg", "-scale", "1/8", "-outfile", "/dev/null", s])
    rows += single("5K baseline JPEG -> 400 px JPEG", "photo-5k-baseline.jpg", djpeg, dynamic=True)
    rows += single("5K progressive JPEG -> 400 px JPEG", "photo-5k-progressive.jpg", djpeg)
    rows += single("5K PNG -> 400 px JPEG", "art-5k.png")
    rows += single("4K WebP -> 400 px JPEG", "art-4k.webp",
                   ("dwebp -scale (decode floor)", lambda s: ["dwebp", "-scale", "400", "400", "-o", "/dev/null", s]))

    photos = sorted(os.path.join(corpus, f) for f in os.listdir(corpus) if f.startswith("photo-2k-"))
    for folder in ("vips", "imgcli", "pillow"):
        os.makedirs(os.path.join(out, folder), exist_ok=True)
    rows += run_case(f"Batch: {len(photos)} 2560x1600 photos -> 400 px JPEG", {
        "vipsthumbnail": ["vipsthumbnail"] + photos + ["-s", "400x", "-o", f"{out}/vips/%s.jpg[Q=80]"],
        "imgcli": [imgcli, "resize"] + photos + ["--out-dir", f"{out}/imgcli", "--width", "400", "--quality", "80"],
        "pillow": pillow + ["--batch", f"{out}/pillow"] + photos,
    }, args.runs, images=len(photos))
    shutil.rmtree(out, ignore_errors=True)

    print(f"| case | tool | wall ms (median of {args.runs}) | peak RSS MiB | time vs vips | RSS vs vips | images/s |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['case']} | {row['tool']} | {row['wall_ms']} | {row['peak_rss_mib']} | "
              f"{row['time_vs_vips']}x | {row['rss_vs_vips']}x | {row['images_per_s']} |")
    if args.json:
        versions = {
            "vips": subprocess.run(["vips", "--version"], capture_output=True, text=True).stdout.strip(),
            "pillow": subprocess.run([args.python, "-c", "import PIL; print(PIL.__version__)"],
                                     capture_output=True, text=True).stdout.strip(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform()}",
        }
        with open(args.json, "w") as handle:
            json.dump({"kind": "process", "versions": versions, "rows": rows}, handle, indent=1)


if __name__ == "__main__":
    sys.exit(main())
