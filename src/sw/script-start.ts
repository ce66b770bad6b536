/**
 * Imported first by main.ts, so it is the first code of the worker's script to run: the bench splits
 * a cold wake's "worker start → script evaluated" at this mark into loading and compiling the
 * script (before it) and running its top level (after it).
 */
performance.mark('mcp:script-start');
