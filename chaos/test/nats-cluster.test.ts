import { afterAll, describe, expect, it } from 'vitest';
import { type BackendReport, formatTable, violations } from '../src/check/report.ts';
import { PROFILES } from '../src/profiles.ts';
import { runBackend } from '../src/run-backend.ts';

// The ci profile on a private 3-node cluster of nats-server 2.10 with replicas: 3: the NATS
// README's production setting. The server crash is a leader kill: the server leading the jobs
// stream is SIGKILLed mid-run and started again after downMs.
const reports: BackendReport[] = [];

afterAll(() => {
  if (reports.length > 0) console.log(`chaos (ci profile, nats cluster)\n${formatTable(reports)}`);
});

describe('chaos, ci profile, 3-node nats-server 2.10 cluster', () => {
  it('nats-cluster: nothing acknowledged is lost or run twice, no stale write lands, limits and cron slots hold through a stream leader kill', async () => {
    const report = await runBackend('nats-cluster', PROFILES.ci);
    reports.push(report);
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.workerKills).toBeGreaterThan(0);
    expect(report.crashes.length).toBe(PROFILES.ci.crashAtMs.length);
    expect(report.zombies).toBe(PROFILES.ci.zombieAtMs.length);
    expect(report.slotStalls).toBe(PROFILES.ci.slotStallAtMs.length);
    expect(report.leaderKills).toBe(PROFILES.ci.leaderKillAtMs.length);
    expect(violations(report)).toEqual([]);
  });
});
