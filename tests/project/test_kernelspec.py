"""Opening a chapter does not modify it: each notebook names the kernel exactly as the
installed ipykernel describes itself, so JupyterLab has nothing to rewrite on open."""
from pathlib import Path

import nbformat
import pytest
from ipykernel.kernelspec import KERNEL_NAME, get_kernel_dict

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))


def test_every_chapter_is_found():
    assert len(NOTEBOOKS) >= 18


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_kernelspec_is_what_ipykernel_writes(path):
    spec = nbformat.read(path, as_version=4).metadata.kernelspec
    ipykernel = get_kernel_dict()
    assert dict(spec) == {"display_name": ipykernel["display_name"],
                          "language": ipykernel["language"], "name": KERNEL_NAME}
