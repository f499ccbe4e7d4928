"""pyproject.toml, environment.yml and binder/ must agree on the runtime dependencies, so a
learner on conda or Binder gets the same kit as one using pip."""
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_PACKAGES = {"python", "pip"}


def _name(spec: str) -> str:
    return re.split(r"[<>=!~ \[]", spec.strip(), maxsplit=1)[0].lower()


def _conda(path: Path) -> set[str]:
    """Package names listed directly under ``dependencies:`` (not the pip: sub-list)."""
    lines = path.read_text().splitlines()
    start = lines.index("dependencies:") + 1
    names = {_name(m.group(1)) for line in lines[start:]
             if (m := re.match(r"^  - ([^:]+)$", line))}
    return names - NOT_PACKAGES


def _pyproject() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {_name(d) for d in data["project"]["dependencies"]}


def test_environment_yml_lists_the_pyproject_dependencies():
    assert _conda(ROOT / "environment.yml") == _pyproject()


def test_binder_lists_the_pyproject_dependencies():
    assert _conda(ROOT / "binder" / "environment.yml") == _pyproject()


def test_binder_installs_the_kit():
    assert "pip install --no-deps ." in (ROOT / "binder" / "postBuild").read_text()
