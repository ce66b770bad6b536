/**
 * The worker's pushes to the side panel. Each area's protocol file declares its push types once, as
 * a table whose key is the push's `type` and whose value is the schema of its other fields; the
 * panel's router (`panel/push-router.ts`) looks the schema up by `type` and parses the push with
 * that one schema, where trying every area's union on every push parsed it six times.
 */
import type * as z from 'zod/mini';

/** The pushes a table declares, as the worker sends them: `{ type, ...fields }`. */
export type PushOf<S extends Record<string, z.ZodMiniType>> = { [K in keyof S & string]: { type: K } & z.infer<S[K]> }[keyof S & string];
