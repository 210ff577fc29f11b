/**
 * `npm run openapi:write`: regenerates the committed openapi.json at the repository root from the
 * routes' zod schemas (the default configuration). The unit test test/unit/api/openapi/openapi.test.ts
 * fails when the committed copy and the routes disagree.
 */
import { writeFileSync } from 'node:fs';
import { formatOpenApiDocument, generateOpenApiDocument } from './openapi-document.ts';

const target = new URL('../../../openapi.json', import.meta.url);
writeFileSync(target, formatOpenApiDocument(generateOpenApiDocument()));
process.stderr.write(`wrote ${target.pathname}\n`);
