/**
 * The one place a plain Response is given the type of a route's 200 answer.
 *
 * The API answers JSON it did not build as objects: records as the engine stored them (never
 * parsed on the way out), pages assembled as text from them, and `format=ndjson` streams, whose
 * media type the route types of @hono/zod-openapi cannot name (`application/x-ndjson` maps to
 * `never`). The tests check every answer against the official HSDS schemas; this type lets tsc
 * check that each route and its handler agree on what the route serves.
 */
import type { z } from '@hono/zod-openapi';
import type { TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';

export type JsonAnswer<Schema extends z.ZodType> = Response &
  TypedResponse<JSONParsed<z.output<Schema>>, 200, 'json'>;

export const asJsonAnswer = <Schema extends z.ZodType>(_schema: Schema, res: Response): JsonAnswer<Schema> =>
  res as JsonAnswer<Schema>;

/**
 * A record route's answer for an id merged into another (src/duplicates): a 301 to the kept id.
 * The redirect is an operator's marks at work, not part of HSDS, so the record routes leave it out
 * of the OpenAPI document (their 200 and errors are the HSDS API); it is given the route's answer
 * type here, once and by name, rather than cast away at the route.
 */
export const asMergedRedirect = <Schema extends z.ZodType>(
  _schema: Schema,
  res: Response,
): JsonAnswer<Schema> => res as JsonAnswer<Schema>;
