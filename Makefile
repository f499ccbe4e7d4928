# make lab  - create .venv if missing, install the kit, open JupyterLab at chapter 00
# make lab-zh - the same, the Chinese edition (notebooks/zh_CN/, JupyterLab menus in Chinese)
# make test - create .venv if missing, install the test extras, run every test (incl. nbval)
# make bench - print the benchmark table
# make lite  - build the JupyterLite site (chapters in a browser tab) into build/lite/site
# make site  - build the course as a static website, both languages, into build/site
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
# install stamps: the kit and JupyterLab (what a learner needs); those and the test tools
LAB    := $(VENV)/.lab-installed
TESTS  := $(VENV)/.test-installed

.PHONY: lab lab-zh test bench lite site clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# a learner's lab has no test tools in it (nbgrader would add its menus to JupyterLab)
$(LAB): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[lab]'
	touch $@

$(TESTS): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[lab,test]'
	touch $@ $(LAB)

lab: $(LAB)
	$(VENV)/bin/acl-lab lab

lab-zh: $(LAB)
	$(VENV)/bin/acl-lab lab --lang zh_CN

test: $(TESTS)
	$(PY) -m pytest

bench: $(LAB)
	$(PY) -m benchmarks

# the site needs only the kit, JupyterLab's line and jupyterlite (not the test tools)
$(VENV)/.lite-installed: $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[lab,lite]'
	touch $@

lite: $(VENV)/.lite-installed
	$(PY) tools/build_lite.py

# the website needs the kit (for nbformat) and Sphinx, MyST-NB and furo; nothing else
$(VENV)/.site-installed: $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[site]'
	touch $@

site: $(VENV)/.site-installed
	$(PY) tools/build_site.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
