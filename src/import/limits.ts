/**
 * Bounds for the paste-JSON import (SPEC N). A paste is untrusted text: every size the parser
 * walks is capped here so a hostile or accidental giant paste ends in a clear error, not a hang.
 * Name, URL and header bounds match the stored config schema so an accepted entry can be saved.
 */
export { MAX_NAME_LENGTH, MAX_URL_LENGTH } from '../storage/config-schema.js';

/** Largest paste accepted, in UTF-8 bytes. */
export const MAX_INPUT_BYTES = 1024 * 1024;
/** Deepest object/array nesting accepted (real configs stay below 8). */
export const MAX_DEPTH = 32;
/** Most server entries one paste may hold. */
export const MAX_ENTRIES = 200;
/** Most static headers per server (same as the stored schema). */
export const MAX_HEADERS = 32;
export const MAX_HEADER_NAME_LENGTH = 128;
export const MAX_HEADER_VALUE_LENGTH = 8 * 1024;
/** Tool-name list bounds (same as the stored schema's `disabledTools`). */
export const MAX_TOOLS = 10_000;
export const MAX_TOOL_NAME_LENGTH = 256;
/** Most arguments read from a `command`/`args` entry (mcp-remote). */
export const MAX_ARGS = 64;
/** Longest text inside one `${…}` placeholder. */
export const MAX_PLACEHOLDER_LENGTH = 512;
/** Most fields-to-fill one entry may ask for. */
export const MAX_PLACEHOLDERS = 64;
/** Per-server timeout bounds (stored schema `timeoutMs`). */
export const MIN_TIMEOUT_MS = 1000;
export const MAX_TIMEOUT_MS = 3_600_000;
/** Most messages kept in `ImportPreview.errors`. */
export const MAX_ERRORS = 50;
