import { createMemoryDriver } from '@berth/driver-memory';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { expect, it } from 'vitest';
import {
  createClient,
  createWorker,
  defineJob,
  instrumentQueues,
  instrumentWorker,
} from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README metrics example runs as written: the delayed job, the completed one and its attempt', async () => {
  const { imports, printed } = await runReadmeExample('metrics-example', {
    createClient,
    createWorker,
    defineJob,
    instrumentQueues,
    instrumentWorker,
    createMemoryDriver,
    MeterProvider,
    MetricReader,
  });
  expect(imports).toBe(3);
  expect(printed).toEqual([
    ['berth.queue.jobs', '{"messaging.destination.name":"mail","berth.job.state":"delayed"}', 1],
    ['berth.queue.jobs', '{"messaging.destination.name":"mail","berth.job.state":"completed"}', 1],
    ['berth.attempts', '{"berth.job.name":"mail.send","berth.job.outcome":"completed"}', 1],
  ]);
});

it('the README metrics example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('metrics-example', 'readme-metrics.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
