# The two commands: `make run` and `make test` (`make test-quick` while working). Everything else is a helper for them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
DEV := DJANGO_DEBUG=1

.PHONY: run test test-quick test-app screenshots lint format serve-prod bench bench-flood bench-budgets bench-analyse bench-web bench-load bench-page bench-taps bench-taps-analyse bench-taps-yiwu bench-outage clean messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.runtime: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.runtime

# The table's own server (yiwu_site/table_server.py): gunicorn with debug off on every interface, so phones
# on the same Wi-Fi open the printed address; data, secret and 14 days of backups in DATA (~/yiwu-mahjong);
# PORT=8000. To work on the code instead: DJANGO_DEBUG=1 .venv/bin/python manage.py runserver.
run: $(VENV)/.runtime
	$(BIN)/python -m yiwu_site.table_server --port $(or $(PORT),8000) $(if $(DATA),--data "$(DATA)")

# One xdist worker per core and one more, each with its own Chromium: the suite also waits on real
# time (polls, servers starting, the real install's subprocesses), which the extra worker fills; a
# worker that runs dry takes tests from another (worksteal). Bytecode is cached even where
# PYTHONDONTWRITEBYTECODE is set (this sandbox sets it): otherwise each worker re-compiles and
# re-rewrites every test module's asserts on every run. Figures: docs/performance.md.
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test: $(VENV)/.dev
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n $(WORKERS) --dist worksteal

# A contributor's loop of seconds: no browser, no real install, no benchmark runs, nothing that
# needs an outside program (redis-server, PostgreSQL, Chromium: the `services` marker). pytest's
# cache is on, so `ARGS=--lf` (last failed), `--ff` or `--sw` work here and with plain pytest. The
# slowest client tests (`slow`: tests/speed.py SLOW) and the property tests' larger counts are left
# to `make test`.
QUICK := -m "not browser and not services and not long and not slow" --ignore=tests/host --ignore=tests/browser --ignore=tests/test_benchmarks.py

test-quick: $(VENV)/.dev
	env -u PYTHONDONTWRITEBYTECODE HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-quick} $(BIN)/pytest -n 2 --dist worksteal $(QUICK) $(ARGS)

# One app's tests, the browser's left out: `make test-app APP=table` runs tests/table.
test-app: $(VENV)/.dev
	@test -n "$(APP)" || { echo "usage: make test-app APP=<folder under tests/>, e.g. APP=table"; exit 2; }
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -m "not browser" tests/$(APP) $(ARGS)

# The browser tests again, saving each page they pass through at 390×844 in tests/browser/screenshots/.
screenshots: $(VENV)/.dev
	env -u PYTHONDONTWRITEBYTECODE YIWU_SCREENSHOTS=1 $(BIN)/pytest -n auto --dist worksteal -m browser

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(DEV) $(BIN)/python manage.py makemigrations --check --dry-run

format: $(VENV)/.dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Production-like: gunicorn on DATABASE_URL, static files collected and served by whitenoise.
serve-prod: $(VENV)/.runtime
	$(BIN)/python manage.py collectstatic --no-input
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/gunicorn yiwu_site.wsgi --bind $${BIND:-127.0.0.1:8000} --workers $${WORKERS:-2} --no-control-socket --error-logfile -

# TINY=1 after any bench target: every part once in seconds (--tiny), the numbers meaningless,
# as tests/test_benchmarks.py runs each script.
bench: $(VENV)/.dev
	$(DEV) $(BIN)/python bench/engine.py $${TINY:+--tiny}
	$(BIN)/python bench/transfers.py $${TINY:+--tiny}
	$(BIN)/python bench/long.py $${TINY:+--tiny}

# 算牌 speed, side by side with the mahjong package (a dev requirement) on the same wild-free hands.
# One client adding ?n=<i> to every request: builds it forces, copies stored, /healthz beside it;
# COMPARE=path: the same against another checkout in the same run.
bench-flood: $(VENV)/.dev
	$(BIN)/python bench/flood.py --seconds $${SECONDS_:-20} $${COMPARE:+--compare $${COMPARE}} $${TINY:+--tiny}

bench-budgets: $(VENV)/.dev
	$(BIN)/python bench/budgets.py $${TINY:+--tiny}

bench-analyse: $(VENV)/.dev
	$(BIN)/python bench/analyse.py $${TINY:+--tiny}

bench-web: $(VENV)/.dev
	$(BIN)/python bench/web.py $${TINY:+--tiny}

# 50 tables × 4 phones for 60 s against gunicorn (2 workers) on PostgreSQL; DB=sqlite to compare.
# SERVERS=2: two gunicorn instances (own ports, requests taken in turn) sharing PostgreSQL and a
# private redis-server (Debian's redis-server package); REDIS=1 gives one server the shared cache.
bench-load: $(VENV)/.dev
	$(BIN)/python bench/load.py --db $${DB:-postgres} --tables $${TABLES:-50} --seconds $${SECONDS_:-60} \
		--servers $${SERVERS:-1} --hand-every $${HAND_EVERY:-20} $${REDIS:+--redis} $${NO_STEPS:+--no-steps} $${TINY:+--tiny}

# Needs Debian's Chromium (apt-get install chromium fonts-noto-cjk).
bench-page: $(VENV)/.dev
	$(BIN)/python bench/page.py $${TINY:+--tiny}

# Tap-to-paint of each step of recording a hand on weak 4G (Chromium's throttling), instant steps on and off.
bench-taps: $(VENV)/.dev
	$(BIN)/python bench/taps.py --runs $${RUNS:-10} --dwell $${DWELL:-0} $${TINY:+--tiny}

# Tap-to-paint of each step of 自摸, 平胡 with a discarder and 财神头 (义乌) on weak 4G and a 3G-like link,
# goal every tap ≤ 100 ms; 确认's paint is the 待同步 row or the server's row, whichever comes first.
# PACE: ms from a screen's paint to the next tap (600, a person reading; 0: at once).
bench-taps-yiwu: $(VENV)/.dev
	$(BIN)/python bench/taps_yiwu.py --runs $${RUNS:-7} --dwell $${DWELL:-0} $${PACE:+--pace $$PACE} $${TINY:+--tiny}

# The server killed for DOWN seconds (20) while a phone records three hands by taps, a fourth after its
# return: the order they land in, the seconds to land, the questions asked. It reports, it judges nothing.
bench-outage: $(VENV)/.dev
	$(BIN)/python bench/outage.py --down $${DOWN:-20} $${TINY:+--tiny}

# 算牌: 14 keys tapped at 8 a second on weak 4G, with static/js/analyse.js and without it (tiles kept,
# requests, ms to the answer), and tap-to-strip per key.
bench-taps-analyse: $(VENV)/.dev
	$(BIN)/python bench/taps_analyse.py --runs $${RUNS:-5} --gap $${GAP:-125} $${TINY:+--tiny}

clean:
	rm -rf $(VENV) staticfiles .hypothesis

# The English catalogue: django.po is the source (edit it by hand or in a .po editor), then this
# collects new Chinese msgids into it and compiles the .mo that is committed (needs GNU gettext).
messages: $(VENV)/.dev
	$(DEV) $(BIN)/python manage.py makemessages -l en --no-location --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench
	$(DEV) $(BIN)/python manage.py compilemessages -l en --ignore=.venv

# One server for a group (docs/hosting.md), as root on Debian 12: PostgreSQL, the app in its own user
# under gunicorn, Caddy's HTTPS for DOMAIN in front, the nightly backup. Run again, it is the upgrade
# (host-upgrade checks, then pulls); DOMAIN=localhost (host-try) tries it here with Caddy's local authority.
# host-start runs the installed release; host-uninstall removes it all after a last backup (YES=1: no question).
.PHONY: host host-try host-upgrade host-start host-uninstall host-backup host-restore
host:
	bash yiwu_site/host/host.sh install $(DOMAIN)

host-try:
	bash yiwu_site/host/host.sh install localhost

host-upgrade:
	bash yiwu_site/host/host.sh can-upgrade
	git pull --ff-only
	bash yiwu_site/host/host.sh install $(DOMAIN)

host-start:
	bash yiwu_site/host/host.sh start

host-uninstall:
	YES=$(YES) bash yiwu_site/host/host.sh uninstall

host-backup:
	bash yiwu_site/host/host.sh backup

host-restore:
	bash yiwu_site/host/host.sh restore "$(FILE)"
