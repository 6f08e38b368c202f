import { describeSharedCursors } from '@berth/conformance';
import type { Driver } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { afterAll } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

const prefix = freshPrefix();
const opened: Driver[] = [];

afterAll(async () => {
  await Promise.all(opened.map((driver) => driver.close()));
  await dropPrefix(await serverUrl('nats'), prefix);
});

describeSharedCursors('nats', async (cursorSecret) => {
  const driver = createNatsDriver({
    servers: await serverUrl('nats'),
    prefix,
    ...(cursorSecret === undefined ? {} : { cursorSecret }),
  });
  opened.push(driver);
  return driver;
});
