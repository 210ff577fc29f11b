/**
 * The browser tests find the system's Chromium, and skip with a message without it, except in CI,
 * where a missing browser must fail the run rather than hide that the tests did not run.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chromiumForTests, findChromium } from '../../support/browser.ts';

const missing = '/nowhere/chromium';

describe('chromiumForTests', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('takes CHROMIUM_PATH when it exists', () => {
    expect(findChromium({ CHROMIUM_PATH: process.execPath })).toBe(process.execPath);
    expect(findChromium({ CHROMIUM_PATH: missing })).toBeUndefined();
  });

  it('skips with a message saying why and how to install, outside CI', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(chromiumForTests({ CHROMIUM_PATH: missing })).toBeUndefined();
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /Skipping the browser tests: CHROMIUM_PATH=.* does not exist.*apt-get install chromium/,
    );
  });

  it('fails in CI', () => {
    expect(() => chromiumForTests({ CHROMIUM_PATH: missing, CI: 'true' })).toThrow(
      /browser tests cannot run in CI.*apt-get install -y chromium/,
    );
  });
});
