/**
 * Streamed responses: every record of a search, written batch by batch as the engine walks its
 * point in time. The body is pulled: a batch is fetched only when the client has taken the previous
 * one (two batches at most in memory, however large the result), and a client that goes away
 * cancels the stream, which ends the walk and releases the point in time.
 *
 * Each stream holds a dump slot (dumps.ts) until it ends, however it ends. A client that takes
 * nothing for the stall timeout (the server still waits to hand it the last batch) is cut off:
 * the walk is stopped, which releases the point in time, and the connection dropped. Without that,
 * a client that stops reading would hold its point in time and its batches for as long as it
 * keeps the connection open: Node's HTTP server honours backpressure, so it waits for ever.
 *
 * The first batch is fetched before the response starts, so an engine that is down still gets a
 * proper 503 rather than a 200 cut short.
 */
import type { Logger } from 'pino';
import type { RecordTexts } from '../../engine/search.ts';
import type { DumpTicket } from './dumps.ts';

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson';

type Encoder = {
  /** Text before the first record. */
  head?: (total: number) => string;
  /** The records of one batch (JSON texts); `first` tells whether anything was written before. */
  batch: (records: string[], first: boolean) => string;
  /** Text after the last record. */
  tail?: () => string;
};

async function streamResponse(
  batches: AsyncGenerator<RecordTexts, void, undefined>,
  encoder: Encoder,
  contentType: string,
  dump: DumpTicket,
  logger: Logger,
): Promise<Response> {
  const utf8 = new TextEncoder();
  let first: IteratorResult<RecordTexts, void> | undefined;
  try {
    first = await batches.next();
  } catch (error) {
    dump.release();
    await batches.return(undefined).catch(() => {});
    throw error;
  }
  const total = first.done ? 0 : first.value.total;
  let head = encoder.head?.(total) ?? '';
  let wroteRecords = false;
  // The client may go away while a batch is on its way: the late batch is then dropped quietly.
  let cancelled = false;
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    clearTimeout(stallTimer);
    dump.release();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(stallTimer);
        try {
          // A pull that enqueues nothing is never followed by another: an empty batch (no matches)
          // must read on to the end instead of leaving the response open forever.
          for (;;) {
            const next = first ?? (await batches.next());
            first = undefined;
            if (cancelled) return;
            if (next.done) {
              const text = head + (encoder.tail?.() ?? '');
              if (text) controller.enqueue(utf8.encode(text));
              controller.close();
              finish();
              return;
            }
            const records = next.value.texts;
            const text = head + (records.length > 0 ? encoder.batch(records, !wroteRecords) : '');
            head = '';
            if (records.length > 0) wroteRecords = true;
            if (text) {
              controller.enqueue(utf8.encode(text));
              // The next pull comes once the client has taken this batch; none in time is a stall.
              stallTimer = setTimeout(() => stalled(controller), dump.stallTimeoutMs);
              return;
            }
          }
        } catch (error) {
          if (cancelled) return;
          logger.error({ err: error }, 'stream failed part-way; the response is cut short');
          finish();
          controller.error(error);
          await batches.return(undefined).catch(() => {});
        }
      },
      async cancel() {
        cancelled = true;
        finish();
        await batches.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  function stalled(controller: ReadableStreamDefaultController<Uint8Array>) {
    if (cancelled) return;
    cancelled = true;
    finish();
    logger.warn(
      { stallTimeoutMs: dump.stallTimeoutMs },
      'dump stalled: the client took nothing within the stall timeout; cut off, its point in time released',
    );
    // The walk waits at a batch boundary: ending it closes the point in time now.
    batches.return(undefined).catch(() => {});
    if (!dump.cutOff()) controller.error(new Error('dump stalled'));
  }
  // Chunked from the start: otherwise @hono/node-server reads the first chunks ahead to learn a
  // Content-Length, and writes them without waiting for the client (a stalled client then holds
  // two batches in the socket before backpressure starts).
  return new Response(body, {
    status: 200,
    headers: { 'content-type': contentType, 'transfer-encoding': 'chunked' },
  });
}

// A record stored compactly is one line already; anything else is made so.
const oneLine = (text: string) => (text.includes('\n') ? JSON.stringify(JSON.parse(text)) : text);

const lines = (records: string[]) => {
  let text = '';
  for (const record of records) text += `${oneLine(record)}\n`;
  return text;
};

/** `format=ndjson`: one JSON object a line. */
export function ndjsonResponse(
  batches: AsyncGenerator<RecordTexts, void, undefined>,
  dump: DumpTicket,
  logger: Logger,
): Promise<Response> {
  return streamResponse(batches, { batch: lines }, NDJSON_CONTENT_TYPE, dump, logger);
}

/**
 * `minimal=true` without `format=ndjson`: one Page holding every result, streamed. The point in
 * time gives the exact count before the first item, so the page's header is written first.
 */
export function wholePageResponse(
  batches: AsyncGenerator<RecordTexts, void, undefined>,
  dump: DumpTicket,
  logger: Logger,
): Promise<Response> {
  return streamResponse(
    batches,
    {
      head: (total) =>
        `{"total_items":${total},"total_pages":${total > 0 ? 1 : 0},"page_number":1,"size":${total},` +
        `"first_page":true,"last_page":true,"empty":${total === 0},"contents":[`,
      batch: (records, first) => (first ? '' : ',') + records.join(','),
      tail: () => ']}',
    },
    'application/json',
    dump,
    logger,
  );
}
