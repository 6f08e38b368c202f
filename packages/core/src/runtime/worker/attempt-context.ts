import type { ClaimedJob } from '../../contract/records.js';
import type { JobContext } from '../jobs/job-types.js';
import type { StepApi } from '../steps/index.js';
import type { RuntimeLogger } from './logger.js';

/** What the handler context reads from its attempt: each made only when first asked for. */
export interface ContextSource {
  readonly job: ClaimedJob;
  readonly signal: AbortSignal;
  readonly step: StepApi;
  readonly logger: RuntimeLogger;
}

/**
 * The handler's context. `signal`, `step` and `logger` are getters (own and enumerable, so a
 * spread copy still has them): a handler that never reads them costs no AbortController, no step
 * API and no per-job logger. A new member is one more getter or field here.
 */
export function handlerContext(source: ContextSource): JobContext<unknown> {
  const { job } = source;
  return {
    payload: job.payload,
    job,
    attempt: job.attempts,
    get signal() {
      return source.signal;
    },
    get step() {
      return source.step;
    },
    get logger() {
      return source.logger;
    },
  };
}
