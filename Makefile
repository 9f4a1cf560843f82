# `make test` runs every test: the Rust workspace's, then the Python package's (pytest) against
# a wheel of the package built and installed into a virtual environment under target/.

PYTHON ?= python3
VENV := target/python-venv
# Where cargo puts its builds: $CARGO_TARGET_DIR when set, as cargo itself does.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)

.PHONY: test test-rust test-python python

test: test-rust test-python

test-rust:
	cargo test --workspace

# The package as a user installs it (`pip install './python[ray]'`), with pytest.
python: $(VENV)/bin/python
	$(VENV)/bin/pip install --quiet './python[ray,test]'

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# The tests compare the package with the command line. `cargo test --workspace --no-run`
# builds target/debug/cclab with the features `test-rust` resolved, so after it this is a no-op
# (`cargo build -p cclab` resolves features for one package and would build it all again).
test-python: python
	cargo test --quiet --workspace --no-run
	CCLAB_BIN=$(TARGET_DIR)/debug/cclab $(VENV)/bin/python -m pytest -q python/tests
