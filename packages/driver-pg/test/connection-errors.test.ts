import { describeConnectionErrors } from '@berth/conformance';
import { createPgDriver } from '../src/index.js';

describeConnectionErrors({
  driver: 'pg',
  open: (connectionString) => createPgDriver({ connectionString }),
  option: 'connectionString',
  scheme: 'postgres://',
  refusedUrl: 'postgres://postgres@127.0.0.1:1/test',
  unresolvableUrl: 'postgres://postgres@berth-nowhere.invalid:5432/test',
  foreignUrl: 'mysql://root@127.0.0.1:3306/app',
});
