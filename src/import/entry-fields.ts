/**
 * The plain fields of a pasted entry, read leniently and bounded (SPEC N): the name, the tool
 * lists, the OAuth client id and scopes, the timeout. A malformed tool list is a reason to skip
 * the entry; anything else odd is dropped, with a note where the user would miss it.
 */
import type { Said } from '../protocol/wording.js';
import { MAX_NAME_LENGTH, MAX_TIMEOUT_MS, MAX_TOOL_NAME_LENGTH, MAX_TOOLS, MIN_TIMEOUT_MS } from './limits.js';
import { invalidField } from './reasons.js';
import { controlsToSpaces } from '../common/control-chars.js';

/** Trimmed, control characters removed, bounded; '' when nothing usable is left. */
export function cleanName(name: string): string {
  return controlsToSpaces(name).replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_LENGTH);
}

export function nameFromUrl(url: string | undefined): string {
  if (url === undefined) return '';
  try {
    return cleanName(new URL(url).hostname);
  } catch {
    return '';
  }
}

/** A tool list, `undefined` when absent, or the skip reason when malformed. */
export function toolList(value: unknown, field: string): string[] | undefined | Said {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > MAX_TOOLS) return invalidField(field, `expected a list of at most ${MAX_TOOLS} tool names`);
  if (!value.every((item) => typeof item === 'string' && item.length <= MAX_TOOL_NAME_LENGTH)) {
    return invalidField(field, `tool names must be text of at most ${MAX_TOOL_NAME_LENGTH} characters`);
  }
  return [...new Set(value as string[])];
}

export function scopeList(value: unknown): string[] | undefined {
  const list = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : undefined;
  if (list === undefined) return undefined;
  const scopes = list.filter((item): item is string => typeof item === 'string' && item !== '' && item.length <= 256).slice(0, 64);
  return scopes.length > 0 ? scopes : undefined;
}

/** Milliseconds clamped to what the stored config accepts; a non-number is ignored with a note. */
export function readTimeout(value: unknown, notes: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    notes.push('timeout ignored: expected a positive number of milliseconds');
    return undefined;
  }
  const clamped = Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, Math.round(value)));
  if (clamped !== Math.round(value))
    notes.push(`timeout ${value} ms changed to ${clamped} ms (allowed: ${MIN_TIMEOUT_MS}–${MAX_TIMEOUT_MS} ms)`);
  return clamped;
}

/** A non-empty client id, trimmed and bounded. */
export function clientIdOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 512) : undefined;
}
