import type { Json } from '@berth/core';
import { type Command, Option } from 'commander';
import { durationArg, integerArg, jsonArg } from '../args.js';
import { type Cli, defined, withSession } from '../session.js';

interface EnqueueOptions {
  readonly queue?: string;
  readonly delay?: number;
  readonly priority?: number;
  readonly key?: string;
  readonly maxAttempts?: number;
}

export function registerEnqueue(program: Command, cli: Cli): void {
  program
    .command('enqueue')
    .description('queue one job by name, for an ad-hoc run')
    .argument('<name>', 'the job name a worker runs')
    .argument('[json]', 'the payload, as JSON (default null)', jsonArg)
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
      `\nExample:\n  berth enqueue email.send '{"to":"ada@example.com"}' --delay 10s --key welcome-ada`,
    )
    .action(
      async (
        name: string,
        payload: Json | undefined,
        options: EnqueueOptions,
        command: Command,
      ) => {
        await withSession(cli, command, async ({ driver, out, globals }) => {
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
          if (out.json) out.document(result);
          else if (result.deduped)
            out.line(`already queued: ${result.id} holds key ${options.key ?? ''}`);
          else out.line(`enqueued ${name} ${result.id}`);
        });
      },
    );
}
