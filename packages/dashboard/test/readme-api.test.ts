import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { backfillControl, createClient, createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedRoute } from '../src/http/route-paths.js';
import { ROUTES } from '../src/http/routes.js';
import { deadJobRow, memoryOutbox } from './support/outbox.js';
import { mustGet } from './support/seed.js';
import { startDashboard, type TestDashboard } from './support/server.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The README's "## JSON API" section, up to the next `## ` heading. */
function apiSection(): string {
  const start = README.indexOf('\n## JSON API\n');
  if (start < 0) throw new Error('README.md has no "## JSON API" section');
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

const sorted = (routes: Iterable<string>): string[] => [...routes].sort();
const registered = sorted(ROUTES.map(documentedRoute));

describe('README: the JSON API section', () => {
  it('has a heading for exactly the routes the server registers', () => {
    const headings = [...apiSection().matchAll(/^### `((?:GET|POST) \/api\/\S+)`$/gm)].map(
      (match) => match[1] ?? '',
    );
    expect(new Set(headings).size).toBe(headings.length);
    expect(sorted(headings)).toEqual(registered);
  });

  it('lists exactly the routes the server registers in its table', () => {
    const rows = [...apiSection().matchAll(/^\| `((?:GET|POST) \/api\/\S+)` \|/gm)].map(
      (match) => match[1] ?? '',
    );
    expect(new Set(rows).size).toBe(rows.length);
    expect(sorted(rows)).toEqual(registered);
  });

  it('names every route pattern as a method and a path with parameters', () => {
    expect(registered).toContain('POST /api/jobs/:id/retry');
    expect(registered).toContain('GET /api/payload-search');
    expect(registered).toContain('POST /api/backfills/:runId/pause');
    expect(
      registered.every((route) => /^(GET|POST) \/api(\/[a-z:-]+|\/:[a-z][A-Za-z]*)+$/.test(route)),
    ).toBe(true);
  });
});

describe('README: the curl examples', () => {
  let driver: Driver;
  let served: TestDashboard;
  let deadId: string;
  let runId: string;
  let dir: string;

  beforeAll(async () => {
    driver = createMemoryDriver({ clock: createManualClock(Date.UTC(2026, 5, 1, 12)) });
    deadId = (await driver.enqueue({ name: 'invoice.charge', queue: 'billing', maxAttempts: 1 }))
      .id;
    const [job] = await driver.claim({
      queues: ['billing'],
      workerId: 'w',
      visibilityTimeoutMs: 1,
    });
    await driver.nack(
      { jobId: deadId, workerId: 'w', claim: job?.claim ?? 0 },
      { error: { code: 'DECLINED', message: 'card declined' }, final: true },
    );
    await driver.events.publish('user.signed-up', { user: 'ada' });
    // The backfill examples find this run, pause, resume and cancel it.
    runId = (await backfillControl(driver).start('reindex-users', { cursor: { id: 0 } })).runId;
    // The stored-schedule examples pause, resume and remove this one.
    await createClient({ driver }).schedules.upsert({
      name: 'nightly-digest',
      cron: '0 3 * * *',
      job: 'email.digest',
      tenantId: 'acme',
    });
    // The outbox examples act on two refused rows of an outbox in memory.
    served = await startDashboard({
      driver,
      outbox: memoryOutbox({
        staged: 0,
        dead: [
          deadJobRow('0190c1a0-0000-4000-8000-00000000000a', 'invoice.send'),
          deadJobRow('0190c1a0-0000-4000-8000-00000000000b', 'invoice.send'),
        ],
      }).outbox,
    });
    dir = mkdtempSync(join(tmpdir(), 'h6-readme-api-'));
  });
  afterAll(async () => {
    await served.close();
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('run in order against a dashboard, each answered 2xx, and do what they say', async () => {
    const blocks = [...apiSection().matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks.length).toBe(registered.length + 1);
    // curl prints each answer without a newline: one before the id puts it on a line of its own.
    const script = `set -e\n${blocks.join('\n')}\necho\necho "ID=$ID"\n`;
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'sh',
        ['-c', script],
        {
          cwd: dir,
          env: {
            PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
            BASE: served.base,
          },
        },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    const id = /^ID=(.+)$/m.exec(output)?.[1] ?? '';
    // Enqueued delayed, promoted, cancelled, retried, cancelled in bulk, then deleted.
    expect(output).toContain(
      `{"action":"cancel","results":[{"id":"${id}","outcome":"cancelled","state":"cancelled"}]}`,
    );
    expect(output).toMatch(
      new RegExp(`"id":"${id}","name":"email\\.send","queue":"mail","state":"cancelled"`),
    );
    expect(await driver.get(id)).toBeUndefined();
    // The payload search found it; the dead letter was retried, so purge skipped it.
    expect(output).toContain(`"id":"${id}"`);
    expect(output).toContain(`{"results":[{"id":"${deadId}","outcome":"requeued"}]}`);
    expect(output).toContain(`"outcome":"skipped","message":"it is ready now"`);
    expect((await mustGet(driver, deadId)).state).toBe('ready');
    // The run was found by the list, then paused, resumed and cancelled.
    expect(output).toContain(`"runId":"${runId}","name":"reindex-users","status":"paused"`);
    expect(await driver.backfills.get(runId)).toMatchObject({
      status: 'cancelled',
      cursor: { id: 0 },
    });
    // The stored schedule was listed, paused, resumed (revision 3), then removed.
    expect(output).toContain('"stored":{"schedules":[{"name":"nightly-digest","tenantId":"acme"');
    expect(output).toMatch(/"name":"nightly-digest","tenantId":"acme".*?"paused":true/);
    expect(output).toMatch(
      /"paused":false,"nextAt":\d+,"next":\[[\d,]+\],"last":(null|\{[^}]*\}),"revision":3/,
    );
    expect(
      await createClient({ driver }).schedules.get('nightly-digest', { tenantId: 'acme' }),
    ).toBeUndefined();
    // The outbox rows: one staged again, one discarded.
    expect(output).toContain('{"done":["0190c1a0-0000-4000-8000-00000000000a"]}');
    expect(output).toContain('{"done":["0190c1a0-0000-4000-8000-00000000000b"]}');
  });
});
