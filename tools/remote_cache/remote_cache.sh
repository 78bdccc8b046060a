#!/bin/bash
# Starts or stops a Bazel HTTP remote cache: Debian's nginx with WebDAV,
# listening on 127.0.0.1:PORT, storing entries under DATA_DIR (nginx's pid
# file, logs and temporary files go to DATA_DIR/.run).
#
#   tools/remote_cache/remote_cache.sh start DATA_DIR PORT
#   tools/remote_cache/remote_cache.sh stop DATA_DIR
#
# Then: bazel test //shrt/... --config=remote (reads and writes;
# --remote_cache=http://127.0.0.1:PORT when PORT is not 9092) or
# --config=remote_readonly (PR runs: reads only).
set -euo pipefail
usage() {
  echo "usage: $0 start DATA_DIR PORT | stop DATA_DIR" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
action="$1"
data="$(realpath -m "$2")"
run="$data/.run"
case "$action" in
  start)
    [[ $# -eq 3 && "$3" =~ ^[0-9]+$ ]] || usage
    port="$3"
    command -v nginx >/dev/null || { echo "$0: nginx is not installed (tools/setup.sh)" >&2; exit 1; }
    mkdir -p "$data" "$run"
    user=""
    # A root master would hand requests to an unprivileged worker that
    # cannot write DATA_DIR: keep the workers as the caller.
    [[ "$(id -u)" == 0 ]] && user="user root root;"
    sed -e "s|@RUN@|$run|g" -e "s|@DATA@|$data|g" -e "s|@PORT@|$port|g" -e "s|@USER@|$user|g" \
      "$(dirname "$0")/nginx.conf" > "$run/nginx.conf"
    nginx -p "$run" -c "$run/nginx.conf" -e "$run/error.log"
    for _ in $(seq 50); do
      if curl -sf -o /dev/null -X PUT --data probe "http://127.0.0.1:$port/.probe"; then
        echo "remote cache: http://127.0.0.1:$port ($data)"
        exit 0
      fi
      sleep 0.1
    done
    echo "$0: nginx did not answer on port $port; see $run/error.log" >&2
    exit 1
    ;;
  stop)
    [[ -f "$run/nginx.pid" ]] || { echo "$0: no cache running for $data" >&2; exit 1; }
    nginx -p "$run" -c "$run/nginx.conf" -e "$run/error.log" -s quit
    ;;
  *) usage ;;
esac
