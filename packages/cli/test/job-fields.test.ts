import type { JobRecord } from '@berth/core';
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { jobFields } from '../src/render.js';

const job: JobRecord = {
  id: '0190f1d8-0000-7000-8000-000000000002',
  runId: '0190f1d8-0000-7000-8000-000000000003',
  name: 'render',
  queue: 'pages',
  payload: { page: 1 },
  state: 'ready',
  priority: 0,
  attempts: 0,
  maxAttempts: 3,
  runAt: 0,
  createdAt: 0,
  updatedAt: 0,
  claim: 0,
};

describe('berth jobs show fields', () => {
  it("shows a flow child's parent job, and no parent row for a job without one", () => {
    const plain = pc.createColors(false);
    const parentId = '0190f1d8-0000-7000-8000-000000000001';
    expect(jobFields({ ...job, parentId }, 0, plain)).toContainEqual(['parent', parentId]);
    expect(jobFields(job, 0, plain).map(([key]) => key)).not.toContain('parent');
  });
});
