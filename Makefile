# Parlour — set-up, tests and benchmarks. Every target creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: constraints serve test lint bench tune-scout train-scout-net plots-scout-net bench-bots bench-rl rt-bots plots-rt load load-flood fair golden pictures clean

# constraints.txt pins every package installed, direct or not (make constraints rewrites it).
# The install also compiles SCOUT's encoder for the research interfaces and the SCOUT bots' hand
# arithmetic (setup.py, optional: without a C compiler the pure-Python versions are used); a
# change to their C sources reinstalls.
$(STAMP): pyproject.toml constraints.txt setup.py src/parlour/bots/scout/_ccodec.c $(wildcard src/parlour/bots/scout/_cheur*.[ch])
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test,rl,arena,pg,cluster]'
	touch $(STAMP)

# The web server on http://127.0.0.1:8000 (add options: make serve SERVE_ARGS="--port 9000").
SERVE_ARGS ?=
serve: $(STAMP)
	$(VENV)/bin/parlour serve $(SERVE_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench examples
	$(VENV)/bin/ruff format --check src tests bench examples
	$(VENV)/bin/mypy

test: lint
	$(VENV)/bin/pytest -n 2

bench: $(STAMP)
	$(PY) bench/bench_scout.py

# Tune the SCOUT feature evaluation's weights (bots/scout/scout_eval.json) by an evolution
# strategy over duplicate-deal arena games against today's heuristic; reproducible from --seed,
# prints progress per generation (make tune-scout TUNE_ARGS="--generations 40 --workers 2 --write").
TUNE_ARGS ?=
tune-scout: $(STAMP)
	nice -n 19 $(PY) bench/tune_scout.py $(TUNE_ARGS)

# Train the SCOUT policy/value network (src/parlour/bots/scout/scout_net.npz) by self-play, numpy
# only, labelled by Hard's search, reproducible from SEED and --iterations (--minutes stops it after
# the iteration passing that time instead); writes its learning curve to docs/data/scout-net.json.
SEED ?= 13
TRAIN_NET_ARGS ?= --iterations 9 --workers 2
train-scout-net: $(STAMP)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 19 $(PY) bench/train_scout_net.py --seed $(SEED) $(TRAIN_NET_ARGS)

# Many WebSocket clients against a server on 127.0.0.1, bounded in time (add options:
# make load LOAD_ARGS="--scout-tables 50 --profile /tmp/prof"); ends with two lines for scripts
# (with --processes N, a "failover" line before them).
LOAD_ARGS ?=
load: $(STAMP)
	$(PY) bench/load.py $(LOAD_ARGS)

# One client opens 100 twelve-seat expert SNAP tables while HTTP is probed (issue: denial of
# service); prints the HTTP p99 and the server's loop lag p99.
load-flood: $(STAMP)
	$(PY) bench/load.py --only flood --flood-tables 100 --flood-seconds 60 $(LOAD_ARGS)

# Honest and cheating scripted people race a Medium SNAP bot on a real server (N9): win rates
# and the edge each cheat bought (add options: make fair FAIR_ARGS="--races 400").
FAIR_ARGS ?=
fair: $(STAMP)
	$(PY) bench/fair.py $(FAIR_ARGS)

# The research interfaces' throughput beside the engine's (one core), ends with
# `scout engine: <N> moves/s` and `scout rl: <N> steps/s` lines.
bench-rl: $(STAMP)
	$(PY) bench/bench_rl.py

bench-bots: $(STAMP)
	$(PY) bench/bench_bots.py snap --games 1000
	$(PY) bench/bench_bots.py scan --reveals 400

# The real-time bots' reaction times beside a person's (issue 12): SCAN's correct touches over
# 2,000 reveals per level, SNAP's false calls over 1,000 games per level, the races a newcomer
# wins; writes docs/data/rt-*.json (50 minutes on a busy 2-core machine; RT_ARGS="--workers 1").
RT_ARGS ?=
rt-bots: $(STAMP)
	$(PY) bench/bench_rt.py $(RT_ARGS) scan --reveals 2000
	$(PY) bench/bench_rt.py $(RT_ARGS) snap --games 1000
	$(PY) bench/bench_rt.py $(RT_ARGS) newcomer

# The README's reaction-time figures (docs/img/*-rt*.png) from docs/data/rt-*.json.
$(VENV)/.plots: pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -c constraints.txt -e '.[plots]'
	touch $@

plots-rt: $(VENV)/.plots
	$(PY) bench/bench_rt.py plots

# The SCOUT network's learning curve (docs/img/scout-net-curve.png) from docs/data/scout-net.json.
plots-scout-net: $(VENV)/.plots
	$(PY) bench/train_scout_net.py plots

# Compare the golden playthroughs with what the engines play now; overwrite them only on purpose
# (after a deliberate rules change): make golden GOLDEN_ARGS="--write".
GOLDEN_ARGS ?=
golden: $(STAMP)
	$(PY) -m tests.games.scout.make_golden $(GOLDEN_ARGS)
	$(PY) -m tests.games.scan.make_golden $(GOLDEN_ARGS)
	$(PY) -m tests.games.snap.make_golden $(GOLDEN_ARGS)

# The README's pictures (docs/img/*.png): each game in Chromium at 1366×800, scaled to 960 px.
pictures: $(STAMP)
	$(PY) -m tests.e2e.pictures

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	rm -f src/parlour/bots/scout/_ccodec.*.so

# Rewrite constraints.txt from a fresh virtualenv with every extra (after changing a pin in
# pyproject.toml): every transitive dependency at the version pip resolves today.
constraints:
	rm -rf /tmp/parlour-constraints && $(PYTHON) -m venv /tmp/parlour-constraints
	/tmp/parlour-constraints/bin/pip install --quiet -e '.[test,rl,arena,pg,plots]'
	/tmp/parlour-constraints/bin/pip freeze --exclude-editable | grep -v '^parlour' > constraints.txt
