"""`acl-lab doctor | lab | bench`: what a workshop helper reads, and what the shortcuts run."""
import io
import json
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from acl_lab import cli


def _fake_pyacl(devices):
    acl = types.ModuleType("acl")
    acl.rt = types.ModuleType("acl.rt")
    acl.rt.get_device_count = lambda: (devices, 0)
    return acl


def _doctor(monkeypatch, module, **env):
    monkeypatch.setitem(sys.modules, "acl", module)
    for var in ("ACL_LAB_BACKEND", "ACL_LAB_PROFILE", "ACL_LAB_GUARD"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    out = io.StringIO()
    return cli.doctor(out), out.getvalue()


def test_doctor_without_pyacl_says_why_and_the_simulator_still_runs(monkeypatch):
    rc, text = _doctor(monkeypatch, None)
    assert rc == 0
    assert "sim        ready" in text and "910b — Ascend910B3, ACL_HOST" in text
    assert "ascend     not available here" in text and "`import acl` failed" in text
    assert "set_env.sh" in text
    for package in ("numpy", "ipywidgets", "jupyterlab", "pytest"):
        assert package in text
    assert "widgets    " in text and "guard      on" in text


def test_doctor_fails_when_the_chosen_backend_cannot_run(monkeypatch):
    rc, text = _doctor(monkeypatch, None, ACL_LAB_BACKEND="ascend")
    assert rc == 1 and "<- cannot run here" in text and "How to get there" in text
    rc, text = _doctor(monkeypatch, None, ACL_LAB_PROFILE="nope")
    assert rc == 1 and "unknown profile 'nope'" in text


def test_doctor_with_pyacl_and_a_device_reports_it_ready(monkeypatch):
    rc, text = _doctor(monkeypatch, _fake_pyacl(2), ACL_LAB_BACKEND="ascend", ACL_LAB_GUARD="0")
    assert rc == 0 and "ascend     ready: 2 device(s)" in text and "guard      OFF" in text


def test_doctor_with_pyacl_but_no_device_says_so(monkeypatch):
    rc, text = _doctor(monkeypatch, _fake_pyacl(0))
    assert rc == 0 and "sees no Ascend NPU" in text


@pytest.mark.parametrize("uid", [1000, 0], ids=["user", "root"])
def test_lab_opens_jupyterlab_at_chapter_00(monkeypatch, tmp_path, uid):
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "00_start_here.ipynb").write_text("{}")
    monkeypatch.chdir(tmp_path)
    ran = []
    monkeypatch.setattr(os, "execv", lambda exe, argv: ran.append((exe, argv, os.getcwd())))
    assert cli.main(["lab", "--no-browser"]) == 0
    exe, argv, cwd = ran[0]
    assert exe == sys.executable and cwd == str(tmp_path)
    settings = next(a for a in argv if a.startswith("--LabApp.app_settings_dir="))
    assert argv[1:] == ["-m", "jupyter", "lab",
                        "--LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb",
                        "notebooks/00_start_here.ipynb",
                        "--no-browser", settings] + (["--allow-root"] if uid == 0 else [])
    overrides = json.loads(Path(settings.split("=", 1)[1], "overrides.json").read_text())
    assert overrides == cli.LAB_QUIET                # no news question, no update check


def test_the_quiet_settings_are_jupyterlabs_own():
    """The news question (fetchNews "none") and the update check are settings JupyterLab's
    installed schema has, with the values the kit gives them."""
    import jupyterlab
    schema = json.loads(Path(jupyterlab.__file__).parent.joinpath(
        "schemas", "@jupyterlab", "apputils-extension", "notification.json").read_text())
    settings = cli.LAB_QUIET["@jupyterlab/apputils-extension:notification"]
    assert schema["properties"]["fetchNews"]["default"] == "none"       # "ask": the question
    assert {"const": "false", "title": "Never"} in schema["properties"]["fetchNews"]["oneOf"]
    assert schema["properties"]["checkForUpdates"]["type"] == "boolean"
    assert set(settings) == {"fetchNews", "checkForUpdates"}
    assert settings == {"fetchNews": "false", "checkForUpdates": False}


def test_binder_writes_the_same_quiet_settings(tmp_path):
    script = (cli.CHECKOUT / "binder" / "postBuild").read_text()
    assert "write_lab_overrides(sys.prefix + \"/share/jupyter/lab/settings\")" in script
    path = cli.write_lab_overrides(tmp_path)
    assert json.loads(path.read_text()) == cli.LAB_QUIET
    zh = json.loads(cli.write_lab_overrides(tmp_path, "zh_CN").read_text())
    assert zh[cli.LAB_LOCALE] == {"locale": "zh_CN"} and cli.LAB_QUIET.items() <= zh.items()


def test_lab_prints_the_url_of_chapter_00_not_the_launcher(monkeypatch):
    """The address JupyterLab prints (and a helper copies) opens chapter 00. The server is
    initialised on a free loopback port and never started."""
    from jupyterlab.labapp import LabApp

    monkeypatch.chdir(cli.CHECKOUT)
    server = LabApp.initialize_server(argv=cli.lab_arguments(
        ["--no-browser", "--ip=127.0.0.1", "--port=0", "--ServerApp.token=t"]))
    try:
        assert "/lab/tree/notebooks/00_start_here.ipynb?token=" in server.display_url
        assert server.file_to_run.endswith("00_start_here.ipynb")
    finally:
        server.http_server.stop()
        type(server).clear_instance()
        LabApp.clear_instance()


def make_dry_run(target: str, tmp_path: Path) -> list[str]:
    """The commands ``make TARGET`` would run on a fresh checkout (no .venv yet), also when
    the tests themselves run under make (``make test``: no inherited MAKEFLAGS)."""
    shutil.copy(cli.CHECKOUT / "Makefile", tmp_path)
    (tmp_path / "pyproject.toml").touch()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS"))}
    out = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def test_make_lab_installs_the_lab_without_the_test_tools_and_opens_chapter_00(tmp_path):
    commands = make_dry_run("lab", tmp_path)
    installs = [c for c in commands if "pip install" in c and "-e" in c]
    assert installs == [".venv/bin/python -m pip install --quiet -e '.[lab]'"]
    assert commands[-1] == ".venv/bin/acl-lab lab"


def test_make_site_installs_the_site_tools_and_builds_the_website(tmp_path):
    commands = make_dry_run("site", tmp_path)
    assert ".venv/bin/python -m pip install --quiet -e '.[site]'" in commands
    assert commands[-1] == ".venv/bin/python tools/build_site.py"
    header = (cli.CHECKOUT / "Makefile").read_text().split("\n\n")[0]
    assert "# make site" in header


def test_make_test_installs_the_test_tools_and_runs_pytest(tmp_path):
    commands = make_dry_run("test", tmp_path)
    assert ".venv/bin/python -m pip install --quiet -e '.[lab,test]'" in commands
    assert commands[-1] == ".venv/bin/python -m pytest"


@pytest.mark.parametrize("remote", ["https://github.com/someone/acl_lab.git",
                                    "https://github.com/someone/acl_lab",
                                    "git@github.com:someone/acl_lab.git",
                                    "ssh://git@github.com/someone/acl_lab.git"])
def test_binder_url_comes_from_the_github_remote(remote):
    assert cli.binder_url(remote) == ("https://mybinder.org/v2/gh/someone/acl_lab/HEAD"
                                      "?urlpath=lab/tree/notebooks/00_start_here.ipynb")


def test_binder_url_needs_a_github_remote(monkeypatch):
    assert cli.binder_url("https://gitlab.example.org/someone/acl_lab.git") is None
    assert cli.binder_url("") is None
    monkeypatch.setattr(cli, "binder_url", lambda remote=None: None)
    rc, text = _doctor(monkeypatch, None)
    assert "binder     no GitHub remote 'origin'" in text


def test_doctor_prints_the_binder_link_of_this_checkout(monkeypatch):
    monkeypatch.setattr(cli, "binder_url",
                        lambda remote=None, language="en": "https://mybinder.org/v2/gh/o/r")
    rc, text = _doctor(monkeypatch, None)
    assert "binder     https://mybinder.org/v2/gh/o/r" in text


def test_readme_has_no_binder_placeholder():
    readme = (cli.CHECKOUT / "README.md").read_text()
    assert "OWNER" not in readme and "acl-lab doctor" in readme


def test_lab_without_the_chapters_explains(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "CHECKOUT", tmp_path)
    assert cli.main(["lab"]) == 2
    assert "source checkout" in capsys.readouterr().err


def test_bench_runs_python_m_benchmarks_with_its_arguments(monkeypatch, tmp_path, capfd):
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "benchmarks" / "__init__.py").write_text("")
    (tmp_path / "benchmarks" / "__main__.py").write_text(
        "import sys\nprint('bench', sys.argv[1:])\nsys.exit(3)\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["bench", "memcpy"]) == 3
    assert "bench ['memcpy']" in capfd.readouterr().out


def test_bench_without_benchmarks_explains(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "CHECKOUT", tmp_path)
    assert cli.main(["bench"]) == 2
    assert "source checkout" in capsys.readouterr().err


def test_an_unknown_command_is_a_usage_error():
    with pytest.raises(SystemExit) as e:
        cli.main(["frobnicate"])
    assert e.value.code == 2


def test_lab_in_chinese_opens_the_chinese_chapter_00_with_chinese_menus(monkeypatch, tmp_path):
    (tmp_path / "notebooks" / "zh_CN").mkdir(parents=True)
    (tmp_path / "notebooks" / "zh_CN" / "00_start_here.ipynb").write_text("{}")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    ran = []
    monkeypatch.setattr(os, "execv", lambda exe, argv: ran.append((argv, os.getcwd())))
    assert cli.main(["lab", "--lang", "zh_CN", "--no-browser"]) == 0
    argv, cwd = ran[0]
    assert cwd == str(tmp_path)
    assert "--LabApp.default_url=/lab/tree/notebooks/zh_CN/00_start_here.ipynb" in argv
    settings = next(a for a in argv if a.startswith("--LabApp.app_settings_dir="))
    overrides = Path(settings.split("=", 1)[1], "overrides.json")
    assert json.loads(overrides.read_text()) == {
        "@jupyterlab/translation-extension:plugin": {"locale": "zh_CN"}, **cli.LAB_QUIET}


def test_make_lab_zh_and_the_chinese_binder_link(tmp_path):
    assert make_dry_run("lab-zh", tmp_path)[-1] == ".venv/bin/acl-lab lab --lang zh_CN"
    assert cli.binder_url("https://github.com/o/acl_lab.git", "zh_CN").endswith(
        "?urlpath=lab/tree/notebooks/zh_CN/00_start_here.ipynb")
    assert (cli.CHECKOUT / cli.START_NOTEBOOKS["zh_CN"]).exists()


def test_doctor_speaks_chinese_when_asked(tmp_path):
    """ACL_LAB_LANG=zh_CN: the report's sections, labels and advice are Chinese, the labels
    still line up (a Chinese character takes two columns), names and paths stay as they are."""
    from acl_lab.i18n import columns

    env = {k: v for k, v in os.environ.items() if not k.startswith("ACL_LAB_")}
    out = subprocess.run([sys.executable, "-m", "acl_lab.cli", "doctor"], capture_output=True,
                         text=True, env={**env, "ACL_LAB_LANG": "zh_CN",
                                         "ACL_LAB_BACKEND": "ascend"}, cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    for text in ("\n后端\n", "\n当前使用\n", "\n  依赖包     numpy", "\n  ascend     在本机不可用：\n",
                 "解决：安装 CANN Toolkit", "  后端       ascend ($ACL_LAB_BACKEND)  <- 在本机无法运行",
                 "\n  防护层     开启", "\n如何准备：\n", "没有 NPU 时请继续使用模拟器"):
        assert text in out.stdout, text
    for label in ("依赖包", "测试依赖", "后端", "配置", "防护层", "控件扩展", "章节"):
        line = next(line for line in out.stdout.splitlines() if line.startswith(f"  {label} "))
        value = line[2 + len(label):]
        assert 2 + columns(label) + len(value) - len(value.lstrip(" ")) == 13, line
    assert "\n  Python     " in out.stdout and "\n  sim        可用：配置 310, " in out.stdout
    assert "Backends" not in out.stdout and "not available" not in out.stdout
