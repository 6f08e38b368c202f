import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  natsServerBinary,
  redisServerVersion,
  serverUrl,
  serverVersion,
} from '@berth/test-servers';
import { beforeAll, describe, expect, it } from 'vitest';
import { root } from '../src/entries.js';

// Each published README's Support table, checked against what the tests run: the engines range,
// the TypeScript versions the checks use, and the versions of the servers the test tooling starts
// or connects to, asked of those same servers and binaries.

interface Manifest {
  readonly name: string;
  readonly private?: boolean;
  readonly engines?: { readonly node?: string };
  readonly peerDependencies?: Record<string, string>;
}

const packages = readdirSync(join(root, 'packages'))
  .map((folder) => ({
    folder,
    manifest: JSON.parse(
      readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8'),
    ) as Manifest,
  }))
  .filter(({ manifest }) => manifest.private !== true);

/** The rows of a README's `## Support` or `### Support` table: label → cell (`\|` unescaped). */
function supportRows(readme: string): Map<string, string> | undefined {
  const start = /^#{2,3} Support$/m.exec(readme);
  if (start === null) return undefined;
  const rest = readme.slice(start.index + start[0].length);
  const section = rest.slice(0, rest.search(/^#/m) < 0 ? undefined : rest.search(/^#/m));
  const rows = new Map<string, string>();
  for (const line of section.split('\n').filter((text) => text.startsWith('|'))) {
    const [label = '', cell = ''] = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((text) => text.trim().replaceAll('\\|', '|'));
    rows.set(label, cell);
  }
  return rows;
}

const majorMinor = (version: string): string => version.split('.').slice(0, 2).join('.');

/** The TypeScript versions the checks run: the repository's own and the packaging check's oldest. */
function typescriptVersions(): string[] {
  const current = createRequire(import.meta.url)('typescript/package.json') as { version: string };
  const packaging = JSON.parse(
    readFileSync(join(root, 'tooling', 'packaging', 'package.json'), 'utf8'),
  ) as { devDependencies: Record<string, string> };
  const oldest = /@(\d+\.\d+)/.exec(packaging.devDependencies['typescript-oldest'] ?? '')?.[1];
  return [
    oldest ?? '(typescript-oldest not found in tooling/packaging)',
    majorMinor(current.version),
  ];
}

/** Row label → what the cell must name, per package that runs servers. */
let servers: Map<string, Record<string, readonly string[]>>;

beforeAll(async () => {
  // PostgreSQL by major and Redis by minor: a distribution's point release changes no behaviour the
  // tests rely on. nats-server exactly: the driver's behaviour turns on patch releases (2.9.21).
  const pg = (await serverVersion('pg', await serverUrl('pg'))).split('.')[0] ?? '';
  const redis = majorMinor(await serverVersion('redis', await serverUrl('redis')));
  const nats = await serverVersion('nats', await serverUrl('nats'));
  const natsCluster = natsServerBinary('2.10').version;
  servers = new Map<string, Record<string, readonly string[]>>([
    ['@berth/driver-pg', { PostgreSQL: [pg] }],
    ['@berth/driver-redis', { Redis: [redis, majorMinor(redisServerVersion())] }],
    ['@berth/driver-nats', { 'nats-server': [nats, natsCluster] }],
    ['@berth/cli', { servers: [`PostgreSQL ${pg}`, `Redis ${redis}`, `nats-server ${nats}`] }],
  ]);
});

describe("each published package's README states its support matrix as the tests run it", () => {
  for (const { folder, manifest } of packages) {
    it(`${manifest.name}: Node from its engines, TypeScript from the checks, and its servers' versions`, () => {
      const file = `packages/${folder}/README.md`;
      const rows = supportRows(readFileSync(join(root, file), 'utf8'));
      expect(
        rows,
        `${file} has no "Support" section: add its table (tooling/api/README.md)`,
      ).toBeDefined();
      const missing: string[] = [];
      const want = (label: string, texts: readonly string[]) => {
        const cell = rows?.get(label);
        for (const text of new Set(texts)) {
          if (cell === undefined || !cell.includes(text)) missing.push(`${label}: ${text}`);
        }
      };
      want('Node', [manifest.engines?.node ?? '(no engines.node in package.json)']);
      if (manifest.peerDependencies?.typescript !== undefined)
        want('TypeScript', typescriptVersions());
      for (const [label, texts] of Object.entries(servers.get(manifest.name) ?? {}))
        want(label, texts);
      expect(
        missing,
        `${file}: its Support table must name these (what the tests run now)`,
      ).toEqual([]);
    });
  }
});
