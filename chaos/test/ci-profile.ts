import { afterAll, describe, expect, it } from 'vitest';
import { partitionsIdle } from '../src/check/partition.ts';
import { type BackendReport, formatTable, violations } from '../src/check/report.ts';
import { PROFILES } from '../src/profiles.ts';
import { PARTITIONED, runBackend } from '../src/run-backend.ts';
import type { Backend } from '../src/servers/index.ts';

/**
 * The ci profile on one backend, on a private server (or cluster) of its own: ~1,000 jobs
 * through SIGKILLs, a zombie, a server crash (on a cluster, a stream leader kill), a stalled slot
 * holder, a killed scheduler leader and (single servers) a worker host cut off twice. One file per backend, so two backends run at once.
 */
export function describeCiProfile(backend: Backend, setting: string, claim: string): void {
  let report: BackendReport | undefined;

  afterAll(() => {
    if (report !== undefined)
      console.log(
        `chaos (ci profile, ${setting})\n${formatTable([report])}\n${report.slotStallTries.join('\n')}`,
      );
  });

  describe(`chaos, ci profile, ${setting}`, () => {
    it(`${backend}: nothing acknowledged is lost or run twice, no stale write lands, limits and cron slots hold${claim}`, async () => {
      report = await runBackend(backend, PROFILES.ci);
      expect(report.acknowledged).toBeGreaterThan(0);
      expect(report.workerKills).toBeGreaterThan(0);
      // Every nemesis acted: a run it skipped would prove nothing.
      expect(report.crashes.length).toBe(PROFILES.ci.crashAtMs.length);
      expect(report.zombies).toBe(PROFILES.ci.zombieAtMs.length);
      expect(report.slotStalls, report.slotStallTries.join('\n')).toBe(
        PROFILES.ci.slotStallAtMs.length,
      );
      expect(report.leaderKills).toBe(PROFILES.ci.leaderKillAtMs.length);
      const windows = PARTITIONED.includes(backend) ? PROFILES.ci.partitions : [];
      expect(partitionsIdle(report.partitions, windows, PROFILES.ci.leaseMs)).toEqual([]);
      expect(violations(report)).toEqual([]);
    });
  });
}
