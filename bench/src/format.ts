import type { Spread } from './stats.ts';

/** 8,812 → "8.8k"; 152,300 → "152k"; 950 → "950". */
export function count(value: number): string {
  if (value >= 100_000) return `${Math.round(value / 1_000)}k`;
  if (value >= 1_000) return `${(value / 1_000).toFixed(1)}k`;
  return value.toFixed(0);
}

export const micros = (value: number): string => value.toFixed(0);

export const millis = (value: number): string => (value < 10 ? value.toFixed(2) : value.toFixed(1));

export const times = (value: number): string => `${value.toFixed(2)}×`;

export const percent = (value: number): string => `${(value * 100).toFixed(0)}%`;

/** "8.8k (7.9k–9.3k)"; one round: just the value; nothing measured: "–". */
export function spreadText(s: Spread | undefined, as: (value: number) => string): string {
  if (s === undefined) return '–';
  if (s.n === 1) return as(s.median);
  return `${as(s.median)} (${as(s.min)}–${as(s.max)})`;
}

export function markdownTable(
  head: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}
