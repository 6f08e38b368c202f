import { schemaFor } from '../naming.ts';
import { analyzeSchema, withPg } from '../systems/pg-admin.ts';
import type { FloorRunner, SystemDefinition } from '../systems/types.ts';
import {
  claimCompleteScript,
  createFloorTable,
  enqueueScript,
  FLOOR_BATCH,
  FLOOR_SESSION,
} from './pg-floor-sql.ts';
import { hasPgbench, pgbench } from './pgbench.ts';

export const pgFloor: SystemDefinition = {
  name: 'pg-floor',
  role: 'floor',
  server: 'pg',
  workloads: ['burn20k', 'burn20k-analyzed', 'burn100k', 'bulk'],
  settings:
    'pgbench, 1 connection, -M prepared, bitmap and seq scans off: INSERT 1000 from generate_series; claim 1000 FOR UPDATE SKIP LOCKED + complete by array',
  available: hasPgbench,
  async open(task) {
    const url = task.urls.pg;
    const schema = schemaFor(task.tag);
    await withPg(url, (client) => client.query(createFloorTable(schema)));
    const transactions = (total: number) => Math.ceil(total / FLOOR_BATCH);
    const floor: FloorRunner = {
      kind: 'floor',
      enqueueAll: (total) =>
        pgbench(url, enqueueScript(schema), transactions(total), FLOOR_SESSION),
      processAll: (total) =>
        pgbench(url, claimCompleteScript(schema), transactions(total), FLOOR_SESSION),
      analyze: () => analyzeSchema(url, schema),
      close: async () => {},
    };
    return floor;
  },
};
