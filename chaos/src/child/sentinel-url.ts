/**
 * How a run names a Sentinel-managed Redis to its processes, in the one `url` string a child's
 * spec carries: `redis-sentinel://h1:p1,h2:p2,h3:p3/<name>?replicas=1&timeoutMs=1000`. The query
 * is the driver's `durability` option; without it the driver waits for no replica.
 */
export interface SentinelTarget {
  readonly sentinels: readonly { readonly host: string; readonly port: number }[];
  readonly name: string;
  readonly durability?: { readonly replicas: number; readonly timeoutMs: number };
}

const SCHEME = 'redis-sentinel://';

export function sentinelUrl(target: SentinelTarget): string {
  const hosts = target.sentinels.map(({ host, port }) => `${host}:${port}`).join(',');
  const query =
    target.durability === undefined
      ? ''
      : `?replicas=${target.durability.replicas}&timeoutMs=${target.durability.timeoutMs}`;
  return `${SCHEME}${hosts}/${target.name}${query}`;
}

export function parseSentinelUrl(url: string): SentinelTarget {
  if (!url.startsWith(SCHEME)) throw new Error(`not a ${SCHEME} url: ${url}`);
  const [path = '', query] = url.slice(SCHEME.length).split('?');
  const [hosts = '', name = ''] = path.split('/');
  const sentinels = hosts.split(',').map((hostPort) => {
    const [host = '', port = ''] = hostPort.split(':');
    return { host, port: Number(port) };
  });
  if (query === undefined) return { sentinels, name };
  const params = new URLSearchParams(query);
  return {
    sentinels,
    name,
    durability: {
      replicas: Number(params.get('replicas')),
      timeoutMs: Number(params.get('timeoutMs')),
    },
  };
}
