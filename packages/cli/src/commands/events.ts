import type { Json } from '@berth/core';
import { type Command, Option } from 'commander';
import { jsonArg, positiveDurationArg } from '../args.js';
import { formatRelative } from '../duration.js';
import { escapeLine } from '../escape.js';
import { EVENT_HEAD, eventRow } from '../render.js';
import { type Cli, defined, withSession } from '../session.js';
import { refusesTenant } from '../tenancy.js';

export function registerEvents(program: Command, cli: Cli): void {
  const events = program.command('events').description('publish and list stored events');

  const publish = events.command('publish');
  refusesTenant(publish, 'events belong to no tenant: every waiting job of any tenant sees them')
    .description('store an event; every job waiting for its name becomes due at once')
    .argument('<name>', 'the event name')
    .argument('[json]', 'the payload, as JSON (default null)', jsonArg)
    .addOption(
      new Option('--ttl <duration>', 'how long it stays findable (default 7d)').argParser(
        positiveDurationArg,
      ),
    )
    .addHelpText(
      'after',
      `\nExample:\n  berth events publish order.paid '{"orderId":"o_1"}' --ttl 1d`,
    )
    .action(
      async (
        name: string,
        payload: Json | undefined,
        options: { ttl?: number },
        command: Command,
      ) => {
        await withSession(cli, command, async ({ driver, out }) => {
          const event = await driver.events.publish(
            name,
            payload ?? null,
            defined({ ttl: options.ttl }),
          );
          if (out.json) out.document({ event });
          else {
            const now = driver.clock.now();
            out.line(
              `published ${escapeLine(`${event.name} ${event.id}`)}, expires ${formatRelative(event.expiresAt, now)}`,
            );
          }
        });
      },
    );

  const ls = events.command('ls');
  refusesTenant(ls, 'events belong to no tenant')
    .description('live (unexpired) events, oldest first')
    .argument('[name]', 'only events of this name')
    .addHelpText('after', '\nExample:\n  berth events ls order.paid --json')
    .action(async (name: string | undefined, _options: object, command: Command) => {
      await withSession(cli, command, async ({ driver, out }) => {
        const found = await driver.events.list(name);
        if (out.json) {
          out.document({ events: found });
          return;
        }
        if (found.length === 0) {
          out.line(name === undefined ? 'no live events' : `no live ${escapeLine(name)} events`);
          return;
        }
        const now = driver.clock.now();
        out.table(
          EVENT_HEAD,
          found.map((event) => eventRow(event, now)),
        );
      });
    });
}
