/**
 * JSON with object keys sorted at every level, so two contexts (or two moments) that hold equal
 * values produce byte-identical text to digest or hash: the importer's B3 digests and the
 * approval grants' schema hash (G1). Properties whose value is `undefined`, a function or a
 * symbol are left out, as `JSON.stringify` does; arrays keep their order; a non-finite number
 * is `null`; a bigint throws.
 */

/** How deep the importer's values may nest; a deeper one throws a RangeError rather than recursing on. */
const MAX_CANONICAL_DEPTH = 64;

/**
 * `maxDepth`: a value nested deeper throws. The approval store passes `Infinity`: a grant's
 * schema hash has never refused a tool for its depth.
 */
export function canonicalJson(value: unknown, maxDepth = MAX_CANONICAL_DEPTH): string {
  return writeCanonical(value, 0, maxDepth);
}

function writeCanonical(value: unknown, depth: number, maxDepth: number): string {
  if (depth > maxDepth) throw new RangeError('canonicalJson: value nested too deeply');
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return 'null';
    if (typeof value === 'bigint') throw new TypeError('canonicalJson: bigint is not JSON');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => writeCanonical(item, depth + 1, maxDepth)).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    parts.push(`${JSON.stringify(key)}:${writeCanonical(item, depth + 1, maxDepth)}`);
  }
  return `{${parts.join(',')}}`;
}
