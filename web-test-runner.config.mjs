// Component tests in Debian's Chromium (no browser download is possible here): TypeScript through esbuild, Playwright's
// launcher pointed at the system binary (no browser download is possible here).
import { execFileSync } from 'node:child_process';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';

const executablePath =
  process.env.CHROMIUM_PATH ||
  execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();

export default {
  files: ['test/components/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath, headless: true, args: ['--disable-gpu', '--no-sandbox'] },
    }),
  ],
  testFramework: { config: { timeout: 10000 } },
};
