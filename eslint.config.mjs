// Lint for the whole repository. Type-aware rules run on TypeScript (the project service reuses
// tsconfig.json); import boundaries between the extension's contexts are enforced here, so a
// panel file that reaches into the worker fails `npm test`, not a review.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const sdk = {
  regex: '^@modelcontextprotocol/(sdk|client|core)',
  message: 'The SDKs (the 2025 one and the v2 client) live only in the offscreen document (src/offscreen).',
};
const context = (name, why) => ({ regex: `(^|/)(src/)?${name}/`, message: why });
const sw = context('sw', 'Only the service worker imports src/sw.');
const offscreen = context('offscreen', 'Only the offscreen document imports src/offscreen.');
const panel = context('(panel|components)', 'Only the side panel imports src/panel and src/components.');
const restrict = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

export default tseslint.config(
  { ignores: ['dist/', 'dist-*/', 'test-output/', 'node_modules/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.mjs', 'scripts/*.mjs', 'test/conformance/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      // Async methods that fulfil a promise-returning interface without awaiting are normal here.
      '@typescript-eslint/require-await': 'off',
      // TypeScript checks names; this rule only duplicates it without knowing types.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['**/*.mjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: globals.node }, rules: { 'no-undef': 'error' } },
  // Chai's assertion chains look like thenables to the type checker but run synchronously.
  { files: ['test/components/**'], rules: { '@typescript-eslint/no-floating-promises': 'off' } },
  // The contexts' boundaries (docs/architecture.md): each context imports only shared layers and itself.
  restrict(['src/components/**', 'src/panel/**'], [sw, offscreen, sdk]),
  restrict(['src/sw/**'], [offscreen, panel, sdk]),
  restrict(['src/offscreen/**'], [sw, panel]),
  restrict(['src/protocol/**', 'src/common/**', 'src/storage/**', 'src/import/**', 'src/i18n/**'], [sw, offscreen, panel, sdk]),
  // Every request leaves through the one wrapper that omits cookies and the Referer (src/common/outgoing-fetch.ts).
  {
    files: ['src/**/*.ts'],
    ignores: ['src/common/outgoing-fetch.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Use outgoingFetch (src/common/outgoing-fetch.ts): it sends no cookies and no Referer.' },
      ],
      'no-restricted-properties': [
        'error',
        ...['globalThis', 'self', 'window'].map((object) => ({
          object,
          property: 'fetch',
          message: 'Use outgoingFetch (src/common/outgoing-fetch.ts).',
        })),
      ],
    },
  },
  prettier,
);
