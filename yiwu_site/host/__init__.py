"""One server for a group (`make host DOMAIN=...`, docs/hosting.md): what the installer
(yiwu_site/host/host.sh) asks of Python, standard library only, as it runs before any virtualenv."""
