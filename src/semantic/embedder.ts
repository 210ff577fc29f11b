/**
 * Sentence embeddings in process, on the CPU: all-MiniLM-L6-v2 (Apache-2.0, models/all-MiniLM-L6-v2,
 * converted once to ONNX and quantized to int8: see its NOTICE.md and conversion/), run by
 * onnxruntime-node, tokenized by @huggingface/tokenizers (BERT uncased WordPiece). A text becomes a
 * 384-dimensional unit vector (mean of the token states over the attention mask, then L2
 * normalised, as sentence-transformers does), so a dot product is the cosine similarity.
 *
 * Measured on a 2-core machine: the model loads in about 0.13 s and 120 MB; a short query embeds in
 * about 1.1 ms (p50). Nothing is fetched: the model ships in the repository.
 *
 * Texts are embedded one at a time: with the int8 model, padding in a batch shifts the vectors
 * (cosine about 0.99 to the single-text vector), so a query and the labels it is compared with
 * would be embedded differently.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EMBEDDING_DIMENSIONS = 384;
/** The model's own limit (sentence-transformers' max_seq_length for it). */
const MAX_TOKENS = 256;

export const DEFAULT_MODEL_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'models',
  'all-MiniLM-L6-v2',
);

export type Embedder = {
  /** The text's unit vector. */
  embed(text: string): Promise<Float32Array>;
  /** The whole words of the model's vocabulary (lower case, letters only): words it knows. */
  readonly knownWords: ReadonlySet<string>;
  close(): Promise<void>;
};

type Tokenizer = { encode(text: string): { ids: number[] } };

/**
 * Loads the model. The native runtime is imported here, not at module load, so a process that
 * never embeds (the CLI's import, the unit tests) never loads it.
 */
export async function createEmbedder(
  options: { modelDir?: string; threads?: number } = {},
): Promise<Embedder> {
  const modelDir = options.modelDir ?? DEFAULT_MODEL_DIR;
  const [ort, { Tokenizer }, tokenizerJson, tokenizerConfig] = await Promise.all([
    import('onnxruntime-node'),
    import('@huggingface/tokenizers'),
    readFile(join(modelDir, 'tokenizer.json'), 'utf8').then((t) => JSON.parse(t) as Record<string, unknown>),
    readFile(join(modelDir, 'tokenizer_config.json'), 'utf8').then(
      (t) => JSON.parse(t) as Record<string, unknown>,
    ),
  ]);
  const tokenizer: Tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  const vocab = (tokenizerJson.model as { vocab: Record<string, number> }).vocab;
  const separator = vocab['[SEP]'];
  if (separator === undefined) throw new Error(`${modelDir}/tokenizer.json has no [SEP] token`);
  const session = await ort.InferenceSession.create(join(modelDir, 'onnx', 'model_quantized.onnx'), {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    // One thread: a request embeds one short text (about 1 ms either way), and the API's other
    // requests keep the other core.
    intraOpNumThreads: options.threads ?? 1,
    interOpNumThreads: 1,
  });

  const tokenize = (text: string): number[] => {
    const ids = tokenizer.encode(text).ids;
    return ids.length > MAX_TOKENS ? [...ids.slice(0, MAX_TOKENS - 1), separator] : ids;
  };

  const knownWords = new Set(Object.keys(vocab).filter((token) => /^[a-z]{2,}$/.test(token)));

  return {
    knownWords,
    async embed(text) {
      const ids = tokenize(text);
      const length = ids.length;
      const feeds = {
        input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, length]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]),
        token_type_ids: new ort.Tensor('int64', new BigInt64Array(length), [1, length]),
      };
      const output = await session.run(feeds);
      const states = output.last_hidden_state?.data as Float32Array | undefined;
      if (!states) throw new Error('the embedding model gave no last_hidden_state');
      return meanPooled(states, length);
    },
    close: () => session.release(),
  };
}

/** The mean of `tokens` token states, scaled to unit length. Pure. */
export function meanPooled(states: Float32Array, tokens: number): Float32Array {
  const vector = new Float32Array(EMBEDDING_DIMENSIONS);
  for (let t = 0; t < tokens; t++) {
    const offset = t * EMBEDDING_DIMENSIONS;
    for (let d = 0; d < EMBEDDING_DIMENSIONS; d++) vector[d]! += states[offset + d]!;
  }
  let norm = 0;
  for (let d = 0; d < EMBEDDING_DIMENSIONS; d++) norm += vector[d]! * vector[d]!;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < EMBEDDING_DIMENSIONS; d++) vector[d]! /= norm;
  return vector;
}

/** The cosine similarity of two unit vectors. */
export function similarity(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[d]!;
  return sum;
}
