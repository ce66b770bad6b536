/**
 * Panel ↔ worker message of "Copy diagnostics" (V3): the worker writes the report, the panel
 * previews it and copies it only on the user's click. The report never carries secrets, header
 * values, tool arguments or URL query strings (src/sw/diagnostics/report.ts).
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';

/** The report's size bound: a few dozen servers and errors fit many times over. */
export const MAX_DIAGNOSTICS_CHARS = 200_000;

export const DiagnosticsPanelRequestSchemas = {
  'panel:diagnostics': lazySchema(() => z.object({})),
} as const;

export const DiagnosticsPanelResponseSchemas = {
  'panel:diagnostics': lazySchema(() => z.object({ text: z.string().check(z.maxLength(MAX_DIAGNOSTICS_CHARS)) })),
} as const;
