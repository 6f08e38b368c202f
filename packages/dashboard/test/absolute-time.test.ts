import { describe, expect, it } from 'vitest';
import { browserTimeZone, formatAbsolute, formatAbsoluteClock } from '../ui/src/absolute-time.js';

const AT = Date.UTC(2026, 5, 1, 12, 3, 7, 450);

describe('absolute times as the dashboard shows them', () => {
  it('writes the instant ISO-like in the given zone with its UTC offset', () => {
    expect(formatAbsolute(AT, 'Asia/Tokyo')).toBe('2026-06-01 21:03:07 UTC+09:00');
    expect(formatAbsolute(AT, 'America/New_York')).toBe('2026-06-01 08:03:07 UTC-04:00');
    expect(formatAbsolute(AT, 'Asia/Kolkata')).toBe('2026-06-01 17:33:07 UTC+05:30');
  });

  it('writes UTC itself as UTC, with 24-hour clocks past midnight', () => {
    expect(formatAbsolute(AT, 'UTC')).toBe('2026-06-01 12:03:07 UTC');
    expect(formatAbsolute(Date.UTC(2026, 0, 1, 0, 0, 0), 'UTC')).toBe('2026-01-01 00:00:00 UTC');
  });

  it('follows daylight saving: the same zone has two offsets across the year', () => {
    expect(formatAbsolute(Date.UTC(2026, 0, 15, 12), 'Europe/Berlin')).toBe(
      '2026-01-15 13:00:00 UTC+01:00',
    );
    expect(formatAbsolute(Date.UTC(2026, 6, 15, 12), 'Europe/Berlin')).toBe(
      '2026-07-15 14:00:00 UTC+02:00',
    );
  });

  it('gives the 24-hour clock of the same moment for the end of a range', () => {
    expect(formatAbsoluteClock(AT, 'Asia/Tokyo')).toBe('21:03');
    expect(formatAbsoluteClock(Date.UTC(2026, 0, 1, 23, 59), 'UTC')).toBe('23:59');
  });

  it('names the zone by its IANA name', () => {
    expect(browserTimeZone('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(browserTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
