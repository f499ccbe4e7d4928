"""Every cell can be re-run: a learner runs a cell, then runs it again before moving on.
Each code cell of every chapter runs twice in a row in a real IPython shell.

A first run never raises: the chapters catch every error they mean to show, and a re-run
must not leave state that breaks the cells after it (a capture left open, a variable
overwritten with NULL, a segment leaked). A re-run may only fail the way ACL itself fails
a repeated release or allocation: with an AclLabError that explains the code (freeing a
block twice is an error on hardware too); never with StopIteration, NameError & co."""
from pathlib import Path

import nbformat
import pytest

import acl_lab

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def code_cells(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_cell_runs_twice_in_a_row(path, shell, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)               # cells that write files write them here
    failures = []
    for number, source in enumerate(code_cells(path), 1):
        for attempt in ("first run", "re-run"):
            result = shell.run_cell(source, store_history=False)
            error = result.error_before_exec or result.error_in_exec
            if error is not None and not (attempt == "re-run" and
                                          isinstance(error, acl_lab.AclLabError)):
                failures.append(f"code cell {number} ({attempt}): {type(error).__name__}: "
                                f"{error}\n    {source.splitlines()[0][:100]}")
    capsys.readouterr()
    acl_lab.reset("910b")
    assert not failures, "\n".join(failures)


def test_a_cell_stopped_mid_capture_says_the_capture_is_still_open(acl):
    from acl_lab import constants as C

    stream, _ = acl.rt.create_stream()
    assert acl.mdl.ri_capture_begin(stream, C.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    with pytest.raises(acl_lab.AclLabError) as stopped:
        acl_lab.check(acl.nn.add(0, 0, 0x70000040, stream))      # an executor that is gone
    assert f"Stream 0x{stream:x} is still capturing" in str(stopped.value)
    assert "acl.mdl.ri_capture_end(stream)" in str(stopped.value)
    model, ret = acl.mdl.ri_capture_end(stream)
    assert ret == 0 and acl.mdl.ri_destroy(model) == 0
    with pytest.raises(acl_lab.AclLabError) as later:
        acl_lab.check(acl.rt.free(0x1234))
    assert "still capturing" not in str(later.value)
