import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  createClient,
  createScheduler,
  type Driver,
  declareJob,
  defineJob,
  type Json,
  type SchedulePayload,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const report = defineJob<{ team: string }>({ name: 'report', run: () => {} });
const digest = declareJob({
  name: 'digest',
  schema: z.object({ since: z.string(), limit: z.number().default(10) }),
});

// Compiled by `pnpm typecheck`, never run: each schedule's payload is checked against its job.
function compileOnly(driver: Driver) {
  createScheduler({
    driver,
    schedules: [
      { name: 'daily', cron: '0 9 * * *', job: report, payload: { team: 'core' } },
      { name: 'hourly', cron: '0 * * * *', job: digest, payload: { since: 'x', limit: 5 } },
      { name: 'by-name', cron: '0 * * * *', job: 'legacy', payload: { anything: [1] } },
    ],
  });
  createScheduler({
    driver,
    schedules: [
      // @ts-expect-error the report job takes { team: string }
      { name: 'wrong', cron: '0 9 * * *', job: report, payload: { team: 1 } },
    ],
  });
  createScheduler({
    driver,
    schedules: [
      { name: 'ok', cron: '0 9 * * *', job: report, payload: { team: 'a' } },
      // @ts-expect-error stored as given, so the digest's default is not applied: limit is needed
      { name: 'no-default', cron: '0 9 * * *', job: digest, payload: { since: 'x' } },
    ],
  });
  const { schedules } = createClient({ driver });
  void schedules.upsert({ name: 'daily', cron: '0 9 * * *', job: report, payload: { team: 'a' } });
  void schedules.upsert({ name: 'by-name', cron: '0 9 * * *', job: 'legacy', payload: [1] });
  // @ts-expect-error a stored schedule's payload is checked against its job too
  void schedules.upsert({ name: 'wrong', cron: '0 9 * * *', job: report, payload: { team: 1 } });
}

describe('schedule payload types', () => {
  it("types a schedule's payload as what its job's run receives", () => {
    expectTypeOf<SchedulePayload<typeof report>>().toEqualTypeOf<{ team: string }>();
    expectTypeOf<SchedulePayload<typeof digest>>().toEqualTypeOf<{
      since: string;
      limit: number;
    }>();
    expectTypeOf<SchedulePayload<'legacy'>>().toEqualTypeOf<Json>();
    const { driver } = memoryOnManualClock();
    const scheduler = createScheduler({
      driver,
      schedules: [{ name: 'daily', cron: '0 9 * * *', job: report, payload: { team: 'core' } }],
    });
    expect(scheduler.isLeader()).toBe(false);
    expect(compileOnly).toBeTypeOf('function');
  });
});
