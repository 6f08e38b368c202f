import type { Transcript } from '../transcript.js';

const notFound = { error: { code: 'JOB_NOT_FOUND', meta: { jobId: 'job1' } } };

export const requeueNotFound: Transcript = [
  { op: 'requeue an id nobody queued', answer: notFound },
  { op: 'requeue an id nobody queued, fromStep "a"', answer: notFound },
  { op: 'requeue an id nobody queued, tenant "acme"', answer: notFound },
];
