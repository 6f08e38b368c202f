import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from './support/berth.js';
import { deadJob, redisTarget } from './support/targets.js';

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
});
