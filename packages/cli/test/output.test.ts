import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { formatSpan } from '../src/duration.js';
import { colorFor } from '../src/output.js';
import { BIN, berth, cleanEnv } from './support/berth.js';
import { redisTarget } from './support/targets.js';

describe('durations', () => {
  it('spans print as their two largest units', () => {
    expect(formatSpan(450)).toBe('450ms');
    expect(formatSpan(45_000)).toBe('45s');
    expect(formatSpan(200_000)).toBe('3m 20s');
    expect(formatSpan(3_600_000)).toBe('1h');
    expect(formatSpan(7_500_000)).toBe('2h 5m');
    expect(formatSpan(6 * 86_400_000 + 4 * 3_600_000 + 59_000)).toBe('6d 4h');
  });
});

describe('colour', () => {
  it('a terminal gets colour; NO_COLOR, a pipe and TERM=dumb do not; FORCE_COLOR forces it', () => {
    const tty = { isTTY: true };
    expect(colorFor(tty, {})).toBe(true);
    expect(colorFor(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorFor(tty, { NO_COLOR: '' })).toBe(true);
    expect(colorFor(tty, { TERM: 'dumb' })).toBe(false);
    expect(colorFor({ isTTY: false }, {})).toBe(false);
    expect(colorFor({}, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorFor({}, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorFor(tty, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
  });

  it('the binary colours states only when asked, and NO_COLOR wins over FORCE_COLOR', async () => {
    const target = await redisTarget();
    try {
      await target.driver.enqueue({ name: 'email.send' });
      const forced = await berth(['jobs', 'ls', ...target.flags], { env: { FORCE_COLOR: '1' } });
      expect(forced.stdout).toContain('\u001b[32mready\u001b[39m');
      const plain = await berth(['jobs', 'ls', ...target.flags], {
        env: { FORCE_COLOR: '1', NO_COLOR: '1' },
      });
      expect(plain.stdout).toMatch(/ ready /);
      expect(plain.stdout).not.toContain('\u001b[');
    } finally {
      await target.dispose();
    }
  });
});

describe('a reader that goes away', () => {
  it('berth jobs ls | head: a closed stdout ends the output quietly, exit 0, no stack', async () => {
    const target = await redisTarget();
    try {
      for (let n = 0; n < 3; n += 1) await target.driver.enqueue({ name: 'email.send' });
      const child = spawn(process.execPath, [BIN, 'jobs', 'ls', ...target.flags], {
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // The reader leaves before the first line is written (the CLI is still starting).
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    } finally {
      await target.dispose();
    }
  });
});
