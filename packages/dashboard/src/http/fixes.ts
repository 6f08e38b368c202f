/**
 * What fixes a driver refusal, said for someone at the dashboard. Core's fix texts speak to the
 * CLI and to code (`--tenant`, `meta.field`, `next/prev`); here they name the dashboard's own
 * pages and buttons. Codes not listed keep the error's fix (the backend's, the driver's).
 */

export interface FixContext {
  /** The tenant the request is scoped to: its fix may not suggest another. */
  readonly tenantId: string | undefined;
}

type Fix = (context: FixContext) => string;

export const DASHBOARD_FIXES: Readonly<Record<string, Fix>> = {
  JOB_NOT_FOUND: ({ tenantId }) =>
    tenantId === undefined
      ? 'Check the id: the Jobs page lists what the queue holds, and the id search finds a job by any unique start or end of its id.'
      : `Check the id: this dashboard is scoped to tenant ${tenantId} and shows only its jobs (another tenant's job answers as not found); the Jobs page lists them.`,
  JOB_INVALID: () => 'Correct the value the message names and send the request again.',
  JOB_PAGE_INVALID: () =>
    'Start again from the first page (Clear on the Jobs page): a page cursor holds only with the filters that made it. Over the API, pass after= or before= exactly as an answer gave next or prev.',
  JOB_NOT_REQUEUEABLE: () =>
    'Retry the job once it has settled failed, dead or cancelled: the job page shows its state, and a live job is already queued.',
  JOB_NOT_CANCELLABLE: () =>
    'Nothing to cancel: the job has settled. Retry it from its job page if it should run again.',
  JOB_NOT_PROMOTABLE: () =>
    'Promote only a delayed job whose run time has not come: the Jobs page with state delayed lists them.',
  JOB_NOT_DELETABLE: () =>
    'A worker holds this job: cancel it first (Cancel on its page), then delete it.',
  JOB_DUPLICATE: () =>
    'A live job holds this job’s idempotency key: let that job settle (the Jobs page shows it), then retry this one.',
  STEP_INVALID: () => 'Retry from a step the job page lists for this run.',
  BACKFILL_NOT_FOUND: ({ tenantId }) =>
    tenantId === undefined
      ? 'Check the run id: the Backfills page lists the runs the ledger keeps (the last 50 ended runs of each backfill).'
      : `Check the run id: this dashboard is scoped to tenant ${tenantId} and shows only its runs (another tenant's run answers as not found); the Backfills page lists them.`,
  BACKFILL_NOT_ACTIVE: () =>
    'The run has ended and does not move again. To go on from where it stopped, start a new run of the backfill from the app at the cursor the Backfills page shows.',
  SCHEDULE_NOT_FOUND: ({ tenantId }) =>
    tenantId === undefined
      ? 'Check the name and tenant: the Schedules page lists the stored schedules (a schedule of a tenant is named with its tenantId). Schedules given in code are not stored: pause or remove them in the app.'
      : `Check the name: this dashboard is scoped to tenant ${tenantId} and shows only its stored schedules (another tenant's schedule answers as not found); the Schedules page lists them.`,
  BACKFILL_RUNNING: () =>
    'The backfill already has as many runs going as it allows: pause or cancel one on the Backfills page first, or wait for it to end.',
};

/** The dashboard's fix for `code`, or `fallback` (the error's own) when it has none. */
export function dashboardFix(code: string, fallback: string, context: FixContext): string {
  const fix = DASHBOARD_FIXES[code];
  return fix === undefined ? fallback : fix(context);
}
