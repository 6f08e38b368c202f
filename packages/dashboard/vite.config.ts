import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page is built once into dist/ui and shipped in the package: an app needs no build step.
// `base` is a placeholder the server replaces with the mount path when it serves the page.
export default defineConfig({
  root: fileURLToPath(new URL('./ui', import.meta.url)),
  base: '/__berth_base__/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('./dist/ui', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Nothing inline: the page's CSP allows scripts and styles from the dashboard only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
