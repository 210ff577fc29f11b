/** `hsds generate --services N --seed S [--places uk|us] --out DIR`: write a synthetic HSDS dataset (see src/synthetic). */
import { parseArgs } from 'node:util';
import { createProgressBar } from '../ingest/index.ts';
import { generateDataset } from '../synthetic/generate.ts';
import { writeDataset } from '../synthetic/write-dataset.ts';

const usage = `usage: hsds generate --services N [--seed S] [--places uk|us] --out DIR [--quiet]

  Writes taxonomies.json, taxonomy_terms.json and services.ndjson (fully nested services) to DIR.
  Same seed, same bytes. Import the folder with \`hsds import DIR\`.
  --places uk   around UK postcode centroids, nearly all Aberdeen (default)
  --places us   a national directory at US ZIP centroids, drawn where people live`;

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      services: { type: 'string' },
      seed: { type: 'string', default: '1' },
      places: { type: 'string', default: 'uk' },
      out: { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const services = Number(values.services);
  const places = values.places;
  if (
    values.help ||
    !values.out ||
    !Number.isInteger(services) ||
    services < 0 ||
    (places !== 'uk' && places !== 'us')
  ) {
    console.error(usage);
    return values.help ? 0 : 2;
  }
  const bar = values.quiet ? undefined : createProgressBar('generate', 'services', services);
  const started = Date.now();
  const seed = /^\d+$/.test(values.seed) ? Number(values.seed) : values.seed;
  const result = await writeDataset(values.out, generateDataset({ services, seed, places }), {
    onProgress: (p) => bar?.update(p.services, p.total),
  });
  bar?.stop();
  console.log(
    `Wrote ${result.services} services of ${result.organizations} organizations, ${result.taxonomies} taxonomies and ` +
      `${result.taxonomyTerms} terms to ${values.out} (${result.files.join(', ')}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return 0;
}
