/**
 * Dependency audit of the built bundles (SPEC A4, F4): which third-party packages actually ended
 * up in each bundle, at which version, under which license, and how many bytes each contributes.
 *
 * Why in the build: a transitive import can silently drag a package (or a license) into a bundle
 * that ships to users; checking the bundles themselves, not package.json, catches exactly what
 * ships. The allowlist is not a hand-kept list: it is our own runtime `dependencies` plus
 * everything they need, read from their package.json files on disk, so an SDK upgrade that adds a
 * dependency is allowed without edits, while a dev-only package reaching a bundle fails the build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** Licenses a package in a shipped bundle may carry (permissive, attribution only). */
const ALLOWED_LICENSES = ['MIT', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0'] as const;

interface PackageInfo {
  name: string;
  version: string;
  license: string;
  /** Directory of the package under node_modules. */
  dir: string;
}

export interface BundleModule {
  id: string;
  /** Rollup's `renderedLength`: bytes after tree-shaking, before the chunk is minified. */
  renderedLength: number;
}

interface PackageUse {
  name: string;
  version: string;
  license: string;
  modules: number;
  renderedBytes: number;
  /** `renderedBytes` scaled by the chunk's minified/rendered ratio: an estimate, terser works per chunk. */
  minifiedBytesEstimate: number;
}

interface BundleAudit {
  file: string;
  bytes: number;
  ownRenderedBytes: number;
  /** Our own code by source folder (`src/sw/manager`, …), rendered bytes, largest first: where a bundle's weight is ours. */
  ownByFolder: { folder: string; renderedBytes: number; minifiedBytesEstimate: number }[];
  packages: PackageUse[];
}

/** The folder a module of ours counts under: `src/<context>/<area>` (or `src/<layer>` for a file at that level). */
export function ownFolderOf(id: string): string {
  const path = id.replace(/\\/g, '/');
  const at = path.lastIndexOf('/src/');
  if (at < 0) return '(other)';
  const parts = path.slice(at + 1).split('/');
  return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
}

export interface AuditResult {
  allowlist: string[];
  bundles: BundleAudit[];
  errors: string[];
}

/** Package root of a module id, or undefined for our own sources and rollup's virtual modules. */
export function packageDirOf(id: string): string | undefined {
  const clean = id.replace(/^\0/, '').replace(/\?.*$/, '');
  const marker = `${sep}node_modules${sep}`;
  const at = clean.lastIndexOf(marker);
  if (at < 0) return undefined;
  const rest = clean.slice(at + marker.length).split(sep);
  const nameParts = rest[0]?.startsWith('@') ? rest.slice(0, 2) : rest.slice(0, 1);
  if (nameParts.length === 0 || nameParts.some((p) => !p)) return undefined;
  return clean.slice(0, at + marker.length) + nameParts.join(sep);
}

const cache = new Map<string, PackageInfo | undefined>();

/** Reads name, version and license from a package's own package.json (old `licenses` arrays too). */
function readPackage(dir: string): PackageInfo | undefined {
  if (cache.has(dir)) return cache.get(dir);
  let info: PackageInfo | undefined;
  const file = join(dir, 'package.json');
  if (existsSync(file)) {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const legacy = Array.isArray(pkg.licenses)
      ? (pkg.licenses as { type?: string }[])
          .map((l) => l.type)
          .filter(Boolean)
          .join(' OR ')
      : '';
    const license =
      typeof pkg.license === 'string'
        ? pkg.license
        : typeof (pkg.license as { type?: string })?.type === 'string'
          ? (pkg.license as { type: string }).type
          : legacy;
    info = { name: String(pkg.name), version: String(pkg.version), license: license || 'UNKNOWN', dir };
  }
  cache.set(dir, info);
  return info;
}

/** Finds `name` the way Node would from `fromDir`: the nearest node_modules/name up the tree. */
function locate(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The runtime allowlist: the project's `dependencies` and, transitively, the dependencies, peer
 * and optional dependencies of each (those installed; an uninstalled optional one cannot ship).
 */
export function runtimeAllowlist(projectDir: string, roots?: string[]): string[] {
  const project = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const seen = new Set<string>();
  const names = new Set<string>();
  const queue: [string, string][] = (roots ?? Object.keys(project.dependencies ?? {})).map((n) => [n, projectDir]);
  while (queue.length) {
    const [name, from] = queue.shift()!;
    const dir = locate(name, from);
    if (!dir || seen.has(dir)) continue;
    seen.add(dir);
    names.add(name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const dep of Object.keys(pkg[field] ?? {})) queue.push([dep, dir]);
    }
  }
  return [...names].sort();
}

/** True when an SPDX expression is satisfiable with allowed licenses (`OR`: any; `AND`: all). */
export function licenseAllowed(expression: string, allowed: readonly string[] = ALLOWED_LICENSES): boolean {
  const expr = expression.trim().replace(/^\((.*)\)$/, '$1');
  if (/\bOR\b/.test(expr)) return expr.split(/\s+OR\s+/).some((part) => licenseAllowed(part, allowed));
  if (/\bAND\b/.test(expr)) return expr.split(/\s+AND\s+/).every((part) => licenseAllowed(part, allowed));
  return allowed.includes(expr);
}

/** Groups each bundle's modules by package and checks them against the allowlist and licenses. */
export function auditBundles(bundles: { file: string; bytes: number; modules: BundleModule[] }[], allowlist: string[]): AuditResult {
  const errors: string[] = [];
  const allowed = new Set(allowlist);
  const out: BundleAudit[] = [];
  for (const b of bundles) {
    const rendered = b.modules.reduce((n, m) => n + m.renderedLength, 0) || 1;
    const scale = b.bytes / rendered;
    const byKey = new Map<string, PackageUse>();
    let own = 0;
    const folders = new Map<string, number>();
    for (const m of b.modules) {
      const dir = packageDirOf(m.id);
      const info = dir ? readPackage(dir) : undefined;
      if (!info) {
        own += m.renderedLength;
        const folder = ownFolderOf(m.id);
        folders.set(folder, (folders.get(folder) ?? 0) + m.renderedLength);
        continue;
      }
      const key = `${info.name}@${info.version}`;
      const use = byKey.get(key) ?? {
        name: info.name,
        version: info.version,
        license: info.license,
        modules: 0,
        renderedBytes: 0,
        minifiedBytesEstimate: 0,
      };
      use.modules++;
      use.renderedBytes += m.renderedLength;
      byKey.set(key, use);
    }
    // A package whose modules were all tree-shaken away ships nothing and is not reported.
    const packages = [...byKey.values()].filter((p) => p.renderedBytes > 0).sort((a, c) => c.renderedBytes - a.renderedBytes);
    for (const p of packages) {
      p.minifiedBytesEstimate = Math.round(p.renderedBytes * scale);
      if (!allowed.has(p.name))
        errors.push(
          `${b.file} contains ${p.name}@${p.version}, which is not a runtime dependency (SPEC A4): add it to "dependencies" deliberately or stop importing it`,
        );
      if (!licenseAllowed(p.license))
        errors.push(`${b.file} contains ${p.name}@${p.version} under license "${p.license}", not one of ${ALLOWED_LICENSES.join(', ')}`);
    }
    const ownByFolder = [...folders]
      .filter(([, bytes]) => bytes > 0)
      .sort((x, y) => y[1] - x[1])
      .map(([folder, renderedBytes]) => ({ folder, renderedBytes, minifiedBytesEstimate: Math.round(renderedBytes * scale) }));
    out.push({ file: b.file, bytes: b.bytes, ownRenderedBytes: own, ownByFolder, packages });
  }
  return { allowlist, bundles: out, errors };
}

/** The human-readable report written next to the bundles. */
export function auditMarkdown(result: AuditResult): string {
  const kib = (n: number) => (n / 1024).toFixed(1);
  const lines = [
    '# Third-party code in the bundles',
    '',
    'Generated by `npm run build` (scripts/dependency-audit.ts). "Rendered" is what rollup kept after',
    'tree-shaking, before minification; "minified ≈" scales it by the bundle\'s minified/rendered ratio.',
    `Allowed licenses: ${ALLOWED_LICENSES.join(', ')}. Allowed packages: the runtime dependencies and what they need (${result.allowlist.length} packages).`,
  ];
  for (const b of result.bundles) {
    lines.push('', `## ${b.file} (${kib(b.bytes)} KiB minified; own code ${kib(b.ownRenderedBytes)} KiB rendered)`, '');
    if (b.packages.length === 0) lines.push('No third-party package.');
    else {
      lines.push('| Package | Version | License | Modules | Rendered KiB | Minified ≈ KiB |', '|---|---|---|---:|---:|---:|');
      for (const p of b.packages)
        lines.push(
          `| ${p.name} | ${p.version} | ${p.license} | ${p.modules} | ${kib(p.renderedBytes)} | ${kib(p.minifiedBytesEstimate)} |`,
        );
    }
    if (b.ownByFolder.length === 0) continue;
    lines.push('', 'Own code by folder:', '', '| Folder | Rendered KiB | Minified ≈ KiB |', '|---|---:|---:|');
    for (const f of b.ownByFolder) lines.push(`| ${f.folder} | ${kib(f.renderedBytes)} | ${kib(f.minifiedBytesEstimate)} |`);
  }
  return lines.join('\n') + '\n';
}
