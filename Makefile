# nardy — user entry points. `make train` and `make test` work on a fresh Debian 12 machine.
SHELL := /bin/bash
PY    := /usr/bin/python3
BUILD := build
JOBS  ?= $(shell nproc)
CONFIG ?= configs/default.yaml

# Debian packages the build, the tests and the notebooks need.
DEB_PACKAGES := build-essential cmake ninja-build pkg-config clang-format \
  libgtest-dev libgmock-dev libbenchmark-dev \
  libtorch-dev libopenblas0-pthread pybind11-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev \
  python3-dev python3-torch python3-numpy python3-matplotlib python3-pytest python3-yaml \
  jupyter-nbconvert python3-ipykernel python3-nbformat python3-cairosvg \
  libcpp-httplib-dev chromium nodejs

# The browser test (tests/browser) drives Debian's chromium from Node with puppeteer-core,
# installed from npm into tests/browser/node_modules (pinned by its package-lock.json; no
# browser download).
BROWSER_TEST := tests/browser

.PHONY: all deps build test test-cpp test-python test-notebooks test-browser test-notorch train \
  bench clean format format-check

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

test: build format-check test-cpp test-python test-notebooks test-browser test-notorch

test-cpp:
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-python:
	PYTHONPATH=$(BUILD)/python $(PY) -m pytest -q tests/python

# The torch-free subset (-DNARDY_WITH_TORCH=OFF): core, the agents, the light `nardy` tool and
# their tests, in a build directory of its own.
NOTORCH_BUILD := build-notorch
$(NOTORCH_BUILD)/build.ninja:
	cmake -S . -B $(NOTORCH_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DNARDY_WITH_TORCH=OFF -DNARDY_BUILD_PYTHON=OFF

test-notorch: $(NOTORCH_BUILD)/build.ninja
	cmake --build $(NOTORCH_BUILD) -j $(JOBS)
	cd $(NOTORCH_BUILD) && ctest --output-on-failure -j $(JOBS)

test-notebooks:
	@if ls notebooks/*.ipynb >/dev/null 2>&1; then \
	  NARDY_NOTEBOOK_BUDGET=small PYTHONPATH=$(CURDIR)/$(BUILD)/python $(PY) tests/run_notebooks.py notebooks/*.ipynb; \
	else echo "no notebooks"; fi

# Plays a complete game on the web board in headless Chromium (screenshots in
# $(BUILD)/test-artifacts) and sends the server a burst of malformed requests.
test-browser:
	node $(BROWSER_TEST)/play_game.mjs $(BUILD) $(BUILD)/test-artifacts

# Builds only the `nardy` tool (not the tests or the Python module), then trains.
# Extra arguments: make train TRAIN_ARGS="--set run.name=mine --set train.games=20000".
train: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS) --target nardy
	$(BUILD)/nardy train --config $(CONFIG) $(TRAIN_ARGS)

bench: build
	$(BUILD)/nardy bench movegen

clean:
	rm -rf $(BUILD) $(NOTORCH_BUILD)

# C++ style (.clang-format). The files: FILES="a.cpp b.h" if given, else the C++ files changed
# since the merge base with `main` plus untracked ones; on `main` itself, or where no `main`
# branch exists (a fresh CI clone), those changed by the last commit; nothing in a one-commit
# shallow clone. `make format` rewrites them, `make format-check` (part of `make test`) fails
# on any that clang-format would change or that has a line over 100 columns.
FORMAT_FILES = $(if $(FILES),$(FILES),$(shell \
  base=$$(git merge-base HEAD main 2>/dev/null); \
  if [ -z "$$base" ] || [ "$$base" = "$$(git rev-parse HEAD)" ]; then \
    base=$$(git rev-parse -q --verify HEAD~1 2>/dev/null); fi; \
  if [ -n "$$base" ]; then \
    { git diff --name-only --diff-filter=d $$base -- '*.cpp' '*.h'; \
      git ls-files --others --exclude-standard -- '*.cpp' '*.h'; } | sort -u; fi))

format:
	@if [ -n "$(strip $(FORMAT_FILES))" ]; then clang-format -i $(FORMAT_FILES) && \
	  echo "formatted: $(FORMAT_FILES)"; else echo "format: no changed C++ files"; fi

format-check:
	@if [ -n "$(strip $(FORMAT_FILES))" ]; then \
	  clang-format --dry-run -Werror $(FORMAT_FILES) || exit 1; \
	  long=$$(LC_ALL=C.UTF-8 grep -nHP '^.{101,}$$' $(FORMAT_FILES)); \
	  if [ -n "$$long" ]; then echo "$$long"; \
	    echo "format-check: lines over 100 columns (comments are not reflowed)"; exit 1; fi; \
	  echo "format-check: $(words $(FORMAT_FILES)) changed C++ files follow .clang-format"; \
	else echo "format-check: no changed C++ files"; fi
