import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = fileURLToPath(new URL('..', import.meta.url));

function runQuickstart(): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn('pnpm', ['run', '--silent', 'start'], {
      cwd: here,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) process.stderr.write(err);
      resolve({ code, lines: out.split('\n').filter((line) => line.length > 0) });
    });
  });
}

const text = (lines: string[]) => lines.map((line) => line.replace(/^\[\s*\d+ ms\] /, ''));

describe('the quickstart', () => {
  it('runs its jobs, prints each as it happens, and exits 0 by itself', async () => {
    const { code, lines } = await runQuickstart();
    const said = text(lines);

    expect(code).toBe(0);
    expect(said).toContain('worker and scheduler started on the memory driver');
    expect(said).toContain('signup: created the account for ada@example.com');
    expect(said).toContain('signup: sent the welcome mail to ada@example.com (acct_ada)');
    expect(said).toContain('charge: attempt 1 — the card gateway timed out, throwing');
    expect(said).toContain('charge: attempt 2 — charged 4200 cents');
    expect(said.some((line) => line.startsWith('worker: charge will be retried in '))).toBe(true);
    expect(said.some((line) => line.startsWith('worker: signup parked for '))).toBe(true);
    expect(
      said.some((line) =>
        line.startsWith('report: the scheduled report ran for slot schedule:every-second-report:'),
      ),
    ).toBe(true);
    expect(said.at(-1)).toBe('done: 3 jobs completed (charge took 2 attempts); exiting');
    // The sleep parks signup: its welcome mail goes out after the retried charge has run.
    expect(
      said.indexOf('signup: sent the welcome mail to ada@example.com (acct_ada)'),
    ).toBeGreaterThan(said.indexOf('charge: attempt 1 — the card gateway timed out, throwing'));
    expect(said.filter((line) => line.startsWith('signup: created the account'))).toHaveLength(1);
  }, 60_000);
});
