import { describe, expect, it } from 'vitest';
import { clip, escapeBlock, escapeLine, safeJson, visibleWidth } from '../src/escape.js';
import { berth } from './support/berth.js';
import { redisTarget } from './support/targets.js';

const ESC = '\u001b';
/** Colour, an OSC-8 hyperlink, a window title, a bell, a one-byte CSI, a bidi override, a CR. */
const HOSTILE = `${ESC}[31mred${ESC}[0m ${ESC}]8;;https://evil.example${ESC}\\link${ESC}]8;;${ESC}\\ ${ESC}]0;owned\u0007 \u009b2J \u202eabc\rX`;

/** Any control character but the newline that ends lines: none may reach the terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for raw control characters
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

describe('escaping text from the queue', () => {
  it('every control character is shown as a visible escape; a block keeps its newlines and tabs', () => {
    expect(escapeLine(`a${ESC}[31mb\u0007c\u009bd\ne\tf\u202eg`)).toBe(
      'a\\x1b[31mb\\x07c\\u009bd\\ne\\tf\\u202eg',
    );
    expect(escapeBlock(`Error: x${ESC}]8;;http://e${ESC}\\\n    at f (a.ts:1:1)\tz`)).toBe(
      'Error: x\\x1b]8;;http://e\\x1b\\\n    at f (a.ts:1:1)\tz',
    );
    expect(escapeLine('plain text, ünïcödé, 日本')).toBe('plain text, ünïcödé, 日本');
    expect(RAW_CONTROL.test(escapeLine(HOSTILE))).toBe(false);
  });

  it('JSON keeps its value but writes C1 controls and bidi marks as \\u escapes', () => {
    const value = { note: HOSTILE, nested: ['\u009b', '\u2028'] };
    const text = safeJson(value);
    expect(RAW_CONTROL.test(text)).toBe(false);
    expect(text).toContain('\\u009b2J');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('clip cuts by visible width, never inside an escape or a wide character', () => {
    expect(clip('short', 10)).toBe('short');
    expect(clip('a\n\n b', 10)).toBe('a b');
    // `\x1b` is four columns: a cut at 6 keeps `ab` and the whole escape would not fit before it.
    expect(clip(`ab${ESC}cdef`, 6)).toBe('ab…');
    expect(clip(`ab${ESC}cdef`, 7)).toBe('ab\\x1b…');
    expect(clip('日本語のテキスト', 7)).toBe('日本語…');
    expect(visibleWidth(clip('日本語のテキスト', 7))).toBeLessThanOrEqual(7);
    for (let max = 2; max < 40; max += 1) {
      const cut = clip(HOSTILE, max);
      expect(visibleWidth(cut), String(max)).toBeLessThanOrEqual(max);
      expect(cut, String(max)).not.toMatch(/\\x[0-9a-f]?…|\\u[0-9a-f]{0,3}…/);
    }
  });

  it('a hostile job name, queue, error, stack, payload and event reach no terminal raw', async () => {
    const target = await redisTarget();
    try {
      const queue = `q${ESC}[2J`;
      const { id } = await target.driver.enqueue({
        name: `email${HOSTILE}`,
        queue,
        maxAttempts: 1,
        payload: { note: HOSTILE },
      });
      const [job] = await target.driver.claim({
        queues: [queue],
        workerId: `w${ESC}]0;title\u0007`,
        visibilityTimeoutMs: 60_000,
      });
      if (job === undefined) throw new Error('nothing claimed');
      await target.driver.nack(
        { jobId: id, workerId: job.claimedBy ?? '', claim: job.claim },
        {
          error: {
            code: 'BOOM',
            message: `failed ${HOSTILE} ${'x'.repeat(60)}`,
            stack: `Error: ${HOSTILE}\n    at send (mailer.ts:42:11)`,
          },
        },
      );
      await target.driver.events.publish(`order${HOSTILE}`, { note: HOSTILE });
      const env = { env: { NO_COLOR: '1' } };
      const runs = [
        await berth(['jobs', 'ls', ...target.flags], env),
        await berth(['jobs', 'show', id, ...target.flags], env),
        await berth(['jobs', 'retry', '--state', 'dead', '--yes', ...target.flags], env),
        await berth(['events', 'ls', ...target.flags], env),
        await berth(['stats', ...target.flags], env),
        await berth(['enqueue', `x${HOSTILE}`, '--key', HOSTILE, ...target.flags], env),
        await berth(['jobs', 'ls', '--name', HOSTILE, '--state', 'dead', ...target.flags], env),
        await berth(['jobs', 'show', `${ESC}[31m`, ...target.flags], env),
      ];
      runs.push(await berth(['jobs', 'ls', '--json', ...target.flags], env));
      runs.push(await berth(['jobs', 'show', `${ESC}[31m`, '--json', ...target.flags], env));
      for (const [index, ran] of runs.entries()) {
        expect(RAW_CONTROL.test(ran.stdout), `stdout of run ${index}: ${ran.stdout}`).toBe(false);
        expect(RAW_CONTROL.test(ran.stderr), `stderr of run ${index}: ${ran.stderr}`).toBe(false);
      }
      const [ls, shown] = runs;
      expect(ls?.stdout).toContain('email\\x1b[31mred');
      // The stack keeps its lines; the error's escapes are shown, not obeyed.
      expect(shown?.stdout).toContain('\\x1b]8;;https://evil.example');
      expect(shown?.stdout).toMatch(/\n {4}at send \(mailer\.ts:42:11\)/);
      // The attempt table shows the worker id and the error's escapes, never obeys them.
      expect(shown?.stdout).toMatch(/^ *1 +1 +failed +w\\x1b\]0;title/m);
      expect(ls?.stdout).not.toMatch(/\\x[0-9a-f]?…|\\u[0-9a-f]{0,3}…/);
    } finally {
      await target.dispose();
    }
  });
});
