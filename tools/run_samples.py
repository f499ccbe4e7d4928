"""Run the official pyACL samples (Ascend/samples) unchanged on the simulator: a table of
which ones run to completion, the first thing that stopped the others, and what acl-lab
run's report found in each.

    ACL_LAB_SAMPLES=/path/to/samples python tools/run_samples.py [--only TEXT] [--json OUT]

The samples are never part of this repository: point ACL_LAB_SAMPLES (or --samples) at a
local checkout of https://github.com/Ascend/samples. For each program (a Python file with a
``__main__`` block that imports acl or acllite; acllite's own modules are not programs) the
runner copies its sample folder and the shared acllite/common folders into a scratch
directory, makes the stand-ins tools/sample_specs.py describes — models with the sample
model's input/output names and shapes, built with onnx.helper and converted with `acl-lab
atc` (single-operator models from the sample's own op.json with `acl-lab atc --singleop`),
images and binary inputs — and runs it with `acl-lab run`. A program with no spec runs
as it is (most then stop at their model). Programs that need a camera, a robot, a presenter
server or a network peer are never started (their folder's code or config names one): the
simulator has none of those, and a sample's RTSP stream or presenter address is a machine
on someone's network. Every program that is started runs in a fresh network namespace with
only loopback (``unshare --net``, as root), so nothing it opens — cv2 opens streams in C,
past Python's socket — can leave this machine; where no such namespace can be made, only
the level-1 programs known to open nothing are started.

After merging every branch, the lead runs the same command; specs for more samples go in
tools/sample_specs.py.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))

from sample_specs import CANNOT, CLASSIFIERS, SPECS, Spec  # noqa: E402

LIBRARY_DIRS = ("acllite", "acllitePY")
SHARED = ("python/common", "inference/acllite", "common")
#: what a program needs that the simulator cannot give, found in its folder's code
NEEDS = {
    "camera": re.compile(r"CameraCapture|cameracapture|camera_capture|/dev/video|"
                         r"VideoCapture\(\s*\d"),
    "presenter server": re.compile(r"presenter", re.I),
    "robot": re.compile(r"serial\.Serial|uart|robot_arm|RoboticArm", re.I),
    "network peer": re.compile(
        r"rtsp|socket\.|websocket|urlopen|urllib\.request|requests\.(get|post)|"
        r"\b(?!127\.)(?!0\.0\.0\.0)\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b", re.I),
}
#: the files of a sample folder whose text can name a peer (code and configuration)
CONFIG_SUFFIXES = {".py", ".conf", ".cfg", ".ini", ".json", ".yaml", ".yml", ".txt", ".sh"}
#: started even where no loopback-only namespace can be made: they open no file or socket
#: beyond their own data (read line by line)
KNOWN_SAFE = ("python/level1_single_api/1_acl/2_memory_management/",
              "python/level1_single_api/1_acl/4_blas/")
#: `unshare --net` gives the program a network namespace of its own; inside, only loopback
#: is brought up, so a connect anywhere else fails at once with ENETUNREACH
LOOPBACK_ONLY = ("unshare", "--net", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh")
_PROBE = """
import errno, socket
s = socket.socket(); s.settimeout(5)
try:
    s.connect(("10.0.0.1", 9)); print("connected")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno))
"""


def discover(samples: Path) -> list[Path]:
    """Every program of the checkout, as paths relative to it, in a stable order."""
    found = []
    for path in sorted(samples.rglob("*.py")):
        rel = path.relative_to(samples)
        if any(part in LIBRARY_DIRS for part in rel.parts[:-1]) or ".git" in rel.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "__main__" in text and re.search(
                r"^\s*(import acl\b|from acllite|import acllite|from acl_resource|"
                r"import acl_resource|from \S*acllite)", text, re.M):
            found.append(rel)
    return found


def sample_root(samples: Path, program: Path) -> Path:
    """The sample's folder: the nearest folder above the program with a README."""
    folder = (samples / program).parent
    while folder != samples:
        if any(folder.glob("README*")):
            return folder
        folder = folder.parent
    return (samples / program).parent


def needs(folder: Path, program: Path) -> list[str]:
    """What the program talks to: its own code and the sample-folder modules it imports
    (not the other programs beside it, nor the acllite library's unused modules), and every
    configuration file of the folder (READMEs do not count)."""
    texts = [p.read_text(encoding="utf-8", errors="replace")
             for p in sorted(folder.rglob("*"))
             if p.suffix.lower() in CONFIG_SUFFIXES - {".py"} and p.is_file()
             and not p.name.lower().startswith("readme")
             and not set(p.relative_to(folder).parts) & set(LIBRARY_DIRS)]
    modules = {p.stem: p for p in sorted(folder.rglob("*.py"), reverse=True)
               if not set(p.relative_to(folder).parts[:-1]) & set(LIBRARY_DIRS)}
    todo, seen = [program], set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        text = path.read_text(encoding="utf-8", errors="replace")
        texts.append(text)
        for names in re.findall(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))",
                                text, re.M):
            for name in re.split(r"[,\s.]+", " ".join(names)):
                if name in modules:
                    todo.append(modules[name])
    text = "\n".join(texts)
    return [name for name, pattern in NEEDS.items() if pattern.search(text)]


_jail: list = []


def loopback_only() -> tuple:
    """The command prefix that runs a program with loopback as its only network, or () when
    this machine cannot make one (checked once: a connect to 10.0.0.1 must fail at once
    with ENETUNREACH)."""
    if not _jail:
        try:
            probe = subprocess.run([*LOOPBACK_ONLY, sys.executable, "-c", _PROBE],
                                   capture_output=True, text=True, timeout=20)
            ok = probe.returncode == 0 and probe.stdout.strip() == "ENETUNREACH"
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        _jail.append(LOOPBACK_ONLY if ok else ())
    return _jail[0]


def _copy(samples: Path, rel: Path, work: Path) -> None:
    source = samples / rel
    if source.is_dir() and not (work / rel).exists():
        shutil.copytree(source, work / rel, symlinks=True,
                        ignore=shutil.ignore_patterns(".git", "*.om", "*.mp4", "*.h264"))


#: the acllite copy each tree's READMEs put on PYTHONPATH ($THIRDPART_PATH/acllite)
ACLLITE = {"python": "python/common/acllite", "inference": "inference/acllite/acllitePY",
           "best_practices": "python/common/acllite"}
PROFILE, SOC = "310", "Ascend310"      # most samples are written for Atlas 200 DK / 300


def acl_lab(*args, cwd: Path, timeout: int = 300, env=None, paths=(), prefix=(),
            capture: Path | None = None) -> subprocess.CompletedProcess:
    """`acl-lab ARGS` in ``cwd`` (behind ``prefix``, e.g. LOOPBACK_ONLY; keeping every model
    execution's feed and results in ``capture``); past ``timeout`` it is asked to stop
    (SIGTERM: acl-lab run still writes its report) and its returncode is None."""
    path = os.pathsep.join([str(ROOT), *map(str, paths)])
    command = ([str(ROOT / "tools" / "sample_capture.py"), str(capture)] if capture
               else ["-m", "acl_lab.cli"])
    proc = subprocess.Popen([*prefix, sys.executable, *command, *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": path, "ACL_LAB_HOST_RAM": "1GiB",
                                 **(env or {})})
    try:
        out, err = proc.communicate(timeout=timeout)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        return subprocess.CompletedProcess(proc.args, None, out, err)


def prepare(spec: Spec, program_dir: Path, sample_dir: Path, work: Path) -> str | None:
    """Make the spec's stand-ins next to the program; None, or why they could not be made."""
    from standins import write_image, write_model, write_pieces, write_video

    for rel, kind in spec.files.items():
        target = (program_dir / rel).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        if kind.startswith("image"):
            size = kind.partition(":")[2] or "640x480"
            width, height = (int(v) for v in size.split("x"))
            write_image(target, width, height)
        elif kind.startswith("pieces:"):        # pieces:WxH, a board with round pieces
            width, height = (int(v) for v in kind[7:].split("x"))
            write_pieces(target, width, height)
        elif kind.startswith("video:"):         # video:WxH:frames
            _, size, frames = kind.split(":")
            width, height = (int(v) for v in size.split("x"))
            write_video(target, width, height, int(frames))
        elif kind.startswith("bin:"):
            _, dtype, count = kind.split(":")
            import numpy as np
            np.random.default_rng(0).random(int(count)).astype(dtype).tofile(target)
        elif kind.startswith("copy:"):
            shutil.copyfile(kind[5:], target)
        elif kind.startswith("text:"):
            target.write_text(kind[5:], encoding="utf-8")
    for rel in spec.dirs:
        (program_dir / rel).resolve().mkdir(parents=True, exist_ok=True)
    for rel, (inputs, outputs, *flags) in spec.models.items():
        target = (program_dir / rel).resolve()
        flags = [f"--insert_op_conf={(program_dir / f.partition('=')[2]).resolve()}"
                 if f.startswith("--insert_op_conf=") else f for f in (flags[0] if flags else ())]
        error = write_model(target, inputs, outputs, acl_lab, flags,
                            keep_onnx=standin_onnx(work, rel))
        if error:
            return f"stand-in model {rel}: {error}"
    for rel in spec.singleop:
        description, output = (sample_dir / rel[0]).resolve(), (sample_dir / rel[1]).resolve()
        done = acl_lab("atc", f"--singleop={description}", f"--output={output}",
                       f"--soc_version={SOC}", cwd=sample_dir)
        if done.returncode:
            return f"acl-lab atc --singleop {rel[0]}: {done.stdout.strip().splitlines()[0]}"
    return None


def standin_onnx(work: Path, rel: str) -> Path:
    """Where a stand-in's ONNX is kept for the onnxruntime check: outside the sample."""
    return work / "standins" / Path(rel).with_suffix(".onnx").name


#: how the classification samples print their top-5: a heading, then one line per class
TOP5_HEADING = "top5 inference results"
TOP5_LINE = re.compile(r"^\s*(?:label:\s*(\d+)|\[(\d+)\]:)")


def printed_top5(stdout: str) -> list[list[int]]:
    """The class indices of every top-5 block the sample printed, in order."""
    blocks, block = [], None
    for line in stdout.splitlines():
        if TOP5_HEADING in line:
            block = []
            blocks.append(block)
            continue
        found = TOP5_LINE.match(line)
        if block is not None and found:
            block.append(int(found.group(1) or found.group(2)))
        elif block:
            block = None
    return blocks


def top5_check(stdout: str, capture: Path, onnx_paths: list[Path]) -> str:
    """Whether each top-5 the sample printed is onnxruntime's, run directly on the stand-in
    ONNX with the very input the sample fed its model (one block per picture)."""
    import pickle

    import numpy as np
    import onnxruntime

    printed = printed_top5(stdout)
    if not capture.exists() or not printed:
        return "no top-5 printed" if capture.exists() else "no capture"
    records = pickle.loads(capture.read_bytes())
    session = onnxruntime.InferenceSession(str(onnx_paths[0]),
                                           providers=["CPUExecutionProvider"])
    expected = []
    for feed, _results in records:
        first = np.asarray(session.run(None, feed)[0])
        rows = first.reshape(first.shape[0], -1) if first.ndim > 1 else first.reshape(1, -1)
        expected += [list(map(int, row.argsort()[-1:-6:-1])) for row in rows]
    # a batch may hold fewer pictures than the model's batch: the sample prints those
    if len(printed) <= len(expected) and [block[:5] for block in printed] == [
            top[:len(block)] for top, block in zip(expected, printed)]:
        return f"matches onnxruntime ({len(printed)} picture(s))"
    return f"DIFFERS: printed {printed[:2]}..., onnxruntime {expected[:2]}... " \
           f"({len(printed)} printed, {len(expected)} run)"


def first_blocker(report: dict | None, run: subprocess.CompletedProcess | None) -> str:
    if report is None:
        tail = (run.stderr if run else "").strip().splitlines()
        return tail[-1][:120] if tail else "no report"
    if report["status"] == "completed":
        return ""
    return (report["error"] or report["status"])[:160]


def run_one(samples: Path, program: Path, work_root: Path, timeout: int) -> dict:
    spec = SPECS.get(program.as_posix(), Spec())
    root = sample_root(samples, program)
    work = work_root / program.as_posix().replace("/", "__")
    for rel in SHARED:
        _copy(samples, Path(rel), work)
    _copy(samples, root.relative_to(samples), work)
    program_dir = (work / program).parent
    row = {"program": program.as_posix(), "needs": needs(root, samples / program), "spec": program.as_posix() in
           SPECS, "completed": False, "blocker": "", "findings": [], "report": None,
           "started": False}
    if row["needs"]:
        row["blocker"] = f"cannot run here: needs {', '.join(row['needs'])} (not started)"
        return row
    jail = loopback_only()
    if not jail and not program.as_posix().startswith(KNOWN_SAFE):
        row["blocker"] = ("not started: no loopback-only network namespace here "
                          "(run as root where `unshare --net` works)")
        return row
    problem = prepare(spec, program_dir, work / root.relative_to(samples), work)
    if problem:
        row["blocker"] = problem
        return row
    report_path, capture = work / "report.json", (
        work / "capture.pkl" if program.as_posix() in CLASSIFIERS else None)
    run = acl_lab("run", "--profile", PROFILE, "--json", str(report_path), program.name,
                  *spec.args, cwd=program_dir, timeout=timeout, env=spec.env,
                  paths=[work / ACLLITE.get(program.parts[0], ACLLITE["python"])],
                  prefix=jail, capture=capture)
    row["started"] = True
    if capture:
        row["top5"] = top5_check(run.stdout, capture, [standin_onnx(work, rel)
                                                       for rel in spec.models])
    report = json.loads(report_path.read_text()) if report_path.exists() else None
    row.update(completed=bool(report and report["status"] == "completed"),
               blocker=first_blocker(report, run), report=report,
               findings=_findings(report))
    if run.returncode is None:
        row["blocker"] = f"did not finish in {timeout} s"
    if "top5" in row:
        row["findings"].append(f"top-5 {row['top5']}")
    if not row["completed"] and program.as_posix() in CANNOT:
        row["blocker"] = f"cannot: {CANNOT[program.as_posix()]} — {row['blocker']}"
    return row


def _findings(report: dict | None) -> list[str]:
    if not report:
        return []
    out = []
    uaf = [f for f in report["failures"] if f["freed"]]
    if uaf:
        out.append(f"use-after-free x{len(uaf)} (first: acl.{uaf[0]['call']} at "
                   f"{uaf[0]['where']})")
    other = [f for f in report["failures"] if not f["freed"]]
    if other:
        out.append(f"failed calls x{len(other)} (first: acl.{other[0]['call']} -> "
                   f"{other[0]['code']} at {other[0]['where']})")
    if report["leaks"]:
        out.append(f"leaks x{len(report['leaks'])}")
    counts = report.get("call_counts", {})
    work = [f"{name} x{counts[name]}" for name in ("mdl.execute", "mdl.execute_async",
                                                   "op.execute_v2", "op.cast")
            if counts.get(name)]
    out.append(", ".join(work) if work else "no model or operator executed")
    return out


def table(rows: list[dict]) -> str:
    lines = [f"{'program':70} {'ran':4} first blocker / findings"]
    for r in rows:
        name = r["program"]
        name = name if len(name) <= 70 else "…" + name[-69:]
        why = r["blocker"]
        lines.append(f"{name:70} {'yes' if r['completed'] else 'no':4} "
                     f"{why or '; '.join(r['findings'])}")
        found = [f for f in r["findings"] if f != "no model or operator executed"]
        if found and why:
            lines.append(f"{'':75} {'; '.join(found)}")
    done = sum(r["completed"] for r in rows)
    lines.append(f"\n{done} of {len(rows)} programs ran to completion.")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=Path, default=os.environ.get("ACL_LAB_SAMPLES"),
                        help="a local checkout of Ascend/samples (default: $ACL_LAB_SAMPLES)")
    parser.add_argument("--only", default="", help="run the programs whose path contains this")
    parser.add_argument("--json", type=Path, help="write every row (with its report) here")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per program")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    args = parser.parse_args(argv)
    if not args.samples or not Path(args.samples).is_dir():
        parser.error("point --samples or ACL_LAB_SAMPLES at a checkout of Ascend/samples")
    samples = Path(args.samples).resolve()
    programs = [p for p in discover(samples) if args.only in p.as_posix()]
    work_root = args.keep or Path(tempfile.mkdtemp(prefix="acl_lab_samples_"))
    rows = []
    try:
        for program in programs:
            row = run_one(samples, program, work_root, args.timeout)
            rows.append(row)
            print(f"{'ok ' if row['completed'] else '-- '} {program}", file=sys.stderr,
                  flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work_root, ignore_errors=True)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
