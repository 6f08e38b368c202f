/**
 * How a chaos child that runs one long-lived part (a worker, a relay) starts it: it exits when its
 * parent goes (the IPC channel closes), tries again every 200 ms while the server is not there
 * yet, and tells the parent `ready` once it runs.
 */
export function startWhenReady(part: { start(): Promise<void> }): void {
  process.once('disconnect', () => process.exit(1));
  const start = async (): Promise<void> => {
    for (;;) {
      try {
        await part.start();
        process.send?.({ type: 'ready' });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  void start();
}
