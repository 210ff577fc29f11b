/**
 * Browser tests drive the system's Chromium (Debian's `chromium` package) through playwright-core,
 * which downloads no browser of its own. On a developer's machine without Chromium the browser
 * tests are skipped with a message saying so; in CI (`CI=true`) a missing Chromium is a failure,
 * so a green CI run always includes them.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium as playwright } from 'playwright-core';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** The Chromium binary: `CHROMIUM_PATH` when set, else the first of the usual places that exists. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return CANDIDATES.find((path) => existsSync(path));
}

/**
 * Whether to run the browser tests: the binary, or undefined to skip them (with a message).
 * Throws in CI, where skipping would hide that they did not run.
 */
export function chromiumForTests(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = findChromium(env);
  if (path) return path;
  const why = env.CHROMIUM_PATH
    ? `CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist`
    : `no Chromium found (looked in ${CANDIDATES.join(', ')})`;
  if (env.CI === 'true') {
    throw new Error(`browser tests cannot run in CI: ${why}. Install it: apt-get install -y chromium`);
  }
  console.warn(
    `Skipping the browser tests: ${why}. Install Chromium (apt-get install chromium) or set CHROMIUM_PATH to run them.`,
  );
  return undefined;
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return playwright.launch({ executablePath, headless: true, args: ['--disable-gpu', '--no-first-run'] });
}
