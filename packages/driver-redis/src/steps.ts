import {
  type Fence,
  leaseLost,
  type StepRecord,
  type StepStore,
  stepInvalid,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, asString } from './decode.js';
import { STEP_LIST_LUA, STEP_PUT_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const STEP_PUT = defineScript('step-put', STEP_PUT_LUA);
const STEP_LIST = defineScript('step-list', STEP_LIST_LUA, { readOnly: true });

const stepOf = (text: string): StepRecord => JSON.parse(text) as StepRecord;

export function createStepStore(context: RedisContext): StepStore {
  return {
    async get(runId, name) {
      const text = await context.redis.hget(context.keys.steps(runId), name);
      return text === null ? undefined : stepOf(text);
    },
    async put(record: StepRecord, fence: Fence) {
      const reply = await context.run(STEP_PUT, context.clock.now(), [
        fence.jobId,
        fence.workerId,
        fence.claim,
        record.runId,
        record.name,
        JSON.stringify(record),
      ]);
      const [answer, fencedRun] = asArray(reply, 'step put');
      if (answer === 'lost') throw leaseLost(fence);
      if (answer === 'run') {
        throw stepInvalid(
          `step ${JSON.stringify(record.name)} names run ${record.runId}, not run ${asString(fencedRun, 'step put')} of job ${fence.jobId}`,
          {
            jobId: fence.jobId,
            runId: record.runId,
            step: record.name,
          },
        );
      }
    },
    async list(runId) {
      const rows = asArray(await context.run(STEP_LIST, context.clock.now(), [runId]), 'steps');
      return rows.filter((row) => row !== null).map((row) => stepOf(asString(row, 'steps')));
    },
  };
}
