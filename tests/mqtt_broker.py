"""A real MQTT broker for tests: Debian's mosquitto on a loopback port of its own.

``Broker.start()`` writes a config into the test's folder (a listener on 127.0.0.1 at
a free port, anonymous clients allowed unless ``users`` are given, then a password
file made with ``mosquitto_passwd``), starts ``/usr/sbin/mosquitto -c`` and returns once
the port accepts connections. ``stop()`` ends it; ``start()`` again brings it back on
the same port (a broker restart). scripts/test installs mosquitto when it is missing.

    def test_x(mqtt_broker):            # the fixture in tests/conftest.py
        client.connect(mqtt_broker.host, mqtt_broker.port)
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

MOSQUITTO = Path("/usr/sbin/mosquitto")
MOSQUITTO_PASSWD = Path("/usr/bin/mosquitto_passwd")
READY_WITHIN = 15.0


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Broker:
    """One mosquitto process and its files; restartable on the same port."""

    folder: Path
    users: dict[str, str] = field(default_factory=dict)
    host: str = "127.0.0.1"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def log_file(self) -> Path:
        return self.folder / "mosquitto.log"

    def _write_config(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        lines = [f"listener {self.port} {self.host}", "persistence false",
                 f"log_dest file {self.log_file}", "log_type all"]
        if os.geteuid() == 0:
            lines.append("user root")  # else it drops to the mosquitto account: no access here
        if self.users:
            passwords = self.folder / "passwords"
            passwords.write_text("")
            for user, password in self.users.items():
                subprocess.run([str(MOSQUITTO_PASSWD), "-b", str(passwords), user, password],
                               check=True, capture_output=True, timeout=30)
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        conf = self.folder / "mosquitto.conf"
        conf.write_text("\n".join(lines) + "\n")
        return conf

    def start(self) -> Broker:
        """Start the broker and wait until its port accepts connections."""
        if not MOSQUITTO.exists():
            raise RuntimeError("mosquitto is not installed: sudo apt-get install -y mosquitto "
                               "(scripts/test does it)")
        conf = self._write_config()
        self.process = subprocess.Popen([str(MOSQUITTO), "-c", str(conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                stderr = self.process.stderr
                err = stderr.read().decode(errors="replace") if stderr else ""
                raise RuntimeError(f"mosquitto exited {self.process.returncode}: {err}")
            try:
                socket.create_connection((self.host, self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"mosquitto did not listen on {self.host}:{self.port} "
                           f"within {READY_WITHIN:g} s")

    def stop(self) -> None:
        """End the broker (clients see their connection dropped)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
