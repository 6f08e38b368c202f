import { randomUUID } from 'node:crypto';
import type { BatchOutcome, DeadOutboxRow, OutboxBatch, StagedRow } from '@berth/core';
import type { OutboxStoreUnderTest } from '../src/index.js';

interface Entry {
  readonly row: StagedRow;
  readonly stagedAt: number;
  held: boolean;
  dead?: { readonly refusal: DeadOutboxRow['refusal']; readonly at: number };
}

/**
 * An outbox store in memory: the smallest implementation of the kit's contract, and a base for
 * broken copies (`breakIt`) the kit must refuse.
 */
export function memoryOutbox(
  breakIt: { readonly takeHeld?: boolean; readonly deadTakenAgain?: boolean } = {},
): OutboxStoreUnderTest {
  const entries: Entry[] = [];
  const waiting = (entry: Entry) =>
    (breakIt.deadTakenAgain === true || entry.dead === undefined) &&
    (breakIt.takeHeld === true || !entry.held);
  const listeners = new Set<() => void>();
  const stage = (row: StagedRow) => {
    entries.push({ row, stagedAt: Date.now(), held: false });
    for (const listener of listeners) listener();
  };
  const release = (taken: readonly Entry[]) => {
    for (const entry of taken) entry.held = false;
  };
  return {
    store: {
      async take(limit): Promise<OutboxBatch | undefined> {
        const taken = entries.filter(waiting).slice(0, limit);
        if (taken.length === 0) return undefined;
        for (const entry of taken) entry.held = true;
        return {
          rows: taken.map((entry) => entry.row),
          async finish(outcome: BatchOutcome) {
            release(taken);
            for (const id of outcome.relayed) {
              const at = entries.findIndex((entry) => entry.row.id === id);
              if (at >= 0) entries.splice(at, 1);
            }
            for (const { id, error } of outcome.dead) {
              const entry = entries.find((candidate) => candidate.row.id === id);
              if (entry !== undefined) {
                entry.dead = {
                  refusal:
                    error.code === undefined
                      ? { message: error.message }
                      : { code: error.code, message: error.message },
                  at: Date.now(),
                };
              }
            }
          },
          async abandon() {
            release(taken);
          },
        };
      },
      async onStaged(listener) {
        listeners.add(listener);
        return async () => {
          listeners.delete(listener);
        };
      },
    },
    admin: {
      async stats() {
        const live = entries.filter((entry) => entry.dead === undefined);
        const oldest = live[0]?.stagedAt;
        return {
          staged: live.length,
          dead: entries.length - live.length,
          ...(oldest === undefined ? {} : { oldestStagedAt: oldest }),
        };
      },
      async dead(options = {}) {
        return entries
          .filter((entry) => entry.dead !== undefined)
          .slice(0, options.limit ?? 100)
          .map((entry) => ({
            row: entry.row,
            refusal: entry.dead?.refusal ?? { message: '' },
            stagedAt: entry.stagedAt,
            deadAt: entry.dead?.at ?? entry.stagedAt,
          }));
      },
      async retry(ids) {
        const dead = entries.filter(
          (entry) => entry.dead !== undefined && ids.includes(entry.row.id),
        );
        for (const entry of dead) delete entry.dead;
        return dead.map((entry) => entry.row.id);
      },
      async discard(ids) {
        const dead = entries.filter(
          (entry) => entry.dead !== undefined && ids.includes(entry.row.id),
        );
        for (const entry of dead) entries.splice(entries.indexOf(entry), 1);
        return dead.map((entry) => entry.row.id);
      },
    },
    async stageJobs(count) {
      const ids: string[] = [];
      for (let n = 0; n < count; n += 1) {
        const id = randomUUID();
        stage({ kind: 'job', id, request: { id, name: 'kit.outbox', payload: { n } } });
        ids.push(id);
      }
      return ids;
    },
    async stageEvent(name) {
      const id = randomUUID();
      stage({ kind: 'event', id, name, payload: {} });
      return id;
    },
    dispose: async () => {
      listeners.clear();
    },
  };
}
