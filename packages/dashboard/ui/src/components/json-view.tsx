import { useState } from 'preact/hooks';
import { formatJson } from '../format';

/** Text longer than this is cut until asked for: a 1 MB payload must not freeze the page. */
const SHOWN_CHARACTERS = 20_000;

/**
 * JSON as text. It is a text node, never markup: a payload holding `<script>` shows those
 * characters and runs nothing.
 */
export function JsonView({ value, label }: { readonly value: unknown; readonly label: string }) {
  const [all, setAll] = useState(false);
  const text = formatJson(value);
  const cut = !all && text.length > SHOWN_CHARACTERS;
  return (
    <div class="json">
      <pre title={label}>{cut ? `${text.slice(0, SHOWN_CHARACTERS)}\n…` : text}</pre>
      {cut ? (
        <button type="button" class="link" onClick={() => setAll(true)}>
          Show all {text.length.toLocaleString()} characters
        </button>
      ) : null}
    </div>
  );
}
