"""pyproject.toml, environment.yml and binder/ must agree on the runtime dependencies, so a
learner on conda or Binder gets the same kit as one using pip."""
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOT_PACKAGES = {"python", "pip"}


def _name(spec: str) -> str:
    return re.split(r"[<>=!~ \[]", spec.strip(), maxsplit=1)[0].lower()


def _conda(path: Path, pattern: str = r"^  - ([^:]+)$") -> set[str]:
    """Package names listed directly under ``dependencies:`` (not the pip: sub-list)."""
    lines = path.read_text().splitlines()
    start = lines.index("dependencies:") + 1
    names = {_name(m.group(1)) for line in lines[start:] if (m := re.match(pattern, line))}
    return names - NOT_PACKAGES


def _conda_and_pip(path: Path) -> set[str]:
    """Every package the environment installs: conda's and its pip: sub-list's (not -e .)."""
    return _conda(path) | _conda(path, r"^      - ([A-Za-z][^:]*)$")


def _pyproject() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {_name(d) for d in data["project"]["dependencies"]}


@pytest.mark.parametrize("path", ["environment.yml", "binder/environment.yml"])
def test_the_conda_environments_install_the_pyproject_dependencies(path):
    """conda takes what conda-forge has; the rest comes from PyPI through the pip: list."""
    assert _pyproject() <= _conda_and_pip(ROOT / path)
    assert _conda(ROOT / path) <= _pyproject()


def test_binder_installs_the_kit():
    assert "pip install --no-deps ." in (ROOT / "binder" / "postBuild").read_text()
