#!/usr/bin/env python3
"""Guardian's Fail2Ban action (see guardian.conf): a registered server's bans and unbans.

    guardian.py heartbeat <guardian url> <key file>
    guardian.py ban <guardian url> <key file> <address> [jail] [reason] [bantime seconds]
    guardian.py unban <guardian url> <key file> <address>

The server key is read from <key file> (mode 0600: this refuses one others can read), never from the
command line, where `ps` shows it to every local user. Guardian takes a ban or unban at once (202) and
writes it to Cloudflare in the background; a refusal (the group's allowlist, its ceiling of bans per
hour, a malformed address, a revoked key) exits non-zero with Guardian's reason, so Fail2Ban logs it.
"""
import json
import os
import stat
import sys
import urllib.error
import urllib.request

VERSION = "guardian-fail2ban 2"


def read_key(path):
    mode = os.stat(path).st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        sys.exit(f"guardian: {path} can be read by others: chmod 600 {path}")
    with open(path, encoding="utf-8") as file:
        return file.read().strip()


def call(url, key, path, body):
    body = {**body, "version": VERSION}
    request = urllib.request.Request(
        f"{url.rstrip('/')}/api/server-api/{path}",
        method="POST",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read()
        return json.loads(text) if text else None


def main(argv):
    if len(argv) < 4 or argv[1] not in ("heartbeat", "ban", "unban"):
        sys.exit(__doc__)
    action, url, key_file = argv[1:4]
    key = read_key(key_file)
    body = {}
    if action != "heartbeat":
        if len(argv) < 5:
            sys.exit(__doc__)
        body["address"] = argv[4]
    if action == "ban":
        jail, reason, bantime = (argv[5:8] + ["", "", ""])[:3]
        if jail:
            body["jail"] = jail
        if reason:
            body["reason"] = reason
        # -1 (permanent) or nothing: the group's default expiry.
        if bantime.lstrip("-").isdigit() and int(bantime) > 0:
            body["duration_seconds"] = int(bantime)
    try:
        answer = call(url, key, action, body)
        print(f"guardian: {action} {body.get('address', '')}: {json.dumps(answer)}".replace("  ", " "))
    except urllib.error.HTTPError as error:
        try:
            message = json.loads(error.read())["message"]
        except Exception:  # not Guardian's answer (a proxy's page): its status says enough
            message = error.reason
        sys.exit(f"guardian: {action} {body.get('address', '')}: {error.code} {message}"[:500])
    except urllib.error.URLError as error:
        sys.exit(f"guardian: {action} {body.get('address', '')}: {error.reason}")


if __name__ == "__main__":
    main(sys.argv)
