import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('gives working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      INDEX_PREFIX: 'hsds',
      HSDS_PROFILE: 'hsds',
      LOG_LEVEL: 'info',
    });
    expect(config.OPENSEARCH_URL).toBeUndefined();
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        OPENSEARCH_URL: 'not a url',
        LOG_LEVEL: 'loud',
        INDEX_PREFIX: 'Bad Prefix',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const names = (error as ConfigError).problems.map((p) => p.split(':')[0]);
      expect(names.sort()).toEqual(['INDEX_PREFIX', 'LOG_LEVEL', 'OPENSEARCH_URL', 'PORT']);
    }
  });

  it('treats empty strings as unset, as .env files write them', () => {
    expect(loadConfig({ OPENSEARCH_URL: '', PUBLISHER_EMAIL: '' }).OPENSEARCH_URL).toBeUndefined();
  });
});
