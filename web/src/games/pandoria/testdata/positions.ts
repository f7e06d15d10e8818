// Real positions for the table's tests: the shared fixtures (web/fixtures/pandoria-*.json)
// and this module's own (positions.json, tools/generate-positions.py), whose cells are
// stored as rows and expanded here back to the exact CellView JSON of the server.
import type { Action } from '../../../generated/pandoria/Action'
import type { CellView } from '../../../generated/pandoria/CellView'
import type { Event } from '../../../generated/pandoria/Event'
import type { View } from '../../../generated/pandoria/View'
import type { Fixture as AnyFixture } from '../../fixture'

export interface Position {
  name: string
  /** The seat to move (seat 0 once the game is over). */
  seat: number
  view: View
  spectatorView: View | null
  legal: Action[]
  events: Event[]
}

type Fixture = Omit<AnyFixture<View, Action, Event>, 'name'>

type CellRow = [CellView['terrain'], number, number | null, [number, boolean] | null, boolean]

interface StoredPosition {
  kind: string
  seat: number
  view: Omit<View, 'cells'> & { cells: CellRow[] }
  legal: Action[]
  last_events: Event[]
}

const fixtures = import.meta.glob<Fixture>('../../../../fixtures/pandoria*.json', {
  eager: true,
  import: 'default',
})
const stored = import.meta.glob<StoredPosition[]>('./positions.json', { eager: true, import: 'default' })

function expand(view: StoredPosition['view']): View {
  const cells: CellView[] = view.cells.map(([terrain, symbols, castle, figure, closed], cell) => ({
    cell,
    terrain,
    symbols,
    castle,
    figure,
    closed,
  }))
  return { ...view, cells }
}

export const FIXTURES: Position[] = Object.entries(fixtures)
  .map(([path, f]) => ({
    name: path.replace(/^.*\/(.*)\.json$/, '$1'),
    seat: f.seat,
    view: f.view,
    spectatorView: f.spectator_view,
    legal: (f.legal ?? []).map((l) => l.action),
    events: f.last_events,
  }))
  .sort((a, b) => a.name.localeCompare(b.name))

export const GENERATED: Position[] = Object.values(stored)
  .flat()
  .map((p) => ({
    name: p.kind,
    seat: p.seat,
    view: expand(p.view),
    spectatorView: null,
    legal: p.legal,
    events: p.last_events,
  }))

/** Every position the tests know. */
export const POSITIONS: Position[] = [...FIXTURES, ...GENERATED]
