#!/usr/bin/env python3
"""Guardian's Fail2Ban action (see guardian.conf): ban or unban one address in a Cloudflare list.

    guardian.py ban|unban <guardian url> <list id> <address> <key file> [comment]

The API key is read from <key file> (mode 0600: this refuses one others can read), never from the
command line, where `ps` shows it to every local user. Exits non-zero, saying why, when the address
was not banned or not removed, so Fail2Ban logs the failure.
"""
import json
import os
import stat
import sys
import urllib.error
import urllib.parse
import urllib.request

PER_PAGE = 500  # Guardian's largest page of items


def read_key(path):
    mode = os.stat(path).st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        sys.exit(f"guardian: {path} can be read by others: chmod 600 {path}")
    with open(path, encoding="utf-8") as file:
        return file.read().strip()


def call(method, url, key, body=None):
    request = urllib.request.Request(
        url,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        text = response.read()
        return json.loads(text) if text else None


def ban(items, key, address, comment):
    try:
        call("POST", items, key, {"ip": address, "comment": comment})
    except urllib.error.HTTPError as error:
        if error.code != 409:  # already in this list: banned
            raise


def unban(items, key, address):
    # A search matches values starting with the address and comments containing it: page through
    # every match for the exact item (not only the first page).
    exact = {address, f"{address}/32", f"{address}/128"}
    page = 1
    while True:
        query = urllib.parse.urlencode({"search": address, "per_page": PER_PAGE, "page": page})
        found = call("GET", f"{items}?{query}", key)["items"]
        for item in found:
            if item.get("ip") in exact:
                call("DELETE", f"{items}/{item['id']}", key)
                print(f"guardian: removed {address} (item {item['id']})")
                return
        if len(found) < PER_PAGE:
            sys.exit(f"guardian: {address} is not in the list: nothing removed")
        page += 1


def main(argv):
    if len(argv) < 6 or argv[1] not in ("ban", "unban"):
        sys.exit(__doc__)
    action, url, list_id, address, key_file = argv[1:6]
    key = read_key(key_file)
    items = f"{url.rstrip('/')}/api/cloudflare/banlists/{urllib.parse.quote(list_id, safe='')}/items"
    try:
        if action == "ban":
            ban(items, key, address, argv[6] if len(argv) > 6 else "fail2ban")
        else:
            unban(items, key, address)
    except urllib.error.HTTPError as error:
        sys.exit(f"guardian: {action} {address}: {error.code} {error.read().decode(errors='replace')[:300]}")
    except urllib.error.URLError as error:
        sys.exit(f"guardian: {action} {address}: {error.reason}")


if __name__ == "__main__":
    main(sys.argv)
