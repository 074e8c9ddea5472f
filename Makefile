# nardy — user entry points. `make train` and `make test` work on a fresh Debian 12 machine.
SHELL := /bin/bash
PY    := /usr/bin/python3
BUILD := build
JOBS  ?= $(shell nproc)
CONFIG ?= configs/default.yaml

# Debian packages the build, the tests and the notebooks need.
DEB_PACKAGES := build-essential cmake ninja-build pkg-config \
  libgtest-dev libgmock-dev libbenchmark-dev \
  libtorch-dev libopenblas0-pthread zlib1g-dev pybind11-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev \
  python3-dev python3-torch python3-numpy python3-matplotlib python3-pytest python3-yaml \
  jupyter-nbconvert python3-ipykernel python3-nbformat python3-cairosvg \
  libcpp-httplib-dev chromium nodejs

# The browser test (tests/browser) drives Debian's chromium from Node with puppeteer-core,
# installed from npm into tests/browser/node_modules (pinned by its package-lock.json; no
# browser download).
BROWSER_TEST := tests/browser

.PHONY: all deps build test test-cpp test-python test-notebooks test-browser train bench clean

all: build

# Installs only what is missing (apt-get; through sudo when not root); a no-op otherwise.
# npm is Debian's package unless the installed Node.js brings its own (NodeSource's nodejs
# provides npm and conflicts with Debian's).
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing packages:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	else echo "deps: all Debian packages present"; fi
	@[ -d $(BROWSER_TEST)/node_modules/puppeteer-core ] || \
	  npm ci --prefix $(BROWSER_TEST) --no-audit --no-fund

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=$(PY)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

test: build test-cpp test-python test-notebooks test-browser

test-cpp:
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-python:
	PYTHONPATH=$(BUILD)/python $(PY) -m pytest -q tests/python

test-notebooks:
	@if ls notebooks/*.ipynb >/dev/null 2>&1; then \
	  NARDY_NOTEBOOK_BUDGET=small PYTHONPATH=$(CURDIR)/$(BUILD)/python $(PY) tests/run_notebooks.py notebooks/*.ipynb; \
	else echo "no notebooks"; fi

# Plays a complete game on the web board in headless Chromium (screenshots in
# $(BUILD)/test-artifacts) and sends the server a burst of malformed requests.
test-browser:
	node $(BROWSER_TEST)/play_game.mjs $(BUILD) $(BUILD)/test-artifacts

# Builds only the `nardy` tool and the race table (not the tests or the Python module), then trains.
# Extra arguments: make train TRAIN_ARGS="--set run.name=mine --set train.games=20000".
train: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS) --target nardy bearoff_table
	$(BUILD)/nardy train --config $(CONFIG) $(TRAIN_ARGS)

bench: build
	$(BUILD)/nardy bench movegen

clean:
	rm -rf $(BUILD)
