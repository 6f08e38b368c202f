import type {
  ScheduleBackend,
  ScheduleDueRequest,
  ScheduleListRequest,
  ScheduleRecord,
} from '@berth/core/driver';
import type { NatsContext } from './context.js';
import type { ScheduleDoc } from './index/schedule-index.js';
import { payloadOf, readSchedule, toRecord } from './schedule-doc.js';
import { putSchedule, removeSchedule } from './schedule-writes.js';

/** Times a read starts again when a record it found was replaced while it read the payload. */
const TRIES = 8;

const replacedWhileRead = (what: string): Error =>
  new Error(`${what} kept being replaced while read, ${TRIES} times in a row`);

/** The record of exactly `(tenantId, name)`, read from the bucket (the newest value). */
async function getSchedule(
  context: NatsContext,
  name: string,
  tenantId: string | undefined,
): Promise<ScheduleRecord | undefined> {
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const { doc } = await readSchedule(context, { name, tenantId });
    if (doc === undefined) return undefined;
    const found = await payloadOf(context, doc);
    if (found !== undefined) return toRecord(doc, found.payload);
  }
  throw replacedWhileRead(`the schedule ${JSON.stringify(name)}`);
}

/**
 * The records `pick` finds in the mirror once it holds every write made before the call (one
 * round trip: this process's, a sibling's, another process's), with their payloads.
 */
async function fromMirror(
  context: NatsContext,
  pick: (context: NatsContext) => readonly ScheduleDoc[],
): Promise<ScheduleRecord[]> {
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    await context.mirror.syncFull();
    const docs = pick(context);
    const payloads = await Promise.all(docs.map((doc) => payloadOf(context, doc)));
    const records: ScheduleRecord[] = [];
    for (const [at, doc] of docs.entries()) {
      const found = payloads[at];
      if (found === undefined) break;
      records.push(toRecord(doc, found.payload));
    }
    if (records.length === docs.length) return records;
  }
  throw replacedWhileRead('the schedules answered');
}

type On = <A extends unknown[], R>(
  operation: string,
  call: (context: NatsContext, ...args: A) => Promise<R>,
) => (...args: A) => Promise<R>;

/**
 * Stored schedules (`DriverBackend.schedules`). Each schedule is ONE key of the jobs bucket
 * (`c.<hash>.<hash>`), and every put and remove is ONE conditional write of it over the revision
 * read (schedule-writes.ts), so of racing writers exactly one lands. `get` reads the key itself;
 * `list` and `due` read the process's mirror of the bucket (index/schedule-index.ts, kept sorted
 * in list and due order) after a full sync, so each costs one round trip plus what it answers,
 * never a read of every schedule, and sees every write that landed before it.
 */
export const scheduleBackend = (on: On): ScheduleBackend => ({
  put: on('store a schedule', putSchedule),
  get: on('read a schedule', getSchedule),
  remove: on('remove a schedule', removeSchedule),
  list: on('list schedules', (context, request: ScheduleListRequest) =>
    fromMirror(context, ({ index }) => index.schedules.list(request)),
  ),
  due: on('read due schedules', (context, request: ScheduleDueRequest) =>
    fromMirror(context, ({ index }) => index.schedules.due(request)),
  ),
});
