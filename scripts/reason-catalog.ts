/**
 * The service worker and the offscreen document read the English catalog only for the English
 * text of `reason…` codes (src/protocol/wording.ts), yet importing it brought all of its
 * messages into both bundles (≈ 34 KiB of the worker's). The catalog stays one file, the one
 * source of truth helpers add keys to; for those two bundles this rollup plugin rewrites its
 * compiled module to the `reason…` entries only, and fails the build if any other module imports
 * the catalog or wording.ts reads it other than through a `reason` key check.
 */
import type { Plugin } from 'rollup';
import { parseAst } from 'rollup/parseAst';

const CATALOG = '/src/i18n/en.ts';
const READER = '/src/protocol/wording.ts';
/** How wording.ts guards every read: only keys starting with "reason" are looked up. */
const GUARD = ".startsWith('reason')";

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const posix = (id: string) => id.replaceAll('\\', '/');

/** The compiled catalog module with the `en` object reduced to its `reason…` properties. */
export function keepReasonKeys(code: string): { code: string; kept: number; dropped: number } {
  const program = parseAst(code) as unknown as { body: Node[] };
  for (const statement of program.body) {
    const declaration = statement['declaration'] as Node | null | undefined;
    if (statement.type !== 'ExportNamedDeclaration' || declaration?.type !== 'VariableDeclaration') continue;
    for (const d of declaration['declarations'] as Node[]) {
      const init = d['init'] as Node | null;
      if ((d['id'] as { name?: string }).name !== 'en' || init?.type !== 'ObjectExpression') continue;
      const kept: string[] = [];
      let dropped = 0;
      for (const p of init['properties'] as Node[]) {
        const key = p['key'] as { type: string; name?: string; value?: unknown } | undefined;
        const name = key?.type === 'Identifier' ? key.name : typeof key?.value === 'string' ? key.value : undefined;
        if (p.type !== 'Property' || p['computed'] || name === undefined) throw new Error(`en catalog: cannot read property at ${p.start}`);
        if (name.startsWith('reason')) kept.push(code.slice(p.start, p.end));
        else dropped++;
      }
      return { code: `${code.slice(0, init.start)}{\n${kept.join(',\n')}\n}${code.slice(init.end)}`, kept: kept.length, dropped };
    }
  }
  throw new Error('en catalog: no `export const en = { … }` found');
}

/** Lines of wording.ts's compiled code that read `en` without the `reason` guard (its import aside). */
export function unguardedReads(code: string): string[] {
  return code
    .split('\n')
    .filter((line) => /\ben\b/.test(line) && !/^\s*import\b/.test(line) && !line.includes(GUARD))
    .map((line) => line.trim());
}

export function reasonCatalogOnly(): Plugin {
  return {
    name: 'reason-catalog-only',
    transform(code, id) {
      if (!posix(id).endsWith(CATALOG)) return null;
      const r = keepReasonKeys(code);
      this.info(`en catalog: kept ${r.kept} reason messages, dropped ${r.dropped}`);
      return { code: r.code, map: null };
    },
    buildEnd(error) {
      if (error) return;
      const ids = [...this.getModuleIds()];
      const catalog = ids.find((id) => posix(id).endsWith(CATALOG));
      if (!catalog) return;
      const others = (this.getModuleInfo(catalog)?.importers ?? []).filter((id) => !posix(id).endsWith(READER));
      if (others.length)
        this.error(`only ${READER} may import the English catalog in this bundle (it keeps reason messages only): ${others.join(', ')}`);
      const reader = ids.find((id) => posix(id).endsWith(READER));
      const bad = unguardedReads((reader && this.getModuleInfo(reader)?.code) ?? '');
      if (bad.length) this.error(`${READER} reads the English catalog without the reason-key guard: ${bad.join(' | ')}`);
    },
  };
}
