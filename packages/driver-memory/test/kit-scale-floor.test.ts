import { runKit } from '@berth/conformance';
import { expect, it } from 'vitest';
import { memory } from './broken.js';

it('the scale group passes a sound driver at the smallest backlog it accepts: each measured call finds the rows it needs behind the small backlog', async () => {
  const report = await runKit(memory, { only: ['scale'], scaleBacklog: 1 });
  expect(report.failures).toEqual([]);
  expect(report.ran).toBe(1);
}, 120_000);
