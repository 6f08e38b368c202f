import { describeSharedCursors } from '@berth/conformance';
import type { Driver } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { afterAll } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { dropPrefix, freshPrefix } from './redis-factory.js';

const prefix = freshPrefix();
const opened: Driver[] = [];

afterAll(async () => {
  await Promise.all(opened.map((driver) => driver.close()));
  await dropPrefix(await serverUrl('redis'), prefix);
});

describeSharedCursors('redis', async (cursorSecret) => {
  const driver = createRedisDriver({
    url: await serverUrl('redis'),
    prefix,
    ...(cursorSecret === undefined ? {} : { cursorSecret }),
  });
  opened.push(driver);
  return driver;
});
