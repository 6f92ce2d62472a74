#!/usr/bin/env bash
# Get ledpanel onto a fresh Raspberry Pi OS and run its installer: the one-line install.
#
#   curl -fsSL <raw address of scripts/bootstrap.sh> | sudo bash
#   curl -fsSL <...> | sudo bash -s -- --dry-run        # installer flags after "--"
#
# 1. Where /opt/ledpanel (or LEDPANEL_PREFIX) already holds ledpanel, it runs that copy's
#    scripts/install (safe to repeat: a second run changes nothing).
# 2. Otherwise it clones the repository there with git, installing git with apt-get
#    first when the image has none; if that fails too (no package lists, a broken apt),
#    it downloads the branch's archive with curl or wget and unpacks it instead.
# 3. Then it runs scripts/install with the system's python3, passing its arguments on.
#
# Environment: LEDPANEL_REPO (the repository to install from; default below),
# LEDPANEL_BRANCH (default main), LEDPANEL_PREFIX (default /opt/ledpanel),
# LEDPANEL_PYTHON (default python3). LEDPANEL_ROOT puts everything under another
# folder (tests, building an image); it is passed to the installer as --root.
set -euo pipefail

# The published repository. Left empty until the project has a public address:
# set it here when publishing, or pass LEDPANEL_REPO.
DEFAULT_REPO=""
REPO=${LEDPANEL_REPO:-$DEFAULT_REPO}
BRANCH=${LEDPANEL_BRANCH:-main}
PREFIX=${LEDPANEL_PREFIX:-/opt/ledpanel}
ROOT=${LEDPANEL_ROOT:-}
PYTHON=${LEDPANEL_PYTHON:-python3}
TARGET=$ROOT$PREFIX

say() { printf 'ledpanel bootstrap: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

[[ -n $ROOT || $(id -u) -eq 0 ]] || die "run it as root: curl -fsSL <address> | sudo bash"

install_git() {
    say "git is missing: installing it with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null >&2 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -q git </dev/null >&2
}

fetch_archive() {
    local url=${REPO%.git}/archive/refs/heads/$BRANCH.tar.gz staged=$TARGET.download
    say "downloading $url"
    rm -rf "$staged" && mkdir -p "$staged"
    if command -v curl >/dev/null; then
        curl -fsSL "$url" | tar -xz --strip-components=1 -C "$staged"
    elif command -v wget >/dev/null; then
        wget -qO- "$url" | tar -xz --strip-components=1 -C "$staged"
    else
        die "neither git, curl nor wget is here: sudo apt-get install -y git, then run this again"
    fi
    [[ -f $staged/scripts/install ]] || die "the archive from $url holds no scripts/install"
    mv "$staged" "$TARGET"
}

get_code() {
    [[ -n $REPO ]] || die "no repository address: run it with LEDPANEL_REPO=<address> set"
    if [[ -e $TARGET ]] && [[ -n $(ls -A "$TARGET") ]]; then
        die "$TARGET exists and holds no ledpanel; move it away or set LEDPANEL_PREFIX"
    fi
    rm -rf "$TARGET"
    mkdir -p "$(dirname "$TARGET")"
    if command -v git >/dev/null || install_git; then
        say "cloning $REPO ($BRANCH) into $TARGET"
        git clone --quiet --branch "$BRANCH" "$REPO" "$TARGET"
    else
        say "apt-get could not install git: fetching an archive instead (no updates through"
        say "git until git is installed: sudo apt-get install -y git)"
        fetch_archive
    fi
}

if [[ -f $TARGET/scripts/install ]]; then
    say "ledpanel is already in $TARGET: running its installer"
else
    get_code
fi
args=(--prefix "$PREFIX")
[[ -z $ROOT ]] || args+=(--root "$ROOT")
exec "$PYTHON" "$TARGET/scripts/install" "${args[@]}" "$@"
