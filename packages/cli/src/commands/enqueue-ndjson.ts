import { DEFAULT_QUEUE, type EnqueueRequest } from '@berth/core';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';
import { jobOfLine } from '../ndjson-job.js';
import { fileLines, linesOf, openSpool, readableFile, type Spool } from '../ndjson-lines.js';
import { type Cli, type Globals, withSession } from '../session.js';

/** Jobs one `enqueueMany` call carries: half the contract's MAX_ENQUEUE_BATCH. */
export const NDJSON_BATCH = 500;

interface Totals {
  jobs: number;
  enqueued: number;
  deduped: number;
  batches: number;
  readonly queues: Record<string, number>;
}

/**
 * `berth enqueue --ndjson [file]`: one job per line, from a file or stdin (`-`, or no file).
 * Every line is checked first, streaming, and a bad one stops the command before anything is
 * enqueued; then the lines are read again and enqueued in `enqueueMany` calls of NDJSON_BATCH.
 */
export async function enqueueNdjson(
  cli: Cli,
  command: Command,
  source: string | true,
): Promise<void> {
  const fromStdin = source === true || source === '-';
  if (fromStdin && cli.io.stdin.isTTY === true) {
    throw new UsageError(
      '--ndjson reads jobs from stdin, which is a terminal: pipe NDJSON into it (berth enqueue --ndjson - < jobs.ndjson) or name a file',
    );
  }
  const file = fromStdin ? undefined : await readableFile(source);
  const tenant = command.optsWithGlobals<Globals>().tenant;
  let spool: Spool | undefined;
  try {
    if (fromStdin) spool = await openSpool();
    const copy = spool?.write;
    const checked = file === undefined ? linesOf(cli.io.stdin, copy) : fileLines(file);
    let jobs = 0;
    for await (const { text, line } of checked) {
      jobOfLine(text, line, Date.now(), tenant);
      jobs += 1;
    }
    await spool?.close();
    const again = spool?.path ?? file ?? '';
    await withSession(cli, command, async ({ driver, out }) => {
      const totals: Totals = { jobs, enqueued: 0, deduped: 0, batches: 0, queues: {} };
      let batch: EnqueueRequest[] = [];
      let through = 0;
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return;
        const results = await driver.enqueueMany(batch);
        totals.batches += 1;
        for (const [index, result] of results.entries()) {
          if (result.deduped) totals.deduped += 1;
          else totals.enqueued += 1;
          const queue = batch[index]?.queue ?? DEFAULT_QUEUE;
          totals.queues[queue] = (totals.queues[queue] ?? 0) + 1;
        }
        batch = [];
      };
      try {
        for await (const { text, line } of fileLines(again)) {
          // runAt from delay/delayMs is taken from the driver's clock as the batch is built.
          batch.push(jobOfLine(text, line, driver.clock.now(), tenant));
          if (batch.length === NDJSON_BATCH) {
            await flush();
            through = line;
          }
        }
        await flush();
      } catch (error) {
        const done = totals.enqueued + totals.deduped;
        if (done > 0) {
          out.note(
            `${done} of ${jobs} jobs (through line ${through}) were enqueued before this; the rest were not`,
          );
        }
        throw error;
      }
      const from = file === undefined ? 'stdin' : escapeLine(file);
      if (out.json) {
        out.document(totals);
        return;
      }
      const queues = Object.entries(totals.queues)
        .map(([queue, count]) => `${escapeLine(queue)} ${count}`)
        .join(', ');
      out.line(
        `enqueued ${totals.jobs} jobs from ${from} in ${totals.batches} batches: ${totals.enqueued} new, ${totals.deduped} deduped${queues === '' ? '' : `; queues ${queues}`}`,
      );
    });
  } finally {
    await spool?.remove();
  }
}
