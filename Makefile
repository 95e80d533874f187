# swag: one-command set-up, build, test and demo. Needs Java 17, Maven and Python 3.11.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   ?= .venv
PY     := $(VENV)/bin/python
MVN    ?= mvn -B -q
JAR    := jvm/target/swag-core-*-all.jar
PKGJAR := python/swag/jars/swag-core.jar

.PHONY: all build test test-java test-python test-all demo bench bench-quick clean venv

all: build

# --- set-up ---------------------------------------------------------------
venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install -q --upgrade pip
	@$(PY) -m pip install -q -e '.[test,plot,spark]'
	@touch $@

# Build the jars without running the Java tests and put the core jar where Python finds it.
build: venv
	$(MVN) -DskipTests package
	@$(MAKE) --no-print-directory jar-into-package

jar-into-package:
	@mkdir -p python/swag/jars
	@cp $(JAR) $(PKGJAR)
	@if [ -f connectors/spark/target/swag-spark.jar ]; then cp connectors/spark/target/swag-spark.jar python/swag/jars/; fi

# --- tests ----------------------------------------------------------------
# make test: Java unit tests (mvn verify) then the Python tests (pytest), all in < 30 min on 2 cores.
test: venv
	mvn -B -ntp verify
	@$(MAKE) --no-print-directory jar-into-package
	$(PY) -m pytest -q -m "not slow" tests

test-java:
	mvn -B -ntp verify

test-python: venv build
	$(PY) -m pytest -q -m "not slow" tests

# Everything, including suites marked slow.
test-all: venv
	mvn -B -ntp verify
	@$(MAKE) --no-print-directory jar-into-package
	$(PY) -m pytest -q tests

# --- demo and benchmarks --------------------------------------------------
demo: venv build
	$(PY) -m swag demo

# JMH benchmarks (see docs/benchmarks.md); BENCH_ARGS passes extra JMH options.
bench: build
	java -jar jvm/jmh/target/benchmarks.jar $(BENCH_ARGS)

clean:
	mvn -B -q clean
	rm -rf python/swag/jars $(VENV) .pytest_cache
