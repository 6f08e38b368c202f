import { attemptsSql } from './attempts.js';
import { backfillsSql } from './backfills.js';
import { checkSql } from './check.js';
import { claimSql } from './claim.js';
import { deleteSql } from './delete.js';
import { enqueueSql } from './enqueue.js';
import { enqueueAdvancingSql } from './enqueue-advancing.js';
import { enqueueManySql } from './enqueue-many.js';
import { eventsSql } from './events.js';
import { extendManySql } from './extend-many.js';
import { leasesSql } from './leases.js';
import { lifecycleSql } from './lifecycle.js';
import { listSql } from './list.js';
import { logsSql } from './logs.js';
import { marksSql } from './marks.js';
import { operatorSql } from './operator.js';
import { pauseSql } from './pause.js';
import { progressSql } from './progress.js';
import { schedulesSql } from './schedules.js';
import { settleSql } from './settle.js';
import { notifySettledSql } from './settle-notice.js';
import { stepsSql } from './steps.js';

/** Every statement the driver sends, built once for the quoted schema `s`. */
export function statements(s: string) {
  return {
    enqueue: enqueueSql(s),
    enqueueAdvancing: enqueueAdvancingSql(s),
    enqueueMany: enqueueManySql(s),
    claim: claimSql(s),
    settle: settleSql(s),
    notifySettled: notifySettledSql,
    extendMany: extendManySql(s),
    operator: operatorSql(s),
    delete: deleteSql(s),
    progress: progressSql(s),
    list: listSql(s),
    steps: stepsSql(s),
    attempts: attemptsSql(s),
    events: eventsSql(s),
    leases: leasesSql(s),
    marks: marksSql(s),
    pause: pauseSql(s),
    backfills: backfillsSql(s),
    schedules: schedulesSql(s),
    logs: logsSql(s),
    lifecycle: lifecycleSql(s),
    check: checkSql(s),
  };
}

export type Statements = ReturnType<typeof statements>;
