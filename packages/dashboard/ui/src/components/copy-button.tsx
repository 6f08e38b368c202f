import { useEffect, useState } from 'preact/hooks';

/** Copies through a selected, hidden field where the Clipboard API is missing (plain http). */
function copyBySelection(text: string): boolean {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.append(field);
  field.select();
  try {
    return document.execCommand('copy');
  } finally {
    field.remove();
  }
}

async function copy(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard !== undefined) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, not focused): the selection route may still work.
  }
  return copyBySelection(text);
}

/** A small button copying `text` whole, saying so for a moment after. */
export function CopyButton({ text, label }: { readonly text: string; readonly label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return undefined;
    const timer = window.setTimeout(() => setState('idle'), 1_500);
    return () => window.clearTimeout(timer);
  }, [state]);
  const onClick = async () => setState((await copy(text)) ? 'copied' : 'failed');
  return (
    <button type="button" class="small copy" aria-label={label} title={text} onClick={onClick}>
      <span aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
      </span>
    </button>
  );
}
