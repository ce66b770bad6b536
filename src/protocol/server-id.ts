/**
 * The one rule for a server's id, wherever one crosses a boundary (stored config, panel
 * messages, migrations): a slug that can be embedded in tool names `mcp__{id}__{tool}` (SPEC B5, G1).
 */
import * as z from 'zod/mini';
import { lazySchema } from './lazy-schema.js';

export const SERVER_ID_PATTERN = /^[a-z0-9_-]{1,32}$/;

export const ServerIdSchema = lazySchema(() => z.string().check(z.regex(SERVER_ID_PATTERN)));
