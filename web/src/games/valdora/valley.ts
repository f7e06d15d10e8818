// Geometry of the drawn valley: the view's coordinates (about 0–100) times SCALE, the size of
// each kind of space, where each city's book lies, and the scenery between the roads.
import type { SpaceView } from '../../generated/valdora/SpaceView'
import type { View } from '../../generated/valdora/View'

/** SVG units per view coordinate unit. */
export const SCALE = 10

export function spaceRadius(space: SpaceView): number {
  switch (space.kind) {
    case 'equipment_city':
    case 'commission_city':
    case 'harbour_city':
      return 44
    case 'road':
      return 30
    default:
      return 27
  }
}

/** Each road once, as two space ids. */
export function roads(view: View): [number, number][] {
  return view.spaces.flatMap((space) =>
    space.neighbours.filter((other) => other > space.id).map((other): [number, number] => [space.id, other]),
  )
}

export const MAP_CARD_WIDTH = 62
const CARD_HEIGHT = MAP_CARD_WIDTH * 1.38
const CARD_GAP = MAP_CARD_WIDTH * 0.18

/** The top-left corner of a city's book on the map: beside the city, towards the nearer
 * edge of the board (above the upper cities, below the lower ones). */
export function bookPlace(city: SpaceView): { x: number; y: number } {
  const cx = city.x * SCALE
  const cy = city.y * SCALE
  const width = 2 * MAP_CARD_WIDTH + CARD_GAP
  const clearance = spaceRadius(city) + 14
  return {
    x: cx - width / 2,
    y: cy < 500 ? cy - clearance - CARD_HEIGHT : cy + clearance,
  }
}

/** The discard area's box (V-A2: gems paid or unloaded go there; harbours load from it). */
export const DISCARD_BOX = { x: 405, y: 222, width: 190, height: 84 }

/** The drawing's extent: the 0–100 valley plus the books beyond the outer cities. */
export const VIEWBOX = { x: 0, y: -12, width: 1000, height: 1024 }

export interface Scenery {
  kind: 'tree' | 'hill' | 'field'
  x: number
  y: number
  size: number
}

/** Trees, hills and fields on a grid, kept clear of spaces, roads, books and the lake, so the
 * decoration never hides anything. Deterministic: the same board always looks the same. */
export function scenery(view: View): Scenery[] {
  // The board never changes during a game: compute once per layout, not once per view.
  const layout = view.spaces.map((s) => `${s.x},${s.y}`).join(';')
  if (sceneryCache?.layout !== layout) sceneryCache = { layout, scenery: placeScenery(view) }
  return sceneryCache.scenery
}

let sceneryCache: { layout: string; scenery: Scenery[] } | undefined

function placeScenery(view: View): Scenery[] {
  const points = view.spaces.map((s) => [s.x * SCALE, s.y * SCALE] as const)
  const segments = roads(view).map(([a, b]) => [points[a], points[b]] as const)
  const books = view.books.map((b) => view.spaces[b.city]).filter((c): c is SpaceView => c !== undefined).map(bookPlace)
  const out: Scenery[] = []
  for (let gx = 40; gx <= 960; gx += 40) {
    for (let gy = 30; gy <= 975; gy += 40) {
      const jitter = hash(gx * 31 + gy * 17)
      // Sparse, in loose clumps: keep a point where a coarse noise is high.
      if (hash(Math.floor(gx / 160) * 7 + Math.floor(gy / 160) * 13) % 3 === 0 ? jitter % 3 !== 0 : jitter % 4 !== 0) continue
      const x = gx + (jitter % 19) - 9
      const y = gy + ((jitter >> 5) % 19) - 9
      if (points.some(([px, py]) => Math.hypot(px - x, py - y) < 62)) continue
      if (segments.some(([p, q]) => distanceToSegment(x, y, p, q) < 26)) continue
      if (books.some((b) => x > b.x - 20 && x < b.x + 2 * MAP_CARD_WIDTH + CARD_GAP + 20 && y > b.y - 24 && y < b.y + CARD_HEIGHT + 20)) continue
      const d = DISCARD_BOX
      if (x > d.x - 20 && x < d.x + d.width + 20 && y > d.y - 20 && y < d.y + d.height + 20) continue
      if (inLake(x, y, 20)) continue
      const roll = jitter % 10
      const kind = roll < 6 ? 'tree' : roll < 8 ? 'hill' : 'field'
      out.push({ kind, x, y, size: 14 + (jitter % 9) })
    }
  }
  return out
}

/** Where the pawns on a space stand: inside a city's walls, above any other token. */
export function pawnSpots(space: SpaceView, count: number): { x: number; y: number }[] {
  const cx = space.x * SCALE
  const cy = space.y * SCALE
  const city = space.kind.endsWith('city')
  const step = city ? Math.min(22, 70 / Math.max(count - 1, 1)) : 24
  return Array.from({ length: count }, (_, i) => ({
    x: cx + (i - (count - 1) / 2) * step,
    y: city ? cy + 4 + (i % 2) * 6 : cy - spaceRadius(space) - 8,
  }))
}

/** The lake around the harbour city: an ellipse along the diagonal through the harbours. */
export const LAKE = { cx: 500, cy: 500, rx: 250, ry: 92, angle: 45 }

function inLake(x: number, y: number, margin: number): boolean {
  const a = (LAKE.angle * Math.PI) / 180
  const dx = x - LAKE.cx
  const dy = y - LAKE.cy
  const u = dx * Math.cos(a) + dy * Math.sin(a)
  const v = -dx * Math.sin(a) + dy * Math.cos(a)
  return (u / (LAKE.rx + margin)) ** 2 + (v / (LAKE.ry + margin)) ** 2 <= 1
}

function distanceToSegment(x: number, y: number, p: readonly [number, number], q: readonly [number, number]): number {
  const [px, py] = p
  const [qx, qy] = q
  const length2 = (qx - px) ** 2 + (qy - py) ** 2
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - px) * (qx - px) + (y - py) * (qy - py)) / length2))
  return Math.hypot(x - (px + t * (qx - px)), y - (py + t * (qy - py)))
}

function hash(n: number): number {
  let h = n ^ 0x9e3779b9
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}
