import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, berth, cleanEnv } from './support/berth.js';
import { completedJob, deadJob, redisTarget } from './support/targets.js';

const quote = (arg: string): string => `'${arg.replaceAll("'", `'\\''`)}'`;

/** Runs the binary on a pseudo-terminal (util-linux `script`), typing `answer` at its prompt. */
function onTerminal(
  args: readonly string[],
  answer: string,
): Promise<{ code: number; screen: string }> {
  const line = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = execFile(
      'script',
      ['--quiet', '--return', '--command', line, '/dev/null'],
      { env: cleanEnv({ NO_COLOR: '1' }), timeout: 20_000 },
      (error, stdout) => {
        if (error !== null && typeof error.code !== 'number') reject(error);
        else resolve({ code: error === null ? 0 : Number(error.code), screen: stdout });
      },
    );
    child.stdin?.end(`${answer}\n`);
  });
}

describe('confirmation on a terminal', () => {
  it('a bulk retry asks on a terminal: n changes nothing and exits 1, y requeues and reports per job', async () => {
    const target = await redisTarget();
    try {
      const dead = await deadJob(target.driver, { name: 'email.send' });
      const args = ['jobs', 'retry', '--state', 'dead', ...target.flags];

      const declined = await onTerminal(args, 'n');
      expect(declined.screen).toContain('retry 1 job(s) (state dead)? [y/N]');
      expect(declined.screen).toContain(
        'CONFIRMATION_REQUIRED retry of 1 job(s) was not confirmed; nothing changed',
      );
      expect(declined.code).toBe(1);
      expect((await target.driver.get(dead.id))?.state).toBe('dead');

      const confirmed = await onTerminal(args, 'y');
      expect(confirmed.code).toBe(0);
      expect(confirmed.screen).toMatch(new RegExp(`${dead.id} +email\\.send +requeued → ready`));
      expect((await target.driver.get(dead.id))?.state).toBe('ready');
    } finally {
      await target.dispose();
    }
  });
  it('purge on a terminal says how many jobs it will delete; n keeps them, y deletes them', async () => {
    const target = await redisTarget();
    try {
      const first = await completedJob(target.driver, 'email.send');
      await completedJob(target.driver, 'email.send');
      const args = ['purge', '--states', 'completed', '--older-than', '0s', ...target.flags];

      const declined = await onTerminal(args, 'n');
      expect(declined.screen).toMatch(
        /purge 2 completed jobs that finished before \S+ \(0ms ago\)\? \[y\/N\]/,
      );
      expect(declined.screen).toContain(
        'CONFIRMATION_REQUIRED purge of 2 job(s) was not confirmed',
      );
      expect(declined.code).toBe(1);
      expect(await target.driver.get(first)).toBeDefined();

      const confirmed = await onTerminal(args, 'y');
      expect(confirmed.code).toBe(0);
      expect(confirmed.screen).toContain('purged 2 completed jobs');
      expect(await target.driver.get(first)).toBeUndefined();
    } finally {
      await target.dispose();
    }
  });
});

describe('no terminal and no --yes', () => {
  const forms = [
    ['jobs', 'retry', '--state', 'dead'],
    ['jobs', 'cancel', '--queue', 'reports'],
    ['jobs', 'promote', '--name', 'digest.send'],
    ['purge', '--states', 'completed', '--older-than', '7d'],
  ];

  it('every bulk form is refused before the driver is opened: exit 2, CONFIRMATION_REQUIRED, even with no server', async () => {
    // Nothing listens on port 1: a form that opened its driver first would answer DRIVER_UNAVAILABLE.
    for (const form of forms) {
      const ran = await berth([...form, '--url', 'redis://127.0.0.1:1', '--json']);
      expect(ran.code, form.join(' ')).toBe(2);
      expect(ran.stdout).toBe('');
      expect(JSON.parse(ran.stderr), form.join(' ')).toMatchObject({
        code: 'CONFIRMATION_REQUIRED',
        meta: { action: form[0] === 'purge' ? 'purge' : form[1] },
      });
    }
  });

  it('is refused the same whether the filter matches nothing or something', async () => {
    const target = await redisTarget();
    try {
      for (const form of forms) {
        const empty = await berth([...form, ...target.flags]);
        expect(empty.code, form.join(' ')).toBe(2);
        expect(empty.stderr).toMatch(/^CONFIRMATION_REQUIRED .+\nfix: add --yes/);
      }
      const dead = await deadJob(target.driver, { name: 'email.send' });
      const full = await berth(['jobs', 'retry', '--state', 'dead', ...target.flags]);
      expect(full.code).toBe(2);
      expect((await target.driver.get(dead.id))?.state).toBe('dead');
    } finally {
      await target.dispose();
    }
  });
});
