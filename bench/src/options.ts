import { parseArgs } from 'node:util';
import { SYSTEMS } from './systems/registry.ts';
import type { SystemDefinition } from './systems/types.ts';
import {
  DEFAULT_WORKLOADS,
  isWorkloadName,
  WORKLOADS,
  type WorkloadName,
} from './workloads/names.ts';

/** Berth's worker concurrency unless `--berth-concurrency` says otherwise (README: why). */
export const DEFAULT_BERTH_CONCURRENCY = 1_000;

export interface BenchOptions {
  readonly systems: readonly SystemDefinition[];
  readonly workloads: readonly WorkloadName[];
  readonly rounds: number;
  readonly scale: number;
  readonly latencySamples: number;
  readonly driverLoops: number;
  readonly berthConcurrency: number;
  readonly redisDb: number;
  readonly timeoutMs: number;
  readonly out: string;
}

export const USAGE = `pnpm bench [options]

  --systems a,b,...     systems to run, or "all" (default: every available one)
                        ${SYSTEMS.map((s) => s.name).join(', ')}
  --workloads a,b,...   workloads to run, or "all" (default: ${DEFAULT_WORKLOADS.join(', ')})
                        ${WORKLOADS.join(', ')}
  --rounds n            interleaved rounds (default 3)
  --scale x             multiplies every job count, e.g. 0.1 for a smoke run (default 1)
  --latency-samples n   single jobs timed by the latency workload (default 200)
  --berth-concurrency n the concurrency of Berth's createWorker (default ${DEFAULT_BERTH_CONCURRENCY})
  --driver-loops n      overlapping claim→ackMany loops of the berth-*-driver systems (default 1)
  --redis-db n          the redis db index every redis system uses (default 9; never flushed)
  --timeout-s n         longest one run may take before it is killed (default 600)
  --out dir             where results go (default bench/results)
`;

const list = (value: string | undefined): string[] | undefined =>
  value === undefined || value === 'all' ? undefined : value.split(',').map((s) => s.trim());

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0)
    throw new Error(`--${name} must be a positive number`);
  return parsed;
}

/** Parses argv; answers undefined for --help. */
export function parseOptions(
  argv: readonly string[],
  defaultOut: string,
): BenchOptions | undefined {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      systems: { type: 'string' },
      workloads: { type: 'string' },
      rounds: { type: 'string' },
      scale: { type: 'string' },
      'latency-samples': { type: 'string' },
      'driver-loops': { type: 'string' },
      'berth-concurrency': { type: 'string' },
      'redis-db': { type: 'string' },
      'timeout-s': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return undefined;

  const names = list(values.systems);
  const systems =
    names === undefined
      ? SYSTEMS.filter((system) => system.available())
      : names.map((name) => {
          const system = SYSTEMS.find((candidate) => candidate.name === name);
          if (system === undefined) throw new Error(`unknown system "${name}"\n\n${USAGE}`);
          if (!system.available()) throw new Error(`${name} is not available on this checkout`);
          return system;
        });
  const workloadNames =
    list(values.workloads) ?? (values.workloads === 'all' ? WORKLOADS : DEFAULT_WORKLOADS);
  const workloads = workloadNames.map((name) => {
    if (!isWorkloadName(name)) throw new Error(`unknown workload "${name}"\n\n${USAGE}`);
    return name;
  });
  return {
    systems,
    workloads,
    rounds: Math.round(positive('rounds', values.rounds, 3)),
    scale: positive('scale', values.scale, 1),
    latencySamples: Math.round(positive('latency-samples', values['latency-samples'], 200)),
    driverLoops: Math.round(positive('driver-loops', values['driver-loops'], 1)),
    berthConcurrency: Math.round(
      positive('berth-concurrency', values['berth-concurrency'], DEFAULT_BERTH_CONCURRENCY),
    ),
    redisDb: Math.round(Number(values['redis-db'] ?? 9)),
    timeoutMs: positive('timeout-s', values['timeout-s'], 600) * 1_000,
    out: values.out ?? defaultOut,
  };
}
