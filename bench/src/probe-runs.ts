// What the probes (footprint.ts, pg-wal.ts, redis-commands.ts: their own commands, not part of
// `pnpm bench`) share: a child process per run of one system, runs interleaved round by round,
// every run's pg schema, redis keys or NATS streams removed after it.

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { ChildTask, ServerUrls } from './protocol.ts';
import { cleanUp } from './servers.ts';
import { systemNamed } from './systems/registry.ts';
import type { QueueRunner } from './systems/types.ts';

/** What every probe's child is given: the system, its run's tag, and where the servers are. */
export interface ProbeTask {
  readonly system: string;
  readonly tag: string;
  readonly jobs: number;
  readonly urls: ServerUrls;
}

/** Opens `task.system` as the bench's child would, for a probe that drives it by hand. */
export async function openQueue(task: ProbeTask): Promise<QueueRunner> {
  const childTask: ChildTask = {
    system: task.system,
    workload: 'burn20k',
    tag: task.tag,
    scale: 1,
    latencySamples: 0,
    driverLoops: 1,
    berthConcurrency: 1_000,
    urls: task.urls,
  };
  const runner = await systemNamed(task.system).open(childTask);
  if (runner.kind !== 'queue') throw new Error(`${task.system} is a floor: it runs no queue`);
  return runner;
}

/** Runs `file` as a child with `--child <task>`; resolves what the child answered. */
export function forkProbe<R>(
  file: string,
  task: ProbeTask,
  execArgv: readonly string[] = process.execArgv,
): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = fork(file, ['--child', JSON.stringify(task)], {
      execArgv: [...execArgv],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (message: { result?: R; error?: string }) => {
      if (message.result !== undefined) resolve(message.result);
      else reject(new Error(`${task.system}: ${message.error}`));
    });
    child.once('exit', (code) => reject(new Error(`${task.system}: child exited (${code})`)));
  });
}

/** In the child: sends the parent what `measure` answered for the task (or its error). */
export async function answerProbe<R>(
  taskJson: string,
  measure: (task: ProbeTask) => Promise<R>,
): Promise<void> {
  try {
    process.send?.({ result: await measure(JSON.parse(taskJson) as ProbeTask) });
  } catch (error) {
    process.send?.({ error: error instanceof Error ? error.stack : String(error) });
  }
  process.disconnect?.();
}

/**
 * Runs every system once per round, in order, round after round; each run gets a fresh tag and
 * its server's leftovers are removed whatever happened. Answers each system's results in order.
 */
export async function interleave<R>(options: {
  readonly systems: readonly string[];
  readonly rounds: number;
  readonly urls: ServerUrls;
  readonly run: (system: string, tag: string) => Promise<R>;
  readonly line: (result: R) => string;
}): Promise<Map<string, R[]>> {
  const results = new Map<string, R[]>();
  for (let round = 1; round <= options.rounds; round++) {
    for (const system of options.systems) {
      const tag = randomBytes(4).toString('hex');
      try {
        const result = await options.run(system, tag);
        results.set(system, [...(results.get(system) ?? []), result]);
        console.log(`round ${round} ${system.padEnd(24)} ${options.line(result)}`);
      } finally {
        await cleanUp(systemNamed(system).server, options.urls, tag);
      }
    }
  }
  return results;
}

/** The keys any of `tables` holds at least `floor` under, the largest first. */
export function largestFirst(
  tables: Iterable<Readonly<Record<string, number>>>,
  floor: number,
): string[] {
  const most = new Map<string, number>();
  for (const table of tables) {
    for (const [key, value] of Object.entries(table)) {
      most.set(key, Math.max(most.get(key) ?? 0, value));
    }
  }
  return [...most]
    .filter(([, value]) => value >= floor)
    .sort((a, b) => b[1] - a[1])
    .map(([key]) => key);
}

/** A probe's command line: `--jobs`, `--rounds`, `--systems` (default `systems`), and `--child`. */
export function probeArgs(systems: readonly string[]): {
  readonly child: string | undefined;
  readonly jobs: number;
  readonly rounds: number;
  readonly systems: string[];
} {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      jobs: { type: 'string', default: '20000' },
      rounds: { type: 'string', default: '3' },
      systems: { type: 'string', default: systems.join(',') },
    },
  });
  return {
    child: values.child,
    jobs: Number(values.jobs),
    rounds: Number(values.rounds),
    systems: values.systems.split(','),
  };
}
