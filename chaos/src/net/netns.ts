import { spawnSync } from 'node:child_process';
import { onExit, run } from '@berth/test-servers';

/**
 * A worker host of its own: a network namespace joined to this machine by a veth pair, with a
 * /30 of 10.230.0.0–10.245.255.255 (addresses on this machine only, no route anywhere else).
 * Servers listen on `host` too; a process started with {@link Island.command} reaches them only
 * over the pair, so taking the host end down cuts it off (its packets vanish, as over a cut
 * cable: nothing is refused, calls hang) while every other process carries on.
 */
export interface Island {
  /** The namespace's name, for `ip netns exec`. */
  readonly ns: string;
  /** This machine's end of the pair: the address servers listen on for the island. */
  readonly host: string;
  /** The island's own address (its processes' source address). */
  readonly address: string;
  /** The host end's network, `a.b.c.d/30`, for a server's client allow-list (pg_hba). */
  readonly network: string;
  /** `[command, args]` that run `command args` inside the namespace under the same pid. */
  command(command: string, args: readonly string[]): [string, string[]];
  /** Takes the host end down: the island's packets go nowhere until {@link heal}. */
  cut(): Promise<void>;
  heal(): Promise<void>;
  /** Whether a TCP connection from inside the island to `host:port` opens within `timeoutMs`. */
  reaches(port: number, timeoutMs?: number): Promise<boolean>;
  /** Deletes the namespace (and with it both ends of the pair). Idempotent. */
  remove(): Promise<void>;
}

/** Every name this suite gives a namespace or link starts so; the owner's pid follows. */
const PREFIX = 'bch';
const FIRST_OCTET = 10;
const SECOND_OCTETS = [230, 245] as const;
const BLOCKS = (SECOND_OCTETS[1] - SECOND_OCTETS[0] + 1) * 256 * 64;

let made = 0;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid in a name this suite gave, `bch<pid>n<k>` or `bch<pid>h<k>`. */
const ownerOf = (name: string): number | undefined => {
  const match = new RegExp(`^${PREFIX}(\\d+)[nh]\\d+`).exec(name);
  return match === null ? undefined : Number(match[1]);
};

/**
 * Removes what a run that died without its cleanup (SIGKILLed, the machine rebooted under it)
 * left: namespaces and host links named for a pid that no longer runs. Another run's islands,
 * alive, are left alone.
 */
export async function removeStaleIslands(): Promise<void> {
  const namespaces = (await run('ip', ['netns', 'list']))
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '');
  for (const ns of namespaces) {
    const owner = ownerOf(ns);
    if (owner !== undefined && !alive(owner)) await run('ip', ['netns', 'del', ns]).catch(() => '');
  }
  const links = (await run('ip', ['-br', 'link']))
    .split('\n')
    .map((line) => (line.split(' ')[0] ?? '').split('@')[0] ?? '');
  for (const link of links) {
    const owner = ownerOf(link);
    if (owner !== undefined && !alive(owner))
      await run('ip', ['link', 'del', link]).catch(() => '');
  }
}

/** The first /30 from this pid's spot on that no interface of this machine uses yet. */
async function freeBlock(): Promise<readonly [string, string, string]> {
  const used = await run('ip', ['-4', '-br', 'addr']);
  for (let tries = 0; tries < 64; tries++) {
    const block = (process.pid * 8 + made * 2 + tries * 7919) % BLOCKS;
    const second = SECOND_OCTETS[0] + Math.floor(block / (256 * 64));
    const third = Math.floor(block / 64) % 256;
    const fourth = (block % 64) * 4;
    const base = `${FIRST_OCTET}.${second}.${third}`;
    const host = `${base}.${fourth + 1}`;
    if (!used.includes(` ${host}/`) && !used.includes(` ${base}.${fourth + 2}/`)) {
      return [host, `${base}.${fourth + 2}`, `${base}.${fourth}/30`];
    }
  }
  throw new Error('no free /30 in 10.230.0.0-10.245.255.255 for a chaos island');
}

/** Makes an island (as root: `ip netns` needs it). Removed by `remove()`, or when this process exits. */
export async function createIsland(): Promise<Island> {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'the partition nemesis needs root for `ip netns` (run the chaos suite as root)',
    );
  }
  await removeStaleIslands();
  const k = made++;
  const ns = `${PREFIX}${process.pid}n${k}`;
  const hostLink = `${PREFIX}${process.pid}h${k}`;
  const islandLink = `${PREFIX}${process.pid}i${k}`;
  const [host, address, network] = await freeBlock();
  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    unregister();
    await run('ip', ['netns', 'del', ns]).catch(() => '');
    await run('ip', ['link', 'del', hostLink]).catch(() => '');
  };
  const unregister = onExit(() => {
    spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
  });
  try {
    await run('ip', ['netns', 'add', ns]);
    await run('ip', ['link', 'add', hostLink, 'type', 'veth', 'peer', 'name', islandLink]);
    await run('ip', ['link', 'set', islandLink, 'netns', ns]);
    await run('ip', ['addr', 'add', `${host}/30`, 'dev', hostLink]);
    await run('ip', ['link', 'set', hostLink, 'up']);
    await run('ip', ['-n', ns, 'addr', 'add', `${address}/30`, 'dev', islandLink]);
    await run('ip', ['-n', ns, 'link', 'set', islandLink, 'up']);
    await run('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
  } catch (error) {
    await remove();
    throw error;
  }
  return {
    ns,
    host,
    address,
    network,
    command: (command, args) => ['ip', ['netns', 'exec', ns, command, ...args]],
    cut: async () => {
      await run('ip', ['link', 'set', hostLink, 'down']);
    },
    heal: async () => {
      await run('ip', ['link', 'set', hostLink, 'up']);
    },
    reaches: (port, timeoutMs = 500) =>
      run('ip', [
        'netns',
        'exec',
        ns,
        'timeout',
        String(timeoutMs / 1_000),
        'bash',
        '-c',
        `exec 3<>/dev/tcp/${host}/${port}`,
      ]).then(
        () => true,
        () => false,
      ),
    remove,
  };
}
