import type { Command } from 'commander';
import { type Cli, withSession } from '../session.js';
import { refusesTenant } from '../tenancy.js';

export function registerMigrate(program: Command, cli: Cli): void {
  const command = program.command('migrate');
  refusesTenant(command, 'the schema is shared by every tenant')
    .description(
      'bring the queue to the schema this berth expects (pg); redis has nothing to migrate',
    )
    .option('--status', 'list applied and pending migrations; change nothing')
    .addHelpText(
      'after',
      '\nExamples:\n  berth migrate --url postgres://postgres@127.0.0.1:5432/app\n  berth migrate --status --schema berth',
    )
    .action(async (options: { status?: boolean }, command: Command) => {
      await withSession(cli, command, async ({ connection, out }) => {
        const migrations = connection.migrations;
        if (migrations === undefined) {
          // Nothing to migrate, but say so only for a server that answers.
          await connection.driver.check();
          if (out.json) out.document({ driver: connection.kind, applied: [], pending: [] });
          else out.line(`${connection.kind} keeps no schema: nothing to migrate`);
          return;
        }
        if (options.status === true) {
          const status = await migrations.status();
          if (out.json) {
            out.document({ driver: connection.kind, ...status });
            return;
          }
          const rows = [
            ...status.applied.map((m) => [
              String(m.version),
              out.color.green('applied'),
              new Date(m.appliedAt).toISOString(),
            ]),
            ...status.pending.map((version) => [String(version), out.color.yellow('pending'), '']),
          ];
          out.line(
            `schema ${status.schema}: at version ${status.version} of ${status.latest}, ${status.pending.length} pending`,
          );
          out.table(['VERSION', 'STATE', 'APPLIED AT'], rows, ['right']);
          return;
        }
        const result = await migrations.migrate();
        if (out.json) {
          out.document({ driver: connection.kind, schema: migrations.schema, ...result });
        } else if (result.applied.length === 0) {
          out.line(`schema ${migrations.schema} is at version ${result.version}: nothing to apply`);
        } else {
          out.line(
            `schema ${migrations.schema}: applied ${result.applied.join(', ')}; now at version ${result.version}`,
          );
        }
      });
    });
}
