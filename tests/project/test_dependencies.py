"""pyproject.toml, environment.yml and binder/ must agree on the runtime dependencies, so a
learner on conda or Binder gets the same kit as one using pip (``pip install acl_lab[lab]``:
the conda environments run JupyterLab, which the core leaves out for JupyterLite)."""
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOT_PACKAGES = {"python", "pip"}


#: conda-forge names of PyPI packages: matplotlib-base is matplotlib without a GUI toolkit
CONDA_NAMES = {"matplotlib-base": "matplotlib"}


def _name(spec: str) -> str:
    name = re.split(r"[<>=!~ \[]", spec.strip(), maxsplit=1)[0].lower()
    return CONDA_NAMES.get(name, name)


def _conda(path: Path, pattern: str = r"^  - ([^:]+)$") -> set[str]:
    """Package names listed directly under ``dependencies:`` (not the pip: sub-list)."""
    lines = path.read_text().splitlines()
    start = lines.index("dependencies:") + 1
    names = {_name(m.group(1)) for line in lines[start:] if (m := re.match(pattern, line))}
    return names - NOT_PACKAGES


def _conda_and_pip(path: Path) -> set[str]:
    """Every package the environment installs: conda's and its pip: sub-list's (not -e .)."""
    return _conda(path) | _conda(path, r"^      - ([A-Za-z][^:]*)$")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _pyproject() -> set[str]:
    """The core dependencies and the ``lab`` extra: what a conda environment must hold."""
    project = _project()
    return {_name(d) for d in project["dependencies"] + project["optional-dependencies"]["lab"]}


@pytest.mark.parametrize("path", ["environment.yml", "binder/environment.yml"])
def test_the_conda_environments_install_the_pyproject_dependencies(path):
    """conda takes what conda-forge has; the rest comes from PyPI through the pip: list."""
    assert _pyproject() <= _conda_and_pip(ROOT / path)
    assert _conda(ROOT / path) <= _pyproject()


def test_the_core_installs_in_pyodide():
    """JupyterLite installs the wheel with micropip: jupyterlab (tornado, pyzmq), onnx and
    onnxruntime have no WebAssembly wheels, so none may be a core dependency there."""
    from packaging.requirements import Requirement
    wasm = {"sys_platform": "emscripten", "platform_system": "Emscripten"}
    core = {Requirement(d).name.lower() for d in _project()["dependencies"]
            if Requirement(d).marker is None or Requirement(d).marker.evaluate(wasm)}
    assert core.isdisjoint({"jupyterlab", "notebook", "onnx", "onnxruntime", "tornado", "pyzmq"})
    assert {"numpy", "ipywidgets", "sortedcontainers"} <= core


def test_conda_jupyterlab_is_the_line_the_lab_extra_pins():
    pin = next(d for d in _project()["optional-dependencies"]["lab"] if _name(d) == "jupyterlab")
    for path in (ROOT / "environment.yml", ROOT / "binder" / "environment.yml"):
        assert f"  - {pin.replace(' ', '')}\n" in path.read_text()


def test_binder_installs_the_kit():
    assert "pip install --no-deps ." in (ROOT / "binder" / "postBuild").read_text()


def test_the_samples_extra_installs_the_opencv_the_official_samples_run_with():
    """OpenCV 5 refuses ssd_mobilenetv2_picture's cv2.putText on a float32 picture; the
    samples were written for OpenCV 4 (tools/run_samples.py counts them with it)."""
    from packaging.requirements import Requirement
    opencv = next(Requirement(d) for d in _project()["optional-dependencies"]["samples"]
                  if _name(d) == "opencv-python-headless")
    assert "4.14.0" in opencv.specifier and "5.0.0" not in opencv.specifier
