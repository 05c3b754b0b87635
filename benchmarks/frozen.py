"""The frozen sidecar against the venv, measured in the same run.

Prints, each beside the venv's figure:
- size: the onedir bundle vs the venv's site-packages (target: bundle <= 200 MB);
- spawn -> handshake line, started as the shell starts it (target: < 1 s);
- time to the first page: spawn, handshake, POST a session for the example
  folder, run the offline build through the API, GET the PDF (target: frozen
  within 1.2x of the venv);
and the pruned TeX tree's size (target: < 120 MB with the Chinese fonts),
building the tree when --tex is given or taking build/tex-pruned.

Runs interleave frozen and venv so machine load hits both alike; medians.
The size row also gives the bundle's ratio to the 200 MB target and says
whether it is met (or by how much it is missed). --size-only prints just that
row and the largest parts (no runs, no TeX tree): the check after a freeze.

    python benchmarks/frozen.py [--repeat 3] [--example pendulum] [--tex] [--onefile]
    python benchmarks/frozen.py --size-only
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "build" / "sidecar" / "dist" / "labwright-sidecar"
FROZEN = [str(BUNDLE / "labwright-sidecar")]
VENV = [sys.executable, "-m", "labwright"]
TEX_TREE = ROOT / "build" / "tex-pruned"
TARGET_MB, HANDSHAKE_S, BUILD_RATIO, TEX_MB = 200, 1.0, 1.2, 120


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def breakdown(bundle: Path, top: int = 15) -> list[tuple[str, int]]:
    """The bundle's largest parts: each entry of the bundle's library folder
    (a package, a vendored-libs folder, a library) and the executable, which
    carries the compressed Python modules (PYZ). Symlinks count nothing."""
    sizes: dict[str, int] = {}
    internal = bundle / "_internal"
    for p in bundle.rglob("*"):
        if p.is_file() and not p.is_symlink():
            rel = p.relative_to(internal) if internal in p.parents else p.relative_to(bundle)
            key = rel.parts[0] + ("/" if len(rel.parts) > 1 else "")
            sizes[key] = sizes.get(key, 0) + p.stat().st_size
    return sorted(sizes.items(), key=lambda kv: -kv[1])[:top]


def size_verdict(bundle_bytes: int) -> str:
    """The bundle against the size target: ratio, and met or missed by how much."""
    mb = bundle_bytes / 1e6
    ratio = mb / TARGET_MB
    if mb <= TARGET_MB:
        return f"ratio {ratio:.3f}: met, {TARGET_MB - mb:.1f} MB to spare"
    return f"ratio {ratio:.3f}: MISSED by {mb - TARGET_MB:.1f} MB"


def _start(cmd: list[str], home: Path) -> tuple[subprocess.Popen[bytes], str, int, float]:
    token = secrets.token_hex(32)
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [*cmd, "serve", "--port", "0", "--parent-pid", str(os.getpid())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "LABWRIGHT_HOME": str(home)},
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(token.encode() + b"\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - t0
    return proc, token, int(json.loads(line)["port"]), elapsed


def _stop(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdin is not None
    proc.stdin.close()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def first_page(cmd: list[str], folder: Path) -> tuple[float, float]:
    """(spawn -> handshake, spawn -> PDF bytes of the built report)."""
    home = Path(tempfile.mkdtemp(prefix="lw-bench-frozen-"))
    t0 = time.perf_counter()
    proc, token, port, handshake = _start(cmd, home)
    try:
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(
            base_url=f"http://127.0.0.1:{port}", headers=headers, timeout=600
        ) as client:
            sid = client.post("/api/sessions", json={"path": str(folder)}).json()["id"]
            run = client.post(f"/api/sessions/{sid}/runs", json={"mode": "offline"}).json()
            while client.get(f"/api/runs/{run['id']}").json()["status"] in ("queued", "running"):
                time.sleep(0.02)
            versions = client.get(f"/api/sessions/{sid}/versions").json()
            pdf = client.get(f"/api/sessions/{sid}/versions/{versions[-1]['version_no']}/pdf")
            assert pdf.content.startswith(b"%PDF"), pdf.status_code
        return handshake, time.perf_counter() - t0
    finally:
        _stop(proc)
        shutil.rmtree(home, ignore_errors=True)


def handshake_only(cmd: list[str]) -> float:
    home = Path(tempfile.mkdtemp(prefix="lw-bench-frozen-"))
    proc, _, _, elapsed = _start(cmd, home)
    _stop(proc)
    shutil.rmtree(home, ignore_errors=True)
    return elapsed


def onefile_start() -> float | None:
    """Build a onefile variant once and time its spawn -> handshake (it
    unpacks the whole bundle to a temp dir on every start)."""
    out = ROOT / "build" / "sidecar-onefile"
    spec = ROOT / "build_scripts" / "labwright-sidecar.spec"
    env = {**os.environ, "LABWRIGHT_ONEFILE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "ERROR",
         "--distpath", str(out / "dist"), "--workpath", str(out / "build"), str(spec)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    exe = out / "dist" / "labwright-sidecar"
    if done.returncode != 0 or not exe.is_file():
        print(done.stderr[-2000:], file=sys.stderr)
        return None
    return handshake_only([str(exe)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--example", default="pendulum")
    parser.add_argument("--tex", action="store_true", help="(re)build the pruned TeX tree first")
    parser.add_argument("--onefile", action="store_true", help="also time a onefile build once")
    parser.add_argument(
        "--breakdown", action="store_true", help="also list the bundle's largest parts (MB)"
    )
    parser.add_argument(
        "--size-only",
        action="store_true",
        help="only the bundle's size against the target and its largest parts",
    )
    args = parser.parse_args()
    if not Path(FROZEN[0]).is_file():
        subprocess.run(["bash", str(ROOT / "build_scripts" / "freeze.sh")], check=True)
    if args.size_only:
        bundle_bytes = du(BUNDLE)
        print(
            f"{'size (MB)':34} {bundle_bytes / 1e6:10.1f}  <= {TARGET_MB}  {size_verdict(bundle_bytes)}"
        )
        for name, size in breakdown(BUNDLE):
            print(f"  {name:32} {size / 1e6:10.1f}")
        print("size target met" if bundle_bytes / 1e6 <= TARGET_MB else "size target missed")
        return 0
    folder = ROOT / "examples" / args.example

    import site

    venv_bytes = sum(du(Path(p)) for p in site.getsitepackages() if Path(p).is_dir())
    bundle_bytes = du(BUNDLE)
    hs: dict[str, list[float]] = {"frozen": [], "venv": []}
    page: dict[str, list[float]] = {"frozen": [], "venv": []}
    for _ in range(args.repeat):
        for name, cmd in (("frozen", FROZEN), ("venv", VENV)):
            h, p = first_page(cmd, folder)
            hs[name].append(h)
            page[name].append(p)
    med = {k: statistics.median(v) for k, v in hs.items()}
    pmed = {k: statistics.median(v) for k, v in page.items()}
    ratio = pmed["frozen"] / pmed["venv"]
    print(f"{'measure':34} {'frozen':>10} {'venv':>10}  target")
    print(
        f"{'size (MB; venv = site-packages)':34} {bundle_bytes / 1e6:10.1f} {venv_bytes / 1e6:10.1f}  <= {TARGET_MB}  {size_verdict(bundle_bytes)}"
    )
    print(
        f"{'spawn -> handshake (s, median)':34} {med['frozen']:10.2f} {med['venv']:10.2f}  < {HANDSHAKE_S}"
    )
    print(f"{'spawn -> first page PDF (s, median)':34} {pmed['frozen']:10.2f} {pmed['venv']:10.2f}  ratio {ratio:.2f} <= {BUILD_RATIO}")  # fmt: skip
    if args.onefile:
        one = onefile_start()
        print(
            f"{'onefile spawn -> handshake (s, once)':34} {one if one is None else round(one, 2)!s:>10}"
        )
    if args.tex or not TEX_TREE.is_dir():
        subprocess.run(
            [sys.executable, str(ROOT / "build_scripts" / "prune_tex.py"), "--out", str(TEX_TREE)],
            check=True,
        )
    tex_mb = du(TEX_TREE) / 1e6
    print(f"{'pruned TeX tree (MB, en + zh)':34} {tex_mb:10.1f} {'-':>10}  < {TEX_MB}")
    ok = (
        bundle_bytes / 1e6 <= TARGET_MB
        and med["frozen"] < HANDSHAKE_S
        and ratio <= BUILD_RATIO
        and tex_mb < TEX_MB
    )
    if args.breakdown:
        for name, size in breakdown(BUNDLE):
            print(f"  {name:32} {size / 1e6:10.1f}")
    print("all targets met" if ok else "some targets missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
