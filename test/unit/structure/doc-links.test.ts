/**
 * Every relative link in README.md and docs/ leads somewhere: the file exists, and a `#heading`
 * is a heading of that file (as GitHub makes anchors). The docs were split from one README into
 * guides; a moved section must not leave a link pointing at where it was. docs/_incoming holds
 * drafts to be folded in, not yet published, so it is left out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings, repeated ones numbered as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const match of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(match[1] ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** The relative links (and images) of a file, as written. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function brokenLinks(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const broken: string[] = [];
  for (const link of links(text)) {
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? join(root, file) : join(root, dirname(file), decodeURIComponent(path));
    if (!existsSync(target)) {
      broken.push(`${file}: ${link} (no file ${relative(root, target)})`);
      continue;
    }
    if (anchor && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) {
      broken.push(`${file}: ${link} (no heading #${anchor} in ${relative(root, target)})`);
    }
  }
  return broken;
}

describe('links in the docs', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('`npm run bench:compare`: against what a team would build instead')).toBe(
      'npm-run-benchcompare-against-what-a-team-would-build-instead',
    );
    expect(slug('Admin routes, health and logs')).toBe('admin-routes-health-and-logs');
  });

  it.each(docs)('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});
