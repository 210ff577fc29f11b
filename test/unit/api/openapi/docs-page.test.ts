/**
 * /docs is rendered on the server from the OpenAPI document: descriptions are escaped before
 * their bit of Markdown is applied, so no text in the document can put markup or script on the
 * page, and the page's policy allows nothing but its own style.
 */
import { describe, expect, it } from 'vitest';
import {
  DOCS_STYLE,
  describeSchema,
  docsPolicy,
  inlineMarkdown,
  renderDocsPage,
} from '../../../../src/api/openapi/docs-page.ts';

describe('the /docs page', () => {
  it('escapes before formatting, and links only to http(s) or this server', () => {
    expect(inlineMarkdown('`a<b>` **bold** [x](https://e.org/p) [y](javascript:alert(1))')).toBe(
      '<code>a&lt;b&gt;</code> <strong>bold</strong> <a href="https://e.org/p">x</a> [y](javascript:alert(1))',
    );
    expect(inlineMarkdown('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('says a schema in a few words', () => {
    expect(describeSchema({ type: 'integer', minimum: 1, maximum: 1000, default: 50 })).toBe(
      'integer (1–1000), default 50',
    );
    expect(describeSchema({ type: 'string', enum: ['json', 'ndjson'] })).toBe('one of: json, ndjson');
    expect(describeSchema({ $ref: '#/components/schemas/Problem' })).toBe('Problem');
  });

  it('lists every operation under its tag, declared or not', () => {
    const html = renderDocsPage(
      {
        info: { title: 'T <x>', version: '1' },
        tags: [{ name: 'required' }],
        paths: {
          '/services': {
            get: { tags: ['required'], summary: 'List', parameters: [{ name: 'q', in: 'query' }] },
          },
          '/services/{id}': { put: { tags: ['writes'] }, delete: {} },
        },
      },
      'openapi.json',
    );
    expect(html).toContain('<title>T &lt;x&gt;</title>');
    for (const heading of [
      'GET</span> <code>/services</code>',
      'PUT</span> <code>/services/{id}</code>',
      'DELETE</span>',
    ]) {
      expect(html).toContain(heading);
    }
    expect(html).toContain('<h2>writes</h2>');
    expect(html).toContain('<h2>other</h2>');
    expect(html).not.toMatch(/<script/i);
  });

  it('allows its own style by hash, and nothing else', () => {
    const policy = docsPolicy();
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(docsPolicy(`${DOCS_STYLE} `)).not.toBe(policy);
  });
});
