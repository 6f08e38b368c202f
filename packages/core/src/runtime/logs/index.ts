export type { JobLog } from './job-log.js';
export { formatLogValues } from './job-log.js';
export { LOG_FLUSH_MS, LOG_SETTLE_WAIT_MS, LogShipper } from './log-shipper.js';
