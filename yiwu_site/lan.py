"""The machine's addresses on the local network, so phones on the same Wi-Fi can open `make run` (debug
only); nothing is sent. ``python -m yiwu_site.lan [port]`` prints the URL (Makefile ``run``)."""

import ipaddress
import socket
import sys

# A private (RFC 1918) address: connecting a UDP socket to it sends nothing, it only picks the interface.
PROBE = ("10.255.255.255", 1)


def is_lan(address: str) -> bool:
    """A private IPv4 address a phone on the same Wi-Fi can reach (not loopback, not link-local)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and ip.is_private and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _routed_address() -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE)  # UDP: no packet is sent by connect()
            return probe.getsockname()[0]
        except OSError:
            return None


def _host_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [info[4][0] for info in infos]


def lan_addresses() -> list[str]:
    """This machine's LAN IPv4 addresses, the routed one first, without duplicates."""
    found = []
    for address in [_routed_address(), *_host_addresses()]:
        if address and is_lan(address) and address not in found:
            found.append(address)
    return found


def debug_allowed_hosts(configured: list[str], lan: list[str]) -> list[str]:
    """In debug: the configured hosts (127.0.0.1 and localhost by default) plus the LAN ones."""
    return configured + [address for address in lan if address not in configured]


def lan_url(lan: list[str], port: int | str = 8000) -> str | None:
    return f"http://{lan[0]}:{port}/" if lan else None


if __name__ == "__main__":
    url = lan_url(lan_addresses(), sys.argv[1] if len(sys.argv) > 1 else 8000)
    if url:
        print(f"Phones on the same Wi-Fi: {url}  (同一个 Wi-Fi 的手机打开这个地址)")
    else:
        print("No LAN address found: phones cannot reach this machine (没有找到局域网地址)")
