import type { PauseBackend } from '@berth/core/driver';
import type { OpsContext } from './context.js';

export function pauseStore({ db, sql, clock, channel }: OpsContext): PauseBackend {
  return {
    async pause(queue) {
      const rows = await db.rows<{ paused_at: string }>('pause a queue', sql.pause.pause, [
        queue,
        clock.now(),
      ]);
      return { queue, paused: true, pausedAt: Number(rows[0]?.paused_at) };
    },
    async resume(queue) {
      await db.rows('resume a queue', sql.pause.resume, [queue, channel]);
      return { queue, paused: false };
    },
    async list() {
      const rows = await db.rows<{ queue: string; paused_at: string }>(
        'list paused queues',
        sql.pause.list,
        [],
      );
      return rows.map((row) => ({
        queue: row.queue,
        paused: true,
        pausedAt: Number(row.paused_at),
      }));
    },
  };
}
