import {
  type BerthError,
  type ByIdOptions,
  type Driver,
  isBerthError,
  type JobRecord,
  type JobState,
} from '@berth/core';
import { type Command, Option } from 'commander';
import { stateArg } from '../args.js';
import { confirmMany, refuseUnconfirmable } from '../confirm.js';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';
import { everyListed } from '../list-pages.js';
import { paintState } from '../render.js';
import { type Cli, defined, type Session, withSession } from '../session.js';
import { honoursTenant } from '../tenancy.js';

interface ActOptions {
  readonly state?: JobState;
  readonly queue?: string;
  readonly name?: string;
  readonly yes?: boolean;
  readonly fromStep?: string;
}

interface Verb {
  readonly command: 'retry' | 'cancel' | 'promote' | 'delete';
  /** Past tense for the report. */
  readonly done: string;
  /** The answer is the job as it was (it is gone): the report says `was <state>`. */
  readonly answersBefore?: true;
  readonly description: string;
  readonly example: string;
  readonly apply: (
    driver: Driver,
    id: string,
    options: ByIdOptions & ActOptions,
  ) => Promise<JobRecord>;
}

const VERBS: readonly Verb[] = [
  {
    command: 'retry',
    done: 'requeued',
    description: 'requeue failed, dead or cancelled jobs: one by id, or every job a filter selects',
    example: 'berth jobs retry --state dead --name email.send --yes',
    apply: (driver, id, options) =>
      driver.requeue(id, defined({ tenantId: options.tenantId, fromStep: options.fromStep })),
  },
  {
    command: 'cancel',
    done: 'cancelled',
    description: 'cancel live jobs: one by id, or every job a filter selects',
    example: 'berth jobs cancel --state delayed --queue reports --yes',
    apply: (driver, id, options) => driver.cancel(id, defined({ tenantId: options.tenantId })),
  },
  {
    command: 'promote',
    done: 'promoted',
    description: 'run delayed jobs now: one by id, or every job a filter selects',
    example: 'berth jobs promote --state delayed --name digest.send --yes',
    apply: (driver, id, options) => driver.promote(id, defined({ tenantId: options.tenantId })),
  },
  {
    command: 'delete',
    done: 'deleted',
    description:
      'delete jobs for good, with their steps (a running job is refused: cancel it first): by id, or every job a filter selects',
    example: 'berth jobs delete --state dead --queue mail --yes',
    answersBefore: true,
    apply: (driver, id, options) => driver.delete(id, defined({ tenantId: options.tenantId })),
  },
];

/** What a report says of a job's state after the action: its new state, or the one it had. */
const outcomeOf = (verb: Verb, state: string): string =>
  verb.answersBefore === true ? `${verb.done} (was ${state})` : `${verb.done} → ${state}`;

/** What one job's action came to, for the per-job report. */
type Outcome =
  | { readonly id: string; readonly name: string; readonly ok: true; readonly state: JobState }
  | { readonly id: string; readonly name: string; readonly ok: false; readonly error: BerthError };

/** A refusal about one job (its state, its key, its steps): the bulk run goes on past it. */
const refusesOneJob = (error: unknown): error is BerthError =>
  isBerthError(error) && (error.code.startsWith('JOB_') || error.code === 'STEP_INVALID');

/** Every job the filter selects, walking the pages (ids are taken before anything changes). */
async function select(session: Session, options: ActOptions): Promise<JobRecord[]> {
  const filter = defined({
    state: options.state,
    queue: options.queue,
    name: options.name,
    tenantId: session.globals.tenant,
  });
  const jobs: JobRecord[] = [];
  for await (const job of everyListed(session.driver, filter)) jobs.push(job);
  return jobs;
}

const describeFilter = (options: ActOptions): string =>
  Object.entries(defined({ state: options.state, queue: options.queue, name: options.name }))
    .map(([key, value]) => `${key} ${escapeLine(value)}`)
    .join(', ');

async function bulk(cli: Cli, session: Session, verb: Verb, options: ActOptions): Promise<void> {
  const { out } = session;
  const jobs: readonly Target[] = await select(session, options);
  if (jobs.length === 0) {
    if (out.json) {
      out.document({ action: verb.command, selected: 0, done: 0, refused: 0, results: [] });
    } else out.line(`no jobs match (${describeFilter(options)}): nothing to ${verb.command}`);
    return;
  }
  await confirmMany({
    io: cli.io,
    argv: cli.argv,
    yes: options.yes === true,
    change: { action: verb.command, count: jobs.length },
    question: `${verb.command} ${jobs.length} job(s) (${describeFilter(options)})?`,
  });
  await actOnEach(cli, session, verb, options, jobs);
}

/** A job to act on: from a listed page (its name known), or an id the operator typed. */
interface Target {
  readonly id: string;
  readonly name?: string;
}

/** Acts on each job in turn, then reports every job's outcome. */
async function actOnEach(
  cli: Cli,
  session: Session,
  verb: Verb,
  options: ActOptions,
  jobs: readonly Target[],
): Promise<void> {
  const results: Outcome[] = [];
  let stopped: unknown;
  for (const job of jobs) {
    try {
      const after = await verb.apply(session.driver, job.id, { ...session.byId, ...options });
      results.push({ id: job.id, name: after.name, ok: true, state: after.state });
    } catch (error) {
      // A refusal of one job is that job's answer; a backend failure stops the run, and the
      // report still says what was done before it.
      if (!refusesOneJob(error)) {
        stopped = error;
        break;
      }
      results.push({ id: job.id, name: job.name ?? '-', ok: false, error });
    }
  }
  report(cli, session, verb, jobs.length, results);
  if (stopped !== undefined) throw stopped;
}

function report(
  cli: Cli,
  { out }: Session,
  verb: Verb,
  selected: number,
  results: readonly Outcome[],
): void {
  const refused = results.filter((result) => !result.ok).length;
  const done = results.length - refused;
  if (refused > 0) cli.exitCode = 1;
  if (out.json) {
    out.document({
      action: verb.command,
      selected,
      done,
      refused,
      results: results.map((result) =>
        result.ok ? result : { ...result, error: result.error.toJSON() },
      ),
    });
    return;
  }
  out.table(
    ['ID', 'NAME', 'OUTCOME'],
    results.map((result) => [
      escapeLine(result.id),
      escapeLine(result.name),
      result.ok
        ? outcomeOf(verb, paintState(result.state, out.color))
        : out.color.red(escapeLine(`refused ${result.error.code}: ${result.error.detail}`)),
    ]),
  );
  const untouched = selected - results.length;
  out.line(
    `${verb.done} ${done} of ${selected}${refused > 0 ? `, ${refused} refused` : ''}${untouched > 0 ? `, ${untouched} not reached` : ''}`,
  );
}

function registerVerb(jobs: Command, cli: Cli, verb: Verb): void {
  const command = jobs
    .command(verb.command)
    .description(verb.description)
    .argument('[ids...]', 'job ids; leave out to act on every job the filter selects')
    .addOption(new Option('--state <state>', 'select jobs in this state').argParser(stateArg))
    .option('--queue <queue>', 'select jobs of this queue')
    .option('--name <name>', 'select jobs of this name')
    .option('-y, --yes', 'act on what the filter selects without asking');
  if (verb.command === 'retry') {
    command.option('--from-step <step>', 'drop this step and every later one, so they run again');
  }
  honoursTenant(command, "selects, and acts on, only that tenant's jobs")
    .addHelpText(
      'after',
      `\nExamples:\n  berth jobs ${verb.command} <id>\n  berth jobs ${verb.command} <id> <id>\n  ${verb.example}`,
    )
    .action(async (ids: readonly string[], options: ActOptions, self: Command) => {
      const id = ids.length === 0 ? undefined : ids[0];
      const filtered =
        options.state !== undefined || options.queue !== undefined || options.name !== undefined;
      if (id !== undefined && filtered) {
        throw new UsageError(`give job ids or a filter (--state, --queue, --name), not both`);
      }
      if (id === undefined && !filtered) {
        throw new UsageError(
          `give a job id, or a filter (--state, --queue, --name) to ${verb.command} every job it selects`,
        );
      }
      if (id === undefined) {
        refuseUnconfirmable({
          io: cli.io,
          argv: cli.argv,
          yes: options.yes === true,
          change: { action: verb.command },
        });
      }
      await withSession(cli, self, async (session) => {
        if (id === undefined) {
          await bulk(cli, session, verb, options);
          return;
        }
        if (ids.length > 1) {
          await actOnEach(
            cli,
            session,
            verb,
            options,
            [...new Set(ids)].map((at) => ({ id: at })),
          );
          return;
        }
        const job = await verb.apply(session.driver, id, { ...session.byId, ...options });
        if (session.out.json) session.out.document({ job });
        else
          session.out.line(
            `${verb.done} ${escapeLine(`${job.id} (${job.name})`)}: ${verb.answersBefore === true ? 'was' : 'now'} ${paintState(job.state, session.out.color)}`,
          );
      });
    });
}

export function registerJobsActions(jobs: Command, cli: Cli): void {
  for (const verb of VERBS) registerVerb(jobs, cli, verb);
}
