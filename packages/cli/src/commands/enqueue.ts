import { DEFAULT_MAX_ATTEMPTS, DEFAULT_QUEUE, type Driver, type Json } from '@berth/core';
import { type Command, Option } from 'commander';
import { durationArg, integerArg, jsonArg } from '../args.js';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';
import { LINE_FIELDS } from '../ndjson-job.js';
import { type Cli, defined, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';
import { enqueueNdjson } from './enqueue-ndjson.js';

interface EnqueueOptions {
  readonly queue?: string;
  readonly delay?: number;
  readonly priority?: number;
  readonly key?: string;
  readonly maxAttempts?: number;
  readonly ndjson?: string | true;
}

/** Jobs of a name the newest page shows: enough to see where the app enqueues it. */
const SEEN_JOBS = 50;

/**
 * When the newest jobs of `name` (other than `id`) all live on other queues, a sentence saying
 * so: the app most likely defines the job there, and no worker of `queue` may run it.
 */
async function otherQueues(
  driver: Driver,
  name: string,
  id: string,
  queue: string,
  tenantId: string | undefined,
): Promise<string | undefined> {
  const page = await driver.list({ name, limit: SEEN_JOBS, ...defined({ tenantId }) });
  const queues = new Set(page.jobs.filter((job) => job.id !== id).map((job) => job.queue));
  if (queues.size === 0 || queues.has(queue)) return undefined;
  const seen = [...queues].sort().map(escapeLine);
  return `${escapeLine(name)} jobs live on queue ${seen.join(', ')}, not ${escapeLine(queue)}: workers of ${seen.join(', ')} will not claim this one; pass --queue ${seen[0]} to enqueue it where they run`;
}

export function registerEnqueue(program: Command, cli: Cli): void {
  const command = program.command('enqueue');
  honoursTenant(command, 'enqueues the job for that tenant')
    .description('queue one job by name, for an ad-hoc run; or many, one per NDJSON line')
    .argument('[name]', 'the job name a worker runs (required without --ndjson)')
    .argument('[json]', 'the payload, as JSON (default null)', jsonArg)
    .option(
      '--ndjson [file]',
      'one job per line of this file, or of stdin (- or no file): {"name","payload","queue",...}',
    )
    .option('--queue <queue>', 'the queue (default "default")')
    .addOption(
      new Option('--delay <duration>', 'run no sooner than this from now, e.g. 10s').argParser(
        durationArg,
      ),
    )
    .addOption(
      new Option('--priority <n>', 'higher is claimed first (default 0)').argParser(
        integerArg(-2_147_483_648, 2_147_483_647),
      ),
    )
    .option('--key <key>', 'idempotency key: a live job holding it answers instead')
    .addOption(
      new Option('--max-attempts <n>', 'attempts before it goes dead (default 3)').argParser(
        integerArg(1, 1_000_000),
      ),
    )
    .addHelpText(
      'after',
      `\nExamples:\n  berth enqueue email.send '{"to":"ada@example.com"}' --delay 10s --key welcome-ada\n  berth enqueue --ndjson jobs.ndjson\n\nAn NDJSON line takes ${LINE_FIELDS.join(', ')} (delay as "10s", delayMs, or runAt as epoch ms or ISO 8601).\nEvery line is checked before any job is enqueued; a bad line is named by its number.`,
    )
    .action(
      async (
        name: string | undefined,
        payload: Json | undefined,
        options: EnqueueOptions,
        command: Command,
      ) => {
        if (options.ndjson !== undefined) {
          const single = ['queue', 'delay', 'priority', 'key', 'maxAttempts'].filter(
            (key) => options[key as keyof EnqueueOptions] !== undefined,
          );
          if (name !== undefined || single.length > 0) {
            throw new UsageError(
              '--ndjson takes every job from its lines: give no NAME, JSON, --queue, --delay, --priority, --key or --max-attempts with it (put them in each line)',
            );
          }
          await enqueueNdjson(cli, command, options.ndjson);
          return;
        }
        if (name === undefined) {
          throw new UsageError("missing required argument 'name' (or --ndjson for many jobs)");
        }
        await withSession(cli, command, async ({ driver, out, globals, byId }) => {
          const result = await driver.enqueue({
            name,
            payload: payload ?? null,
            ...defined({
              queue: options.queue,
              runAt: options.delay === undefined ? undefined : driver.clock.now() + options.delay,
              priority: options.priority,
              idempotencyKey: options.key,
              maxAttempts: options.maxAttempts,
              tenantId: globals.tenant,
            }),
          });
          // What the job got, read back: an ad-hoc run does not know the app's job definition,
          // so the operator sees which queue and attempts the defaults gave it.
          const job = await driver.get(result.id, byId);
          const queue = job?.queue ?? options.queue ?? DEFAULT_QUEUE;
          const maxAttempts = job?.maxAttempts ?? options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
          const warning =
            options.queue === undefined
              ? await otherQueues(driver, name, result.id, queue, globals.tenant)
              : undefined;
          if (out.json) {
            out.document({ ...result, queue, maxAttempts, ...defined({ warning }) });
            return;
          }
          const where = `on queue ${escapeLine(queue)}, max attempts ${maxAttempts}`;
          if (result.deduped)
            out.line(
              `already queued: ${result.id} holds key ${escapeLine(options.key ?? '')} (${where})`,
            );
          else out.line(`enqueued ${escapeLine(name)} ${result.id} ${where}`);
          if (warning !== undefined) out.note(`${out.errColor.yellow('warning:')} ${warning}`);
        });
      },
    );
}
