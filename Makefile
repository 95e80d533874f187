# swag: one-command set-up, build, test and demo. Needs Java 17, Maven and Python 3.11.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
# The venvs must be Python 3.11: the pyspark wheel's jar folder, the PyFlink 2.3 wheels and the Maven
# build (spark.jars.dir) all assume it; another Python would leave parts of `make test` unable to run.
PY_VERSION_CHECK = @$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' 2>/dev/null || \
	{ echo "swag needs Python 3.11 for its venvs; '$(PYTHON)' is $$($(PYTHON) --version 2>&1 || echo missing)." \
	  "Install python3.11 (e.g. apt-get install python3.11 python3.11-venv, or pyenv) or run make PYTHON=/path/to/python3.11." >&2; exit 1; }
VENV   ?= .venv
PY     := $(VENV)/bin/python
MVN    ?= mvn -B -q
JAR    := jvm/target/swag-core-*-all.jar
PKGJAR := python/swag/jars/swag-core.jar

.PHONY: all build test test-java test-python test-all demo bench bench-quick clean venv wheel

all: build

# --- set-up ---------------------------------------------------------------
venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PY_VERSION_CHECK)
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

# --- lint -----------------------------------------------------------------
# ruff over the Python tree, mypy --strict over the library (pyproject.toml has both settings);
# make test runs it first.
.PHONY: lint
lint: venv
	$(PY) -m ruff check .
	$(PY) -m mypy

# --- tests ----------------------------------------------------------------
# make test: Java unit tests (mvn verify: swag-core, swag-flink and swag-spark, each required) then
# the Python tests (pytest; the PyFlink ones in .venv-flink), all in < 30 min on 2 cores. Under
# SWAG_REQUIRE_ALL=1 a test that would skip fails instead, naming what to install (tests/conftest.py).
REQUIRE := SWAG_REQUIRE_ALL=1 SWAG_REQUIRE_SPARK=1 SWAG_REQUIRE_FLINK=1

test: venv venv-flink lint
	mvn -B -ntp verify
	@$(MAKE) --no-print-directory jar-into-package
	$(REQUIRE) $(PY) -m pytest -q -m "not slow" --durations=15 --ignore=tests/flink tests
	$(REQUIRE) $(PY_FLINK) -m pytest -q -m "not slow" --durations=5 tests/flink

# A wheel with the jars inside (dist/swag-*.whl): pip install it into any Python 3.11 with
# pyspark==4.3.0 (or apache-flink==2.3.0) and swag.spark.session() / swag.flink find the jars.
wheel: build
	rm -rf dist
	$(PY) -m pip wheel . --no-deps -w dist
	@ls -l dist

test-java:
	mvn -B -ntp verify

test-python: venv build
	$(REQUIRE) $(PY) -m pytest -q -m "not slow" --ignore=tests/flink tests

# Everything, including suites marked slow.
test-all: venv venv-flink
	mvn -B -ntp verify -Dflink.excludedGroups=bench
	@$(MAKE) --no-print-directory jar-into-package
	SWAG_REQUIRE_SPARK=1 $(PY) -m pytest -q -m "not soak" --ignore=tests/flink tests
	SWAG_REQUIRE_FLINK=1 $(PY_FLINK) -m pytest -q tests/flink

# Mutation smoke check (docs/mutation-report.md): each mutation of swag-core must fail its JUnit
# suite. Not part of make test (one core suite per mutation, Maven offline: run make test once first);
# run on the committed tree (git archive).
.PHONY: mutation-smoke
mutation-smoke: venv
	$(PY) tests/mutation/smoke.py --out docs/mutation-report.md

# --- demo and benchmarks --------------------------------------------------
demo: venv build
	$(PY) -m swag_apps demo

# JMH benchmarks (see docs/benchmarks.md); BENCH_ARGS passes extra JMH options.
bench: build
	java -jar benchmarks/jmh/target/benchmarks.jar $(BENCH_ARGS)

# Side by side with the C++ reference (docs/benchmarks.md, "Side by side with the C++ reference"):
# builds ../shared/baselines/ibm-swag-cpp (or $$SWAG_CPP_BASELINE) in $$TMPDIR, runs C++ and JMH
# interleaved, each timed run under BENCH_LOCK. VS_CPP_ARGS: --quick (smoke sizes), --rounds R, --only CASE.
.PHONY: bench-vs-cpp
bench-vs-cpp:
	$(MVN) -o -DskipTests -pl jvm,benchmarks/jmh -am package
	BENCH_LOCK="$(BENCH_LOCK)" $(PYTHON) benchmarks/jmh/vs_cpp.py $(VS_CPP_ARGS)

clean:
	mvn -B -q clean
	rm -rf python/swag/jars $(VENV) .venv-flink .pytest_cache

# ==== Flink connector ===================================================================
# swag-flink-*-all.jar (swag-flink + swag-core, DataSketches relocated, no Flink) is copied to
# python/swag/jars/swag-flink.jar for PyFlink. PyFlink 2.3 gets its own venv, .venv-flink
# (apache-beam pins pyarrow < 17, which conflicts with PySpark in .venv).
VENV_FLINK   := .venv-flink
PY_FLINK     := $(VENV_FLINK)/bin/python
FLINK_JAR    := connectors/flink/target/swag-flink-*-all.jar
FLINK_PKGJAR := python/swag/jars/swag-flink.jar

.PHONY: venv-flink flink-jar-into-package test-flink test-flink-python bench-flink bench-flink-quick bench-flink-repeat bench-flink-ratios

venv-flink: $(VENV_FLINK)/.installed

$(VENV_FLINK)/.installed: pyproject.toml
	$(PY_VERSION_CHECK)
	@test -x $(PY_FLINK) || $(PYTHON) -m venv $(VENV_FLINK)
	@$(PY_FLINK) -m pip install -q --upgrade pip
	@$(PY_FLINK) -m pip install -q 'apache-flink==2.3.0'
	@$(PY_FLINK) -m pip install -q -e '.[test,flink]'
	@touch $@

# every copy of the core jar into the package also copies the Flink jar (when it was built)
jar-into-package: flink-jar-into-package

flink-jar-into-package:
	@mkdir -p python/swag/jars
	@if ls $(FLINK_JAR) >/dev/null 2>&1; then cp $(FLINK_JAR) $(FLINK_PKGJAR); fi

# The Flink connector's Java tests (MiniCluster) and PyFlink tests alone (both are also in `make test`).
test-flink: venv
	mvn -B -ntp -pl connectors/flink -am verify
	@$(MAKE) --no-print-directory test-flink-python

# PyFlink tests (tests/flink) in .venv-flink; needs the jars (make build, or make test's mvn verify)
test-flink-python: venv-flink
	@$(MAKE) --no-print-directory jar-into-package
	SWAG_REQUIRE_FLINK=1 $(PY_FLINK) -m pytest -q -m "not slow" tests/flink

# Flink throughput benchmarks (docs/benchmarks-flink.md): swag vs built-in sliding windows and SQL HOP
# (built in the reactor, nothing installed into ~/.m2; timed runs hold /tmp/swag-bench.lock)
FLINK_BENCH_HEAP ?= 3g
FLINK_BENCH_CP = mvn -B -q -ntp -pl benchmarks/flink -am -DskipTests package dependency:build-classpath \
	  -Dmdep.outputFile=target/bench.cp && cd benchmarks/flink && uptime && \
	  flock /tmp/swag-bench.lock java -Xmx$(FLINK_BENCH_HEAP) $(FLINK_BENCH_OPTS) -cp target/classes:$$(cat target/bench.cp)
FLINK_BENCH = $(FLINK_BENCH_CP) io.swag.flink.bench.FlinkBench

bench-flink:
	$(FLINK_BENCH) full target/bench-flink.csv

bench-flink-quick:
	$(FLINK_BENCH) quick target/bench-flink.csv

# swag alone at window/slide 1 .. 8,192, 3 rounds (two builds of swag in one sitting)
bench-flink-ratios:
	$(FLINK_BENCH) ratios target/bench-flink-ratios.csv

# window/slide 1 and 10 only, 5 alternating rounds per engine (the close cases)
bench-flink-repeat:
	$(FLINK_BENCH) repeat target/bench-flink-repeat.csv

# Engine ceilings (docs/benchmarks-flink.md "Engine ceilings"): swag against a pass-through keyed
# operator in the same job graph (a Long key, as swag keys a one-column query) and Flink's own keyed
# reduce (a running max in ValueState), alternating, at window/slide 1 ... 8,192; FLINK_CEILING_ROUNDS
# rounds per invocation of FLINK_CEILING_RECORDS records per job, each job followed by the same job on 20,000
# records (its fixed cost); then the table (benchmarks/flink/ceiling_table.py: records/s as reported and in
# steady state, the fixed cost taken out)
FLINK_CEILING_ROUNDS ?= 3
FLINK_CEILING_RECORDS ?= 10000000
.PHONY: bench-flink-ceiling
bench-flink-ceiling: FLINK_BENCH_OPTS = -Dswag.bench.records=$(FLINK_CEILING_RECORDS)
bench-flink-ceiling:
	$(FLINK_BENCH) ceiling target/bench-flink-ceiling.csv $(FLINK_CEILING_ROUNDS) && \
	  $(PYTHON) ceiling_table.py target/bench-flink-ceiling.csv

# A job whose keyed state is more than 10x the JVM heap (256 MB): 4,000 keys, a count-min sketch of
# 64 KB per slice, RocksDB, a 4-key cache; exact results checked against an oracle (BigStateBench;
# FLINK_BIG_STATE_ARGS: backend keys slices slides records-per-slice sketch-width cache-keys)
FLINK_BIG_STATE_ARGS ?= rocksdb 4000 10 14 2 2048 4
.PHONY: bench-flink-big-state
bench-flink-big-state: FLINK_BENCH_HEAP = 256m
bench-flink-big-state:
	$(FLINK_BENCH_CP) io.swag.flink.bench.BigStateBench target/bench-flink-big-state.csv $(FLINK_BIG_STATE_ARGS)

# Checkpoint bytes, heap and key-cache throughput against window size, swag vs the built-in
# (StateBench; FLINK_STATE_MAX_WINDOW_S: the largest window, seconds; FLINK_STATE_ARGS: the built-in's
# largest window, then nocache to leave out the key-cache runs)
FLINK_STATE_MAX_WINDOW_S ?= 1000
FLINK_STATE_ARGS ?= 100
.PHONY: bench-flink-state bench-flink-state-sql
bench-flink-state:
	$(FLINK_BENCH_CP) io.swag.flink.bench.StateBench target/bench-flink-state.csv $(FLINK_STATE_MAX_WINDOW_S) $(FLINK_STATE_ARGS)

# The same for SQL: the swag_window process table function vs the HOP window TVF with MAX (both up to
# FLINK_STATE_MAX_WINDOW_S: HOP slices, so its cost per record does not grow with the window;
# FLINK_STATE_SQL_ARGS=nocache leaves out the key-cache runs)
FLINK_STATE_SQL_ARGS ?=
bench-flink-state-sql:
	$(FLINK_BENCH_CP) io.swag.flink.bench.StateBench target/bench-flink-state-sql.csv $(FLINK_STATE_MAX_WINDOW_S) $(FLINK_STATE_MAX_WINDOW_S) sql $(FLINK_STATE_SQL_ARGS)

# ==== Spark connector benchmarks ==========================================================
# docs/benchmarks-spark.md: swag operator vs Spark's built-in window() (records/s, state size) and
# the swag per-batch time vs window size. BENCH_LOCK serializes timed runs on a shared machine.
BENCH_LOCK ?= flock /tmp/swag-bench.lock

.PHONY: bench-spark
bench-spark: build
	uptime
	$(BENCH_LOCK) $(PY) benchmarks/spark/bench_spark.py throughput --ratios 1,10,100 --files 8 --per-file 500000 \
	  --builtin-budget 100000000 --out docs/bench/spark-throughput-latest.json
	$(BENCH_LOCK) $(PY) benchmarks/spark/bench_spark.py window-size --out docs/bench/spark-window-size-latest.json
	uptime
	$(PY) benchmarks/spark/bench_spark.py plot --throughput docs/bench/spark-throughput-latest.json \
	  --window-size docs/bench/spark-window-size-latest.json --png docs/bench/spark-latest.png

# Engine ceilings (docs/benchmarks-spark.md "Engine ceilings"): swag (pre-aggregated and off)
# against the same pipeline with a no-op processor (benchmarks/spark/NoOpPipeline.java, compiled into
# benchmarks/spark/target/swag-spark-bench.jar), window/slide 1 ... 1,000; SPARK_CEILING_ROUNDS invocations of
# one round each (about 2 min each under the lock, with a warm-up of each engine at each window/slide), the engine order rotating between rounds
SPARK_CEILING_ROUNDS ?= 3
.PHONY: bench-spark-ceiling
bench-spark-ceiling: build
	rm -rf benchmarks/spark/target && mkdir -p benchmarks/spark/target/classes
	javac -nowarn -d benchmarks/spark/target/classes \
	  -cp "$(VENV)/lib/python3.11/site-packages/pyspark/jars/*:connectors/spark/target/classes:jvm/target/classes" \
	  benchmarks/spark/NoOpPipeline.java
	jar cf benchmarks/spark/target/swag-spark-bench.jar -C benchmarks/spark/target/classes io/swag/spark/bench
	rm -f docs/bench/spark-ceilings-latest.csv
	@for r in $$(seq 0 $$(($(SPARK_CEILING_ROUNDS) - 1))); do \
	  uptime; \
	  $(BENCH_LOCK) $(PY) benchmarks/spark/bench_spark.py ceiling --first-round $$r --out docs/bench/spark-ceilings-latest-$$r.json \
	    --csv docs/bench/spark-ceilings-latest.csv || exit 1; \
	done; uptime

# ==== Real clusters (docs/operations.md) ====================================================
# Flink session cluster (pyflink's bin scripts) and Spark standalone cluster (pyspark's spark-class)
# on 127.0.0.1, started and stopped by the tests' fixtures (tests/cluster). `make test` runs the short
# test of each engine (the others are also marked slow); the soak is behind the `soak` marker.
SOAK_MINUTES ?= 10

.PHONY: test-cluster soak cluster-jars

cluster-jars: venv venv-flink
	$(MVN) -Pflink -DskipTests install
	@$(MAKE) --no-print-directory jar-into-package

test-cluster: cluster-jars
	$(PY) -m pytest -q -m "cluster and not soak" tests/cluster

# SOAK_MINUTES per engine; one benchmark at a time on a shared machine (flock)
soak: cluster-jars
	flock /tmp/swag-bench.lock $(PY) tests/cluster/soak.py --minutes $(SOAK_MINUTES) --out docs/figures
	flock /tmp/swag-bench.lock $(PY) tests/cluster/soak_spark.py --minutes $(SOAK_MINUTES) --out docs/figures
