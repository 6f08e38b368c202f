import type { DeadOutboxRow, OutboxAdmin, OutboxStats } from '@berth/core';

/** An outbox in memory, as the dashboard sees one: rows waiting, and dead rows to act on. */
export function memoryOutbox(state: { staged: number; dead: DeadOutboxRow[] }) {
  const calls: string[] = [];
  const act = (ids: readonly string[]) => {
    const done = state.dead.filter((dead) => ids.includes(dead.row.id)).map((dead) => dead.row.id);
    state.dead = state.dead.filter((dead) => !done.includes(dead.row.id));
    return done;
  };
  const outbox: OutboxAdmin = {
    async stats(): Promise<OutboxStats> {
      return {
        staged: state.staged,
        dead: state.dead.length,
        ...(state.staged > 0 ? { oldestStagedAt: Date.UTC(2026, 11, 5) } : {}),
      };
    },
    async dead(options) {
      return state.dead.slice(0, options?.limit ?? 100);
    },
    async retry(ids) {
      calls.push(`retry ${ids.join(',')}`);
      const done = act(ids);
      state.staged += done.length;
      return done;
    },
    async discard(ids) {
      calls.push(`discard ${ids.join(',')}`);
      return act(ids);
    },
  };
  return { outbox, calls };
}

/** A dead job row named `name`, refused as JOB_INVALID. */
export const deadJobRow = (id: string, name: string): DeadOutboxRow => ({
  row: { kind: 'job', id, request: { name, payload: null } },
  refusal: { code: 'JOB_INVALID', message: 'payload is over the 1 KiB limit' },
  stagedAt: Date.UTC(2026, 11, 5, 9),
  deadAt: Date.UTC(2026, 11, 5, 9, 1),
});
