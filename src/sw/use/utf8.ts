/**
 * Sizes in UTF-8 bytes, the unit of the result budget (SPEC H4) and of the catalog limits (N8):
 * measuring, cutting without splitting a character, and saying a size in plain words.
 */

/** Number of UTF-8 bytes `text` encodes to (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; cutBytes: number } {
  const total = utf8Length(text);
  if (total <= maxBytes) return { text, cutBytes: 0 };
  const buffer = new Uint8Array(Math.max(0, maxBytes));
  const { read, written } = new TextEncoder().encodeInto(text, buffer);
  return { text: text.slice(0, read ?? 0), cutBytes: total - (written ?? 0) };
}

/** Human size for markers, e.g. `1.5 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** UTF-8 bytes of the value's JSON; what cannot be written as JSON counts as too large. */
export function jsonBytes(value: unknown): number {
  try {
    return utf8Length(JSON.stringify(value) ?? '');
  } catch {
    return Number.MAX_SAFE_INTEGER;
  }
}
