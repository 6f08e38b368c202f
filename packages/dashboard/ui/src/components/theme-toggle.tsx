import { useState } from 'preact/hooks';

type Theme = 'system' | 'light' | 'dark';
const KEY = 'berth-theme';
const NEXT: Record<Theme, Theme> = { system: 'light', light: 'dark', dark: 'system' };

const stored = (): Theme => {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
};

/** Applies the saved theme: `system` follows the OS (prefers-color-scheme). */
export function applyTheme(theme: Theme = stored()): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(stored);
  const change = () => {
    const next = NEXT[theme];
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // A browser refusing storage still switches for this page.
    }
    applyTheme(next);
    setTheme(next);
  };
  return (
    <button type="button" class="theme" onClick={change} title="Switch light, dark or system theme">
      Theme: {theme}
    </button>
  );
}
