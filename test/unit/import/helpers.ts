/** Shared helpers for the import tests: fixture loading and compact outcome tables. */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImportPreview } from '../../../src/import/import-schema.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES).filter((name) => name.endsWith('.json'));
}

/** `name → status[: reason]`, the table each fixture test compares against. */
export function outcomes(preview: ImportPreview): Record<string, string> {
  return Object.fromEntries(
    preview.entries.map((entry) => [entry.name, entry.reason === undefined ? entry.status : `${entry.status}: ${entry.reason}`]),
  );
}

export function entry(preview: ImportPreview, name: string) {
  const found = preview.entries.find((item) => item.name === name);
  if (!found) throw new Error(`no entry named ${name}`);
  return found;
}
