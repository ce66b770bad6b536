// Independent bundles, one per extension context (and the MCP App sandbox page's relay). No shared chunks: the service worker's
// budget (SPEC A3) must be measurable on its own, and it must never contain the SDK.
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import { reasonCatalogOnly } from './scripts/reason-catalog.ts';

/**
 * The SDK Client imports Ajv statically as its default validator, and Ajv compiles schemas with
 * `new Function`, which MV3's CSP forbids. We pass the CfWorker validator instead, so the Ajv
 * provider is replaced by a stub that fails loudly if anything ever reaches it.
 */
function stubAjvProvider() {
  const STUB = '\0ajv-provider-stub';
  return {
    name: 'stub-ajv-provider',
    resolveId(source, importer) {
      if (importer && importer.includes('@modelcontextprotocol') && /validation\/ajv-provider\.js$/.test(source)) return STUB;
      return null;
    },
    load(id) {
      if (id !== STUB) return null;
      return `export class AjvJsonSchemaValidator { constructor() { throw new Error('Ajv is not available under the extension CSP; pass jsonSchemaValidator.'); } }`;
    },
  };
}

/**
 * zod keeps an optional JIT (`const F = Function; new F(code)`) and a probe for it. We run it
 * jitless, but the code would still be in the bundle; this swaps the constructor for one that
 * throws, so zod's own fallbacks (probe → false, compile → interpreter) are the only paths left.
 */
function disableZodJit() {
  let patched = 0;
  return {
    name: 'disable-zod-jit',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(id) || !code.includes('const F = Function;')) return null;
      patched++;
      return {
        code: code.replaceAll(
          'const F = Function;',
          'const F = function () { throw new EvalError("code generation is disabled in this extension"); };',
        ),
        map: null,
      };
    },
    buildEnd() {
      this.info?.(`zod JIT constructor replaced in ${patched} module(s)`);
    },
  };
}

/** `reasonsOnly`: the worker and offscreen bundles, which need the English catalog's reason messages only. */
const plugins = (reasonsOnly) => [
  stubAjvProvider(),
  disableZodJit(),
  typescript({
    tsconfig: './tsconfig.json',
    include: ['src/**/*.ts'],
    compilerOptions: { noEmit: false, declaration: false, sourceMap: false },
    noEmitOnError: false,
  }),
  ...(reasonsOnly ? [reasonCatalogOnly()] : []),
  nodeResolve({ browser: true, exportConditions: ['browser', 'module', 'import', 'default'], preferBuiltins: false }),
  commonjs(),
  terser({ format: { comments: false }, compress: { passes: 2 } }),
];

const bundle = (input, file, reasonsOnly = false, format = 'es') => ({
  input,
  output: { file, format, sourcemap: false },
  plugins: plugins(reasonsOnly),
  onwarn(warning, warn) {
    if (['THIS_IS_UNDEFINED', 'CIRCULAR_DEPENDENCY', 'INVALID_ANNOTATION'].includes(warning.code)) return;
    warn(warning);
  },
});

/** `OUT_DIR` lets parallel builds (several checkouts or agents) avoid clobbering one `dist/`. */
export const outDir = process.env.OUT_DIR || 'dist';

export default [
  // A classic script, not a module (manifest.json has no `"type": "module"`): Chrome keeps a V8
  // code cache for an installed classic service-worker script, with every function that ran at
  // install, and starts each wake from it; a module worker is parsed and compiled from source on
  // every wake, and each function again when it first runs (docs/architecture.md "Lifecycle").
  bundle('src/sw/main.ts', `${outDir}/sw.js`, true, 'iife'),
  bundle('src/offscreen/main.ts', `${outDir}/offscreen.js`, true),
  bundle('src/panel/main.ts', `${outDir}/panel.js`),
  bundle('src/sandbox/main.ts', `${outDir}/app-sandbox.js`),
];
