# The two commands a new user types: `make run` and `make test`. Each sets itself up.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

CHROMIUM ?= /usr/bin/chromium

.PHONY: install messages run worker compute sweep backup restore-check test check-games backup-check upgrade-check test-postgres test-browser chromium axe lint fmt simulate bench profile profile-before arena load load-scaling load-compute chaos clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $@

# The translations (French, Polish) compiled from the catalogues in the repository, with polib:
# no system gettext needed. `make messages` refreshes the catalogues from the code (that needs
# GNU gettext's xgettext, as Django's makemessages does).
CATALOGUES := $(wildcard locale/*/LC_MESSAGES/django.po)
COMPILED := $(CATALOGUES:.po=.mo)
$(COMPILED) &: $(CATALOGUES) $(STAMP)
	DJANGO_DEBUG=1 $(PY) manage.py compile_catalogues
	touch $(COMPILED)

install: $(STAMP) $(COMPILED)

messages: export DJANGO_DEBUG ?= 1
messages: install
	@command -v xgettext >/dev/null || (echo "make messages needs GNU gettext: apt-get install gettext" && exit 1)
	$(PY) manage.py makemessages --locale fr --locale pl --no-obsolete --no-wrap \
		--ignore '.venv/*' --ignore 'node_modules/*' --ignore 'staticfiles/*' --ignore 'tests/*' \
		--ignore 'test-artifacts/*' --ignore 'build/*'
	$(MAKE) --no-print-directory install

# `make run` is development: DEBUG on, the embedded secret key (production sets DJANGO_DEBUG=0).
# It starts the web server and the task runner's two consumers together: the light queue's
# (clocks, timeouts, emails) and the compute queue's (the computer's moves and hints, one worker
# process a core); Ctrl-C stops all three.
run: export DJANGO_DEBUG ?= 1
run: install
	$(PY) manage.py migrate --noinput
	@$(PY) manage.py run_huey & worker=$$!; \
	$(PY) manage.py run_compute & compute=$$!; \
	trap 'kill $$worker $$compute 2>/dev/null; wait $$worker $$compute 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver $(HOST):$(PORT)

# Only the light queue's worker, only the compute queue's, or one sweep of the clocks, for a
# site whose web server runs elsewhere.
worker compute sweep: export DJANGO_DEBUG ?= 1
worker: install
	$(PY) manage.py run_huey

compute: install
	$(PY) manage.py run_compute

sweep: install
	$(PY) manage.py sweep_games

# A dump of DATABASE_URL (PostgreSQL) into BACKUP_DIR, and the proof that the latest one restores:
# into a scratch database on the same server, migrated, every game replayed, then dropped. For
# cron or a systemd timer (README, "Running in production"); BACKUP_ARGS adds options, e.g. the
# retention: BACKUP_ARGS="--keep-daily 7 --keep-weekly 4 --keep-monthly 12".
BACKUP_DIR ?= backups
backup: install
	$(PY) manage.py backup --dir $(BACKUP_DIR) $(BACKUP_ARGS)

restore-check: install
	$(PY) manage.py restore_check --dir $(BACKUP_DIR) $(RESTORE_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

fmt: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

test: install lint
	DJANGO_DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	$(PY) -m pytest -m "not browser"
	$(MAKE) --no-print-directory check-games
	$(MAKE) --no-print-directory backup-check
	$(MAKE) --no-print-directory upgrade-check
	$(MAKE) --no-print-directory profile PROFILE_ARGS="--moves 2 --top 3"
	$(MAKE) --no-print-directory profile-before PROFILE_ARGS="--moves 2 --top 3"
	$(MAKE) --no-print-directory load-compute COMPUTE_ARGS="$(COMPUTE_TINY)"
	$(MAKE) --no-print-directory test-postgres
	$(MAKE) --no-print-directory chaos
	$(MAKE) --no-print-directory test-browser

# The site's and the live tests again on PostgreSQL, the production database: locking and
# transactions differ from SQLite's.
PG_TEST_URL ?= postgresql://postgres@127.0.0.1:5432/basilica
test-postgres: install
	@if $(PY) tests/multiprocess/services_up.py postgres; then \
		DATABASE_URL=$(PG_TEST_URL) $(PY) -m pytest -q -p no:cacheprovider tests/site tests/live; \
	else echo "PostgreSQL cannot be had on this machine: the PostgreSQL run is skipped"; fi

# The browser tests drive Debian's Chromium (Playwright's own download needs the open internet).
chromium:
	@test -x $(CHROMIUM) || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium)

# The accessibility checker the browser tests inject into pages (axe-core), at the version pinned
# in package-lock.json, installed from npm into node_modules/ (not kept in the repository).
AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

axe: $(AXE)

test-browser: install chromium axe
	$(PY) -m pytest -m browser tests/browser

simulate: install
	$(PY) -m games.engine.basilica.simulate --games 500

# Bots against bots on every core: greedy against random, then the search (its middle budget, a
# fixed number of simulations, so the figures replay) against greedy. ARENA adds options.
arena: install
	$(PY) -m games.bots.arena --games 200 --match greedy,random $(ARENA)
	$(PY) -m games.bots.arena --games 100 --match search,greedy $(ARENA)

bench: export DJANGO_DEBUG ?= 1
bench: install
	$(PY) -m games.engine.basilica.bench
	$(PY) -m games.engine.cathedral.bench
	$(PY) manage.py bench_site
	$(PY) manage.py bench_bytes
	$(PY) manage.py bench_clocks
	$(PY) manage.py bench_ratings
	$(PY) manage.py bench_comfort

# Where a move's time goes: each stage's CPU and queries (the mover's request, its transaction,
# the pushes, the header's count) and the costliest functions, for a game of each kind.
# `make test` runs it (and profile-before) on two moves, to keep it working; PROFILE_ARGS adds
# options. Its database is a throwaway one, and the tasks a move queues go to a throwaway queue
# (no worker ever runs them).
PROFILE_HUEY = $(LOAD_DIR)/basilica-profile-$(shell id -u).huey
profile: export DJANGO_DEBUG ?= 1
profile: install
	rm -f $(PROFILE_HUEY)*
	env -u REDIS_URL HUEY_SQLITE=$(PROFILE_HUEY) $(PY) manage.py profile_move $(PROFILE_ARGS)
	rm -f $(PROFILE_HUEY)*

# A commit of the repository's history, fetched first where the clone is shallow.
define from_history
	@git cat-file -e $(1)^{commit} 2>/dev/null || git fetch -q --unshallow 2>/dev/null || true
	@git cat-file -e $(1)^{commit} 2>/dev/null || \
		(echo "make $@ needs the repository's history ($(1)): git fetch --unshallow" && exit 1)
endef

# The same profile of the code before issue 27's work (84a872e, from the repository's history),
# for a before/after beside each other on one machine: run the two in turns.
PROFILE_BEFORE = 84a872e
PROFILE_TREE = $(LOAD_DIR)/basilica-profile-before-$(shell id -u)
profile-before: export DJANGO_DEBUG ?= 1
profile-before: install
	$(call from_history,$(PROFILE_BEFORE))
	rm -rf $(PROFILE_TREE) $(PROFILE_HUEY)* && mkdir -p $(PROFILE_TREE)
	git archive $(PROFILE_BEFORE) | tar -x -C $(PROFILE_TREE)
	cp games/management/commands/profile_move.py $(PROFILE_TREE)/games/management/commands/
	cd $(PROFILE_TREE) && env -u REDIS_URL HUEY_SQLITE=$(PROFILE_HUEY) $(abspath $(PY)) manage.py profile_move $(PROFILE_ARGS)
	rm -rf $(PROFILE_TREE) $(PROFILE_HUEY)*

# Every stored game replays on its own rules version: check_games on a throwaway database seeded
# with games of every kind, option set and version (LOAD_DIR and LOAD_ENV are below).
CHECK_DB ?= $(LOAD_DIR)/basilica-check-$(shell id -u).sqlite3
CHECK_ENV = env -u REDIS_URL DATABASE_URL=sqlite:///$(CHECK_DB) HUEY_SQLITE=$(CHECK_DB).huey
check-games: export DJANGO_DEBUG ?= 1
check-games: install
	rm -f $(CHECK_DB) $(CHECK_DB).huey*
	$(CHECK_ENV) $(PY) manage.py migrate --noinput -v0
	$(CHECK_ENV) $(PY) manage.py seed_games
	$(CHECK_ENV) $(PY) manage.py check_games
	rm -f $(CHECK_DB) $(CHECK_DB).huey*

# A backup that restores: a throwaway PostgreSQL database seeded as above, dumped by `manage.py
# backup`, restore-checked; then a dump of a changed game and one cut short must fail the check.
# Every database it makes is dropped. Said and skipped where PostgreSQL cannot be had.
PG_SERVER_URL ?= postgresql://postgres@127.0.0.1:5432/postgres
backup-check: export DJANGO_DEBUG ?= 1
backup-check: install
	@if $(PY) tests/multiprocess/services_up.py postgres; then \
		$(PY) manage.py backup_round_trip --server $(PG_SERVER_URL); \
	else echo "PostgreSQL cannot be had on this machine: the backup round trip is skipped"; fi

# An upgrade from the previous release keeps every game: a database made and seeded by that
# release's code and migrations (from the repository's history, which a clone has), migrated by
# this code, and every game replayed by this code's check_games. UPGRADE_FROM is that release.
UPGRADE_FROM = d0d36f1
UPGRADE_TREE = $(LOAD_DIR)/basilica-upgrade-$(shell id -u)
UPGRADE_DB = $(UPGRADE_TREE).sqlite3
UPGRADE_ENV = env -u REDIS_URL DATABASE_URL=sqlite:///$(UPGRADE_DB) HUEY_SQLITE=$(UPGRADE_DB).huey
upgrade-check: export DJANGO_DEBUG ?= 1
upgrade-check: install
	$(call from_history,$(UPGRADE_FROM))
	rm -rf $(UPGRADE_TREE) $(UPGRADE_DB) $(UPGRADE_DB).huey* && mkdir -p $(UPGRADE_TREE)
	git archive $(UPGRADE_FROM) | tar -x -C $(UPGRADE_TREE)
	cd $(UPGRADE_TREE) && $(UPGRADE_ENV) $(abspath $(PY)) manage.py migrate --noinput -v0
	cd $(UPGRADE_TREE) && $(UPGRADE_ENV) $(abspath $(PY)) manage.py seed_games
	$(UPGRADE_ENV) $(PY) manage.py migrate --noinput
	$(UPGRADE_ENV) $(PY) manage.py check_games
	rm -rf $(UPGRADE_TREE) $(UPGRADE_DB) $(UPGRADE_DB).huey*

# The load figures of issue 10, in one process on a throwaway SQLite file and the in-memory layer.
# The file (and the task queue's) go on tmpfs where there is one: on a disk shared with other
# work, SQLite's fsync at every commit would be the figure instead of the site.
LOAD_DIR ?= $(if $(wildcard /dev/shm),/dev/shm,/tmp)
LOAD_DB ?= $(LOAD_DIR)/basilica-load-$(shell id -u).sqlite3
LOAD_ENV = env -u REDIS_URL DATABASE_URL=sqlite:///$(LOAD_DB) HUEY_SQLITE=$(LOAD_DB).huey
load: export DJANGO_DEBUG ?= 1
load: install
	rm -f $(LOAD_DB) $(LOAD_DB).huey*
	$(LOAD_ENV) $(PY) manage.py migrate --noinput -v0
	$(LOAD_ENV) $(PY) manage.py load_site $(LOAD_ARGS)
	rm -f $(LOAD_DB) $(LOAD_DB).huey*

# The two-daphne figure: a fresh PostgreSQL database and Redis db 11 (both emptied after), one
# daphne then two on loopback ports, driven by a load generator in this process.
load-scaling: export DJANGO_DEBUG ?= 1
load-scaling: install
	@if $(PY) tests/multiprocess/services_up.py postgres redis; then \
		$(PY) manage.py load_scaling $(SCALING_ARGS); \
	else echo "PostgreSQL or Redis cannot be had on this machine: the two-daphne figure is not measured"; fi

# The computer's work on workers of its own: the task runner's real consumers (the light queue's
# and the compute queue's, one worker then two) on a throwaway SQLite file, games against the
# search bot played by this process. COMPUTE_ARGS adds options (see `manage.py load_compute -h`).
# `make test` runs it small, to keep it working (no figure is judged there).
COMPUTE_TINY = --games 2 --actions 1 --queued 4 --simulations 30 --arena-games 2 --arena-simulations 10 --analysis-simulations 10
COMPUTE_DB ?= $(LOAD_DIR)/basilica-compute-$(shell id -u).sqlite3
COMPUTE_ENV = env -u REDIS_URL DATABASE_URL=sqlite:///$(COMPUTE_DB) HUEY_SQLITE=$(COMPUTE_DB).huey
load-compute: export DJANGO_DEBUG ?= 1
load-compute: install
	rm -f $(COMPUTE_DB) $(COMPUTE_DB).huey*
	$(COMPUTE_ENV) $(PY) manage.py migrate --noinput -v0
	$(COMPUTE_ENV) $(PY) manage.py load_compute $(COMPUTE_ARGS)
	rm -f $(COMPUTE_DB) $(COMPUTE_DB).huey*

# Faults survived: games played through a killed daphne, Redis and PostgreSQL restarted, and
# a sweep killed midway, on a PostgreSQL and a Redis of the run's own (the machine's are left be).
chaos: export DJANGO_DEBUG ?= 1
chaos: install
	$(PY) manage.py chaos $(CHAOS_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache node_modules
