import {
  type JobLogLevel,
  jobNotFound,
  type LogBackend,
  MAX_JOB_LOG_LINES,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, asString } from './decode.js';
import { LOGS_APPEND_LUA, LOGS_LIST_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const APPEND = defineScript('logs-append', LOGS_APPEND_LUA);
const LIST = defineScript('logs-list', LOGS_LIST_LUA, { readOnly: true });

/** Job logs: each call ONE script. */
export function createLogStore(context: RedisContext): LogBackend {
  return {
    async append(fence, batch) {
      const args: (string | number)[] = [
        fence.jobId,
        fence.workerId,
        fence.claim,
        batch.from,
        MAX_JOB_LOG_LINES,
      ];
      for (const line of batch.lines) args.push(line.at, line.level, line.message);
      return (await context.run(APPEND, context.clock.now(), args)) === 1;
    },
    async list(jobId, options) {
      const tenant = options.tenantId === undefined ? 'n' : `t${options.tenantId}`;
      const reply = asArray(
        await context.run(LIST, context.clock.now(), [
          jobId,
          tenant,
          options.after,
          options.limit + 1,
        ]),
        'job logs',
      );
      if (reply[0] !== 1) throw jobNotFound(jobId);
      const dropped = Number(asString(reply[1], 'job logs'));
      const lines = reply.slice(2).map((entry, index) => {
        const text = asString(entry, 'job logs');
        const first = text.indexOf('\0');
        const second = text.indexOf('\0', first + 1);
        const third = text.indexOf('\0', second + 1);
        return {
          seq: options.after + index + 1,
          attempt: Number(text.slice(0, first)),
          at: Number(text.slice(first + 1, second)),
          level: text.slice(second + 1, third) as JobLogLevel,
          message: text.slice(third + 1),
        };
      });
      return { lines, dropped };
    },
  };
}
