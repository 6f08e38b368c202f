import type { RedisCluster } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { freshPrefix } from './redis-factory.js';

/** The slot every prefix handed out shares its master with. */
const HOME_SLOT = 0;

/**
 * A fresh prefix whose slot (the driver's keys are `{prefix}:...`) lies in the slot range that
 * holds HOME_SLOT, so every such prefix lives on one master, in one server process: a case that
 * compares two stores (group `scale`) then sees a busy master in both alike, not in one only.
 * A prefix falls in a range of a third of the slots about every third try.
 */
export async function shardPrefix(cluster: RedisCluster): Promise<string> {
  const node = cluster.nodes.find((candidate) => candidate.running());
  if (node === undefined) throw new Error('no node of this cluster runs');
  const admin = new Redis({ port: node.port, lazyConnect: true, maxRetriesPerRequest: 1 });
  admin.on('error', () => {});
  try {
    await admin.connect();
    const ranges = await admin.cluster('SLOTS');
    const home = ranges.find(([from, to]) => from <= HOME_SLOT && HOME_SLOT <= to);
    if (home === undefined) throw new Error(`slot ${HOME_SLOT} has no master`);
    const [from, to] = home;
    for (;;) {
      const prefix = freshPrefix();
      const slot = Number(await admin.cluster('KEYSLOT', `{${prefix}}:`));
      if (from <= slot && slot <= to) return prefix;
    }
  } finally {
    admin.disconnect();
  }
}
