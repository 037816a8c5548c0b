"""One server for a group (`make host DOMAIN=...`, docs/hosting.md): the installer
(yiwu_site/host/host.sh) and what it asks of Python, which runs before any virtualenv exists and
so uses the standard library only: the configuration it writes (config.py, from templates/), the
releases it builds (release.py), the waits for /healthz (health.py) and, inside a release's
virtualenv, the nightly backup and its restore (backup.py)."""
