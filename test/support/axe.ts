/**
 * axe-core on a page in the browser tests: no serious or critical violation of WCAG 2.1 A/AA and
 * axe's best practices. One check for /explore and every console page, so they are held to the
 * same rules.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const axeSource = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

type AxeResult = { violations: { id: string; impact: string; nodes: unknown[] }[] };

export async function expectAccessible(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  const result = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run: (options: object) => Promise<AxeResult> } }).axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    }),
  );
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}, ${v.nodes.length} elements: ${JSON.stringify(v.nodes[0])?.slice(0, 300)})`,
    );
  expect(serious).toEqual([]);
}
