"""A stand-in for NetworkManager's nmcli with the surface ``web_service.wifi`` uses (tests).

State lives in the JSON file FAKE_NMCLI_STATE (see ``wifi_helpers.base_state``): the
radio, the Wi-Fi device, the networks in range (with the passphrase each accepts), the
saved connections, the active one, whether an Ethernet cable is in. Output is nmcli's
terse format: fields joined by ``:``, a ``:`` or ``\\`` in a value escaped with ``\\``,
an open network's security empty. Each run appends its argv (never its standard input)
as a JSON line to FAKE_NMCLI_CALLS. A passphrase is only accepted on standard input
after ``--ask``: the word ``password`` on the command line is refused, so a test fails
if the code ever puts one there. Unknown commands fail like nmcli's own usage errors.
"""

import fcntl
import json
import os
import sys

AP = "ledpanel-setup"


def esc(value):
    return str(value).replace("\\", "\\\\").replace(":", "\\:")


def line(*fields):
    return ":".join(esc(f) for f in fields)


def fail(message, code=10):
    sys.stderr.write(f"Error: {message}\n")
    sys.exit(code)


def visible(state):
    return [] if not state["radio"] else state["networks"]


def find_net(state, ssid):
    return next((n for n in visible(state) if n["ssid"] == ssid), None)


def device_status(state):
    out = ["lo:loopback:connected (externally):lo"]
    if state.get("ethernet"):
        out.append("eth0:ethernet:connected:Wired connection 1")
    else:
        out.append("eth0:ethernet:unavailable:")
    active = state.get("active")
    if not state["radio"]:
        out.append(line(state["device"], "wifi", "unavailable", ""))
    elif active:
        out.append(line(state["device"], "wifi", "connected", active))
    else:
        out.append(line(state["device"], "wifi", "disconnected", ""))
    return out


def wifi_list(state):
    return [line("*" if n["ssid"] == state.get("active") else " ", n["ssid"], n["signal"],
                 n.get("security", "")) for n in visible(state)]


def connections(state, fields, active_only):
    rows = []
    if state.get("ethernet") or not active_only:
        rows.append(("Wired connection 1", "802-3-ethernet"))
    rows.append(("lo", "loopback"))
    names = list(state["saved"]) + ([AP] if state.get("ap_profile") else [])
    for name in names:
        if not active_only or name == state.get("active"):
            rows.append((name, "802-11-wireless"))
    if fields == "NAME":
        return [esc(r[0]) for r in rows]
    return [line(*r) for r in rows]


def connect(state, args, ask):
    ssid = args[3]
    if "password" in args:
        fail("test fake: a password was put on the command line", 99)
    net = find_net(state, ssid)
    if net is None:
        fail(f"No network with SSID '{ssid}' found.")
    # NetworkManager takes the device first: what it was doing (the access point) stops.
    state["active"], state["keep_on_failure"] = None, True
    if net.get("security"):
        given = sys.stdin.readline().rstrip("\n") if ask else None
        if given is None and ssid not in state["saved"]:
            fail("Connection activation failed: Secrets were required, but not provided.", 4)
        if given is not None and given != net["password"]:
            fail("Connection activation failed: (7) Secrets were required, but not "
                 "provided.", 4)
    if ssid not in state["saved"]:
        state["saved"].append(ssid)
    state["active"] = ssid
    return [f"Device '{state['device']}' successfully activated with "
            f"'0f3c6d0e-6b1c-4c8e-9d1a-{len(ssid):012d}'."]


def autoconnect(state):
    for net in visible(state):
        if net["ssid"] in state["saved"]:
            state["active"] = net["ssid"]
            return


def handle(state, args, ask):
    joined = " ".join(args)
    if args == ["radio", "wifi"]:
        return ["enabled" if state["radio"] else "disabled"]
    if args[:2] == ["radio", "wifi"] and args[2:] in (["on"], ["off"]):
        state["radio"] = args[2] == "on"
        if not state["radio"]:
            state["active"] = None
        return []
    if joined == "-t -f DEVICE,TYPE,STATE,CONNECTION device status":
        return device_status(state)
    if joined.startswith("-t -f IN-USE,SSID,SIGNAL,SECURITY device wifi list --rescan "):
        return wifi_list(state)
    if args[:3] == ["-t", "-f", "IP4.ADDRESS"] and args[3:5] == ["device", "show"]:
        return [f"IP4.ADDRESS[1]:{state['ip']}"] if state.get("active") else []
    if args[:2] == ["-t", "-f"] and args[3:5] == ["connection", "show"]:
        return connections(state, args[2], args[5:] == ["--active"])
    if args[:2] == ["--wait", "30"] and args[2:5] == ["device", "wifi", "connect"]:
        return connect(state, args[2:], ask)
    if args[:2] == ["device", "disconnect"]:
        if state.get("active") is None:
            fail(f"Device '{args[2]}' (/org/freedesktop/NetworkManager/Devices/3) "
                 "disconnecting failed: This device is not active")
        state["active"] = None
        return [f"Device '{args[2]}' successfully disconnected."]
    if args[:3] == ["connection", "delete", "id"]:
        if args[3] not in state["saved"]:
            fail(f"unknown connection '{args[3]}'.")
        state["saved"].remove(args[3])
        state["active"] = None if state.get("active") == args[3] else state.get("active")
        return [f"Connection '{args[3]}' (5b1f...) successfully deleted."]
    if args[:3] == ["connection", "add", "type"] and "con-name" in args:
        if args[args.index("con-name") + 1] != AP or "802-11-wireless.mode" not in args:
            fail("test fake: only the setup access point profile is added", 2)
        state["ap_profile"] = True
        return [f"Connection '{AP}' (9a0e...) successfully added."]
    if args == ["--wait", "20", "connection", "up", "id", AP]:
        if not state.get("ap_profile"):
            fail(f"unknown connection '{AP}'.")
        if not state["radio"]:
            fail("Connection activation failed: No suitable device found for this "
                 "connection (device wlan0 not available because device is not available).", 4)
        state["active"] = AP
        return ["Connection successfully activated (D-Bus active path: "
                "/org/freedesktop/NetworkManager/ActiveConnection/7)"]
    if args == ["connection", "down", "id", AP]:
        if state.get("active") != AP:
            fail(f"'{AP}' is not an active connection.")
        state["active"] = None
        autoconnect(state)
        return [f"Connection '{AP}' successfully deactivated (D-Bus active path: "
                "/org/freedesktop/NetworkManager/ActiveConnection/7)"]
    fail(f"argument '{args[0] if args else ''}' not understood. Try passing --help "
         "instead.", 2)
    return []


def main():
    args = sys.argv[1:]
    calls = os.environ.get("FAKE_NMCLI_CALLS")
    if calls:
        with open(calls, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(args) + "\n")
    ask = bool(args) and args[0] == "--ask"
    if ask:
        args = args[1:]
    path = os.environ["FAKE_NMCLI_STATE"]
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(path, encoding="utf-8") as handle:
            state = json.load(handle)
        out = handle_and_keep(state, args, ask, path)
    if out:
        sys.stdout.write("\n".join(out) + "\n")


def handle_and_keep(state, args, ask, path):
    try:
        out = handle(state, args, ask)
    except SystemExit:
        if state.pop("keep_on_failure", False):
            save(state, path)
        raise
    state.pop("keep_on_failure", None)
    save(state, path)
    return out


def save(state, path):
    with open(path + ".tmp", "w", encoding="utf-8") as handle_out:
        json.dump(state, handle_out)
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
