import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** Clock ticks per second of /proc's CPU fields (`getconf CLK_TCK`, 100 almost everywhere). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * CPU µs (user + system) a process has used, from /proc/<pid>/stat, when its `comm` is `name`;
 * undefined when it is gone, unreadable, or another program (a pid from another namespace).
 */
export function processCpuUs(pid: number, name: string): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (stat.slice(open + 1, close) !== name) return undefined;
  // Fields after "(comm)": state is field 3, utime 14, stime 15.
  const fields = stat.slice(close + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / clockTicks();
}

/** Pids of every process whose `comm` is `name`. */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids;
}
