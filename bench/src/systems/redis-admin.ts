/** `host`, `port` and `db` of a redis URL, for clients that take options (BullMQ). */
export function redisTarget(url: string): { host: string; port: number; db: number } {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port) || 6379,
    db: Number(parsed.pathname.slice(1)) || 0,
  };
}
