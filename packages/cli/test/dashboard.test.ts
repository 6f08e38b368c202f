import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berth } from './support/berth.js';
import { shBlocks } from './support/blocks.js';
import { type Running, start } from './support/serve.js';
import { pgTarget, redisTarget, type Target } from './support/targets.js';

const ADDRESS = /dashboard at (http:\/\/127\.0\.0\.1:\d+\/)/;

let pg: Target & { schema: string };
let redis: Target;
let seeded: string;
const running: Running[] = [];

beforeAll(async () => {
  pg = await pgTarget();
  redis = await redisTarget();
  seeded = (await pg.driver.enqueue({ name: 'email.send', queue: 'emails', tenantId: 'acme' })).id;
  await redis.driver.enqueue({ name: 'report.build', queue: 'reports' });
});
afterAll(async () => {
  for (const served of running) await served.stop('SIGKILL');
  await pg?.dispose();
  await redis?.dispose();
});

async function serve(args: readonly string[]) {
  const served = start(['dashboard', ...args, '--port', '0']);
  running.push(served);
  const [, url] = await served.waitFor(ADDRESS);
  return { served, url: url ?? '' };
}

const configOf = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="berth-config">(.*?)<\/script>/.exec(html)?.[1] ?? '{}',
  ) as {
    readOnly: boolean;
    tenant: string | null;
    driver: string;
  };

describe('berth dashboard', () => {
  it('serves the page and the API for a postgres:// URL on 127.0.0.1, and stops on SIGINT', async () => {
    const { served, url } = await serve(pg.flags);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(configOf(await page.text())).toMatchObject({
      driver: 'pg',
      readOnly: false,
      tenant: null,
    });
    const jobs = (await (await fetch(`${url}api/jobs`)).json()) as { jobs: { id: string }[] };
    expect(jobs.jobs.map((job) => job.id)).toEqual([seeded]);
    expect(await served.stop('SIGINT')).toBe(0);
    expect(served.output().stdout).toMatch(/stopped; the driver is closed\n$/);
  });

  it('picks the redis driver from a redis:// URL, and stops on SIGTERM', async () => {
    const { served, url } = await serve(redis.flags);
    const overview = (await (await fetch(`${url}api/overview`)).json()) as {
      queues: { queue: string }[];
    };
    expect(overview.queues.map((queue) => queue.queue)).toEqual(['reports']);
    expect(await served.stop('SIGTERM')).toBe(0);
  });

  it('--read-only refuses every action; --tenant scopes every read', async () => {
    const { served, url } = await serve([...pg.flags, '--read-only', '--tenant', 'globex']);
    expect(configOf(await (await fetch(url)).text())).toMatchObject({
      readOnly: true,
      tenant: 'globex',
    });
    const jobs = (await (await fetch(`${url}api/jobs`)).json()) as { jobs: unknown[] };
    expect(jobs.jobs).toEqual([]);
    const retry = await fetch(`${url}api/jobs/${seeded}/retry`, { method: 'POST' });
    expect(retry.status).toBe(403);
    expect(await served.stop('SIGTERM')).toBe(0);
  });

  it('--json prints one document with where it listens', async () => {
    const served = start(['dashboard', ...redis.flags, '--port', '0', '--json']);
    running.push(served);
    const [line] = await served.waitFor(/^\{.*\}\n/);
    const doc = JSON.parse(line ?? '') as { url: string; host: string; port: number };
    expect(doc).toMatchObject({ host: '127.0.0.1', url: `http://127.0.0.1:${doc.port}/` });
    expect((await fetch(`${doc.url}api/overview`)).status).toBe(200);
    expect(await served.stop('SIGTERM')).toBe(0);
    expect(served.output().stdout).toBe(line);
  });

  it('--auth user:pass asks for those credentials', async () => {
    const { served, url } = await serve([...pg.flags, '--auth', 'ops:correct horse']);
    expect((await fetch(url)).status).toBe(401);
    const basic = Buffer.from('ops:correct horse').toString('base64');
    expect((await fetch(url, { headers: { authorization: `Basic ${basic}` } })).status).toBe(200);
    expect(await served.stop('SIGTERM')).toBe(0);
  });

  it('refuses a --host other machines reach without --auth, and an --auth without a password (exit 2)', async () => {
    const open = await berth(['dashboard', ...pg.flags, '--host', '0.0.0.0', '--port', '0']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('--auth');
    const bare = await berth(['dashboard', ...pg.flags, '--auth', 'ops', '--port', '0']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('user:pass');
  });

  it('a queue it cannot reach is refused at start (exit 1), not served as error pages', async () => {
    const down = await berth(['dashboard', '--url', 'redis://127.0.0.1:1', '--port', '0']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('DRIVER_UNAVAILABLE');
  });
});

describe("the dashboard README's berth dashboard block", () => {
  it('runs as written, pointed at a test schema and on a free port', async () => {
    const readme = new URL('../../dashboard/README.md', import.meta.url);
    const words = (shBlocks(readme, '').get('berth-dashboard') ?? '').trim().split(/ +/);
    expect(words.slice(0, 2)).toEqual(['berth', 'dashboard']);
    // The README's connection is an app's; the test's own server and schema stand in for it.
    const args = words.slice(1).map((word, index, all) => {
      if (all[index - 1] === '--url') return pg.url;
      if (all[index - 1] === '--schema') return pg.schema;
      return word;
    });
    expect(args).toContain(pg.url);
    const served = start([...args, '--port', '0']);
    running.push(served);
    const [, url] = await served.waitFor(ADDRESS);
    expect((await fetch(`${url}api/jobs`)).status).toBe(200);
    expect(await served.stop('SIGINT')).toBe(0);
  });
});
