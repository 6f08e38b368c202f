import type { Json, ScheduleBackend, ScheduleRecord, ScheduleWrite } from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, fieldsOf, ReplyShapeError } from './decode.js';
import {
  SCHEDULE_DUE_LUA,
  SCHEDULE_GET_LUA,
  SCHEDULE_LIST_LUA,
  SCHEDULE_PUT_LUA,
  SCHEDULE_REMOVE_LUA,
} from './lua/generated.js';
import { schedulePosition } from './schedule-position.js';
import { defineScript, type ScriptArg } from './scripts.js';

const PUT = defineScript('schedule-put', SCHEDULE_PUT_LUA);
const GET = defineScript('schedule-get', SCHEDULE_GET_LUA, { readOnly: true });
const REMOVE = defineScript('schedule-remove', SCHEDULE_REMOVE_LUA);
const LIST = defineScript('schedule-list', SCHEDULE_LIST_LUA, { readOnly: true });
const DUE = defineScript('schedule-due', SCHEDULE_DUE_LUA, { readOnly: true });

/** The scripts' "none" for an optional name: core refuses an empty one, so '' is free. */
const orNone = (value: string | undefined): string => value ?? '';

/** The optional fields a hash holds only when set. */
const OPTIONAL_TEXTS = ['tenantId', 'timezone', 'queue'] as const;
const OPTIONAL_NUMBERS = ['priority', 'maxAttempts'] as const;

/** The write's fields but paused and nextAt, as the put script's field/value pairs. */
function fieldPairs(write: ScheduleWrite): string[] {
  const pairs = ['name', write.name, 'cron', write.cron, 'job', write.job];
  pairs.push('payload', JSON.stringify(write.payload));
  for (const field of OPTIONAL_TEXTS) {
    const value = write[field];
    if (value !== undefined) pairs.push(field, value);
  }
  for (const field of OPTIONAL_NUMBERS) {
    const value = write[field];
    if (value !== undefined) pairs.push(field, String(value));
  }
  return pairs;
}

/** A schedule's hash (HGETALL's flat reply) as the contract answers it, in its field order. */
function decodeSchedule(reply: unknown): ScheduleRecord {
  const fields = fieldsOf(reply, 'schedule');
  const text = (field: string): string => {
    const value = fields.get(field);
    if (value === undefined) throw new ReplyShapeError(`schedule hash lacks ${field}`);
    return value;
  };
  const tenantId = fields.get('tenantId');
  const timezone = fields.get('timezone');
  const queue = fields.get('queue');
  const priority = fields.get('priority');
  const maxAttempts = fields.get('maxAttempts');
  return {
    name: text('name'),
    ...(tenantId === undefined ? {} : { tenantId }),
    cron: text('cron'),
    ...(timezone === undefined ? {} : { timezone }),
    job: text('job'),
    ...(queue === undefined ? {} : { queue }),
    payload: JSON.parse(text('payload')) as Json,
    ...(priority === undefined ? {} : { priority: Number(priority) }),
    ...(maxAttempts === undefined ? {} : { maxAttempts: Number(maxAttempts) }),
    paused: text('paused') === '1',
    nextAt: Number(text('nextAt')),
    revision: Number(text('revision')),
    createdAt: Number(text('createdAt')),
    updatedAt: Number(text('updatedAt')),
  };
}

const decodeMany = (reply: unknown, what: string): ScheduleRecord[] =>
  asArray(reply, what).map(decodeSchedule);

/** Stored schedules: every call one script of `lua/scripts/schedule-*.lua` at the driver's clock. */
export function createScheduleStore(context: RedisContext): ScheduleBackend {
  const now = () => context.clock.now();
  /** A by-name call's position (a Buffer: it need not be UTF-8), name and tenant. */
  const named = (name: string, tenantId: string | undefined): ScriptArg[] => [
    schedulePosition(name, tenantId),
    name,
    orNone(tenantId),
  ];
  return {
    async put(write, revision) {
      const reply = await context.run(PUT, now(), [
        ...named(write.name, write.tenantId),
        revision,
        write.paused ? '1' : '0',
        write.nextAt,
        ...fieldPairs(write),
      ]);
      return reply === null ? undefined : decodeSchedule(reply);
    },
    async get(name, tenantId) {
      const reply = await context.run(GET, now(), [name, orNone(tenantId)]);
      return reply === null ? undefined : decodeSchedule(reply);
    },
    async remove(name, tenantId, revision) {
      const reply = await context.run(REMOVE, now(), [...named(name, tenantId), revision]);
      return reply === 1;
    },
    async list(request) {
      const { after } = request;
      const reply = await context.run(LIST, now(), [
        orNone(request.tenantId),
        after === undefined ? '' : schedulePosition(after.name, after.tenantId),
        request.limit,
      ]);
      return decodeMany(reply, 'schedule list');
    },
    async due(request) {
      const reply = await context.run(DUE, now(), [request.upTo, request.limit]);
      return decodeMany(reply, 'due schedules');
    },
  };
}
