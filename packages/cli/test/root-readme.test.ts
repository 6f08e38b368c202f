import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv } from './support/berth.js';
import { berthOnPath, runBlock, shBlocks } from './support/blocks.js';
import { deadJob, pgTarget } from './support/targets.js';

const ROOT = new URL('../../../', import.meta.url);

describe('the root README', () => {
  const path = berthOnPath();
  afterAll(() => path.remove());

  it('pnpm exec berth --help works at the repository root after the install', async () => {
    const ran = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        'pnpm',
        ['exec', 'berth', '--help'],
        { cwd: fileURLToPath(ROOT), env: cleanEnv(), timeout: 30_000 },
        (error, stdout) => resolve({ code: error === null ? 0 : Number(error.code), stdout }),
      );
    });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^Usage: berth \[options\] \[command\]/);
  });

  it('the three operator commands run as written: stats, the dead jobs, and their retry', async () => {
    const block = shBlocks(new URL('README.md', ROOT), '').get('operator');
    expect(block?.trim().split('\n')).toHaveLength(3);
    const target = await pgTarget();
    try {
      const dead = await deadJob(target.driver, { name: 'email.send' });
      const stdout = await runBlock(block ?? '', path.dir, { ...target.env });
      expect(stdout).toContain(`${dead.id}  email.send`);
      expect(stdout).toMatch(new RegExp(`^${dead.id} +email\\.send +requeued → ready$`, 'm'));
      expect((await target.driver.get(dead.id))?.state).toBe('ready');
    } finally {
      await target.dispose();
    }
  });
});
