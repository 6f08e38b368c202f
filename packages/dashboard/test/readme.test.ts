import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryDriver } from '@berth/driver-memory';
import { readmeBlock, splitImports, stripTypes } from '@berth/test-servers';
import middie from '@fastify/middie';
import { serve } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createDashboard,
  type ServeDashboardOptions,
  type ServedDashboard,
  serveDashboard,
} from '../src/index.js';
import { closeServer, listen } from './support/server.js';

const README = new URL('../README.md', import.meta.url);
const driver = createMemoryDriver();
afterAll(() => driver.close());

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<unknown>;

/** Runs the README block after `marker` with `bindings` in scope; answers the value of `result`. */
async function runBlock(marker: string, bindings: Record<string, unknown>, result: string) {
  const { imports, body } = splitImports(readmeBlock(README, marker));
  const code = stripTypes(`${body}\nreturn ${result};`);
  const run = new AsyncFunction(...Object.keys(bindings), code);
  return { imports, value: await run(...Object.values(bindings)) };
}

/** What every mounted dashboard must answer at its base path. */
async function answersAt(origin: string) {
  const page = await fetch(`${origin}/admin/queue`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('src="/admin/queue/assets/');
  const api = await fetch(`${origin}/admin/queue/api/overview`);
  expect(api.status).toBe(200);
}

const app = (_request: unknown, response: ServerResponse) => response.end('app');

describe('README', () => {
  it('quick start: serveDashboard serves the page and prints its address', async () => {
    const printed: string[] = [];
    let served: ServedDashboard | undefined;
    // Port 0 instead of the README's 4100: tests must not collide over a fixed port.
    const serveOnAnyPort = async (options: ServeDashboardOptions) => {
      served = await serveDashboard({ ...options, port: 0 });
      return served;
    };
    const { imports } = await runBlock(
      'quick-start',
      {
        serveDashboard: serveOnAnyPort,
        driver,
        console: { log: (line: string) => printed.push(line) },
      },
      'served',
    );
    expect(imports).toEqual(["import { serveDashboard } from '@berth/dashboard';"]);
    expect(printed).toEqual([`dashboard at ${served?.url}`]);
    expect((await fetch(served?.url ?? '')).status).toBe(200);
    await served?.close();
  });

  it('node:http mount line', async () => {
    const { value } = await runBlock(
      'mount-node',
      { createServer, createDashboard, driver, app },
      'server',
    );
    const server = value as Server;
    const origin = await listen(server);
    try {
      await answersAt(origin);
      expect(await (await fetch(`${origin}/elsewhere`)).text()).toBe('app');
    } finally {
      await closeServer(server);
    }
  });

  it('Express mount line', async () => {
    const { value } = await runBlock('mount-express', { express, createDashboard, driver }, 'app');
    const server = createServer(value as express.Express);
    const origin = await listen(server);
    try {
      await answersAt(origin);
    } finally {
      await closeServer(server);
    }
  });

  it('Fastify mount line', async () => {
    const { value } = await runBlock(
      'mount-fastify',
      { middie, Fastify, createDashboard, driver },
      'app',
    );
    const fastify = value as FastifyInstance;
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      await answersAt(`http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`);
    } finally {
      await fastify.close();
    }
  });

  it('Hono mount line', async () => {
    const { value } = await runBlock(
      'mount-hono',
      { RESPONSE_ALREADY_SENT, Hono, createDashboard, driver },
      'app',
    );
    const hono = value as Hono;
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: hono.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started as Server),
      );
    });
    try {
      await answersAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      await closeServer(server);
    }
  });
});
