# vtsmodel: two commands for users (`make lab`, `make test`) and a few for developers.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
EXTRAS := notebooks,test,bench
# Jupyter refuses to run as root unless told; containers and CI often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
# Jupyter, IPython and matplotlib-style state stays inside the venv, not in $HOME.
JUPYTER_ENV := JUPYTER_CONFIG_DIR=$(CURDIR)/$(VENV)/etc/jupyter-config \
	JUPYTER_DATA_DIR=$(CURDIR)/$(VENV)/share/jupyter-data \
	IPYTHONDIR=$(CURDIR)/$(VENV)/etc/ipython \
	JUPYTER_PLATFORM_DIRS=1

.PHONY: help setup lab app hub hub-tools test test-fast lint format chromium bench clean strip

help:
	@echo "make lab    set up .venv and open the lessons in JupyterLab (127.0.0.1)"
	@echo "make test   set up .venv and Chromium, then run every test"
	@echo "make app    serve the lessons as an app on 127.0.0.1 (open the printed URL, with its token)"
	@echo "make hub    a class on JupyterHub: each student's own server (deploy/jupyterhub; README)"
	@echo "make lint   ruff check and format check"
	@echo "make bench  run the benchmarks and write BENCHMARKS.md"
	@echo "make clean  remove .venv and generated files"

# (Re)create the venv when pyproject.toml changes.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	@touch $(STAMP)

# The lesson pages' plotly.js: the partial bundle js/package.json names, pinned with its integrity
# in js/package-lock.json, installed by npm ci (vtsmodel/app/page_assets.py). Without npm the
# pages load the plotly package's full bundle, and the app's log says so.
JS_DIR   := $(VENV)/share/vtsmodel/js
JS_STAMP := $(JS_DIR)/.installed-stamp
$(JS_STAMP): js/package.json js/package-lock.json | $(STAMP)
	@if command -v npm >/dev/null 2>&1; then \
		mkdir -p $(JS_DIR) && cp js/package.json js/package-lock.json $(JS_DIR)/ && \
		npm ci --prefix $(JS_DIR) --ignore-scripts --no-audit --no-fund --loglevel=error && touch $@; \
	else \
		echo "npm not found: the lesson pages will load plotly's full plotly.js (js/package.json)"; \
	fi

setup: $(STAMP) $(JS_STAMP)

# Kernel messages sent at once, not held by Nagle's algorithm (vtsmodel/app/_wsnodelay.py).
NODELAY := vtsmodel.app._wsnodelay.NoDelayConnection
lab: setup
	cd notebooks && $(JUPYTER_ENV) $(CURDIR)/$(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 $(ROOT_FLAG) \
		--ServerApp.kernel_websocket_connection_class=$(NODELAY) \
		--ServerApp.root_dir=$(CURDIR)/notebooks 00_start_here.ipynb

# The lessons as a Voila app (vtsmodel/app/serve.py): 127.0.0.1:8866, a token printed in the
# start URL, Host allow-list, kernels preheated, released when a page closes, idle ones culled.
# APP_ARGS passes launcher options, e.g. make app APP_ARGS="--save-dir $$HOME/vtsmodel-files".
APP_ARGS ?=
app: setup
	$(JUPYTER_ENV) $(BIN)/python -m vtsmodel.app.serve $(CURDIR)/notebooks --port=8866 $(APP_ARGS)

# A class on JupyterHub (deploy/jupyterhub/jupyterhub_config.py; README, "Teaching a class"):
# JupyterHub from PyPI and its proxy from npm (node 20 or later), installed into .venv.
HUB_STAMP := $(VENV)/.hub-stamp
CHP_VERSION := 5.3.0
$(HUB_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS),hub]"
	npm install --prefix $(VENV) --no-save --no-audit --no-fund --loglevel=error configurable-http-proxy@$(CHP_VERSION)
	@touch $(HUB_STAMP)

hub-tools: $(HUB_STAMP)

# VTSMODEL_HUB_MODE=class (accounts, run as root) or tryout (VTSMODEL_HUB_PASSWORD); see the config.
hub: hub-tools
	cd deploy/jupyterhub && $(CURDIR)/$(BIN)/jupyterhub -f jupyterhub_config.py

chromium: setup
	$(BIN)/python -m vtsmodel.app._browser --ensure

test: setup chromium hub-tools
	$(BIN)/python -m pytest

test-fast: setup
	$(BIN)/python -m pytest tests -m "not browser and not slow"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: setup chromium
	$(BIN)/python benchmarks/run_all.py --report BENCHMARKS.md

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .hypothesis test-artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

strip: setup
	$(BIN)/nbstripout --extra-keys "metadata.widgets metadata.language_info" notebooks/*.ipynb
