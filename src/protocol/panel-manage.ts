/**
 * Panel requests for managing servers in bulk (SPEC B2–B4, K2): bulk tool toggles,
 * paste-JSON import (preview, then apply) and export. Kept apart from
 * panel.ts, which spreads these tables into its own.
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';
import { ServerIdSchema as serverId } from './server-id.js';
import { WordingSchema } from './wording.js';
import { ImportPreviewSchema } from '../import/import-schema.js';
import { MAX_INPUT_BYTES, MAX_TOOLS, MAX_TOOL_NAME_LENGTH } from '../import/limits.js';

const importText = lazySchema(() => z.string().check(z.minLength(1), z.maxLength(MAX_INPUT_BYTES)));

export const ManagePanelRequestSchemas = {
  'panel:set-disabled-tools': lazySchema(() =>
    z.object({
      serverId,
      disabledTools: z.array(z.string().check(z.maxLength(MAX_TOOL_NAME_LENGTH))).check(z.maxLength(MAX_TOOLS)),
    }),
  ),
  'panel:import-preview': lazySchema(() => z.object({ text: importText })),
  'panel:import-apply': lazySchema(() =>
    z.object({
      text: importText,
      /** Placeholder token → value the user typed (secrets included; sealed before storage). */
      values: z.record(z.string().check(z.maxLength(600)), z.string().check(z.maxLength(8192))),
      /** Names of conflicting entries the user ticked "overwrite" for (SPEC B2). */
      overwrite: z.array(z.string().check(z.maxLength(200))).check(z.maxLength(200)),
    }),
  ),
  'panel:export': lazySchema(() => z.object({})),
} as const;

const ImportApplyResultSchema = lazySchema(() =>
  z.object({
    added: z.array(z.string()),
    replaced: z.array(z.string()),
    skipped: z.array(z.object({ name: z.string(), reason: z.string(), wording: WordingSchema })),
  }),
);

export const ManagePanelResponseSchemas = {
  'panel:set-disabled-tools': lazySchema(() => z.object({ disabledTools: z.array(z.string()) })),
  'panel:import-preview': ImportPreviewSchema,
  'panel:import-apply': ImportApplyResultSchema,
  /** The export document as JSON text, ready to download, and how many servers it holds. */
  'panel:export': lazySchema(() => z.object({ json: z.string(), count: z.number() })),
} as const;
