/**
 * Must be the first import of the offscreen entry: zod probes `new Function("")` at load unless
 * told to run jitless, and MV3's CSP reports that probe as a violation.
 */
(globalThis as { __zod_globalConfig?: { jitless: boolean } }).__zod_globalConfig = { jitless: true };
export {};
