#!/usr/bin/env bash
# Starts each local server the tests need that does not answer yet (lines from shared/services.md),
# and puts nats-server 2.10 in its cache folder for the cluster tests (tooling/nats-2.10.sh).
# A server that still does not answer after its start line is a loud failure.
set -u

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() {
  local port=$1 name=$2
  for _ in $(seq 1 60); do
    answers "$port" && return 0
    sleep 0.5
  done
  echo "services: $name did not come up on 127.0.0.1:$port" >&2
  return 1
}

status=0
if ! answers 5432; then
  echo "services: starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
  wait_for 5432 PostgreSQL || status=1
fi
if ! answers 6379; then
  echo "services: starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_for 6379 Redis || status=1
fi
if ! answers 4222; then
  echo "services: starting NATS"
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
  wait_for 4222 NATS || status=1
fi
# The cluster tests start private nats-server 2.10 processes; the system's 2.9 stays as it is.
bash "$(dirname "$0")/nats-2.10.sh" >/dev/null || status=1
exit $status
