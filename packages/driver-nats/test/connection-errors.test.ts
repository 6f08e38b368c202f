import { describeConnectionErrors } from '@berth/conformance';
import { createNatsDriver } from '../src/index.js';

describeConnectionErrors({
  driver: 'nats',
  open: (servers) => createNatsDriver({ servers }),
  option: 'servers',
  scheme: 'nats://',
  refusedUrl: 'nats://127.0.0.1:1',
  unresolvableUrl: 'nats://berth-nowhere.invalid:4222',
  foreignUrl: 'redis://127.0.0.1:6379',
});
