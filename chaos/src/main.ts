// `pnpm chaos [--profile ci|long] [--backend pg|redis|nats|nats-cluster|redis-cluster|
// pg-async-commit|redis-sentinel|redis-sentinel-partition]... [--durability on|off]`: runs the
// suite, prints the table, exits 1 on any violation. `--durability` is the Redis Sentinel drivers'
// `durability` option (default on).

import { parseArgs } from 'node:util';
import { formatTable, violations, windowFindings } from './check/report.ts';
import { PROFILES } from './profiles.ts';
import { runBackend } from './run-backend.ts';
import { ALL_BACKENDS, BACKENDS, type Backend } from './servers/index.ts';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'long' },
    backend: { type: 'string', multiple: true },
    durability: { type: 'string', default: 'on' },
  },
});
const profile = PROFILES[values.profile as keyof typeof PROFILES];
if (profile === undefined) throw new Error(`--profile is ci or long, not ${values.profile}`);
if (values.durability !== 'on' && values.durability !== 'off') {
  throw new Error(`--durability is on or off, not ${values.durability}`);
}
const durability = values.durability === 'on';
// The long profile also crashes pg with synchronous_commit = off (its losses counted against the
// documented window) and runs Redis Sentinel through a failover and a partitioned primary; the ci
// profile has no time for them.
const defaults: readonly Backend[] =
  profile.name === 'long'
    ? [...BACKENDS, 'pg-async-commit', 'redis-sentinel', 'redis-sentinel-partition']
    : BACKENDS;
const backends = (values.backend ?? defaults) as Backend[];
for (const backend of backends) {
  if (!ALL_BACKENDS.includes(backend)) {
    throw new Error(`--backend is one of ${ALL_BACKENDS.join(', ')}`);
  }
}

const reports = [];
for (const backend of backends) {
  console.log(`chaos: ${backend}, profile ${profile.name}...`);
  reports.push(await runBackend(backend, profile, { durability }));
}
console.log(formatTable(reports));
for (const report of reports) {
  for (const line of windowFindings(report)) {
    console.log(`DOCUMENTED LOSS WINDOW (${report.documentedWindow}) ${line}`);
  }
}
const broken = reports.flatMap(violations);
for (const line of broken) console.log(`VIOLATION ${line}`);
process.exitCode = broken.length === 0 ? 0 : 1;
