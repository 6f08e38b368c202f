import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { onExit, run } from '@berth/test-servers';

/** Every namespace this module makes is named `berth-sentinel-<owner pid>-<n>`. */
const PREFIX = 'berth-sentinel-';

/**
 * A network namespace joined to the machine by a veth pair with a /30 of 10.246.x.y: the host
 * end holds `hostIp`, the namespace end `nsIp`. No address leaves the machine (nothing forwards
 * or routes them elsewhere). `cut()` makes both sides drop each other's packets silently —
 * connections already open hang, new ones fail — while traffic inside each side goes on.
 */
export interface ServerNetns {
  readonly name: string;
  readonly hostIp: string;
  readonly nsIp: string;
  /** The command prefix that runs a program inside the namespace (`ip netns exec <name>`). */
  readonly exec: readonly string[];
  cut(): Promise<void>;
  heal(): Promise<void>;
  /** Removes the namespace, the veth pair and any cut; kills what still runs inside. Idempotent. */
  remove(): Promise<void>;
}

let made = 0;

/** For exit handlers, which cannot wait. */
const runNow = (command: string, args: readonly string[]) => {
  spawnSync(command, args, { stdio: 'ignore' });
};

const pidAlive = (pid: number) => existsSync(`/proc/${pid}`);

/** Namespaces (and their routes) left by runs whose process is gone, e.g. SIGKILLed. */
export async function removeStaleNetns(): Promise<void> {
  const listed = await run('ip', ['netns', 'list']);
  for (const line of listed.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    if (!name.startsWith(PREFIX)) continue;
    const owner = Number(name.slice(PREFIX.length).split('-')[0]);
    if (Number.isInteger(owner) && owner > 0 && pidAlive(owner)) continue;
    await dropNetns(name);
  }
  // A cut of a dead run leaves a blackhole route on the host.
  const routes = await run('ip', ['route', 'show', 'type', 'blackhole']);
  for (const line of routes.split('\n')) {
    const match = /^blackhole (10\.246\.\d+\.\d+)/.exec(line);
    if (match?.[1] !== undefined && !(await hostHolds(hostEndOf(match[1])))) {
      await run('ip', ['route', 'del', 'blackhole', `${match[1]}/32`]).catch(() => '');
    }
  }
}

const hostEndOf = (nsIp: string) => nsIp.replace(/\.(\d+)$/, (_, last) => `.${Number(last) - 1}`);

async function hostHolds(ip: string): Promise<boolean> {
  const addresses = await run('ip', ['-o', '-4', 'addr', 'show']);
  return addresses.includes(` ${ip}/`);
}

async function dropNetns(name: string): Promise<void> {
  // What runs inside a namespace of ours was started by the suite: nothing else lives there.
  const pids = await run('ip', ['netns', 'pids', name]).catch(() => '');
  for (const pid of pids.split('\n').map(Number)) {
    if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  await run('ip', ['netns', 'del', name]).catch(() => '');
}

/** A free /30 in 10.246.128.0/17: its host end is on no interface of the machine yet. */
async function freeSubnet(): Promise<{ hostIp: string; nsIp: string }> {
  const addresses = await run('ip', ['-o', '-4', 'addr', 'show']);
  for (let tries = 0; tries < 1_000; tries++) {
    const third = 128 + Math.floor(Math.random() * 128);
    const base = Math.floor(Math.random() * 64) * 4;
    const hostIp = `10.246.${third}.${base + 1}`;
    if (!addresses.includes(` 10.246.${third}.${base + 1}/`)) {
      return { hostIp, nsIp: `10.246.${third}.${base + 2}` };
    }
  }
  throw new Error('no free /30 in 10.246.128.0/17');
}

/** Makes a namespace of its own (stale ones of earlier runs removed first). Needs root. */
export async function createServerNetns(): Promise<ServerNetns> {
  await removeStaleNetns();
  const name = `${PREFIX}${process.pid}-${made++}`;
  // Interface names have at most 15 characters.
  const tag = `${process.pid.toString(36)}${made.toString(36)}`;
  const hostEnd = `bs${tag}h`;
  const nsEnd = `bs${tag}n`;
  const { hostIp, nsIp } = await freeSubnet();
  const inNs = (...args: string[]) => run('ip', ['netns', 'exec', name, 'ip', ...args]);
  let removed = false;
  let isCut = false;
  const unregister = onExit(() => {
    if (isCut) runNow('ip', ['route', 'del', 'blackhole', `${nsIp}/32`]);
    runNow('ip', ['netns', 'del', name]);
  });
  const remove = async () => {
    if (removed) return;
    removed = true;
    unregister();
    if (isCut) await run('ip', ['route', 'del', 'blackhole', `${nsIp}/32`]).catch(() => '');
    await dropNetns(name);
    // Deleting the namespace deletes its veth end and with it the pair; this is for a half-made one.
    await run('ip', ['link', 'del', hostEnd]).catch(() => '');
  };
  try {
    await run('ip', ['netns', 'add', name]);
    await run('ip', ['link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', nsEnd]);
    await run('ip', ['link', 'set', nsEnd, 'netns', name]);
    await run('ip', ['addr', 'add', `${hostIp}/30`, 'dev', hostEnd]);
    await run('ip', ['link', 'set', hostEnd, 'up']);
    await inNs('addr', 'add', `${nsIp}/30`, 'dev', nsEnd);
    await inNs('link', 'set', nsEnd, 'up');
    await inNs('link', 'set', 'lo', 'up');
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    name,
    hostIp,
    nsIp,
    exec: ['ip', 'netns', 'exec', name],
    // A blackhole route on each side for the other's address: more specific than the /30, so
    // packets across are dropped, while each side's own addresses stay in its local table.
    async cut() {
      isCut = true;
      await run('ip', ['route', 'add', 'blackhole', `${nsIp}/32`]);
      await inNs('route', 'add', 'blackhole', `${hostIp}/32`);
    },
    async heal() {
      await inNs('route', 'del', 'blackhole', `${hostIp}/32`);
      await run('ip', ['route', 'del', 'blackhole', `${nsIp}/32`]);
      isCut = false;
    },
    remove,
  };
}
