#!/usr/bin/env bash
# One server for a group (docs/hosting.md), as root on Debian 12:
#   host.sh install DOMAIN   make host DOMAIN=...: PostgreSQL, the app's release, gunicorn, Caddy, the
#                            nightly backup; run again, it is the upgrade (same secret, same data)
#   host.sh backup           make host-backup: one backup now
#   host.sh restore FILE     make host-restore FILE=...: a backup folder or its db.dump, or games' .json
#   host.sh manage ARGS...   manage.py as the service runs it (verify_ledgers, axes_reset, ...)
# Where systemd is not running (a container) it says so and runs the services in the foreground.
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

APP_HOME=$HOST_ROOT/srv/yiwu
ETC_DIR=$HOST_ROOT/etc/yiwu
ENV_FILE=$ETC_DIR/env
RENDERED=$ETC_DIR/rendered
BACKUPS=$HOST_ROOT/var/backups/yiwu
CADDYFILE=$HOST_ROOT/etc/caddy/Caddyfile
UNIT_DIR=$HOST_ROOT/etc/systemd/system
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
		switch_to "$OLD"
		systemd_running && systemctl restart yiwu.service
		say "the new release $NEW $reason: back on release $OLD, which runs as before"
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
	if [ "$NEW" != "$OLD" ] || [ "$UNITS_CHANGED" = yes ] || [ "$ENV_CHANGED" = yes ] || ! systemctl is-active --quiet yiwu.service; then
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
		if systemd_running; then
			note "upgraded from release $OLD, which served until this one answered (kept in $APP_HOME/releases)"
		else
			note "upgraded from release $OLD (kept in $APP_HOME/releases)"
		fi
	fi
	[ -n "$OLD" ] && [ "$OLD" = "$NEW" ] && note "nothing new to install: the release installed is this checkout's"
	note "$ENV_SAID; database $DB_NAME: $(games_count) games"
	note "gunicorn: $WORKERS workers on 127.0.0.1:$APP_PORT; Caddy on ports 80 and 443 in front"
	if systemd_running; then
		note "services: yiwu.service (restarts on failure), caddy.service; backups: yiwu-backup.timer at 04:00 (the app's time zone) into $BACKUPS, the last 14 kept"
	else
		note "no nightly backup without systemd: make host-backup takes one (or run it from cron)"
	fi
	if [ "$LOCAL" = yes ]; then
		note "Caddy's local authority signed the certificate: its root is $LOCAL_ROOT"
		note "to trust it in Chromium: certutil -d sql:\$HOME/.pki/nssdb -A -t C,, -n yiwu-local -i $LOCAL_ROOT (libnss3-tools)"
	fi
}

serve_foreground() {
	note "the units are in $RENDERED, for a look; gunicorn and Caddy run in the foreground instead"
	if [ "$HOST_SERVE" != yes ]; then
		summary
		note "HOST_SERVE=no: set up and checked, nothing left running"
		return 0
	fi
	local argv gunicorn caddy_pid
	mapfile -t argv < <(py argv $(app_args) --workers "$WORKERS" --release "$APP_HOME/current")
	app_command "$APP_HOME/current" "${argv[@]}"
	"${AS_APP[@]}" &
	gunicorn=$!
	env -i PATH=/usr/bin:/bin HOME="$CADDY_HOME" setpriv --reuid=caddy --regid=caddy --init-groups \
		--inh-caps=+net_bind_service --ambient-caps=+net_bind_service -- \
		caddy run --environ --config "$CADDYFILE" --adapter caddyfile >"$ETC_DIR/caddy.log" 2>&1 &
	caddy_pid=$!
	trap 'kill -TERM $gunicorn $caddy_pid 2>/dev/null || true' INT TERM EXIT
	py wait /healthz --domain "$DOMAIN" --port "$APP_PORT" --seconds "$WAIT" >/dev/null || die "gunicorn did not answer"
	for _ in $(seq 20); do [ "$LOCAL" = no ] || [ -f "$LOCAL_ROOT" ] && break || sleep 0.5; done
	check_https 30
	summary
	note "Caddy's log: $ETC_DIR/caddy.log. Ctrl-C stops both."
	wait -n "$gunicorn" "$caddy_pid" || true
	say "one of them stopped: stopping the other"
}

install_host() {
	need_root host
	DOMAIN=${1:-}
	[ -f "$ENV_FILE" ] && [ -z "$DOMAIN" ] && DOMAIN=$(py get --file "$ENV_FILE" YIWU_DOMAIN)
	[ -n "$DOMAIN" ] || die "say which name: make host DOMAIN=mj.example.com (or DOMAIN=localhost to try it here)"
	DOMAIN=$(py domain "$DOMAIN") || exit 2
	LOCAL=no
	[ "$DOMAIN" = localhost ] || [ "${DOMAIN%.localhost}" != "$DOMAIN" ] && LOCAL=yes
	EMAIL=${EMAIL:-}
	[ -z "$EMAIL" ] && [ -f "$ENV_FILE" ] && EMAIL=$(py get --file "$ENV_FILE" YIWU_EMAIL)
	if ! systemd_running; then
		say "systemd is not running here (a container?): no units will be installed; the same services run in the foreground"
		! py wait /healthz --domain "$DOMAIN" --port "$APP_PORT" --seconds 0 >/dev/null 2>&1 ||
			die "a run of make host is still serving on 127.0.0.1:$APP_PORT: stop it (Ctrl-C) first"
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
	local gone
	gone=$(py prune "$APP_HOME")
	[ -n "$gone" ] && note "removed old: $gone"
	if systemd_running; then
		install_systemd
		check_https "$HTTPS_WAIT"
		summary
	else
		serve_foreground
	fi
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
	as_app "$APP_HOME/current" .venv/bin/python -m yiwu_site.host.backup restore "$file" ||
		{ systemd_running && systemctl start yiwu.service; die "nothing was restored"; }
	if [ $whole = yes ] && systemd_running; then
		systemctl start yiwu.service
		py wait /healthz --domain "$DOMAIN" --port "$APP_PORT" --seconds "$WAIT" >/dev/null && note "the app answers again"
	elif [ $whole = yes ]; then
		note "without systemd: stop the foreground run (Ctrl-C) and start it again (make host), so that no worker keeps what it read before"
	fi
}

# manage.py as the service runs (its user, its environment, the current release): verify_ledgers, axes_reset...
manage() {
	need_root "${1:-}"
	[ -f "$ENV_FILE" ] || die "nothing installed yet: make host DOMAIN=... first"
	as_app "$APP_HOME/current" .venv/bin/python manage.py "$@"
}

case "${1:-}" in
install) install_host "${2:-}" ;;
backup) backup_now manual ;;
restore) restore "${2:-}" ;;
manage) manage "${@:2}" ;;
*) die "usage: host.sh install [DOMAIN] | backup | restore FILE | manage COMMAND [ARGS]" ;;
esac
