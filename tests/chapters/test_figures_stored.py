"""The chapters whose text talks about a trend store a matplotlib figure, in both editions:
a PNG (which nbval does not compare) beside a one-line text (which it does), from a code
cell the two editions share."""
import base64
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
FIGURE_CHAPTERS = ("03", "04", "05", "06", "08", "09", "10")


def figure_cells(path: Path) -> list:
    nb = nbformat.read(path, as_version=4)
    return [c for c in nb.cells if c.cell_type == "code" and "figures." in c.source
            and "from acl_lab import figures" in c.source]


@pytest.mark.parametrize("edition", ["", "zh_CN"])
@pytest.mark.parametrize("chapter", FIGURE_CHAPTERS)
def test_the_chapter_stores_a_figure(chapter, edition):
    path = next((ROOT / "notebooks" / edition).glob(f"{chapter}_*.ipynb"))
    cells = figure_cells(path)
    assert cells, f"{path.name}: no figure cell"
    for cell in cells:
        bundles = [o["data"] for o in cell.outputs if "image/png" in o.get("data", {})]
        assert len(bundles) == 1, cell.source
        assert set(bundles[0]) == {"image/png", "text/plain"}       # nothing nbval would
        png = base64.b64decode(bundles[0]["image/png"])             # compare pixel by pixel
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and b"Software" not in png[:200]
        text = "".join(bundles[0]["text/plain"])
        assert text.startswith("图：" if edition else "Figure: "), text
