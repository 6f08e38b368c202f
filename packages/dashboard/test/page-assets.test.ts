import { createMemoryDriver } from '@berth/driver-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/http/respond.js';
import type { PageConfig } from '../src/index.js';
import { openSession, startDashboard, type TestDashboard } from './support/server.js';

const driver = createMemoryDriver();
let served: TestDashboard;

beforeAll(async () => {
  served = await startDashboard({ driver, basePath: '/ops/queue/', title: '</script><b>Ops' });
});
afterAll(async () => {
  await served.close();
  await driver.close();
});

const configOf = (html: string): PageConfig => {
  const found = /id="berth-config">(.*?)<\/script>/.exec(html);
  return JSON.parse(found?.[1] ?? 'null') as PageConfig;
};

describe('the page', () => {
  it('is served at the base path and below it (deep links), with its config and assets under the base', async () => {
    for (const path of [
      '/ops/queue',
      '/ops/queue/',
      '/ops/queue/jobs/abc',
      '/ops/queue/dead-letters',
    ]) {
      const response = await fetch(`${served.origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const html = await response.text();
      expect(html).toMatch(
        /<script type="module" crossorigin src="\/ops\/queue\/assets\/index-[\w-]+\.js">/,
      );
      expect(html).not.toContain('__berth_base__');
      expect(configOf(html)).toMatchObject({
        basePath: '/ops/queue',
        readOnly: false,
        tenant: null,
        loopbackOnly: true,
        driver: 'memory',
        refreshMs: 5_000,
      });
    }
  });

  it('carries strings in its config so that none can close the script element', async () => {
    const { html } = await openSession(served.base);
    expect(html).not.toContain('</script><b>');
    expect(html).toContain('\\u003c/script\\u003e\\u003cb\\u003eOps');
    expect(configOf(html).title).toBe('</script><b>Ops');
  });

  it('sends a CSP that allows only its own scripts, styles and requests, and no framing', async () => {
    const { response } = await openSession(served.base);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('sets the CSRF cookie HttpOnly and SameSite=Strict on the base path, once', async () => {
    const first = await openSession(served.base);
    expect(first.response.headers.get('set-cookie')).toMatch(
      /^berth_csrf=[\w-]{43}; Path=\/ops\/queue; HttpOnly; SameSite=Strict$/,
    );
    const again = await fetch(`${served.base}/`, { headers: { cookie: first.cookie } });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(configOf(await again.text()).csrf).toBe(first.csrf);
  });
});

describe('assets', () => {
  it('are served from memory with a year-long immutable cache, gzip when asked', async () => {
    const { html } = await openSession(served.base);
    const script = /src="\/ops\/queue\/assets\/([\w.-]+\.js)"/.exec(html)?.[1];
    const style = /href="\/ops\/queue\/assets\/([\w.-]+\.css)"/.exec(html)?.[1];
    const plain = await fetch(`${served.base}/assets/${script}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await plain.text();
    const zipped = await fetch(`${served.base}/assets/${script}`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(await zipped.text()).toBe(body);
    const css = await fetch(`${served.base}/assets/${style}`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for a name it does not hold, 400 for a path out of its folder, and 405 for a POST', async () => {
    // fetch resolves `/../` itself; an encoded slash reaches the server, which serves only
    // normal paths (PATH_NOT_NORMAL).
    const expected = {
      '/assets/nope.js': 404,
      '/assets/..%2Fpackage.json': 400,
      '/assets/../index.html': 200,
    };
    for (const [path, status] of Object.entries(expected)) {
      expect((await fetch(`${served.base}${path}`)).status, path).toBe(status);
    }
    const post = await fetch(`${served.base}/`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('answers 404 for an unknown API route and passes requests outside the base path on', async () => {
    const api = await fetch(`${served.base}/api/nothing`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    const outside = await fetch(`${served.origin}/ops/queueing`);
    expect(outside.status).toBe(404);
    expect(await outside.text()).toBe('Not found\n');
  });
});
