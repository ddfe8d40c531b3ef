# The README's commands. Everything sets itself up on first use (scripts/setup.sh).
VENV    ?= .venv
PY      := $(VENV)/bin/python
CARGO   ?= cargo
export VIRTUAL_ENV := $(abspath $(VENV))
export PATH := $(abspath $(VENV))/bin:$(PATH)

.PHONY: setup build build-tests build-tests-rust build-tests-python demo test test-fast test-rust test-python bench bench-full lint clean

setup:
	@bash scripts/setup.sh

# Build the Rust core into the virtualenv (release: the simulator is the hot path), when what
# it is built from changed since its last build into this virtualenv (the stamp, written after
# `maturin develop`; the virtualenv's package is editable, so Python sources need no build).
# `make test` after `make build` (as .ci/run runs them) no longer runs maturin again to find the
# core built: cargo's check, pip's look at the dependencies and the wheel's reinstall (docs/testing.md,
# "Round 11").
CORE_INPUTS := $(shell find crates -type f 2>/dev/null) Cargo.toml Cargo.lock pyproject.toml
CORE_STAMP := $(VENV)/.core-built
CORE_LIB := python/overprov/_core.abi3.so

build: setup $(CORE_STAMP)

$(CORE_STAMP): $(CORE_INPUTS) $(CORE_LIB) | setup
	@$(VENV)/bin/maturin develop --release --quiet
	@touch $@

# No recipe: a missing core library counts as changed, so the stamp's rule builds it.
$(CORE_LIB):

demo: build
	$(VENV)/bin/overprov simulate --demo

# Python tests on parallel workers (pytest-xdist): one per core and one more, for the real-time
# emulated-drive tests that keep a worker waiting most of the time (docs/testing.md; two more
# measured no faster: 643 s either way).
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist loadgroup

# The Rust and the Python tests run side by side (-O: each one's output in one piece when it
# ends): the Rust test build links one binary at a time and the Python tests leave a core idle
# now and then (fio's paced rounds, the loop-device tests on one worker), so each fills the
# other's gaps. They start together and at the same priority: the Rust tests' longest items
# (tests/validation.rs, 4-8 CPU s each on one thread) are best started early, and the
# real-time emulated-drive tests run 5 nice levels above both (docs/testing.md, "Round 6").
test: build
	@$(MAKE) --no-print-directory -j -O test-rust test-python

# The `test-release` profile (Cargo.toml): release's optimisation without its whole-program
# LTO, which would make every test binary link as slowly as the shipped library.
test-rust:
	$(CARGO) test --profile test-release -p overprov-sim --features audit

# The tests compiled ahead (set-up, as `build` is for the core), not run: the Rust tests'
# binary, which `test-rust` then runs without compiling, and, once the core is built (the
# collection imports it), the package's bytecode and the Python test modules with pytest's
# assertion rewriting, which `test-python` then finds kept (its pass 4.8 CPU s instead of 13.3;
# docs/testing.md, "Round 11"). .ci/run builds them beside the core and the lint.
build-tests: build-tests-rust build-tests-python

build-tests-rust: setup
	$(CARGO) test --profile test-release -p overprov-sim --features audit --no-run

build-tests-python: build
	@$(COMPILE_PACKAGE)
	@$(MAKE) -s --no-print-directory $(TESTS_COMPILED)

# The package's bytecode compiled before the Python tests: they start many `overprov` child
# processes, and where PYTHONDONTWRITEBYTECODE is set each compiled every module it
# imports (0.13 CPU s more for a refused command, docs/testing.md).
COMPILE_PACKAGE := $(PY) -m compileall -q python

# The test modules compiled once, with pytest's assertion rewriting, before the workers start:
# where PYTHONDONTWRITEBYTECODE is set, each worker rewrote every test module's asserts as it
# collected them (41 CPU s for three workers' collection, 17 with the rewritten modules kept,
# 12 for this pass; docs/testing.md). A collection error is reported by the run that follows.
COMPILE_TESTS := env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest --collect-only -q \
	-p no:cacheprovider >/dev/null 2>&1 || true

# That pass only when a file under tests/ (or the pinned pytest) changed since the last one: a
# stamp beside the rewritten modules (tests/__pycache__/, so that deleting the compiled modules
# deletes it too). After the set-up's pass (`make build-tests`) `make test` finds it newer than
# every test file and skips a collection of every module that would compile nothing (4.5-6 CPU s
# before the workers start; docs/testing.md, "Round 14"). A stale stamp costs only time: a
# worker rewrites a module whose compiled form is missing or older than its source.
TEST_SOURCES := $(shell find tests -name '*.py' 2>/dev/null) requirements-dev.txt
TESTS_COMPILED := tests/__pycache__/.tests-compiled

$(TESTS_COMPILED): $(TEST_SOURCES)
	@$(COMPILE_TESTS)
	@mkdir -p $(@D) && touch $@

test-python:
	@$(COMPILE_PACKAGE)
	@$(MAKE) -s --no-print-directory $(TESTS_COMPILED)
	$(PY) -m pytest $(PYTEST_PARALLEL)

# The edit loop: the Python tests not marked slow, fio or root (about two minutes).
test-fast: build
	@$(COMPILE_PACKAGE)
	@$(MAKE) -s --no-print-directory $(TESTS_COMPILED)
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "not slow and not fio and not root"

# Throughput and memory of the simulator, side by side with a minimal C FTL (bench/README.md).
bench:
	@mkdir -p target/bench
	gcc -O2 -march=native -o target/bench/c_ftl bench/c_ftl/ftl.c
	$(CARGO) run --release -p overprov-sim --example ftl_bench -- \
	    --c-ref target/bench/c_ftl --out target/bench/ftl_bench.json
	$(CARGO) bench -p overprov-sim-bench --bench hot_loop -- --noplot
	$(PY) bench/timed_bench.py --out target/bench/timed_bench.json

# The same, with the full-size (1 TB) drive against its scaled version (several minutes).
bench-full: build
	$(PY) bench/timed_bench.py --full --out target/bench/timed_bench_full.json

lint: setup
	$(CARGO) clippy --workspace --all-targets --release -- -D warnings
	$(CARGO) fmt --all -- --check
	$(VENV)/bin/ruff check python tests
	$(VENV)/bin/ruff format --check python tests

clean:
	$(CARGO) clean
	rm -rf $(VENV)
