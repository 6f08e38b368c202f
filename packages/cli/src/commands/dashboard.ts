import { type Command, InvalidArgumentError, Option } from 'commander';
import { integerArg } from '../args.js';
import { UsageError } from '../errors.js';
import { type Cli, outputOf, withSession } from '../session.js';

interface DashboardFlags {
  readonly host: string;
  readonly port: number;
  readonly auth?: { readonly username: string; readonly password: string };
  readonly readOnly?: boolean;
}

function credentialsArg(value: string): { username: string; password: string } {
  const colon = value.indexOf(':');
  if (colon < 1 || colon === value.length - 1) {
    throw new InvalidArgumentError('write it as user:pass, both non-empty');
  }
  return { username: value.slice(0, colon), password: value.slice(colon + 1) };
}

/** Resolves on the first SIGINT or SIGTERM, then stops listening for either. */
function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

const EXAMPLES = `
Examples:
  berth dashboard --url postgres://postgres@127.0.0.1:5432/app
  berth dashboard --port 8080 --read-only
  BERTH_DASHBOARD_AUTH=ops:secret berth dashboard --host 0.0.0.0`;

export function registerDashboard(program: Command, cli: Cli): void {
  program
    .command('dashboard')
    .description('serve the web dashboard for the queue at --url until interrupted (Ctrl-C)')
    .addOption(
      new Option(
        '--host <host>',
        'the address to listen on; other than loopback needs --auth',
      ).default('127.0.0.1'),
    )
    .addOption(
      new Option('--port <port>', 'the port to listen on (0: any free one)')
        .argParser(integerArg(0, 65_535))
        .default(4100),
    )
    .addOption(
      new Option('--auth <user:pass>', 'HTTP Basic credentials the dashboard asks for')
        .argParser(credentialsArg)
        .env('BERTH_DASHBOARD_AUTH'),
    )
    .option('--read-only', 'hide every action, and refuse every action request')
    .addHelpText(
      'after',
      `\nWith --tenant, every read and action is scoped to that tenant.\n${EXAMPLES}`,
    )
    .action(async (flags: DashboardFlags, command: Command) => {
      // Loaded only here: every other command starts without the dashboard and its page.
      const { basicAuth, isLoopbackHost, serveDashboard } = await import('@berth/dashboard');
      if (flags.auth === undefined && !isLoopbackHost(flags.host)) {
        throw new UsageError(
          `--host ${flags.host} serves other machines: pass --auth user:pass (or set BERTH_DASHBOARD_AUTH) so the dashboard asks who they are`,
        );
      }
      await withSession(cli, command, async ({ driver, out, globals }) => {
        // Refused here, at start, rather than as an error on every page.
        await driver.check();
        const tenant = globals.tenant;
        const served = await serveDashboard({
          driver,
          host: flags.host,
          port: flags.port,
          ...(flags.auth === undefined ? {} : { auth: basicAuth(flags.auth) }),
          ...(flags.readOnly === true ? { readOnly: true } : {}),
          ...(tenant === undefined ? {} : { tenant: () => tenant }),
        });
        const stopped = interrupted();
        if (out.json) out.document({ url: served.url, host: served.host, port: served.port });
        else {
          out.line(`dashboard at ${served.url}`);
          out.note(out.errColor.dim('Ctrl-C stops it'));
        }
        await stopped;
        await served.close();
      });
      const out = outputOf(cli, command);
      if (!out.json) out.line('stopped; the driver is closed');
    });
}
