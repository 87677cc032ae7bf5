#!/usr/bin/env bash
# Builds the lesson and serves www/ on http://127.0.0.1:${PORT:-8000} (--no-build: serves it as it
# is). Every response carries `Access-Control-Allow-Origin: *`, as www/_headers gives the element's
# files on a static host, so a course page served from another origin (another port) can load the
# <bucket-lab> element from here.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = "--no-build" ] || scripts/build.sh
port=${PORT:-8000}
echo "serve: http://127.0.0.1:$port/ (Ctrl-C stops)"
exec python3 - "$port" <<'PY'
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()


server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), functools.partial(Handler, directory="www"))
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
PY
