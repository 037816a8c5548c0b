#!/usr/bin/env bash
# One server for a group (docs/hosting.md), as root on Debian 12:
#   host.sh install DOMAIN   make host DOMAIN=...: PostgreSQL, the app's release, gunicorn, Caddy, the
#                            nightly backup; run again, it is the upgrade (same secret, same data)
#   host.sh start            make host-start: run the current release (no build, no upgrade)
#   host.sh can-upgrade      what make host-upgrade checks before it pulls: root, an install, a clean checkout
#   host.sh uninstall        make host-uninstall: one last backup, then all of it gone (YES=1: no question)
#   host.sh backup           make host-backup: one backup now
#   host.sh restore FILE     make host-restore FILE=...: a backup folder or its db.dump, or games' .json
#   host.sh manage ARGS...   manage.py as the service runs it (verify_ledgers, axes_reset, ...)
# Where systemd is not running (a container) it says so and runs the services in the foreground; an
# upgrade then switches that run's workers to the new release, as systemctl reload does the service's.
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Tests put every path under HOST_ROOT, with their own database, ports and user (tests/host/).
HOST_ROOT=${HOST_ROOT:-}
APP_USER=${APP_USER:-yiwu}
DB_NAME=${DB_NAME:-yiwu}
DB_ROLE=${DB_ROLE:-$DB_NAME}
APP_PORT=${APP_PORT:-8400}
CHECK_PORT=${CHECK_PORT:-8401}
HOST_SYSTEMD=${HOST_SYSTEMD:-auto} # no: as where systemd is not running; yes: as where it is (tests)
HOST_SERVE=${HOST_SERVE:-yes}      # no: without systemd, set up and check, then leave nothing running
HOST_APT=${HOST_APT:-yes}          # no: fail where a package is missing instead of installing it
WAIT=${WAIT:-60}                   # seconds a new release has to answer /healthz
HTTPS_WAIT=${HTTPS_WAIT:-60}       # seconds Caddy has to answer https://DOMAIN/ (a certificate to get)
HOST_CADDY=${HOST_CADDY:-yes}      # no: a foreground run without Caddy (tests: ports 80 and 443 are not theirs)
YES=${YES:-}                       # 1: uninstall without asking

APP_HOME=$HOST_ROOT/srv/yiwu
ETC_DIR=$HOST_ROOT/etc/yiwu
ENV_FILE=$ETC_DIR/env
RENDERED=$ETC_DIR/rendered
BACKUPS=$HOST_ROOT/var/backups/yiwu
CADDYFILE=$HOST_ROOT/etc/caddy/Caddyfile
UNIT_DIR=$HOST_ROOT/etc/systemd/system
RUN_PIDS=$ETC_DIR/run.pids # a foreground run's gunicorn master and Caddy (no systemd)
CADDY_HOME=/var/lib/caddy # the caddy user's home (Debian's package): its certificates, the local authority
LOCAL_ROOT=$CADDY_HOME/.local/share/caddy/pki/authorities/local/root.crt

say() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
die() {
	printf 'make host: %s\n' "$*" >&2
	exit 1
}
# -S: what it runs is the standard library alone (yiwu_site/host/), so no site-packages to set up each call.
py() { PYTHONPATH=$SOURCE python3 -S -m yiwu_site.host "$@"; }
app_args() { printf -- '--domain\n%s\n--user\n%s\n--home\n%s\n--env-file\n%s\n--backups\n%s\n--port\n%s\n' \
	"$DOMAIN" "$APP_USER" "$APP_HOME" "$ENV_FILE" "$BACKUPS" "$APP_PORT"; }
systemd_running() { [ "$HOST_SYSTEMD" = yes ] || { [ "$HOST_SYSTEMD" = auto ] && [ -d /run/systemd/system ]; }; }
need_root() { [ "$(id -u)" = 0 ] || die "run it as root: sudo make ${1:-host}"; }

# as_app DIR COMMAND...: in DIR, as the app's user, with the environment file and nothing else.
# AS_APP holds the same as one command, for a process started in the background: its $! is then
# the server itself (env, bash and setpriv each exec the next), which a function's would not be.
app_command() {
	local dir=$1
	shift
	AS_APP=(env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 HOME="$APP_HOME" YIWU_AS="$APP_USER" bash -c
		'umask 077; set -a; . "$1"; set +a; cd "$2"; shift 2; exec setpriv --reuid="$YIWU_AS" --regid="$YIWU_AS" --init-groups -- "$@"'
		_ "$ENV_FILE" "$dir" "$@")
}
as_app() {
	app_command "$@"
	"${AS_APP[@]}"
}

packages() {
	local missing=()
	command -v caddy >/dev/null || missing+=(caddy)
	{ command -v pg_lsclusters >/dev/null && command -v pg_dump >/dev/null; } || missing+=(postgresql)
	python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
	((${#missing[@]})) || return 0
	[ "$HOST_APT" = yes ] || die "missing Debian packages: ${missing[*]}"
	say "installing Debian's ${missing[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

postgres_up() {
	if ! pg_isready -q -h 127.0.0.1 -p 5432; then
		if systemd_running; then
			systemctl enable --quiet --now postgresql
		else
			local cluster
			cluster=$(pg_lsclusters --no-header | awk 'NR == 1 { print $1, $2 }')
			[ -n "$cluster" ] || die "no PostgreSQL cluster: pg_createcluster --start 15 main"
			# shellcheck disable=SC2086 # version and name
			pg_ctlcluster --skip-systemctl-redirect $cluster start
		fi
	fi
	for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && return 0 || sleep 1; done
	die "PostgreSQL does not answer on 127.0.0.1:5432"
}

app_user() {
	id -u "$APP_USER" >/dev/null 2>&1 && return 0
	useradd --system --user-group --home-dir /srv/yiwu --no-create-home --shell /usr/sbin/nologin \
		--comment "Mahjong scorekeeper" "$APP_USER"
	say "made the system user $APP_USER"
}

folders() {
	local group
	group=$(id -gn "$APP_USER")
	install -d -m 755 "$APP_HOME" "$APP_HOME/releases" "$APP_HOME/venvs"
	install -d -m 700 "$ETC_DIR" "$RENDERED"
	install -d -m 700 -o "$APP_USER" -g "$group" "$BACKUPS"
}

games_count() {
	runuser -u postgres -- psql -tAXq -d "$DB_NAME" -c 'SELECT count(*) FROM scoring_game' 2>/dev/null || echo 0
}

# The gunicorn master of a foreground run still running (make host or make host-start), or nothing.
foreground_pid() {
	local pid
	[ -f "$RUN_PIDS" ] && read -r pid _ <"$RUN_PIDS" && [ -n "$pid" ] || return 0
	grep -qa gunicorn "/proc/$pid/cmdline" 2>/dev/null && [ "$(sed 's/.*) //' "/proc/$pid/stat" | cut -c1)" != Z ] && echo "$pid"
	return 0
}
answers() { py wait /healthz --domain "$DOMAIN" --port "$APP_PORT" --seconds "${1:-0}" >/dev/null 2>&1; }

# Is anything serving the app now: the service, or a foreground run?
serving() {
	if systemd_running; then
		systemctl is-active --quiet yiwu.service && answers 2
	else
		[ -n "$(foreground_pid)" ] && answers 2
	fi
}

# Can the running master take release $2 without a restart? Not if its gunicorn differs (the master
# keeps its own in memory) or its environment changed (read at start only).
graceful_to() {
	local from=$1 to=$2
	[ "$ENV_CHANGED" = no ] || return 1
	[ "$(readlink -f "$from/.venv")" = "$(readlink -f "$to/.venv")" ] && return 0
	[ "$(cd "$from"/.venv/lib/python3*/site-packages && ls -d gunicorn-*.dist-info)" = \
		"$(cd "$to"/.venv/lib/python3*/site-packages && ls -d gunicorn-*.dist-info)" ]
}

# The switch of gunicorn master $1 to the release `current` names: `roll` adds as many new workers
# (each imports current/, then moves into it) and stops the old ones once those serve (health.py roll);
# `switched` only waits for it (systemctl reload, whose ExecReload rolls).
switched() {
	local said
	said=$(py "${2:-switched}" "$1" --release "$APP_HOME/current" --seconds "$WAIT") || { note "$said"; return 1; }
	note "switched without a stop: $said"
}

# The new release's gunicorn on CHECK_PORT, asked /healthz then /readyz, and stopped: is it fit to run?
check_candidate() {
	local release=$1 log=$ETC_DIR/candidate.log pid ok=yes
	mapfile -t argv < <(py argv $(app_args) --workers 1 --release "$release" --on "$CHECK_PORT")
	app_command "$release" "${argv[@]}"
	"${AS_APP[@]}" >"$log" 2>&1 &
	pid=$!
	py wait /healthz --domain "$DOMAIN" --port "$CHECK_PORT" --seconds "$WAIT" --while "$pid" >/dev/null || ok=no
	[ $ok = yes ] && { py wait /readyz --domain "$DOMAIN" --port "$CHECK_PORT" --seconds 10 >/dev/null || ok=no; }
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	[ $ok = yes ] || { tail -n 20 "$log" | sed 's/^/    | /' >&2; return 1; }
}

switch_to() {
	ln -sfn "releases/$1" "$APP_HOME/.current.new"
	mv -Tf "$APP_HOME/.current.new" "$APP_HOME/current"
}

install_configs() {
	local changed
	changed=$(py render $(app_args) --out "$RENDERED" --email "$EMAIL")
	local scratch valid=yes
	scratch=$(mktemp -d) # validating writes nothing of Caddy's anywhere else
	HOME=$scratch caddy validate --config "$RENDERED/Caddyfile" --adapter caddyfile >"$ETC_DIR/caddy-validate.log" 2>&1 || valid=no
	rm -rf "$scratch"
	[ $valid = yes ] || { cat "$ETC_DIR/caddy-validate.log" >&2; die "Caddy does not take the configuration it was given"; }
	install -d "$(dirname "$CADDYFILE")"
	if [ -f "$CADDYFILE" ] && ! cmp -s "$CADDYFILE" "$RENDERED/Caddyfile"; then
		[ -f "$CADDYFILE.before-yiwu" ] || cp -p "$CADDYFILE" "$CADDYFILE.before-yiwu"
	fi
	CADDY_CHANGED=no
	cmp -s "$CADDYFILE" "$RENDERED/Caddyfile" 2>/dev/null || CADDY_CHANGED=yes
	install -m 644 "$RENDERED/Caddyfile" "$CADDYFILE"
	UNITS_CHANGED=no
	for unit in yiwu.service yiwu-backup.service yiwu-backup.timer; do
		cmp -s "$RENDERED/$unit" "$UNIT_DIR/$unit" 2>/dev/null || UNITS_CHANGED=yes
	done
	[ -n "$changed" ] && note "configuration written: $changed"
	return 0
}

rollback() {
	local reason=$1
	if [ -n "$OLD" ]; then
		if [ "$SWITCHED" = yes ]; then # it served, then failed: the old one back in place
			switch_to "$OLD"
			if systemd_running; then
				systemctl restart yiwu.service
			elif [ -n "$(foreground_pid)" ]; then
				kill -HUP "$(foreground_pid)"
			fi
			answers "$WAIT" || true
		fi # else nothing was touched: what ran still runs
		if serving; then
			say "the new release $NEW $reason: back on release $OLD, which runs as before"
		else
			say "the new release $NEW $reason: back on release $OLD, which nothing serves now (make host-start starts it)"
		fi
		note "this checkout still holds what was refused, and make host would refuse it again: fix it and commit, or go back to what runs: git -C $SOURCE reset --hard $(sed -n '2s/ .*//p' "$APP_HOME/releases/$OLD/RELEASE")"
	else
		say "the new release $NEW $reason, and there is no release before it"
	fi
	if [ "${MIGRATIONS:-0}" -gt 0 ]; then
		note "the database was migrated for $NEW ($MIGRATIONS migrations); as it was before: make host-restore FILE=$UPGRADE_BACKUP"
	elif [ -n "$UPGRADE_BACKUP" ]; then
		note "no migration was applied: the database is as the old release had it (a backup of it: $UPGRADE_BACKUP)"
	fi
	exit 1
}

install_systemd() {
	install -d "$UNIT_DIR"
	install -m 644 "$RENDERED/yiwu.service" "$RENDERED/yiwu-backup.service" "$RENDERED/yiwu-backup.timer" "$UNIT_DIR/"
	systemctl daemon-reload
	systemctl enable --quiet yiwu.service yiwu-backup.timer caddy.service
	# A new unit or environment is read at start only; else the master's workers are switched (a reload).
	if [ "$UNITS_CHANGED" = yes ] || [ "$ENV_CHANGED" = yes ] || ! systemctl is-active --quiet yiwu.service; then
		systemctl restart yiwu.service
	elif [ "$NEW" != "$OLD" ] && graceful_to "$APP_HOME/releases/$OLD" "$APP_HOME/current"; then
		systemctl reload yiwu.service # its ExecReload: the roll
		switched "$(systemctl show --property MainPID --value yiwu.service)" ||
			rollback "did not take over from the old workers within $WAIT s (journalctl -u yiwu)"
	elif [ "$NEW" != "$OLD" ]; then
		note "its gunicorn is another version: the service restarts (a second or two of 502)"
		systemctl restart yiwu.service
	fi
	py wait /healthz --domain "$DOMAIN" --port "$APP_PORT" --seconds "$WAIT" >/dev/null ||
		rollback "did not answer /healthz within $WAIT s as the service (journalctl -u yiwu)"
	systemctl start yiwu-backup.timer
	if systemctl is-active --quiet caddy.service; then
		[ "$CADDY_CHANGED" = no ] || systemctl reload caddy.service
	else
		systemctl start caddy.service
	fi
}

check_https() {
	local ca=() said
	[ -f "$LOCAL_ROOT" ] && [ "$LOCAL" = yes ] && ca=(--ca "$LOCAL_ROOT")
	if said=$(py wait /healthz --domain "$DOMAIN" --port 443 --tls "${ca[@]}" --seconds "${1:-60}"); then
		note "https://$DOMAIN/healthz answers through Caddy: $said"
	else
		note "https://$DOMAIN/ does not answer yet ($said)."
		[ "$LOCAL" = yes ] || note "Caddy gets its certificate once DNS names this server and ports 80 and 443 reach it: journalctl -u caddy"
	fi
}

summary() {
	say "麻将记分 at https://$DOMAIN/: release $(py info "$APP_HOME/current")"
	if [ -n "$OLD" ] && [ "$OLD" != "$NEW" ]; then
		note "upgraded from release $OLD, which served until this one answered (kept in $APP_HOME/releases)"
	fi
	[ -n "$OLD" ] && [ "$OLD" = "$NEW" ] && note "nothing new to install: the release installed is this checkout's"
	note "$ENV_SAID; database $DB_NAME: $(games_count) games"
	if systemd_running || [ "$HOST_CADDY" = yes ]; then
		note "gunicorn: $WORKERS workers on 127.0.0.1:$APP_PORT; Caddy on ports 80 and 443 in front"
	else
		note "gunicorn: $WORKERS workers on 127.0.0.1:$APP_PORT; no Caddy (HOST_CADDY=no)"
	fi
	if systemd_running; then
		note "services: yiwu.service (restarts on failure), caddy.service; backups: yiwu-backup.timer at 04:00 (the app's time zone) into $BACKUPS, the last 14 kept"
	else
		note "no nightly backup without systemd: make host-backup takes one (or run it from cron)"
	fi
	if [ "$LOCAL" = yes ]; then
		note "Caddy's local authority signed the certificate: its root is $LOCAL_ROOT"
		note "to trust it in Chromium (libnss3-tools; the first line where Chromium never ran makes its NSS database):"
		note "  [ -f ~/.pki/nssdb/cert9.db ] || { mkdir -p ~/.pki/nssdb && certutil -N --empty-password -d sql:\$HOME/.pki/nssdb; }"
		note "  certutil -d sql:\$HOME/.pki/nssdb -A -t C,, -n yiwu-local -i $LOCAL_ROOT"
	fi
}

serve_foreground() {
	note "the units are in $RENDERED, for a look; gunicorn and Caddy run in the foreground instead"
	if [ "$HOST_SERVE" != yes ]; then
		summary
		note "HOST_SERVE=no: set up and checked, nothing left running"
		return 0
	fi
	local argv
	mapfile -t argv < <(py argv $(app_args) --workers "$WORKERS" --release "$APP_HOME/current")
	app_command "$APP_HOME/current" "${argv[@]}"
	"${AS_APP[@]}" &
	gunicorn=$!
	caddy_pid="" # both global: the EXIT trap runs after this function has returned
	if [ "$HOST_CADDY" = yes ]; then
		env -i PATH=/usr/bin:/bin HOME="$CADDY_HOME" setpriv --reuid=caddy --regid=caddy --init-groups \
			--inh-caps=+net_bind_service --ambient-caps=+net_bind_service -- \
			caddy run --environ --config "$CADDYFILE" --adapter caddyfile >"$ETC_DIR/caddy.log" 2>&1 &
		caddy_pid=$!
	fi
	echo "$gunicorn $caddy_pid" >"$RUN_PIDS"
	# shellcheck disable=SC2086 # no Caddy: one pid
	trap 'kill -TERM $gunicorn $caddy_pid 2>/dev/null || true; wait $gunicorn $caddy_pid 2>/dev/null || true; rm -f "$RUN_PIDS"' EXIT
	trap 'exit 130' INT TERM
	py wait /healthz --domain "$DOMAIN" --port "$APP_PORT" --seconds "$WAIT" --while "$gunicorn" >/dev/null || die "gunicorn did not answer"
	if [ -n "$caddy_pid" ]; then
		for _ in $(seq 20); do [ "$LOCAL" = no ] || [ -f "$LOCAL_ROOT" ] && break || sleep 0.5; done
		check_https 30
	fi
	summary
	[ -n "$caddy_pid" ] && note "Caddy's log: $ETC_DIR/caddy.log."
	note "serving (gunicorn pid $gunicorn). Ctrl-C stops it; make host (an upgrade) switches it to the new release without a stop."
	# shellcheck disable=SC2086 # no Caddy: one pid
	wait -n $gunicorn $caddy_pid || true
	say "one of them stopped: stopping the other"
}

# A foreground run stopped (its gunicorn and Caddy, by their pids), before another starts.
stop_foreground() {
	local pids
	read -r -a pids <"$RUN_PIDS" || true
	kill -TERM "${pids[@]}" 2>/dev/null || true
	for _ in $(seq 100); do [ -z "$(foreground_pid)" ] && ! answers && break || sleep 0.2; done
	rm -f "$RUN_PIDS"
}

install_host() {
	need_root host
	DOMAIN=${1:-}
	[ -f "$ENV_FILE" ] && [ -z "$DOMAIN" ] && DOMAIN=$(py get --file "$ENV_FILE" YIWU_DOMAIN)
	[ -n "$DOMAIN" ] || die "say which name: make host DOMAIN=mj.example.com (or DOMAIN=localhost to try it here)"
	DOMAIN=$(py domain "$DOMAIN") || exit 2
	SWITCHED=no RUNNING=""
	LOCAL=no
	[ "$DOMAIN" = localhost ] || [ "${DOMAIN%.localhost}" != "$DOMAIN" ] && LOCAL=yes
	EMAIL=${EMAIL:-}
	[ -z "$EMAIL" ] && [ -f "$ENV_FILE" ] && EMAIL=$(py get --file "$ENV_FILE" YIWU_EMAIL)
	if ! systemd_running; then
		say "systemd is not running here (a container?): no units will be installed; the same services run in the foreground"
		RUNNING=$(foreground_pid)
		if [ -n "$RUNNING" ]; then
			note "a run of make host serves now (gunicorn pid $RUNNING): it serves on while the new release is built, and is switched to it"
		elif answers; then
			die "something serves on 127.0.0.1:$APP_PORT that is no run of this make host (an older one's: Ctrl-C it): stop it first"
		fi
	fi

	packages
	postgres_up
	app_user
	folders
	local env_before
	env_before=$(cat "$ENV_FILE" 2>/dev/null || true)
	ENV_SAID=$(py env --file "$ENV_FILE" --domain "$DOMAIN" --db-name "$DB_NAME" --db-role "$DB_ROLE" --email "$EMAIL")
	ENV_CHANGED=no
	[ "$env_before" = "$(cat "$ENV_FILE")" ] || ENV_CHANGED=yes
	py db-sql --file "$ENV_FILE" | runuser -u postgres -- psql -qX -d postgres >/dev/null
	note "database $DB_NAME and role $DB_ROLE ready; secret key and password: $ENV_SAID"
	WORKERS=$(py argv $(app_args) --release x | sed -n '/^--workers$/{n;p}')

	OLD=""
	[ -L "$APP_HOME/current" ] && OLD=$(basename "$(readlink -f "$APP_HOME/current")")
	say "building the release of $SOURCE ($(git -c safe.directory="$SOURCE" -C "$SOURCE" log -1 --format='%h %<(60,trunc)%s' | sed 's/ *$//'))"
	local built
	built=$(py build --source "$SOURCE" --home "$APP_HOME" --env-file "$ENV_FILE") || die "the release was not built; nothing changed"
	read -r NEW how <<<"$built"
	chmod -R a+rX "$APP_HOME/releases/$NEW" "$APP_HOME/venvs"
	note "release $NEW: $how"
	local release=$APP_HOME/releases/$NEW level=WARNING
	[ "$LOCAL" = yes ] && level=ERROR # a try sends no HSTS (security.W004), on purpose
	as_app "$release" .venv/bin/python manage.py check --deploy --fail-level "$level" >"$ETC_DIR/check-deploy.log" 2>&1 ||
		{ cat "$ETC_DIR/check-deploy.log" >&2; die "manage.py check --deploy failed for release $NEW; nothing changed"; }

	UPGRADE_BACKUP=""
	if [ -n "$OLD" ] && [ "$OLD" != "$NEW" ] && [ -d "$APP_HOME/releases/$OLD" ]; then
		mapfile -t argv < <(py argv $(app_args) --release "$APP_HOME/releases/$OLD" --backup --kind upgrade)
		UPGRADE_BACKUP=$(as_app "$APP_HOME/releases/$OLD" "${argv[@]}" | sed -n 's/^backup \([^:]*\):.*/\1/p') ||
			die "the backup before the upgrade failed; nothing changed"
		note "backup before the upgrade: $UPGRADE_BACKUP"
	fi
	local migrated
	MIGRATIONS=0
	migrated=$(as_app "$release" .venv/bin/python manage.py migrate --no-input) || rollback "could not migrate the database"
	MIGRATIONS=$(grep -c '^  Applying' <<<"$migrated" || true)
	note "migrate: $MIGRATIONS migration(s) applied"
	if [ "$NEW" != "$OLD" ]; then
		check_candidate "$release" || rollback "did not answer /healthz and /readyz within $WAIT s"
		note "release $NEW answered /healthz and /readyz on 127.0.0.1:$CHECK_PORT"
	fi

	install_configs
	switch_to "$NEW"
	SWITCHED=yes
	if systemd_running; then
		install_systemd
		prune_releases
		check_https "$HTTPS_WAIT"
		summary
	elif [ -n "$RUNNING" ]; then
		switch_foreground
		prune_releases
	else
		prune_releases
		serve_foreground
	fi
}

prune_releases() {
	local gone
	gone=$(py prune "$APP_HOME")
	[ -n "$gone" ] && note "removed old: $gone"
	return 0
}

# Without systemd, a foreground run serving: its workers switched (roll), or (another gunicorn, another
# environment) it is stopped now, everything built and migrated, and this run serves instead.
switch_foreground() {
	if [ "$NEW" = "$OLD" ] && [ "$ENV_CHANGED" = no ]; then
		summary
		note "the run of make host (gunicorn pid $RUNNING) serves on"
	elif [ -n "$OLD" ] && graceful_to "$APP_HOME/releases/$OLD" "$APP_HOME/current"; then
		switched "$RUNNING" roll || rollback "did not take over from the old workers within $WAIT s"
		answers "$WAIT" || rollback "did not answer /healthz within $WAIT s"
		if [ "$CADDY_CHANGED" = yes ] && [ "$HOST_CADDY" = yes ]; then
			caddy reload --config "$CADDYFILE" --adapter caddyfile >/dev/null 2>&1 || note "Caddy's new configuration takes effect at the next make host-start"
		fi
		summary
		note "the run of make host (gunicorn pid $RUNNING) serves release $NEW now"
	else
		note "another gunicorn or another environment: the running one stops, and this run serves instead"
		stop_foreground
		serve_foreground
	fi
}

# make host-start: the current release as installed, nothing built (after a reboot, a stop, a refused upgrade).
start() {
	need_root host-start
	[ -f "$ENV_FILE" ] && [ -L "$APP_HOME/current" ] || die "nothing installed yet: make host DOMAIN=... first"
	DOMAIN=$(py get --file "$ENV_FILE" YIWU_DOMAIN)
	LOCAL=no
	[ "$DOMAIN" = localhost ] || [ "${DOMAIN%.localhost}" != "$DOMAIN" ] && LOCAL=yes
	OLD="" # summary: nothing upgraded
	NEW=$(basename "$(readlink -f "$APP_HOME/current")")
	ENV_SAID="environment $ENV_FILE"
	WORKERS=$(py argv $(app_args) --release x | sed -n '/^--workers$/{n;p}')
	postgres_up
	if systemd_running; then
		systemctl start yiwu.service
		systemctl start caddy.service
		answers "$WAIT" || die "yiwu.service did not answer /healthz within $WAIT s: journalctl -u yiwu"
		summary
	else
		[ -z "$(foreground_pid)" ] || die "a run of make host serves already (gunicorn pid $(foreground_pid))"
		! answers || die "something else serves on 127.0.0.1:$APP_PORT: stop it first"
		HOST_SERVE=yes
		serve_foreground
	fi
}

# What make host-upgrade checks before it pulls, so that a refusal changes nothing.
can_upgrade() {
	need_root host-upgrade
	[ -f "$ENV_FILE" ] && [ -L "$APP_HOME/current" ] || die "nothing installed to upgrade: make host DOMAIN=... first"
	local changes
	changes=$(git -c safe.directory="$SOURCE" -C "$SOURCE" status --porcelain --untracked-files=no)
	[ -z "$changes" ] || die "this checkout has changes of its own, which git pull would meet: commit or stash them first
$changes"
}

backup_now() {
	need_root host-backup
	[ -f "$ENV_FILE" ] || die "nothing to back up yet: make host DOMAIN=... first"
	DOMAIN=$(py get --file "$ENV_FILE" YIWU_DOMAIN)
	mapfile -t argv < <(py argv $(app_args) --release "$APP_HOME/current" --backup --kind "${1:-manual}")
	as_app "$APP_HOME/current" "${argv[@]}"
}

restore() {
	need_root host-restore
	local file=${1:-}
	[ -n "$file" ] && [ -e "$file" ] || die "which backup? make host-restore FILE=$BACKUPS/<date>-nightly (or its db.dump, or a game's .json)"
	[ -f "$ENV_FILE" ] || die "no $ENV_FILE: make host DOMAIN=... first"
	DOMAIN=$(py get --file "$ENV_FILE" YIWU_DOMAIN)
	file=$(readlink -f "$file")
	case "$file" in
	"$BACKUPS"/*) ;;
	*) # where the app's user can read it
		local incoming=$BACKUPS/.incoming
		rm -rf "$incoming" && install -d -m 700 -o "$APP_USER" "$incoming"
		cp -r "$file" "$incoming/" && chown -R "$APP_USER" "$incoming"
		file=$incoming/$(basename "$file")
		;;
	esac
	local whole=no
	{ [ -f "$file/db.dump" ] || [ "${file%.dump}" != "$file" ]; } && whole=yes
	if [ $whole = yes ]; then
		say "taking a backup of the database as it is now, before the restore"
		backup_now restore
		systemd_running && systemctl stop yiwu.service
	fi
	# A game's links are printed as paths: with the site's address, ready to send.
	as_app "$APP_HOME/current" .venv/bin/python -m yiwu_site.host.backup restore "$file" |
		sed "s#\(edit\|view\) /g/#\1 https://$DOMAIN/g/#g" ||
		{ systemd_running && systemctl start yiwu.service; die "nothing was restored"; }
	if [ $whole = yes ] && systemd_running; then
		systemctl start yiwu.service
		py wait /healthz --domain "$DOMAIN" --port "$APP_PORT" --seconds "$WAIT" >/dev/null && note "the app answers again"
	elif [ $whole = yes ] && [ -n "$(foreground_pid)" ]; then
		# New workers, so that none keeps what it read before.
		switched "$(foreground_pid)" roll || note "the foreground run's workers were not all replaced: stop it (Ctrl-C) and make host-start"
	fi
}

# make host-uninstall: one last backup (kept), then what make host made, gone; Debian's packages stay.
uninstall() {
	need_root host-uninstall
	local domain="" dump=""
	[ -f "$ENV_FILE" ] && domain=$(py get --file "$ENV_FILE" YIWU_DOMAIN)
	DOMAIN=${domain:-localhost}
	say "this removes 麻将记分${domain:+ at $domain}: its services and units, its Caddy site, its code in $APP_HOME, its database $DB_NAME and role $DB_ROLE, its user (if make host made it)"
	if [ "$YES" != 1 ]; then
		local answer=""
		[ -t 0 ] || die "no one to ask: YES=1 make host-uninstall removes it all without asking"
		read -r -p "    the database goes too (after one last backup): type YES to go on: " answer
		[ "$answer" = YES ] || die "nothing removed"
	fi
	if [ -f "$ENV_FILE" ] && [ -L "$APP_HOME/current" ] && postgres_up && [ -n "$(runuser -u postgres -- psql -tAXq -d postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" ]; then
		dump=$(backup_now manual | sed -n 's/^backup \([^:]*\):.*/\1/p') || die "the last backup failed; nothing removed"
		note "the last backup: $dump"
	fi
	if systemd_running; then
		systemctl disable --quiet --now yiwu-backup.timer 2>/dev/null || true
		systemctl disable --quiet --now yiwu.service 2>/dev/null || true
		rm -f "$UNIT_DIR/yiwu.service" "$UNIT_DIR/yiwu-backup.service" "$UNIT_DIR/yiwu-backup.timer"
		systemctl daemon-reload
	elif [ -n "$(foreground_pid)" ]; then
		stop_foreground
	fi
	note "services stopped and their units removed"
	if [ -f "$CADDYFILE.before-yiwu" ]; then
		mv -f "$CADDYFILE.before-yiwu" "$CADDYFILE"
		note "Caddy's Caddyfile: as it was before make host"
	elif [ -f "$CADDYFILE" ] && grep -q "Written by \`make host\`" "$CADDYFILE"; then
		rm -f "$CADDYFILE"
		note "Caddy's Caddyfile: removed (make host wrote it)"
	fi
	systemd_running && { systemctl try-reload-or-restart caddy.service || true; }
	if command -v psql >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; then
		runuser -u postgres -- psql -qX -d postgres -v ON_ERROR_STOP=1 -v db="$DB_NAME" -v role="$DB_ROLE" >/dev/null <<-'SQL'
			SET client_min_messages = warning;
			DROP DATABASE IF EXISTS :"db" WITH (FORCE);
			DROP ROLE IF EXISTS :"role";
		SQL
		note "database $DB_NAME and role $DB_ROLE dropped"
	fi
	rm -rf "$APP_HOME" "$ETC_DIR"
	note "removed $APP_HOME (releases, virtualenvs) and $ETC_DIR (environment, secret key)"
	if [ "$(getent passwd "$APP_USER" | cut -d: -f5)" = "Mahjong scorekeeper" ]; then
		userdel "$APP_USER" && note "removed the user $APP_USER"
	fi
	say "removed. Left: the backups in $BACKUPS${dump:+ (the last: $dump)}; Debian's caddy and postgresql packages, and Caddy's certificates in $CADDY_HOME"
	note "when you no longer want them: rm -rf $BACKUPS; apt-get purge caddy postgresql (if nothing else uses them)"
}

# manage.py as the service runs (its user, its environment, the current release): verify_ledgers, axes_reset...
manage() {
	need_root "${1:-}"
	[ -f "$ENV_FILE" ] || die "nothing installed yet: make host DOMAIN=... first"
	as_app "$APP_HOME/current" .venv/bin/python manage.py "$@"
}

case "${1:-}" in
install) install_host "${2:-}" ;;
start) start ;;
can-upgrade) can_upgrade ;;
uninstall) uninstall ;;
backup) backup_now manual ;;
restore) restore "${2:-}" ;;
manage) manage "${@:2}" ;;
*) die "usage: host.sh install [DOMAIN] | start | can-upgrade | uninstall | backup | restore FILE | manage COMMAND [ARGS]" ;;
esac
