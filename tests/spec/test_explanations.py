"""acl_lab.explain agrees with the lessons: every code a chapter triggers through an
application's own mistake is explained with that mistake, not only with "contact support"."""
import json
import re
from pathlib import Path

import pytest

import acl_lab
from acl_lab.constants import ERROR_NAMES

ROOT = Path(__file__).resolve().parents[2]
SHOWN = re.compile(r"\b(\d{6}) (ACL\w+|ACLNN\w+) \(\1\)")


def codes_the_chapters_show() -> set[int]:
    codes = set()
    for path in (ROOT / "notebooks").glob("*.ipynb"):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            # one text per cell: the kernel may split one print across stream outputs
            text = "".join("".join(out.get("text", "")) + "".join(
                out.get("data", {}).get("text/plain", "")) for out in cell.get("outputs", []))
            codes.update(int(code) for code, _ in SHOWN.findall(text))
    return codes


def test_the_chapters_show_codes():
    assert {207000, 507007, 507011, 507903, 107002} <= codes_the_chapters_show()


@pytest.mark.parametrize("code", sorted(codes_the_chapters_show()))
def test_every_code_a_chapter_shows_names_an_application_cause(code):
    text = acl_lab.explain(code)
    assert text.startswith(f"{ERROR_NAMES[code]} ({code}): ")
    assert "cannot fix this" not in text, text


@pytest.mark.parametrize("code, lesson", [
    (207000, "1 GiB huge pages"),                    # chapter 04: the chip has no such pages
    (207000, "only aclrtCreateEventExWithFlag events can be captured"),   # chapters 01, 06
    (207000, "stream capture on a chip without ACL Graph"),   # chapter 06, the SoC table
    (507011, "freed"),                               # chapter 06: a captured buffer freed
    (507011, "aclmdlRIDestroy"),
    (507007, "aclrtResetDevice without a matching aclrtSetDevice"),   # chapter 01
    (507000, "never recorded"),                      # chapter 06, exercise 06.3
    (100037, "already done"),                        # chapter 00: accepted like 100002
])
def test_explanations_say_what_the_chapters_teach(code, lesson):
    assert lesson in acl_lab.explain(code)
