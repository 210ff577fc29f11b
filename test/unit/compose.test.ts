import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import engineVersion from '../../local-engine/version.json' with { type: 'json' };

// One engine version: the Maven descriptor, compose.yaml and the tests must not drift apart.
describe('engine version', () => {
  it('is the same in local-engine/version.json, local-engine/pom.xml and compose.yaml, for both lines', () => {
    const pom = readFileSync(new URL('../../local-engine/pom.xml', import.meta.url), 'utf8');
    const compose = readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8');
    expect(pom).toContain(`<opensearch.runner.version>${engineVersion.runner}</opensearch.runner.version>`);
    expect(engineVersion.runner.startsWith(engineVersion.opensearch)).toBe(true);
    expect(engineVersion.image).toBe(`opensearchproject/opensearch:${engineVersion.opensearch}`);
    expect(compose).toContain(`image: \${OPENSEARCH_IMAGE:-${engineVersion.image}}`);
    expect(compose).toContain(`OPENSEARCH_IMAGE=${engineVersion.newest.image} docker compose up`);
  });
});
