/**
 * Handlers that run until the test finishes them, one by one, counting the most that ran at
 * once per key.
 */
export function heldRuns() {
  const running = new Map<string, () => void>();
  const started: string[] = [];
  const now = new Map<string, number>();
  const most = new Map<string, number>();
  return {
    running,
    started,
    most: (key = 'same') => most.get(key) ?? 0,
    async hold(id: string, key = 'same'): Promise<void> {
      started.push(id);
      now.set(key, (now.get(key) ?? 0) + 1);
      most.set(key, Math.max(most.get(key) ?? 0, now.get(key) ?? 0));
      await new Promise<void>((resolve) => running.set(id, resolve));
      running.delete(id);
      now.set(key, (now.get(key) ?? 0) - 1);
    },
    finish(id: string | undefined) {
      if (id !== undefined) running.get(id)?.();
    },
    finishAll() {
      for (const finish of running.values()) finish();
    },
  };
}
