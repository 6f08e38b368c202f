/** Messages longer than this group by their start. */
const GROUPED_LENGTH = 240;

/**
 * Replacements that make one cause's messages equal: the parts that change from job to job
 * (ids, times, addresses, numbers) become placeholders. Order matters: the specific shapes go
 * before the plain numbers they contain.
 */
const REPLACEMENTS: readonly (readonly [RegExp, string])[] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<time>'],
  [/\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g, '<email>'],
  [/\bhttps?:\/\/[^\s"'<>]+/g, '<url>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<ip>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/gi, '<hex>'],
  [/\b\d+(?:\.\d+)?\b/g, '<n>'],
];

/** The message a dead letter is grouped by. */
export function normaliseMessage(message: string): string {
  let text = message.replace(/\s+/g, ' ').trim();
  for (const [pattern, placeholder] of REPLACEMENTS) text = text.replace(pattern, placeholder);
  return text.length > GROUPED_LENGTH ? `${text.slice(0, GROUPED_LENGTH)}…` : text;
}
