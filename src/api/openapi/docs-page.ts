/**
 * `/docs`: the API reference as one HTML page, rendered here from the OpenAPI document.
 *
 * It used to be a viewer loaded from a CDN at an unpinned version: a blank page on a machine
 * without the internet (the demo's first audience) and a script from a third party on every
 * instance. No viewer bundle is installed with this project (`@scalar/hono-api-reference` only
 * writes a page that fetches one), so the page is rendered on the server, from the same document
 * `/openapi.json` serves: every operation, its parameters and its responses, with no script at
 * all. Its policy allows only its own inline style (by hash) and links; nothing is fetched.
 * Tools that want an interactive viewer point it at `/openapi.json`.
 */
import { createHash } from 'node:crypto';

/** The parts of an OpenAPI 3.1 document this page reads; everything else is ignored. */
type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema };
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { description?: string; content?: Record<string, unknown> };
  responses?: Record<string, { description?: string; headers?: Record<string, { description?: string }> }>;
};
export type DocsDocument = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, { [M in Method]?: unknown }>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
type Method = (typeof METHODS)[number];

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

/**
 * The little Markdown the descriptions use (paragraphs, `code`, **bold**, [links](url)), escaped
 * first so a description can never inject markup. Links keep only http(s) and relative targets.
 */
export function inlineMarkdown(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(((?:https?:\/\/|\/)[^\s)]*)\)/g, '<a href="$2">$1</a>');
}

const paragraphs = (text: string | undefined) =>
  (text ?? '')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${inlineMarkdown(p)}</p>`)
    .join('\n');

/** A schema in a few words: `integer (1–100), default 1`, `one of: a, b`. */
export function describeSchema(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').pop() ?? '';
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map(describeSchema).filter(Boolean).join(' or ');
  const parts: string[] = [];
  if (schema.enum) parts.push(`one of: ${schema.enum.map(String).join(', ')}`);
  else {
    const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? '');
    const items = type === 'array' && schema.items ? ` of ${describeSchema(schema.items)}` : '';
    const format = schema.format ? ` (${schema.format})` : '';
    const range =
      schema.minimum !== undefined || schema.maximum !== undefined
        ? ` (${schema.minimum ?? ''}–${schema.maximum ?? ''})`
        : '';
    parts.push(`${type}${items}${format}${range}`);
  }
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.filter(Boolean).join(', ');
}

const anchor = (method: string, path: string) =>
  `${method}-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;

function parametersTable(parameters: Parameter[]): string {
  if (parameters.length === 0) return '';
  const rows = parameters.map(
    (p) =>
      `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td>` +
      `<td>${escapeHtml(p.in)}</td><td>${escapeHtml(describeSchema(p.schema))}</td><td>${inlineMarkdown(p.description ?? '')}</td></tr>`,
  );
  return `<table><caption>Parameters</caption><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function responsesList(responses: NonNullable<Operation['responses']>): string {
  const items = Object.entries(responses).map(([status, r]) => {
    const headers = Object.entries(r.headers ?? {})
      .map(([name, h]) => `<li><code>${escapeHtml(name)}</code>: ${inlineMarkdown(h.description ?? '')}</li>`)
      .join('');
    return `<li><strong>${escapeHtml(status)}</strong> ${inlineMarkdown(r.description ?? '')}${headers ? `<ul>${headers}</ul>` : ''}</li>`;
  });
  return `<h4>Responses</h4><ul class="responses">${items.join('')}</ul>`;
}

function operationSection(method: string, path: string, op: Operation): string {
  const body = op.requestBody
    ? `<h4>Request body</h4>${paragraphs(op.requestBody.description)}<p>${Object.keys(
        op.requestBody.content ?? {},
      )
        .map((type) => `<code>${escapeHtml(type)}</code>`)
        .join(', ')}</p>`
    : '';
  return `<section class="operation" id="${anchor(method, path)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
${op.summary ? `<p class="summary">${inlineMarkdown(op.summary)}</p>` : ''}
${paragraphs(op.description)}
${parametersTable(op.parameters ?? [])}
${body}
${responsesList(op.responses ?? {})}
</section>`;
}

type Entry = { method: string; path: string; op: Operation };

function operations(document: DocsDocument): Entry[] {
  const entries: Entry[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op && typeof op === 'object') entries.push({ method, path, op: op as Operation });
    }
  }
  return entries;
}

export const DOCS_STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#0b0c0c;line-height:1.45;margin:0}
.wrap{display:flex;gap:2rem;max-width:1200px;margin:0 auto;padding:0 1rem}
nav{flex:0 0 16rem;position:sticky;top:0;align-self:flex-start;max-height:100vh;overflow:auto;font-size:.9rem}
nav ul{list-style:none;padding:0}main{flex:1;min-width:0}
a{color:#1d4f91}code{background:#f3f2f1;padding:0 .2em;overflow-wrap:anywhere}
.operation{border-top:1px solid #b1b4b6;padding-top:.5rem;margin-top:1.5rem}
.method{display:inline-block;min-width:4.5em;font-size:.8rem;font-weight:700;color:#fff;background:#505a5f;padding:.1em .4em;text-align:center}
.method.get{background:#1d70b8}.method.post{background:#00703c}.method.put,.method.patch{background:#8f5a00}.method.delete{background:#b10e1e}
table{border-collapse:collapse;width:100%;font-size:.9rem}caption{text-align:left;font-weight:700}
th,td{border:1px solid #b1b4b6;padding:.25rem .4rem;vertical-align:top;text-align:left}.req{color:#b10e1e;font-size:.8rem}
@media (max-width:48rem){.wrap{display:block}nav{position:static;max-height:none}}`;

/** The page's policy: nothing but its own inline style; no script, no request of any kind. */
export function docsPolicy(style = DOCS_STYLE): string {
  const hash = createHash('sha256').update(style).digest('base64');
  return [
    "default-src 'none'",
    `style-src 'sha256-${hash}'`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * The whole page. `openApiHref` is relative (the page is served at `/docs`, without a trailing
 * slash), so it works behind a proxy that mounts the API under a path.
 */
export function renderDocsPage(document: DocsDocument, openApiHref: string): string {
  const entries = operations(document);
  // The declared tags first, then any an operation uses without declaring it, then the untagged.
  const tags: { name: string; description?: string }[] = [...(document.tags ?? [])];
  for (const name of entries.flatMap((e) => (e.op.tags?.length ? e.op.tags : ['other']))) {
    if (!tags.some((t) => t.name === name)) tags.push({ name });
  }
  const tagged = (tag: string) =>
    entries.filter((e) => (e.op.tags?.length ? e.op.tags.includes(tag) : tag === 'other'));
  const nav = tags
    .map((tag) => {
      const links = tagged(tag.name)
        .map(
          (e) =>
            `<li><a href="#${anchor(e.method, e.path)}">${e.method.toUpperCase()} ${escapeHtml(e.path)}</a></li>`,
        )
        .join('');
      return links ? `<li><strong>${escapeHtml(tag.name)}</strong><ul>${links}</ul></li>` : '';
    })
    .join('');
  const sections = tags
    .map((tag) => {
      const ops = tagged(tag.name);
      if (ops.length === 0) return '';
      return `<section class="tag"><h2>${escapeHtml(tag.name)}</h2>${paragraphs(tag.description)}${ops
        .map((e) => operationSection(e.method, e.path, e.op))
        .join('\n')}</section>`;
    })
    .join('\n');
  const { title, version, description } = document.info;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${DOCS_STYLE}</style>
</head>
<body>
<div class="wrap">
<nav aria-label="Operations"><ul>${nav}</ul></nav>
<main>
<h1>${escapeHtml(title)} <small>${escapeHtml(version)}</small></h1>
<p>The machine-readable description: <a href="${escapeHtml(openApiHref)}">OpenAPI document</a> (for code generators and interactive viewers).</p>
${paragraphs(description)}
${sections}
</main>
</div>
</body>
</html>`;
}
