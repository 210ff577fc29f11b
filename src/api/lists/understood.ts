/**
 * Constraints read from a list's `search` (src/semantic/constraints.ts): a place, a language, an
 * age or group, a cost. The page says what was understood (`understood`) so a client can show it
 * and let the person remove it: `understand=false` reads none, `ignore_understood=place,age`
 * leaves those kinds out. Without a search, nothing is read.
 */
import { z } from '@hono/zod-openapi';
import type { Engine } from '../../engine/engine.ts';
import { searchPage } from '../../engine/search.ts';
import {
  CONSTRAINT_KINDS,
  type ConstraintKind,
  placeNamedSearch,
  type Understood,
} from '../../index-mapping/constraints.query.ts';
import { meansNothing } from '../../index-mapping/service-search.query.ts';
import { readConstraints } from '../../semantic/constraints.ts';
import { createPlaces, type Places } from '../../semantic/places.ts';
import type { AppContext } from '../types.ts';
import { booleanParam } from './list-params.ts';
import { meaningOf } from './meaning.ts';

const kindsError = `must be a comma-separated list of ${CONSTRAINT_KINDS.join(', ')}`;

/** The parameters that turn the reading off or leave kinds out. */
export const understoodParams = () => ({
  understand: booleanParam(
    "An extension of this API: `false` searches the `search` text as typed, without reading constraints from it (a place, a language, an age or group, a cost; see the page's `understood`). Default `true`.",
  ).optional(),
  ignore_understood: z
    .preprocess(
      (value) =>
        typeof value === 'string'
          ? value
              .split(',')
              .map((kind) => kind.trim().toLowerCase())
              .filter(Boolean)
          : value,
      z
        .array(z.string(), { error: kindsError })
        .refine((kinds) => kinds.every((k) => (CONSTRAINT_KINDS as readonly string[]).includes(k)), {
          error: kindsError,
        })
        .transform((kinds) => [...new Set(kinds)] as ConstraintKind[]),
    )
    .optional()
    .openapi({
      type: 'string',
      pattern: `^\\s*(${CONSTRAINT_KINDS.join('|')})(\\s*,\\s*(${CONSTRAINT_KINDS.join('|')}))*\\s*$`,
      example: 'place',
      description: `An extension of this API: constraints not to read from \`search\` (${CONSTRAINT_KINDS.join(', ')}): their words are searched as typed. What a chip's remove button sends.`,
    }),
});

export type UnderstoodParams = {
  search?: string | undefined;
  understand?: boolean | undefined;
  ignore_understood?: readonly ConstraintKind[] | undefined;
};

// One cache of places per engine handle (an app, a test): read once, refreshed when the served data changes.
const placesByEngine = new WeakMap<Engine, Places>();
const placesOf = (engine: Engine): Places => {
  let places = placesByEngine.get(engine);
  if (!places) {
    places = createPlaces(engine);
    placesByEngine.set(engine, places);
  }
  return places;
};

/** What `search` states beside its need; undefined when it states nothing, or when asked not to read it. */
export async function understoodOf(c: AppContext, p: UnderstoodParams): Promise<Understood | undefined> {
  if (p.understand === false || p.search === undefined || p.search.trim() === '') return undefined;
  const { engine, config } = c.get('deps');
  if (config.SEARCH_CONSTRAINTS === 'off') return undefined;
  const places = await placesOf(engine).current();
  return readConstraints(p.search, places, new Set(p.ignore_understood ?? []));
}

/** The page's `understood` member: each constraint by kind, its words and how it was applied. */
export function understoodMember(understood: Understood | undefined): Record<string, unknown> {
  if (!understood) return {};
  const member: Record<string, unknown> = {};
  for (const c of understood.constraints) {
    const filters = c.kind !== 'cost' && (c.kind !== 'place' || c.known);
    const applied = !filters || understood.boostOnly ? 'boost' : understood.relaxed ? 'relaxed' : 'filter';
    const value =
      c.kind === 'place'
        ? { place: c.place }
        : c.kind === 'language'
          ? { language: c.language }
          : c.kind === 'age'
            ? { minimum_age: c.from, maximum_age: c.to }
            : { free: true };
    member[c.kind] = { text: c.text, ...value, applied };
  }
  return { understood: member };
}

/** Whether the directory names a place only named in a search, in any service's words. */
async function named(c: AppContext, understood: Understood): Promise<boolean> {
  const place = understood.constraints.find((k) => k.kind === 'place' && !k.known);
  if (place?.kind !== 'place') return true;
  const found = await searchPage(c.get('deps').engine, placeNamedSearch(place.words), { from: 0, size: 0 });
  return found.total > 0;
}

/** What `search` states (its constraints) and what it means, read from the words of its need. */
export async function understandSearch(c: AppContext, p: UnderstoodParams) {
  let understood = await understoodOf(c, p);
  let meaning = await meaningOf(c, understood ? understood.needText : p.search);
  // A place beside words that do not plainly mean something the directory offers ("cheap flights
  // to New York": only loosely a need, through relaxations it found a charity's flights), or one
  // no service names ("... Tenerife"), stays a required word of the search as typed.
  const hasPlace = understood?.constraints.some((k) => k.kind === 'place');
  const plain = meaning === undefined || meaning.needs.length > 0 || meaning.terms.length > 0;
  if (understood && hasPlace && (!plain || meansNothing(meaning) || !(await named(c, understood)))) {
    understood = await understoodOf(c, {
      ...p,
      ignore_understood: [...(p.ignore_understood ?? []), 'place'],
    });
    meaning = await meaningOf(c, understood ? understood.needText : p.search);
  }
  // A crisis is never narrowed: a helpline anywhere is help here ("domestic violence Key West").
  if (understood && meaning?.crisis) understood = { ...understood, boostOnly: true };
  return { understood, meaning };
}
