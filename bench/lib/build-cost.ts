/**
 * The Node CPU of building the read documents alone (no engine): each nested service of a
 * synthetic dataset turned into its service and service_at_location documents and serialised as a
 * bulk request would. What a publish costs per service in Node beside reading the store.
 *
 *   node bench/lib/build-cost.ts <dataset dir> [--limit N]
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { ServiceFull } from '../../src/hsds/index.ts';
import { toServiceDocument } from '../../src/index-mapping/service.document.ts';
import {
  geometryFromExtent,
  serviceAtLocationDocuments,
} from '../../src/ingest/publish/read-indices.writer.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { limit: { type: 'string' } },
});
const limit = Number(values.limit ?? Number.POSITIVE_INFINITY);
const services: ServiceFull[] = [];
const lines = createInterface({ input: createReadStream(join(positionals[0]!, 'services.ndjson'), 'utf8') });
for await (const line of lines) {
  if (line) services.push(JSON.parse(line) as ServiceFull);
  if (services.length >= limit) break;
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const stage = { service: 0, sal: 0, serialise: 0 };
let bytes = 0;
for (let pass = 0; pass < 2; pass++) {
  const s = { service: 0, sal: 0, serialise: 0 };
  for (const service of services) {
    let t = cpu();
    const doc = toServiceDocument(service);
    const t1 = cpu();
    const sals = serviceAtLocationDocuments(service, geometryFromExtent);
    const t2 = cpu();
    bytes += JSON.stringify(doc).length;
    for (const sal of sals) bytes += JSON.stringify(sal).length;
    t = t1 - t;
    s.service += t;
    s.sal += t2 - t1;
    s.serialise += cpu() - t2;
  }
  if (pass === 1) Object.assign(stage, s);
}
const per = (ms: number) => ((ms / services.length) * 1000).toFixed(0);
console.log(
  JSON.stringify({
    services: services.length,
    us_per_service: {
      service_document: per(stage.service),
      service_at_locations: per(stage.sal),
      serialise: per(stage.serialise),
    },
    mb_per_pass: bytes / 2 / 1e6,
  }),
);
