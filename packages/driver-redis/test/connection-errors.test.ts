import { describeConnectionErrors } from '@berth/conformance';
import { createRedisDriver } from '../src/index.js';

describeConnectionErrors({
  driver: 'redis',
  open: (url) => createRedisDriver({ url }),
  option: 'url',
  scheme: 'redis://',
  refusedUrl: 'redis://127.0.0.1:1',
  unresolvableUrl: 'redis://berth-nowhere.invalid:6379',
  foreignUrl: 'postgres://postgres@127.0.0.1:5432/app',
});
