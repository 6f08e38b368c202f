import { afterAll, describe, expect, it } from 'vitest';
import { type BackendReport, formatTable, violations } from '../src/check/report.ts';
import { PROFILES } from '../src/profiles.ts';
import { runBackend } from '../src/run-backend.ts';
import { BACKENDS } from '../src/servers/index.ts';

// The ci profile: ~1,000 jobs per backend through SIGKILLs, a zombie, a server crash, a stalled
// slot holder and a killed scheduler leader, each backend on a private server of its own.
const reports: BackendReport[] = [];

afterAll(() => {
  if (reports.length > 0) console.log(`chaos (ci profile)\n${formatTable(reports)}`);
});

describe('chaos, ci profile', () => {
  for (const backend of BACKENDS) {
    it(`${backend}: nothing acknowledged is lost or run twice, no stale write lands, limits and cron slots hold`, async () => {
      const report = await runBackend(backend, PROFILES.ci);
      reports.push(report);
      expect(report.acknowledged).toBeGreaterThan(0);
      expect(report.workerKills).toBeGreaterThan(0);
      // Every nemesis acted: a run it skipped would prove nothing.
      expect(report.crashes.length).toBe(PROFILES.ci.crashAtMs.length);
      expect(report.zombies).toBe(PROFILES.ci.zombieAtMs.length);
      expect(report.slotStalls).toBe(PROFILES.ci.slotStallAtMs.length);
      expect(report.leaderKills).toBe(PROFILES.ci.leaderKillAtMs.length);
      expect(violations(report)).toEqual([]);
    });
  }
});
