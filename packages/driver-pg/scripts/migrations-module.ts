import { readdirSync, readFileSync } from 'node:fs';

/** The frozen migrations, `000001.sql` on, and the module they compile to. */
export const MIGRATIONS_DIR = new URL('../src/sql/migrations/', import.meta.url);
export const GENERATED_MODULE = new URL('generated.ts', MIGRATIONS_DIR);

const FILE = /^(\d{6})\.sql$/;
const migrationFile = (version: number) => `${String(version).padStart(6, '0')}.sql`;

/**
 * The text a migration file runs: all of it after its header, the `--` lines it opens with
 * (which say why, for the reader only). A header is required, then a blank line, so the text
 * starts with that line's newline; it must end by recording its own version, as every migration
 * runs as one implicit transaction that records itself last.
 */
function migrationText(file: string, version: number, source: string): string {
  const lines = source.split('\n');
  const header = lines.findIndex((line) => !line.startsWith('--'));
  if (header < 1 || lines[header] !== '') {
    throw new Error(`${file}: open with a header of -- lines, then a blank line`);
  }
  const text = `\n${lines.slice(header + 1).join('\n')}`;
  const recorded = `INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (${version}) ON CONFLICT DO NOTHING;\n`;
  if (!text.endsWith(recorded)) throw new Error(`${file}: end with ${recorded}`);
  return text;
}

/** A template literal holding `text` exactly. */
const literal = (text: string) =>
  `\`${text.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${')}\``;

/** The generated module's source: every migration file's text, in version order. */
export function migrationsModule(): string {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  const entries = files.map((file, index) => {
    const version = Number(FILE.exec(file)?.[1]);
    if (version !== index + 1) throw new Error(`${file}: expected ${migrationFile(index + 1)}`);
    const text = migrationText(file, version, readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8'));
    return `  {\n    version: ${version},\n    text: ${literal(text)},\n  },\n`;
  });
  return `${HEADER}export const MIGRATION_TEXTS: readonly MigrationText[] = [\n${entries.join('')}];\n`;
}

const HEADER = `// Generated from src/sql/migrations/*.sql by scripts/generate-migrations.ts: do not edit.
// \`pnpm --filter @berth/driver-pg generate\` writes it again after a .sql file is added.

export interface MigrationText {
  readonly version: number;
  /** What the migration runs, \`:BERTH_SCHEMA\` standing for the quoted schema. */
  readonly text: string;
}

`;
