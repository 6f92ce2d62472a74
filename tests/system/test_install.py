"""scripts/install and scripts/uninstall on a target system in a folder (``--root``).

Every system command is a recording fake on PATH (tests/system/install_sandbox.py);
the installer itself, its file changes, the git clone of the (tiny) library checkout and
the ownership and modes it sets are real.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.system.install_sandbox import GIB_KIB, PI5, ROOT, Sandbox

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="sets ownership: needs root")

STEPS = ("packages", "user", "code", "permissions", "venv", "matrix", "sound", "sudoers",
         "polkit", "captive-dns", "command", "units")
N = len(STEPS)
SHIPPED = ROOT / "systemd"


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    sandbox = Sandbox(tmp_path)
    # A timer too: units are found by name, whatever the release ships.
    (sandbox.source / "systemd" / "ledpanel-test.timer").write_text(
        "[Timer]\nOnCalendar=weekly\n[Install]\nWantedBy=timers.target\n")
    return sandbox


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def argvs(box: Sandbox, cmd: str) -> list[list[str]]:
    return [call["argv"] for call in box.calls() if call["cmd"] == cmd]


def build_call(box: Sandbox) -> dict:
    [call] = [c for c in box.calls() if c["cmd"] == "python3" and c["argv"][-1:] == ["."]]
    return call


def test_first_run_installs_everything(box: Sandbox) -> None:
    out = ok(box.install())
    for number, name in enumerate(STEPS, start=1):
        assert f"[{number}/{len(STEPS)}] {name}: " in out
    assert ["-o", "DPkg::Lock::Timeout=600", "install", "-y", "-q", "--no-install-recommends",
            "python3-venv", "python3-dev",
            "python3-pip", "cython3", "cmake", "ninja-build", "build-essential", "sudo",
            "polkitd"] == argvs(box, "apt-get")[1]
    assert "ledpanel:x:990:pi" in (box.root / "etc/group").read_text()
    assert "ledpanel:x:990:990:" in (box.root / "etc/passwd").read_text()
    prefix = box.root / "opt/ledpanel"
    assert (prefix / "pyproject.toml").is_file() and (prefix / "scripts/install").is_file()
    for name in ("config", "plugin-repos", "plugins", "assets"):
        info = (prefix / name).stat()
        assert (info.st_uid, info.st_gid) == (990, 990)
        assert stat.S_IMODE(info.st_mode) == 0o2775, name
    venv = (prefix / ".venv").stat()
    assert venv.st_uid == 0 and not venv.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    assert ["-m", "venv", str(prefix / ".venv")] in argvs(box, "python3")
    assert ["-m", "pip", "install", "--disable-pip-version-check", "--no-input",
            "--prefer-binary", "-e", str(prefix)] in argvs(box, "python3")
    assert (box.root / "etc/modprobe.d/ledpanel-blacklist-snd-bcm2835.conf").read_text() \
        .endswith("blacklist snd_bcm2835\n")
    sudoers = box.root / "etc/sudoers.d/ledpanel"
    assert sudoers.read_text() == (SHIPPED / "ledpanel.sudoers").read_text()
    assert stat.S_IMODE(sudoers.stat().st_mode) == 0o440
    [check] = argvs(box, "visudo")
    assert check[:3] == ["-c", "-q", "-f"]
    assert (box.root / "etc/polkit-1/rules.d/ledpanel-wifi.rules").read_text() == \
        (SHIPPED / "ledpanel-wifi.rules").read_text()
    assert (box.root / "etc/NetworkManager/dnsmasq-shared.d/ledpanel-captive.conf") \
        .read_text() == (SHIPPED / "ledpanel-captive-dns.conf").read_text()
    assert os.readlink(box.root / "usr/local/bin/ledpanel") == "/opt/ledpanel/.venv/bin/ledpanel"
    units = sorted(p.name for p in (box.root / "etc/systemd/system").iterdir())
    shipped = sorted([p.name for p in SHIPPED.glob("ledpanel-*.service")] + ["ledpanel-test.timer"])
    assert units == shipped
    enabled = [u for u in units if "[Install]" in (box.source / "systemd" / u).read_text()]
    assert "ledpanel-update.service" not in enabled  # started by the web, never at boot
    assert [f"--root={box.root}", "enable", *enabled] in argvs(box, "systemctl")
    assert "Installed." in out and "The web UI: http://192.168.1.50:5000/" in out


def test_second_run_changes_nothing_and_says_so(box: Sandbox) -> None:
    ok(box.install())
    # What the daemons write meanwhile: the web's secrets (0600), a file the display
    # (root, UMask 0002) made in the group's folder.
    config = box.root / "opt/ledpanel/config"
    (config / "config_secrets.json").write_text("{}")
    os.chown(config / "config_secrets.json", 990, 990)
    os.chmod(config / "config_secrets.json", 0o600)
    (config / "config.json").write_text("{}")
    os.chown(config / "config.json", 0, 990)
    os.chmod(config / "config.json", 0o664)
    box.forget_calls()
    before = box.snapshot()
    out = ok(box.install())
    assert box.changes() == []
    assert box.snapshot() == before
    assert out.count("nothing to do") == len(STEPS)
    assert "Nothing to do: everything was already installed." in out


def test_files_the_web_cannot_write_are_given_to_it_and_modes_kept(box: Sandbox) -> None:
    source_repos = box.source / "plugin-repos"
    (source_repos / "loose.txt").write_text("x")
    os.chmod(source_repos / "loose.txt", 0o666)
    ok(box.install())
    config = box.root / "opt/ledpanel/config"
    (config / "config_secrets.json").write_text("{}")
    os.chmod(config / "config_secrets.json", 0o600)  # root's, not the web's: it cannot save
    out = ok(box.install())
    assert f"[4/{N}] permissions:" in out and "Nothing to do" not in out
    info = (config / "config_secrets.json").stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (990, 990, 0o600)
    loose = (box.root / "opt/ledpanel/plugin-repos/loose.txt").stat()
    assert loose.st_uid == 990 and stat.S_IMODE(loose.st_mode) == 0o664  # no longer o+w


def test_dry_run_prints_every_step_and_changes_nothing(box: Sandbox) -> None:
    before = box.snapshot()
    out = ok(box.install("--dry-run"))
    assert box.changes() == []
    assert box.snapshot() == before
    for name in STEPS:
        assert f"] {name}: " in out
    assert "would run: apt-get -o DPkg::Lock::Timeout=600 install" in out
    assert "would run: groupadd" in out and "would run: useradd" in out
    assert "would write " in out and "would link " in out
    assert "Dry run finished: nothing was changed." in out


def test_failed_step_names_command_output_and_how_to_continue(box: Sandbox) -> None:
    done = box.install(FAKE_BUILD_FAIL="1")
    assert done.returncode == 1
    out = done.stdout
    assert f"[6/{N}] matrix:" in out and f"[7/{N}]" not in out
    assert "FAILED: it exited with status 1" in out
    assert "command: " in out and "-m pip install --disable-pip-version-check" in out
    assert "| cc1plus: fatal error: Killed signal terminated program cc1plus" in out
    assert f"--root {box.root} --from matrix" in out
    box.forget_calls()
    out = ok(box.install("--from", "matrix"))
    assert f"[5/{N}]" not in out and f"[6/{N}] matrix:" in out
    assert build_call(box)


def test_failed_package_install_is_reported_with_apt_output(box: Sandbox) -> None:
    done = box.install(FAKE_APT_FAIL="1")
    assert done.returncode == 1
    assert "| E: Unable to locate package cython3" in done.stdout
    assert "--from packages" in done.stdout


def test_sudo_rule_refused_by_visudo_is_not_installed(box: Sandbox) -> None:
    done = box.install(FAKE_VISUDO_FAIL="1")
    assert done.returncode == 1
    assert "syntax error" in done.stdout and "--from sudoers" in done.stdout
    assert not list((box.root / "etc/sudoers.d").iterdir())


def test_low_memory_board_builds_with_swap_and_one_job(box: Sandbox) -> None:
    box.set_board("Raspberry Pi 3 Model B Rev 1.2", 948_304)
    ok(box.install())
    order = [c["cmd"] for c in box.calls()
             if c["cmd"] in ("fallocate", "mkswap", "swapon", "swapoff")
             or c["argv"][-1:] == ["."]]
    assert order == ["fallocate", "mkswap", "swapon", "python3", "swapoff"]
    swap = box.root / "var/tmp/ledpanel-build.swap"
    assert argvs(box, "swapon") == [[str(swap)]] and not swap.exists()
    build = build_call(box)
    assert build["env"]["CMAKE_BUILD_PARALLEL_LEVEL"] == "1"
    assert build["env"]["TMPDIR"] == str(box.root / "var/tmp/ledpanel-build/tmp")
    assert build["cwd"] == str(box.root / "var/tmp/ledpanel-build/rpi-rgb-led-matrix")


def test_swap_is_removed_when_the_build_fails(box: Sandbox) -> None:
    box.set_board("Raspberry Pi Zero 2 W Rev 1.0", 427_000)
    assert box.install(FAKE_BUILD_FAIL="1").returncode == 1
    assert argvs(box, "swapoff") and not (box.root / "var/tmp/ledpanel-build.swap").exists()


def test_board_with_more_memory_builds_without_swap(box: Sandbox) -> None:
    box.set_board("Raspberry Pi 4 Model B Rev 1.5", 2 * GIB_KIB)
    ok(box.install())
    assert argvs(box, "fallocate") == [] and argvs(box, "swapon") == []
    assert build_call(box)["env"]["CMAKE_BUILD_PARALLEL_LEVEL"] == str(os.cpu_count())


def test_pi5_needs_the_rp1_backend(box: Sandbox) -> None:
    box.set_board(PI5, 8 * GIB_KIB)
    done = box.install()
    assert done.returncode == 1
    assert "this library revision has no Pi 5 (RP1) backend" in done.stdout
    assert "--matrix-source" in done.stdout
    box.commit_library(rp1=True)
    out = ok(box.install("--from", "matrix"))
    assert "Pi 5: RP1 backend" in out


def test_pi5_rebuilds_a_binding_without_the_rp1_backend(box: Sandbox) -> None:
    ok(box.install())  # a Pi 4: the library without the RP1 backend is fine there
    box.set_board(PI5, 8 * GIB_KIB)
    box.commit_library(rp1=True)
    box.forget_calls()
    out = ok(box.install())
    assert f"[6/{N}] matrix:" in out and build_call(box)
    assert out.count("nothing to do") == len(STEPS) - 1


def test_prefix_moves_the_install_and_the_units_follow(box: Sandbox) -> None:
    ok(box.install("--prefix", "/srv/panel"))
    assert (box.root / "srv/panel/pyproject.toml").is_file()
    unit = (box.root / "etc/systemd/system/ledpanel-web.service").read_text()
    assert "ExecStart=/srv/panel/.venv/bin/ledpanel-web" in unit and "/opt/ledpanel" not in unit
    assert os.readlink(box.root / "usr/local/bin/ledpanel") == "/srv/panel/.venv/bin/ledpanel"


@pytest.mark.parametrize("prefix", ["/", "/usr", "/home/pi", "opt/ledpanel", "/opt/../etc"])
def test_a_prefix_uninstall_could_not_safely_delete_is_refused(box: Sandbox, prefix: str) -> None:
    for script in ("install", "uninstall"):
        done = box.run(script, "--prefix", prefix)
        assert done.returncode == 2 and "--prefix" in done.stderr
    assert box.changes() == []


def test_uninstall_refuses_a_folder_that_is_not_an_install(box: Sandbox) -> None:
    other = box.root / "srv/data"
    other.mkdir(parents=True)
    (other / "precious.txt").write_text("keep me")
    done = box.uninstall("--prefix", "/srv/data", "--purge")
    assert done.returncode == 1 and "does not hold a ledpanel install" in done.stdout
    assert (other / "precious.txt").read_text() == "keep me"


def test_git_checkout_is_cloned_with_its_origin(box: Sandbox) -> None:
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "release"],
                 ["remote", "add", "origin", "https://example.org/ledpanel.git"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
                       cwd=box.source, check=True, capture_output=True)
    subprocess.run(["chown", "-R", "1000:1000", str(box.source)], check=True)  # pi's checkout
    ok(box.install())
    origin = subprocess.run(["git", "-C", str(box.root / "opt/ledpanel"), "remote", "get-url",
                             "origin"], capture_output=True, text=True, check=True)
    assert origin.stdout.strip() == "https://example.org/ledpanel.git"


def test_uninstall_keeps_the_config_unless_purge(box: Sandbox) -> None:
    ok(box.install())
    config = box.root / "opt/ledpanel/config/config.json"
    config.write_text('{"brightness": 40}')
    box.forget_calls()
    out = ok(box.uninstall())
    [disable] = [a for a in argvs(box, "systemctl") if "disable" in a]
    assert "ledpanel-display.service" in disable and "ledpanel-test.timer" in disable
    assert not list((box.root / "etc/systemd/system").glob("ledpanel-*"))
    for gone in ("etc/sudoers.d/ledpanel", "etc/polkit-1/rules.d/ledpanel-wifi.rules",
                 "etc/modprobe.d/ledpanel-blacklist-snd-bcm2835.conf", "usr/local/bin/ledpanel",
                 "etc/NetworkManager/dnsmasq-shared.d/ledpanel-captive.conf"):
        assert not (box.root / gone).exists(), gone
    assert sorted(p.name for p in (box.root / "opt/ledpanel").iterdir()) == ["config"]
    assert config.read_text() == '{"brightness": 40}' and "kept /opt/ledpanel/config" in out
    assert "ledpanel" in (box.root / "etc/passwd").read_text()
    out = ok(box.uninstall("--purge"))
    assert not (box.root / "opt/ledpanel").exists()
    assert "ledpanel" not in (box.root / "etc/passwd").read_text()
    assert "ledpanel" not in (box.root / "etc/group").read_text()
    assert "Nothing to do" in ok(box.uninstall("--purge"))


def test_refuses_to_run_without_root_unless_dry_run(tmp_path: Path) -> None:
    done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                           sys.executable, str(ROOT / "scripts" / "install")],
                          capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 2 and "run it as root: sudo scripts/install" in done.stderr


def test_library_hint_names_the_installers_build_command(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    from installer.steps_matrix import BUILD_COMMAND

    from display_service.matrix.rgbmatrix_backend import rebuild_hint

    hint = rebuild_hint("/opt/ledpanel/.venv/bin/python")
    assert f"/opt/ledpanel/.venv/bin/python {' '.join(BUILD_COMMAND)}" in hint
    assert f"sudo {ROOT}/scripts/install --from matrix" in hint


def test_a_long_command_says_it_still_runs_and_a_timeout_kills_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import io

    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    from installer import context

    monkeypatch.setattr(context, "HEARTBEAT_S", 0.05)
    out = io.StringIO()
    ctx = context.Context(source=tmp_path, out=out)
    ctx.run([sys.executable, "-c", "import time; time.sleep(0.3); print('built')"])
    assert "... still running" in out.getvalue()
    with pytest.raises(context.StepFailed) as caught:
        ctx.run([sys.executable, "-c", "import os, time; print(os.getpid(), flush=True); "
                 "time.sleep(30)"], timeout=0.5)
    assert "took longer than" in caught.value.message
    with pytest.raises(ProcessLookupError):  # killed and reaped, not left running
        os.kill(int(caught.value.output), 0)
