import type { DriverBackend } from './contract/driver.js';
import type { LogStore } from './contract/logs.js';
import { screenLogAppend, screenLogList } from './screen/logs.js';
import { screenId } from './screen/operator.js';
import { screenFence } from './screen/settle.js';

type Run = <T>(operation: string, call: () => Promise<T>) => Promise<T>;

/** `driver.logs`: inputs screened once, the page cut to `limit` with its `next` made here. */
export function screenedLogStore(backend: DriverBackend, run: Run): LogStore {
  return {
    append: (fence, batch) =>
      run('append job logs', () => backend.logs.append(screenFence(fence), screenLogAppend(batch))),
    list: (jobId, options) =>
      run('list job logs', async () => {
        const screened = screenLogList(options);
        const { lines, dropped } = await backend.logs.list(screenId(jobId), screened);
        if (lines.length <= screened.limit) return { lines, dropped };
        const page = lines.slice(0, screened.limit);
        return { lines: page, next: page[page.length - 1]?.seq ?? screened.after, dropped };
      }),
  };
}
