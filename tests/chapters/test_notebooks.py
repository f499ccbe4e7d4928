"""The chapters as a learner meets them: every notebook validated by nbval (pytest collects
notebooks/ with --nbval), committed executed, free of machine paths, each exercise
starting its own state and ending with its check, no solution stored."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHAPTERS = ["00_start_here", "01_resource_management", "02_host_and_device_memory",
            "03_memset_and_memcpy", "04_meminfo_and_run_mode", "05_memory_pool_and_alignment",
            "06_capture_acl_graph", "07_capstone", "08_offline_inference",
            "09_media_processing", "10_device_memory_cann8"]
#: every edition: English and the Chinese one (notebooks/zh_CN/, tests/chapters/test_editions.py)
EDITIONS = NOTEBOOKS + sorted((ROOT / "notebooks" / "zh_CN").glob("*.ipynb"))
MACHINE_PATH = re.compile(r"(/work/|/home/|/root/|/tmp/|site-packages|\\.venv|[A-Z]:\\\\)")
TIME_OF_DAY = re.compile(r"\b\d{1,2}:\d{2}:\d{2}\b|\b20\d\d-\d\d-\d\d\b")


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _text(output) -> str:
    parts = [output.get("text", "")]
    for mime, value in output.get("data", {}).items():
        if mime.startswith("text/"):
            parts.append("".join(value) if isinstance(value, list) else value)
    return "".join("".join(p) if isinstance(p, list) else p for p in parts)


def test_every_chapter_is_there():
    assert [p.stem for p in NOTEBOOKS] == CHAPTERS


def test_nbval_collects_every_notebook():
    config = (ROOT / "pyproject.toml").read_text()
    assert '"notebooks"' in config and "--nbval" in config


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_committed_executed_without_machine_paths(path):
    code = [c for c in _cells(path) if c["cell_type"] == "code"]
    assert code and all(c["execution_count"] is not None for c in code), \
        "commit the notebook executed (tools/execute_notebooks.py)"
    counts = [c["execution_count"] for c in code]
    assert counts == list(range(1, len(code) + 1)), "execute top to bottom in a fresh kernel"
    for c in code:
        for o in c.get("outputs", []):
            assert o.get("output_type") != "error", f"error output in {c['source'][:80]}"
            text = _text(o)
            assert not MACHINE_PATH.search(text), f"machine path in output: {text[:200]}"
            assert not TIME_OF_DAY.search(text), f"time of day in output: {text[:200]}"


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_starts_fresh(path):
    first = next(c for c in _cells(path) if c["cell_type"] == "code")
    assert "acl_lab.reset(" in "".join(first["source"])


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_every_exercise_starts_its_own_state_and_no_solution_is_stored(path):
    """Solutions live in the kit (exercises.solution) and never run in Run All: no solution
    cell, and no exercise stored as passed."""
    cells = _cells(path)
    assert not [c for c in cells if "solution" in c["metadata"].get("tags", [])], \
        "a solution cell: solutions live in the kit (exercises.solution), not in the chapter"
    exercises = [c for c in cells if "exercise" in c.get("metadata", {}).get("tags", [])]
    assert exercises
    for c in exercises:
        source = "".join(c["source"])
        exercise_id = re.findall(r'exercises\.check\("(\d\d\.\d)"', source)[-1]
        assert f'exercises.start("{exercise_id}", acl)' in source
        assert source.rstrip().splitlines()[-1].startswith(f'exercises.check("{exercise_id}"')
    for c in cells:
        for o in c.get("outputs", []):
            assert "✅" not in _text(o), f"a passed exercise is stored: {_text(o)[:200]}"


@pytest.mark.parametrize("path", EDITIONS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_has_slide_metadata(path):
    kinds = {c["metadata"].get("slideshow", {}).get("slide_type") for c in _cells(path)}
    assert "slide" in kinds
