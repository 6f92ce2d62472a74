#!/usr/bin/env bash
# The installer for real in a Debian chroot: real apt-get, useradd, git, venv and pip;
# only systemctl (no systemd runs in a chroot) and the matrix binding's compile (a tiny
# pure-Python "rgbmatrix" project, built by the real pip) are faked.
#
# Usage (as root, with Debian's packages and PyPI reachable; not part of pytest: it
# downloads a few hundred MB):  bash tests/system/install_chroot.sh [CHROOT_DIR]
#
# It installs from the checkout's HEAD, runs the installer twice (the second run must
# change nothing), starts the web daemon as user ledpanel on loopback and asks it for
# /api/v3/system/status, then uninstalls (keeping the config) and purges.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
C=${1:-/var/tmp/ledpanel-chroot}
SUITE=${LEDPANEL_CHROOT_SUITE:-bookworm}
say() { printf '== %s\n' "$*"; }

if [[ ! -x $C/usr/bin/python3 ]]; then
    command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
    say "debootstrap $SUITE into $C"
    debootstrap --variant=minbase --include=python3,ca-certificates "$SUITE" "$C" \
        http://deb.debian.org/debian >/dev/null
fi
cp /etc/resolv.conf "$C/etc/resolv.conf"
# A machine behind a TLS-inspecting proxy trusts its CA through these; the chroot too.
for file in "${PIP_CERT:-}" "${SSL_CERT_FILE:-}"; do
    [[ -n $file && -f $file ]] && mkdir -p "$C$(dirname "$file")" && cp "$file" "$C$file"
done

rm -rf "$C/root/ledpanel-src" "$C/root/fake-rgbmatrix"
mkdir -p "$C/root/ledpanel-src" "$C/root/fake-rgbmatrix/rgbmatrix"
git -C "$ROOT" archive HEAD | tar -x -C "$C/root/ledpanel-src"
printf '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "rgbmatrix"\nversion = "0.0.1"\n' \
    >"$C/root/fake-rgbmatrix/pyproject.toml"
printf 'class RGBMatrixOptions:\n    rp1_rio = 0\n' >"$C/root/fake-rgbmatrix/rgbmatrix/__init__.py"
git -C "$C/root/fake-rgbmatrix" init -q -b main
git -C "$C/root/fake-rgbmatrix" add -A
git -C "$C/root/fake-rgbmatrix" -c user.name=t -c user.email=t@example.org commit -qm lib

cat >"$C/usr/local/sbin/systemctl" <<'EOF'
#!/bin/sh
echo "systemctl $*" >>/var/log/fake-systemctl.log
state=/var/lib/fake-systemctl-enabled; touch $state
case "$1" in
  is-enabled) grep -qx "$2" $state && { echo enabled; exit 0; }; echo disabled; exit 1 ;;
  enable) shift; for u; do case $u in --*) ;; *) echo "$u" >>$state ;; esac; done ;;
  disable) shift; for u; do case $u in --*) ;; *) sed -i "/^$u\$/d" $state ;; esac; done ;;
esac
EOF
chmod +x "$C/usr/local/sbin/systemctl"

mountpoint -q "$C/proc" || mount -t proc proc "$C/proc"
mountpoint -q "$C/dev" || mount --bind /dev "$C/dev"
trap 'umount "$C/proc" "$C/dev" 2>/dev/null || true' EXIT

inside() {
    chroot "$C" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 "$@"
}
install=(python3 /root/ledpanel-src/scripts/install --matrix-source /root/fake-rgbmatrix)

say "first run"
time inside "${install[@]}"
say "second run: must change nothing"
out=$(inside "${install[@]}")
grep -q "Nothing to do: everything was already installed." <<<"$out" \
    || { echo "$out"; say "FAIL: the second run changed something"; exit 1; }

say "the web daemon as user ledpanel, on loopback"
# The chroot shares this machine's processes: the daemon is stopped by its own pid only.
inside sh -c 'mkdir -p /var/cache/ledpanel && chown root:ledpanel /var/cache/ledpanel &&
    chmod 2775 /var/cache/ledpanel && cd /opt/ledpanel &&
    LEDPANEL_CACHE_DIR=/var/cache/ledpanel setpriv --reuid=ledpanel --regid=ledpanel \
        --init-groups timeout 30 .venv/bin/ledpanel-web --host 127.0.0.1 --port 5987 \
        >/tmp/web.log 2>&1 &
    echo $! >/tmp/web.pid
    for i in $(seq 1 60); do
        python3 -c "import urllib.request as u; u.urlopen(\"http://127.0.0.1:5987/api/v3/system/status\", timeout=1)" 2>/dev/null && exit 0
        sleep 0.5
    done; cat /tmp/web.log; exit 1'
pid=$(cat "$C/tmp/web.pid")
kill "$pid" 2>/dev/null || true
for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done

say "uninstall, then purge"
inside python3 /root/ledpanel-src/scripts/uninstall
inside test -d /opt/ledpanel/config
inside python3 /root/ledpanel-src/scripts/uninstall --purge
! inside grep -q '^ledpanel:' /etc/passwd
say "all good"
