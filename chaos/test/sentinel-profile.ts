import { afterAll, describe, expect, it } from 'vitest';
import { type BackendReport, formatTable, violations } from '../src/check/report.ts';
import { PROFILES } from '../src/profiles.ts';
import { runBackend } from '../src/run-backend.ts';
import type { Backend } from '../src/servers/index.ts';

/**
 * The ci profile on a private Redis primary + replica + 3 sentinels, drivers with
 * `durability: { replicas: 1 }`: ~1,250 jobs through worker SIGKILLs, a zombie, a stalled slot
 * holder, a killed scheduler leader, and the backend's fault (a primary SIGKILL and failover, or
 * the primary cut off with a worker and a producer beside it).
 */
export function describeSentinel(
  backend: Extract<Backend, 'redis-sentinel' | 'redis-sentinel-partition'>,
  fault: string,
): void {
  let report: BackendReport | undefined;

  afterAll(() => {
    if (report !== undefined) console.log(`chaos (ci profile, ${fault})\n${formatTable([report])}`);
  });

  describe(`chaos, ci profile, Redis Sentinel with durability 1 replica, ${fault}`, () => {
    it(`${backend}: no acknowledged enqueue is lost, nothing completes twice or re-runs a completed step`, async () => {
      report = await runBackend(backend, PROFILES.ci, { durability: true });
      expect(report.acknowledged).toBeGreaterThan(0);
      expect(report.workerKills).toBeGreaterThan(0);
      // The fault and every other nemesis acted: a run one skipped would prove nothing.
      if (backend === 'redis-sentinel') {
        expect(report.crashes.length).toBe(PROFILES.ci.crashAtMs.length);
      } else {
        expect(report.cuts?.length).toBe(PROFILES.ci.primaryPartition.atMs.length);
      }
      expect(report.zombies).toBe(PROFILES.ci.zombieAtMs.length);
      expect(report.slotStalls, report.slotStallTries.join('\n')).toBe(
        PROFILES.ci.slotStallAtMs.length,
      );
      expect(report.leaderKills).toBe(PROFILES.ci.leaderKillAtMs.length);
      expect(report.jobs.lost).toEqual([]);
      expect(violations(report)).toEqual([]);
    });
  });
}
