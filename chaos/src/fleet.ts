import { type ChildProcess, spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildMessage, ChildSpec, ParentMessage } from './child/spec.ts';
import { childArgs } from './child-command.ts';
import { now } from './ledger/events.ts';
import type { Island } from './net/netns.ts';

const ENTRY = {
  worker: new URL('./child/worker-main.ts', import.meta.url),
  scheduler: new URL('./child/scheduler-main.ts', import.meta.url),
  producer: new URL('./child/producer-main.ts', import.meta.url),
};

/** One child process of a fleet, with what it last told its parent. */
export interface Member {
  readonly pid: number;
  readonly child: ChildProcess;
  readonly queues: readonly string[];
  /** Keys whose slot one of its handlers holds right now. */
  readonly holding: Map<string, number>;
  /** Steps parked at its gate since it was last told to hold (see child/step-gate.ts). */
  parked: number;
  leader: boolean;
  stopped: boolean;
  exited: boolean;
}

/** What a nemesis did to a process, for the checker. */
export interface Disruption {
  readonly kind: 'kill' | 'stall';
  readonly pid: number;
  readonly role: ChildSpec['role'];
  readonly at: number;
  /** For a stall: when SIGCONT was sent. */
  readonly until?: number;
}

/**
 * Child processes of one role running the same spec. Each runs its entry (childArgs) in the node
 * process itself, no wrapper, so the pid the fleet signals is the worker's own.
 */
export class Fleet {
  readonly members: Member[] = [];
  readonly disruptions: Disruption[] = [];
  private closing = false;

  /** With an island, every process starts inside its network namespace (same pid: `ip netns exec` execs). */
  constructor(
    private readonly spec: ChildSpec,
    private readonly island?: Pick<Island, 'command'>,
  ) {}

  /** Starts one process (with some settings of its own when given); answers once it started. */
  spawn(own: Partial<Pick<ChildSpec, 'queues' | 'pollIntervalMs'>> = {}): Promise<Member> {
    const spec = { ...this.spec, ...own };
    const log = openSync(join(this.spec.ledgerDir, `${this.spec.role}-${Date.now()}.log`), 'a');
    const args = [...childArgs(ENTRY[this.spec.role]), JSON.stringify(spec)];
    const [command, argv] = this.island?.command(process.execPath, args) ?? [
      process.execPath,
      args,
    ];
    const child = spawn(command, argv, { stdio: ['ignore', log, log, 'ipc'] });
    const member: Member = {
      pid: child.pid ?? -1,
      queues: spec.queues,
      child,
      holding: new Map(),
      parked: 0,
      leader: false,
      stopped: false,
      exited: false,
    };
    this.members.push(member);
    return new Promise((resolve, reject) => {
      child.on('message', (message: ChildMessage) => {
        if (message.type === 'ready') resolve(member);
        if (message.type === 'leader') member.leader = message.leader;
        if (message.type === 'parked') member.parked = message.count;
        if (message.type === 'holding') {
          member.holding.set(message.key, (member.holding.get(message.key) ?? 0) + 1);
        }
        if (message.type === 'released') {
          const held = (member.holding.get(message.key) ?? 1) - 1;
          if (held === 0) member.holding.delete(message.key);
          else member.holding.set(message.key, held);
        }
      });
      child.once('exit', (code, signal) => {
        member.exited = true;
        member.holding.clear();
        member.leader = false;
        reject(
          new Error(
            `${this.spec.role} ${member.pid} exited (${code ?? signal}) before it was ready`,
          ),
        );
      });
    });
  }

  /** Tells a worker to hold its steps at the gate (child/step-gate.ts); `parked` restarts at 0. */
  hold(member: Member): void {
    member.parked = 0;
    member.child.send({ type: 'hold' } satisfies ParentMessage);
  }

  /**
   * Lets the worker's parked steps go; answers how many of their attempts were still live (0 if
   * the process is gone).
   */
  release(member: Member): Promise<number> {
    member.parked = 0;
    return new Promise((resolve) => {
      if (member.exited) return resolve(0);
      const onMessage = (message: ChildMessage) => {
        if (message.type !== 'let-go') return;
        done(message.live);
      };
      const done = (live: number) => {
        member.child.off('message', onMessage);
        member.child.off('exit', onExit);
        resolve(live);
      };
      const onExit = () => done(0);
      member.child.on('message', onMessage);
      member.child.once('exit', onExit);
      member.child.send({ type: 'release' } satisfies ParentMessage);
    });
  }

  alive(): Member[] {
    return this.members.filter((member) => !member.exited);
  }

  /** SIGKILL, then a replacement (not awaited: the fleet works on while it boots). */
  kill(member: Member): Promise<Member | undefined> {
    this.disruptions.push({ kind: 'kill', pid: member.pid, role: this.spec.role, at: now() });
    member.child.kill('SIGKILL');
    if (this.closing) return Promise.resolve(undefined);
    return this.spawn().catch(() => undefined);
  }

  /** SIGSTOP for `ms`, then SIGCONT: the process sleeps through its leases and wakes a zombie. */
  async stall(member: Member, ms: number): Promise<void> {
    const at = now();
    member.stopped = true;
    member.child.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, ms));
    member.child.kill('SIGCONT');
    member.stopped = false;
    this.disruptions.push({
      kind: 'stall',
      pid: member.pid,
      role: this.spec.role,
      at,
      until: now(),
    });
  }

  /** SIGTERM (a graceful stop), and SIGKILL for whatever has not exited after `graceMs`. */
  async close(graceMs = 5_000): Promise<void> {
    this.closing = true;
    const exits = this.alive().map(
      (member) =>
        new Promise<void>((resolve) => {
          if (member.exited) return resolve();
          member.child.once('exit', () => resolve());
          if (member.stopped) member.child.kill('SIGCONT');
          member.child.kill('SIGTERM');
        }),
    );
    const timer = setTimeout(() => {
      for (const member of this.alive()) member.child.kill('SIGKILL');
    }, graceMs);
    await Promise.all(exits);
    clearTimeout(timer);
  }
}
