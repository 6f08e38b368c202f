import type {
  ClaimedJob,
  ClaimOutcome,
  JobRecord,
  Mutable,
  ScreenedClaim,
} from '@berth/core/driver';
import { type JobRow, toJobRecord } from '../rows.js';
import type { OpsContext } from './context.js';

/** What a claim writes on a final-attempt lapsed lease it buries. */
const LEASE_LAPSED = JSON.stringify({
  code: 'LEASE_LAPSED',
  message: 'the lease lapsed on the final attempt and no attempts remain',
});

type ClaimRow = JobRow & { readonly resumed: boolean };

/**
 * The claim: ONE call of claim_jobs_v2, whose rows are the claimed jobs and the buried ones. A
 * claim that buried rows then tells their ids on the settle channel: claim_jobs_v2 settled them
 * and has committed, and its own statement sends no NOTIFY.
 */
export function claimOps({ db, sql, clock, settleChannel }: OpsContext) {
  /** A hint only: a notice lost here delays a result wait to its poll, never fails the claim. */
  const tellBuried = async (buried: readonly JobRecord[]) => {
    const ids = buried.map((record) => record.id);
    await db.rows('tell settled jobs', sql.notifySettled, [settleChannel, ids]).catch(() => {});
  };

  async function claim(request: ScreenedClaim): Promise<ClaimOutcome> {
    const now = clock.now();
    const rows = await db.rows<ClaimRow>('claim', sql.claim, [
      request.queues,
      now,
      request.limit,
      request.workerId,
      request.visibilityTimeoutMs,
      request.dropExhausted,
      LEASE_LAPSED,
      request.names ?? null,
    ]);
    const claimed: ClaimedJob[] = [];
    const buried: JobRecord[] = [];
    for (const row of rows) {
      const record = toJobRecord(row, now);
      if (record.state === 'running') {
        // Set on the record itself: a copy per claimed row is what a claim decodes slowest.
        (record as Mutable<ClaimedJob>).resumed = row.resumed;
        claimed.push(record as ClaimedJob);
      } else {
        buried.push(record);
      }
    }
    if (buried.length > 0) await tellBuried(buried);
    return { claimed, buried };
  }

  return { claim };
}
