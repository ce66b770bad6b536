// Makes sure the Chromium that `npm start` and the browser tests drive is installed: Debian's
// `chromium` package, because no test tool may download a browser of its own (the machines this
// runs on reach only the npm registry and Debian). Does nothing when `$CHROMIUM_PATH`, `chromium`
// or `chromium-browser` is an executable; otherwise installs the package with apt-get when
// running as root, and else stops with the one command to run.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser'];
/** Where apt-get lives; a root shell's PATH does not always name the sbin folders. */
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first `chromium` or `chromium-browser` on `searchPath`, like `command -v` does it. */
function findOnPath(searchPath = process.env.PATH ?? '') {
  for (const dir of searchPath.split(delimiter).filter(Boolean)) {
    for (const name of NAMES) if (isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

function fail(message) {
  console.error(`ensure-chromium: ${message}`);
  process.exit(1);
}

/** Runs one apt-get step with its progress shown; exits with a clear message if it fails. */
function aptGet(args) {
  console.log(`ensure-chromium: apt-get ${args.join(' ')}`);
  const env = {
    ...process.env,
    DEBIAN_FRONTEND: 'noninteractive',
    PATH: [process.env.PATH, ...SYSTEM_DIRS].filter(Boolean).join(delimiter),
  };
  const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (r.error) fail(`could not run apt-get (${r.error.message}). Install Debian's chromium package by hand: apt-get install -y chromium`);
  if (r.status !== 0) fail(`"apt-get ${args.join(' ')}" failed (exit ${r.status ?? r.signal}); see its output above.`);
}

function main() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return;
    fail(`CHROMIUM_PATH is set to "${fromEnv}", which is not an executable file. Fix it or unset it.`);
  }
  if (findOnPath()) return;

  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    console.error("ensure-chromium: Chromium is not installed; npm start and npm test drive Debian's chromium package. Run:");
    console.error('  sudo apt-get install -y chromium');
    process.exit(1);
  }
  console.log("ensure-chromium: Chromium is not installed; installing Debian's chromium package.");
  aptGet(['update']);
  aptGet(['install', '-y', 'chromium']);
  const found = findOnPath();
  if (!found) fail(`the chromium package is installed, but no chromium executable is on PATH (${process.env.PATH ?? ''}).`);
  console.log(`ensure-chromium: installed ${found}`);
}

main();
