import type { Transcript } from '../transcript.js';

const duplicate = (existingId: string, tenantId?: string) => ({
  error: {
    code: 'JOB_DUPLICATE',
    meta: {
      name: 'mail',
      idempotencyKey: 'k',
      existingId,
      ...(tenantId === undefined ? {} : { tenantId }),
    },
  },
});

export const onConflictError: Transcript = [
  { op: 'enqueue mail key k', answer: { id: 'job1', runId: 'run1', deduped: false } },
  { op: 'enqueue mail key k, onConflict error', answer: duplicate('job1') },
  {
    op: 'enqueue mail key k, tenant acme',
    answer: { id: 'job2', runId: 'run2', deduped: false },
  },
  {
    op: 'enqueue mail key k, tenant acme, onConflict error',
    answer: duplicate('job2', 'acme'),
  },
  {
    op: 'enqueueMany [mail key fresh, mail key k onConflict error]',
    answer: duplicate('job1'),
  },
  {
    op: 'list mail jobs',
    answer: [
      { id: 'job2', state: 'ready' },
      { id: 'job1', state: 'ready' },
    ],
  },
  {
    op: 'enqueue mail key fresh (the refused batch took nothing)',
    answer: { id: 'job3', runId: 'run3', deduped: false },
  },
];
