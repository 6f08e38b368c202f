// `pnpm bench`: every chosen system through every chosen workload, interleaved round by round
// (A, B, C, A, B, C, ...), each run in a child process; then the tables, and the results on disk.

import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, millis } from './format.ts';
import { describeMachine } from './machine.ts';
import { type BenchOptions, parseOptions, USAGE } from './options.ts';
import { phasesOf, renderReport } from './report.ts';
import { type RunRecord, runChild } from './run-child.ts';
import { locateServers } from './servers.ts';
import { digest, figures, tabulate } from './summary.ts';
import { checkTargets } from './targets.ts';

const RESULTS = fileURLToPath(new URL('../results', import.meta.url));

let interrupted = false;
process.on('SIGINT', () => {
  // The child gets the terminal's SIGINT too; the run in hand cleans up, then the report prints.
  interrupted = true;
});

function progress(record: RunRecord): string {
  const head = `[round ${record.round}] ${record.workload} ${record.system}`;
  if (record.error !== undefined) return `${head}: FAILED ${record.error.split('\n')[0]}`;
  const parts = record.phases.map((phase) => {
    const f = figures(phase);
    if (f.p50Ms !== undefined) return `p50 ${millis(f.p50Ms)} ms, p95 ${millis(f.p95Ms ?? 0)} ms`;
    const cpu = f.cpuUsPerJob === undefined ? '' : `, ${f.cpuUsPerJob.toFixed(0)} µs/job`;
    return `${phase.phase} ${count(f.rate)}/s${cpu}`;
  });
  return `${head}: ${parts.join('; ')}`;
}

async function runAll(options: BenchOptions, urls: Awaited<ReturnType<typeof locateServers>>) {
  const records: RunRecord[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const workload of options.workloads) {
      for (const system of options.systems) {
        if (interrupted) return records;
        if (!system.workloads.includes(workload)) continue;
        const task = {
          system: system.name,
          workload,
          tag: randomBytes(4).toString('hex'),
          scale: options.scale,
          latencySamples: options.latencySamples,
          driverLoops: options.driverLoops,
          berthConcurrency: options.berthConcurrency,
          urls,
        };
        const record = await runChild(task, system, round, options.timeoutMs);
        records.push(record);
        console.log(progress(record));
      }
    }
  }
  return records;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), RESULTS);
  if (options === undefined) {
    console.log(USAGE);
    return;
  }
  const urls = await locateServers(new Set(options.systems.map((s) => s.server)), options.redisDb);
  const machine = await describeMachine(urls);
  console.log(`systems: ${options.systems.map((s) => s.name).join(', ')}`);
  console.log(`workloads: ${options.workloads.join(', ')}; rounds: ${options.rounds}\n`);

  const records = await runAll(options, urls);
  const table = tabulate(records);
  const targets = checkTargets(table);
  const report = renderReport({ options, machine, records, table, targets });
  console.log(`\n${report}\n`);

  await mkdir(options.out, { recursive: true });
  const finishedAt = new Date().toISOString();
  const head = {
    machine,
    finishedAt,
    options: { ...options, systems: options.systems.map((s) => s.name) },
  };
  const summary = digest(table, options.systems, options.workloads, (w) => phasesOf(records, w));
  const stamp = machine.startedAt.replace(/[:.]/g, '-');
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  // The raw runs stay local (gitignored); latest.json and latest.md are the digest to commit.
  await writeFile(join(options.out, `run-${stamp}.json`), json({ ...head, records, targets }));
  await writeFile(join(options.out, 'latest.json'), json({ ...head, summary, targets }));
  await writeFile(join(options.out, 'latest.md'), `${report}\n`);
  console.log(`results: ${join(options.out, `run-${stamp}.json`)} (and latest.json, latest.md)`);
  if (records.some((r) => r.error !== undefined)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
