/**
 * Text from the queue (job names, errors, stacks, payloads) is shown to an operator's terminal.
 * A control character in it could recolour the screen, move the cursor, retitle the window or
 * plant an OSC-8 hyperlink, so every one is shown as a visible escape instead (`\x1b`, `\u009b`),
 * as gh and kubectl do. The CLI's own colours are added after escaping, never escaped.
 */

/**
 * C0 controls, DEL, C1 controls (0x9b is a one-byte CSI), and the invisible characters that
 * reorder or break lines (bidi embeddings, overrides and isolates; line and paragraph
 * separators; the zero-width no-break space).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/gu;

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\r': '\\r', '\n': '\\n' };

const visible = (char: string): string => {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** One line of text, every control character (newlines and tabs too) shown as an escape. */
export function escapeLine(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Text meant to span lines (a stack): newlines and tabs kept, every other control escaped. */
export function escapeBlock(text: string): string {
  return text.replace(CONTROL, (char) => (char === '\n' || char === '\t' ? char : visible(char)));
}

/**
 * JSON that a terminal cannot misread: JSON.stringify escapes C0 controls but leaves C1 controls
 * (a one-byte CSI), bidi marks and line separators raw; they are written as `\u` escapes here,
 * which parse to the same value.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/gu,
    (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

/** A visible escape this module writes, or one grapheme: the units a cut may fall between. */
const UNIT = /\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\[trn]/y;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** East Asian wide and fullwidth characters and emoji take two columns of a terminal. */
const WIDE =
  /^(?:\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}])/u;

/** The columns a grapheme takes. */
const widthOf = (grapheme: string): number => (WIDE.test(grapheme) ? 2 : 1);

/** The columns escaped text takes on a terminal. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += widthOf(segment);
  return width;
}

/**
 * `text` on one line, escaped, and cut to at most `max` columns (an ellipsis marking the cut):
 * whitespace runs become one space, and a cut never falls inside an escape or a grapheme.
 */
export function clip(text: string, max: number): string {
  const flat = escapeLine(text.replace(/[ \t\r\n]+/g, ' '));
  let cut = '';
  let width = 0;
  let next = 0;
  // Segmented lazily: a long payload is walked only as far as the columns shown.
  for (const { segment, index } of graphemes.segment(flat)) {
    if (index < next) continue;
    UNIT.lastIndex = index;
    const unit = segment === '\\' ? (UNIT.exec(flat)?.[0] ?? segment) : segment;
    next = index + unit.length;
    width += unit.length > 1 && unit.startsWith('\\') ? unit.length : widthOf(unit);
    if (width > max) return `${cut}…`;
    if (width <= max - 1) cut = flat.slice(0, next);
  }
  return flat;
}
