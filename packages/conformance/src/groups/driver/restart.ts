import type { CaseContext, KitGroup, KitOptions } from '../../kit.js';
import { playRestart } from './restart-play.js';
import { build, finish, purgeTwice, readAll, type Step, work } from './restart-script.js';

/** Server start-up, reconnects, the outage and the grace waits, on a busy machine. */
const TIMEOUT_MS = 120_000;
/** A server restart or outage with two processes: seconds on one server, more on a cluster. */
const RESTART_COST_MS = 5_000;

/** After the disturbance both processes read everything back, work on, purge and read again. */
const afterwards: readonly Step[] = [
  ...readAll('a'),
  ...readAll('b'),
  ...work('a', 'b'),
  ...purgeTwice('a', 'b'),
  ...readAll('b'),
  ...readAll('a'),
  ...finish('b'),
];

/**
 * Two processes of one deployment through what happens to servers: a restart, an outage longer
 * than the driver's replay grace, and one process cut off without noticing while the other
 * purges. Every answer either process gives is compared with the reference (memory) playing the
 * same script with nothing taken away. Runs on KitOptions `serverFactory` (its drivers talk to a
 * private server their `server` control may restart).
 */
export function restartGroup(options: KitOptions): KitGroup {
  const play = (steps: readonly Step[]) => (context: CaseContext) =>
    playRestart(context, steps, options.reference ?? context.factory);
  return {
    name: 'restart',
    factory: options.serverFactory,
    cases: [
      {
        title:
          'two processes answer as the reference after their server restarts: every read, claim order, old fence, event wake-up, lease, slot and mark',
        timeoutMs: TIMEOUT_MS,
        costMs: RESTART_COST_MS,
        run: play([...build, { control: 'restart' }, ...afterwards]),
      },
      {
        title:
          'two processes answer as the reference after an outage longer than the replay grace, and after purges whose delete markers then go',
        timeoutMs: TIMEOUT_MS,
        costMs: RESTART_COST_MS,
        run: play([...build, { control: 'outage' }, ...afterwards]),
      },
      {
        title:
          'a process cut off without noticing while the other purges past the grace answers as the reference once it finds out: no purged row or event comes back',
        timeoutMs: TIMEOUT_MS,
        costMs: RESTART_COST_MS,
        run: play([
          ...build,
          ...readAll('b'),
          { control: 'freeze b' },
          ...work('a', 'a'),
          ...purgeTwice('a', 'a'),
          { control: 'thaw b' },
          ...readAll('b'),
          ...readAll('a'),
          ...finish('b'),
        ]),
      },
    ],
  };
}
