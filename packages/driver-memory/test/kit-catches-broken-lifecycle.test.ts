import { runKit } from '@berth/conformance';
import type { LifecyclePage } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { broken, memory } from './broken.js';

/** A stream that loses every progress event (as a driver that writes none would). */
const lifecycleDropsProgress = broken((real) => ({
  lifecycle: {
    ...real.lifecycle,
    read: async (request) => {
      const page = await real.lifecycle.read(request);
      return { ...page, events: page.events.filter((event) => event.type !== 'progress') };
    },
  },
}));

/** A read that drops the tenant filter: a tenant reader sees every tenant's jobs. */
const lifecycleIgnoresTenant = broken((real) => ({
  lifecycle: {
    ...real.lifecycle,
    read: ({ tenantId: _tenantId, ...request } = {}) => real.lifecycle.read(request),
  },
}));

/** A read that walks on past LIFECYCLE_READ_SCAN until it fills its page or reaches the end. */
const lifecycleUnbounded = broken((real) => ({
  lifecycle: {
    ...real.lifecycle,
    read: async (request = {}) => {
      let page: LifecyclePage = await real.lifecycle.read(request);
      const events = [...page.events];
      while (!page.caughtUp && events.length < (request.limit ?? 100)) {
        page = await real.lifecycle.read({ ...request, after: page.next });
        events.push(...page.events);
      }
      return { ...page, events };
    },
  },
}));

const SEED = 2026;
const failedGroups = async (factory: Parameters<typeof runKit>[0]) => {
  const report = await runKit(factory, {
    reference: memory,
    only: ['lifecycle', 'differential'],
    differentialSeed: SEED,
    differentialRuns: 200,
  });
  return [...new Set(report.failures.map((failure) => failure.group))].sort();
};

describe('the conformance kit, on the lifecycle event stream', () => {
  it('passes the unbroken memory driver', async () => {
    expect(await failedGroups(memory)).toEqual([]);
  }, 300_000);

  it('fails a driver that writes no progress events, in its group and in the differential', async () => {
    expect(await failedGroups(lifecycleDropsProgress)).toEqual(['differential', 'lifecycle']);
  }, 300_000);

  it('fails a driver whose read shows a tenant other tenants’ events', async () => {
    expect(await failedGroups(lifecycleIgnoresTenant)).toEqual(['lifecycle']);
  }, 300_000);

  it('fails a driver whose read walks past LIFECYCLE_READ_SCAN events', async () => {
    expect(await failedGroups(lifecycleUnbounded)).toEqual(['lifecycle']);
  }, 300_000);
});
