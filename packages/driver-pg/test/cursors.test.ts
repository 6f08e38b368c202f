import { describeSharedCursors } from '@berth/conformance';
import type { Driver } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { afterAll, beforeAll } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

const schema = freshSchema();
const opened: Driver[] = [];

beforeAll(async () => {
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  opened.push(driver);
  await driver.migrate();
});

afterAll(async () => {
  await Promise.all(opened.map((driver) => driver.close()));
  await dropSchema(schema);
});

describeSharedCursors('pg', async (cursorSecret) => {
  const driver = createPgDriver({
    connectionString: await serverUrl('pg'),
    schema,
    ...(cursorSecret === undefined ? {} : { cursorSecret }),
  });
  opened.push(driver);
  return driver;
});
