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

  it('takes the nodes of a cluster as comma-separated URLs, each checked', () => {
    expect(loadConfig({ OPENSEARCH_URL: 'http://a:9200, http://b:9200,http://c:9200' }).OPENSEARCH_URL).toBe(
      'http://a:9200,http://b:9200,http://c:9200',
    );
    expect(() => loadConfig({ OPENSEARCH_URL: 'http://a:9200,b' })).toThrow(/OPENSEARCH_URL/);
  });

  it('leaves shards and replicas to the cluster size unless set, and names a missing CA file', () => {
    const config = loadConfig({});
    expect(config.INDEX_SHARDS).toBeUndefined();
    expect(config.INDEX_REPLICAS).toBeUndefined();
    expect(loadConfig({ INDEX_SHARDS: '2', INDEX_REPLICAS: '0' })).toMatchObject({
      INDEX_SHARDS: 2,
      INDEX_REPLICAS: 0,
    });
    expect(() => loadConfig({ OPENSEARCH_CA_FILE: '/nonexistent/ca.pem' })).toThrow(/OPENSEARCH_CA_FILE/);
  });

  it('bounds request bodies at 64 KiB unless told otherwise', () => {
    expect(loadConfig({}).MAX_BODY_BYTES).toBe(65536);
    expect(loadConfig({ MAX_BODY_BYTES: '1048576' }).MAX_BODY_BYTES).toBe(1048576);
    expect(() => loadConfig({ MAX_BODY_BYTES: '10' })).toThrow(/MAX_BODY_BYTES/);
  });

  it('reads TRUSTED_PROXIES as addresses and CIDR subnets, refusing anything else', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.1 ,::1,fd00::/8' }).TRUSTED_PROXIES).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['proxy.example.org', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(/TRUSTED_PROXIES/);
    }
  });
});

describe('CRISIS_LINES', () => {
  it('reads each line as a name and a phone number or a web address', () => {
    expect(
      loadConfig({
        CRISIS_LINES: 'Samaritans: 116 123; 988 Lifeline: 988 ; Shout: https://giveusashout.org;',
      }).CRISIS_LINES,
    ).toEqual([
      { name: 'Samaritans', phone: '116 123' },
      { name: '988 Lifeline', phone: '988' },
      { name: 'Shout', url: 'https://giveusashout.org' },
    ]);
    expect(loadConfig({}).CRISIS_LINES).toEqual([]);
  });

  it('refuses a line without a name or a contact', () => {
    expect(() => loadConfig({ CRISIS_LINES: 'Samaritans 116 123' })).toThrow(ConfigError);
    expect(() => loadConfig({ CRISIS_LINES: ': 999' })).toThrow(ConfigError);
  });
});
