import { describe, expect, it } from 'vitest';
import { normaliseMessage } from '../src/api/normalise-message.js';

describe('normaliseMessage', () => {
  it('makes the parts that change from job to job alike', () => {
    const cases: readonly (readonly [string, string])[] = [
      ['job 3f2b8c1e-9a4d-4c7e-8f00-1234567890ab failed', 'job <uuid> failed'],
      ['deadline 2026-06-01T12:00:03.120Z passed', 'deadline <time> passed'],
      ['no mailbox for ada@example.com', 'no mailbox for <email>'],
      ['GET https://api.example/v2/users/17?x=1 answered 503', 'GET <url> answered <n>'],
      ['connect ECONNREFUSED 10.0.0.7:5432', 'connect ECONNREFUSED <ip>'],
      ['pointer 0xdeadbeef, digest 9f86d081884c7d659a2feaa0', 'pointer <hex>, digest <hex>'],
      ['took 30012 ms (limit 30000.5)', 'took <n> ms (limit <n>)'],
      ['  spread \n over   lines  ', 'spread over lines'],
    ];
    for (const [message, grouped] of cases) expect(normaliseMessage(message)).toBe(grouped);
  });

  it('keeps words, codes and identifiers that are not numbers apart', () => {
    expect(normaliseMessage('column "email" is missing')).not.toBe(
      normaliseMessage('column "phone" is missing'),
    );
    expect(normaliseMessage('ETIMEDOUT on v2 endpoint')).toBe('ETIMEDOUT on v2 endpoint');
  });

  it('cuts a very long message to its start', () => {
    const grouped = normaliseMessage(`${'x'.repeat(300)} tail`);
    expect(grouped).toHaveLength(241);
    expect(grouped.endsWith('…')).toBe(true);
  });
});
