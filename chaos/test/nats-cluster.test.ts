import { describeCiProfile } from './ci-profile.ts';

// The NATS README's production setting: a private 3-node cluster of nats-server 2.10 with
// replicas: 3. Its server crash is a leader kill: the server leading the jobs stream is SIGKILLed
// mid-run and started again after downMs.
describeCiProfile(
  'nats-cluster',
  '3-node nats-server 2.10 cluster',
  ' through a stream leader kill',
);
