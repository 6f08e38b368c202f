import type { ChildMessage, ParentMessage, PhaseReport } from './protocol.ts';

/** What a phase body may add to the child's own clock and CPU. */
export interface PhaseExtras {
  readonly helperCpuUs?: number;
  readonly wallMs?: number;
  readonly latenciesMs?: readonly number[];
}

const pending: Array<() => void> = [];
process.on('message', (message: ParentMessage) => {
  if (message.type === 'go') pending.shift()?.();
});

/** Sends a message and waits for the parent's `go` (it has read the server's CPU by then). */
export function ask(message: ChildMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.send === undefined) {
      reject(new Error('run this file through the bench (it needs the IPC channel)'));
      return;
    }
    pending.push(resolve);
    process.send(message);
  });
}

/**
 * Measures `body` as one phase: the parent reads the server's CPU right before and right after,
 * the child its own wall clock and `process.cpuUsage()`.
 */
export async function measure(
  phase: string,
  jobs: number,
  body: () => Promise<PhaseExtras | undefined>,
): Promise<void> {
  await ask({ type: 'phase-start', phase });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const extras = (await body()) ?? {};
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const report: PhaseReport = {
    phase,
    jobs,
    wallMs: extras.wallMs ?? wallMs,
    clientCpuUs: cpu.user + cpu.system + (extras.helperCpuUs ?? 0),
    ...(extras.latenciesMs === undefined ? {} : { latenciesMs: extras.latenciesMs }),
  };
  await ask({ type: 'phase-end', report });
}
