import type { Position } from 'geojson';

/**
 * Where the rings of one polygon cross or touch each other or themselves.
 *
 * Why not turf's `kinks`: it tests every pair of segments (a 10,000-vertex council boundary took
 * half a second) and skips parallel pairs, so overlaps along a line go unseen unless a neighbour
 * happens to touch. This sweeps segments in order of their left end and only compares those whose
 * x ranges overlap: about n log n for real shapes.
 *
 * Counted as a problem, since OpenSearch's tessellator rejects them: proper crossings, a vertex
 * touching another part of the boundary (including a hole touching its outer ring), collinear
 * overlaps, and a spike that doubles back along its previous segment. Consecutive segments meeting
 * at their shared vertex are of course fine. Rings must be closed; stops after `limit` findings.
 */
export function findSelfIntersections(rings: readonly Position[][], limit = 3): Position[] {
  const segments: Segment[] = [];
  rings.forEach((ring, r) => {
    const count = ring.length - 1;
    for (let i = 0; i < count; i++) {
      const [ax, ay] = ring[i] as [number, number];
      const [bx, by] = ring[i + 1] as [number, number];
      segments.push({
        ring: r,
        index: i,
        count,
        ax,
        ay,
        bx,
        by,
        minX: Math.min(ax, bx),
        maxX: Math.max(ax, bx),
        minY: Math.min(ay, by),
        maxY: Math.max(ay, by),
      });
    }
  });
  segments.sort((s, t) => s.minX - t.minX);

  const found: Position[] = [];
  let active: Segment[] = [];
  for (const segment of segments) {
    active = active.filter((other) => other.maxX >= segment.minX);
    for (const other of active) {
      if (other.minY > segment.maxY || segment.minY > other.maxY) continue;
      const point = adjacent(segment, other) ? spikeBetween(segment, other) : meetingPoint(segment, other);
      if (point) {
        found.push(point);
        if (found.length >= limit) return found;
      }
    }
    active.push(segment);
  }
  return found;
}

type Segment = {
  ring: number;
  index: number;
  /** Segments in the ring. */
  count: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
};

function adjacent(s: Segment, t: Segment): boolean {
  if (s.ring !== t.ring) return false;
  const gap = Math.abs(s.index - t.index);
  return gap === 1 || gap === s.count - 1;
}

/** > 0 when c is left of a→b, < 0 right, 0 on the line. */
function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function within(s: Segment, x: number, y: number): boolean {
  return x >= s.minX && x <= s.maxX && y >= s.minY && y <= s.maxY;
}

function meetingPoint(s: Segment, t: Segment): Position | null {
  const o1 = orient(s.ax, s.ay, s.bx, s.by, t.ax, t.ay);
  const o2 = orient(s.ax, s.ay, s.bx, s.by, t.bx, t.by);
  const o3 = orient(t.ax, t.ay, t.bx, t.by, s.ax, s.ay);
  const o4 = orient(t.ax, t.ay, t.bx, t.by, s.bx, s.by);

  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
    const along = o3 / (o3 - o4);
    return [s.ax + along * (s.bx - s.ax), s.ay + along * (s.by - s.ay)];
  }
  if (o1 === 0 && within(s, t.ax, t.ay)) return [t.ax, t.ay];
  if (o2 === 0 && within(s, t.bx, t.by)) return [t.bx, t.by];
  if (o3 === 0 && within(t, s.ax, s.ay)) return [s.ax, s.ay];
  if (o4 === 0 && within(t, s.bx, s.by)) return [s.bx, s.by];
  return null;
}

/**
 * Consecutive segments share a vertex; they only conflict when collinear and folding back over
 * each other (A → B → back towards A), which is a zero-width spike.
 */
function spikeBetween(s: Segment, t: Segment): Position | null {
  // Orient so that `first` ends where `second` starts.
  const [first, second] = s.bx === t.ax && s.by === t.ay ? [s, t] : [t, s];
  if (orient(first.ax, first.ay, first.bx, first.by, second.bx, second.by) !== 0) return null;
  const dot =
    (first.bx - first.ax) * (second.bx - second.ax) + (first.by - first.ay) * (second.by - second.ay);
  return dot < 0 ? [first.bx, first.by] : null;
}
