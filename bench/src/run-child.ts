import { fork } from 'node:child_process';
import { openMeter } from './cpu/meters.ts';
import { applicationNameFor } from './naming.ts';
import type { ChildMessage, ChildTask, PhaseReport } from './protocol.ts';
import { cleanUp } from './servers.ts';
import type { SystemDefinition } from './systems/types.ts';

/** One phase as the report uses it: the child's figures plus the server's CPU over it. */
export interface PhaseRecord extends PhaseReport {
  /** Undefined when the server's CPU could not be seen (a server on another machine). */
  readonly serverCpuUs: number | undefined;
}

export interface RunRecord {
  readonly round: number;
  readonly workload: ChildTask['workload'];
  readonly system: string;
  readonly tag: string;
  readonly phases: readonly PhaseRecord[];
  readonly error?: string;
}

const CHILD = new URL('./child.ts', import.meta.url);

/**
 * Runs one system through one workload in a child process. At every phase boundary the child
 * waits while the parent reads the server's CPU. Whatever happens, the run's schema and keys
 * are removed afterwards.
 */
export async function runChild(
  task: ChildTask,
  system: SystemDefinition,
  round: number,
  timeoutMs: number,
): Promise<RunRecord> {
  const phases: PhaseRecord[] = [];
  let error: string | undefined;
  const meter = await openMeter(system, task.urls, applicationNameFor(task.tag));
  try {
    const child = fork(CHILD, [JSON.stringify(task)], {
      execArgv: process.execArgv,
      env: { ...process.env, PGAPPNAME: applicationNameFor(task.tag), NO_LOG_SUCCESS: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let startCpu: number | undefined;
    let handling = Promise.resolve();
    const handle = async (message: ChildMessage) => {
      try {
        if (message.type === 'phase-start') startCpu = await meter.read();
        if (message.type === 'phase-end') {
          const endCpu = await meter.read();
          const serverCpuUs =
            startCpu === undefined || endCpu === undefined ? undefined : endCpu - startCpu;
          phases.push({ ...message.report, serverCpuUs });
        }
        if (message.type === 'failed') error ??= message.message;
        if (child.connected) child.send({ type: 'go' });
      } catch (caught) {
        // The meter lost its server (restarted under the run): the run's figures are void.
        error ??= `reading the server's CPU failed: ${caught instanceof Error ? caught.message : caught}`;
        child.kill('SIGKILL');
      }
    };
    child.on('message', (message: ChildMessage) => {
      handling = handling.then(() => handle(message));
    });
    const timer = setTimeout(() => {
      error = `timed out after ${timeoutMs} ms`;
      child.kill('SIGKILL');
    }, timeoutMs);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    await handling;
    if (code !== 0 && error === undefined) error = `the child exited with ${code}`;
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  } finally {
    await meter.close();
    await cleanUp(system.server, task.urls, task.tag);
  }
  const record = { round, workload: task.workload, system: system.name, tag: task.tag, phases };
  return error === undefined ? record : { ...record, error };
}
