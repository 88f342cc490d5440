# SPDX-License-Identifier: MIT
# Sourced by the report tests that use a real browser (Debian's chromium, headless):
#   browse ARGS... URL: one run with its own profile under $WORK, the network cut (a proxy that
#     refuses, every host name unresolvable), at most 5 minutes on a loaded machine; chromium's
#     words appended to $WORK/chromium.log. $BROWSER is chromium.
#   page_requests NETLOG: the URLs the page itself asked for in a --log-net-log file (chromium
#     marks them with the page's initiator, "null" for a file; its own with "not an origin").
browse() { # what-to-do-args... file
	timeout 300 "$BROWSER" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$WORK/profile" --proxy-server=127.0.0.1:9 \
		--host-resolver-rules='MAP * ~NOTFOUND' --disable-background-networking \
		--disable-component-update --disable-sync --window-size=1000,4000 "$@" 2>>"$WORK/chromium.log"
}

page_requests() { $PY -c 'import json, sys
for e in json.load(open(sys.argv[1]))["events"]:
    p = e.get("params", {})
    if "url" in p and p.get("initiator") not in (None, "not an origin"):
        print(p["url"])' "$1" | sort -u; }
