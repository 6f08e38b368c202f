import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Vite builds the page here; the same path from `src/http` and `dist/http`. */
const UI_DIR = new URL('../../dist/ui/', import.meta.url);
/** Vite's `base` in the built page, replaced by the real mount path when served. */
export const BASE_PLACEHOLDER = '/__berth_base__/';
/** Stands in the built page's JSON config element (a JSON string) for the request's config. */
export const CONFIG_PLACEHOLDER = '"__BERTH_CONFIG__"';

const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  json: 'application/json',
};

interface Asset {
  readonly body: Buffer;
  readonly gzip: Buffer | undefined;
  readonly type: string;
}

export interface Assets {
  /** The page, for a config (JSON) and a mount path. */
  page(basePath: string, config: unknown): string;
  /** Serves `/assets/<name>`; false when there is no such file. */
  serve(name: string, request: IncomingMessage, response: ServerResponse): boolean;
}

/** JSON that can sit inside a `<script>` element: nothing in it can close the element. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

/** Reads the built page and its assets once; every file is served from memory. */
export function loadAssets(): Assets {
  const indexFile = new URL('index.html', UI_DIR);
  if (!existsSync(indexFile)) {
    throw new Error(
      `@berth/dashboard: its built page is missing at ${fileURLToPath(indexFile)}; run the package build`,
    );
  }
  const template = readFileSync(indexFile, 'utf8');
  const files = new Map<string, Asset>();
  const assetDir = new URL('assets/', UI_DIR);
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const type = TYPES[name.slice(name.lastIndexOf('.') + 1)];
    if (type === undefined) continue;
    const body = readFileSync(new URL(name, assetDir));
    const compressible = type.startsWith('text/') || type === 'image/svg+xml';
    files.set(name, { body, type, gzip: compressible ? gzipSync(body) : undefined });
  }
  return {
    page: (basePath, config) =>
      template
        .replaceAll(BASE_PLACEHOLDER, `${basePath}/`)
        .replace(CONFIG_PLACEHOLDER, scriptSafeJson(config)),
    serve(name, request, response) {
      const asset = files.get(name);
      if (asset === undefined) return false;
      const gzip =
        asset.gzip !== undefined && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
      const body = gzip && asset.gzip !== undefined ? asset.gzip : asset.body;
      response.statusCode = 200;
      response.setHeader('Content-Type', asset.type);
      // Names carry a content hash, so a name always means the same bytes.
      response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      response.setHeader('Vary', 'Accept-Encoding');
      if (gzip) response.setHeader('Content-Encoding', 'gzip');
      response.setHeader('Content-Length', body.length);
      response.end(request.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}
