# convlab — the user's interface. `make help` lists the targets.
#
#   make experiment [CONFIG=configs/quick.yaml] [FILTER='kernel.size<=5'] [ARGS="--force ..."]
#   make experiment CONFIG=... SLURM='--shards 8 --partition gpu'   (hand it to SLURM instead)
#   make test
#   make report
#
# Missing Debian packages are installed by scripts/install-deps.sh (apt-get as root; otherwise it
# prints the sudo command to run). CMake builds the C++ (and, when nvcc is found, CUDA) code.

CONFIG ?= configs/quick.yaml
# CONFIG and FILTER reach the shell as one word each, as written: make expands nothing in them
# and the shell nothing either, so <, >, |, $ and quotes need no quoting of their own. They are
# not exported: make would expand them to put them in the recipes' environment.
FILTER ?=
unexport CONFIG FILTER
ARGS ?=
# With SLURM set, `make experiment` writes and submits a SLURM array job (convlab slurm) instead
# of running here, e.g. SLURM='--shards 8 --partition gpu --gpus-per-task 1'.
SLURM ?=
BUILD_DIR ?= build
BUILD_TYPE ?= Release
CMAKE_ARGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CONVLAB := $(BUILD_DIR)/convlab
# $(call shell_word,NAME): variable NAME's value unexpanded, in single quotes ('\'' for a quote).
shell_word = '$(subst ','\'',$(value $(1)))'
CONFIG_WORD = $(call shell_word,CONFIG)

.DEFAULT_GOAL := help
.PHONY: help deps build convlab experiment validate list schema test test-deps test-gpu format clean dry-run \
        report-deps notebook notebook-deps watch

help: ## list the targets
	@echo "convlab targets:"
	@grep -hE '^[a-z][a-zA-Z_-]*:.*## ' $(MAKEFILE_LIST) | sort | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'
	@echo
	@echo "variables: CONFIG="$(CONFIG_WORD)"  FILTER="$(call shell_word,FILTER)"  ARGS='$(ARGS)'  SLURM='$(SLURM)'  BUILD_DIR=$(BUILD_DIR)  CMAKE_ARGS='$(CMAKE_ARGS)'"

deps: ## install the Debian packages needed to build and run
	@scripts/install-deps.sh build

# Configured means the generator wrote its build file: a configure that failed (say, before the
# packages were installed) leaves CMakeCache.txt behind but no Makefile, and is run again.
GENERATED := $(BUILD_DIR)/$(if $(findstring Ninja,$(CMAKE_ARGS)),build.ninja,Makefile)

$(GENERATED):
	@scripts/install-deps.sh build
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)

build: $(GENERATED) ## configure and build convlab and its tests
	@scripts/install-deps.sh build
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Running and reporting need only the executable, not the test binaries. Its build says only
# what is news: the compiler's lines (and errors) when something is built, nothing when the
# executable is up to date; make's directory lines and "Built target" lines are left out. bash's
# pipefail keeps a failed build failing through the filter.
BUILD_CHATTER := /^g?make\[[0-9]+\]: (Entering|Leaving) directory/d; /^\[ *[0-9]+%\] Built target /d; /^ninja: no work to do/d
convlab: SHELL := /bin/bash
convlab: .SHELLFLAGS := -o pipefail -c
convlab: $(GENERATED) ## configure and build only the convlab executable
	@scripts/install-deps.sh build
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target convlab 2>&1 | sed -u -E '$(BUILD_CHATTER)'

FILTER_ARG = $(if $(value FILTER),--filter $(call shell_word,FILTER))

# Configs that read the photographs of a Debian package get it installed first.
PHOTO_PATH := /usr/share/doc/opencv-doc/examples

experiment: convlab ## run CONFIG (default configs/quick.yaml); results in outputs/<name>/results.json; SLURM='--shards N ...' submits it to SLURM
	@if grep -q '$(PHOTO_PATH)' $(CONFIG_WORD) 2>/dev/null; then scripts/install-deps.sh photos; fi
ifeq ($(strip $(SLURM)),)
	$(CONVLAB) run $(CONFIG_WORD) $(FILTER_ARG) $(ARGS)
else
	$(CONVLAB) slurm $(CONFIG_WORD) $(SLURM) $(FILTER_ARG) --submit
endif

dry-run: convlab ## print the plan of CONFIG and its estimated cost without running it
	$(CONVLAB) run $(CONFIG_WORD) --dry-run $(FILTER_ARG) $(ARGS)

validate: convlab ## check CONFIG without running it
	@if grep -q '$(PHOTO_PATH)' $(CONFIG_WORD) 2>/dev/null; then scripts/install-deps.sh photos; fi
	$(CONVLAB) validate $(CONFIG_WORD)

list: convlab ## list implementations, their axes, kernels and borders
	$(CONVLAB) list

schema: convlab ## write docs/config.schema.json, the JSON Schema of configs (convlab schema)
	$(CONVLAB) schema > docs/config.schema.json.tmp && mv docs/config.schema.json.tmp docs/config.schema.json

# What the browser and SLURM tests need; without root nothing is installed and those tests say
# they are skipped.
test-deps:
	@scripts/install-deps.sh test || echo "convlab: the browser and SLURM tests will be skipped" >&2
	@scripts/install-deps.sh notebook

test: build report-deps test-deps ## run the test suite (CPU, browser and SLURM tests; GPU tests report skipped without nvcc or a GPU)
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

test-gpu: build ## run only the GPU tests (on a machine with a CUDA device)
	cd $(BUILD_DIR) && ctest --output-on-failure -L gpu

notebook-deps:
	@scripts/install-deps.sh notebook
	@scripts/install-deps.sh photos

notebook: convlab notebook-deps ## every experiment as a page: outputs/notebook/index.html (opens from file://)
	$(CONVLAB) notebook

watch: convlab notebook-deps ## on every save of CONFIG run its new points and make its page again; ARGS=--serve: live in a browser
	$(CONVLAB) watch $(CONFIG_WORD) $(ARGS)

format: ## format the C++ and CUDA sources with clang-format
	find src tests -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' | xargs clang-format -i

clean: ## remove the build directory (results under outputs/ are kept)
	rm -rf $(BUILD_DIR)

-include report/report.mk
