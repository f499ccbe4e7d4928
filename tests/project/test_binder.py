"""binder/ as repo2docker reads it (the image for mybinder.org and for workshop hubs), and the
links docs/workshops.md gives: repo2docker itself renders the Dockerfile (--no-build, no
Docker needed), and the nbgitpuller links open chapters that exist."""
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from acl_lab.cli import binder_url

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "workshops.md"
CHAPTERS = {p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}


@pytest.fixture(scope="module")
def dockerfile() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "repo2docker", "--no-build", "--debug", "--user-id", "1000",
         "--user-name", "jovyan", str(ROOT)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout + done.stderr


def test_repo2docker_builds_a_conda_environment_from_binder_with_python_pinned(dockerfile):
    pinned = re.search(r"^  - python=(3\.\d+)$", (ROOT / "binder" / "environment.yml")
                       .read_text(), re.M)
    assert pinned, "pin python=3.x in binder/environment.yml"
    assert f"Building conda environment for python={pinned[1]}" in dockerfile
    assert '--file "binder/environment.yml"' in dockerfile


def test_repo2docker_runs_postbuild_after_copying_the_repository(dockerfile):
    copy = dockerfile.index("COPY --chown=1000:1000 src/ ${REPO_DIR}/")
    assert dockerfile.index("RUN ./binder/postBuild") > copy
    # with binder/ present, root files are ignored: nothing installs the root project itself
    assert "requirements.txt" not in dockerfile and "setup.py" not in dockerfile


def test_postbuild_is_an_executable_script_that_installs_the_kit():
    mode = subprocess.run(["git", "ls-files", "-s", "binder/postBuild"], cwd=ROOT,
                          capture_output=True, text=True).stdout.split()[0]
    assert mode == "100755"
    script = (ROOT / "binder" / "postBuild").read_text()
    assert script.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in script
    install = next(line for line in script.splitlines() if line.startswith("pip install"))
    assert install == "pip install --no-deps ."      # not editable: a hub may mount $HOME over it


def test_image_has_nbgitpuller_for_hub_links():
    assert re.search(r"^      - nbgitpuller==", (ROOT / "binder" / "environment.yml").read_text(),
                     re.M)


def _links(kind: str) -> list[str]:
    return re.findall(rf"https://[^\s`)<>\"]*{kind}[^\s`)<>\"]*", GUIDE.read_text())


def test_nbgitpuller_links_open_a_chapter_that_exists():
    links = _links("hub.example.org/hub/user-redirect/git-pull")
    assert len(links) >= 2
    for link in links:
        url = urlparse(link)
        assert url.path.endswith("/hub/user-redirect/git-pull"), link
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        assert set(query) == {"repo", "branch", "urlpath"}, link
        repo = query["repo"].rstrip("/").rsplit("/", 1)[1]
        prefix = f"lab/tree/{repo}/notebooks/"
        assert query["urlpath"].startswith(prefix), link
        assert query["urlpath"][len(prefix):] in CHAPTERS, link


def test_binder_link_in_the_guide_is_the_one_acl_lab_doctor_prints():
    expected = binder_url("https://github.com/ORG/acl_lab.git")
    assert expected in _links("mybinder.org")
