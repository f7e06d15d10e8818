// The read-only hook the end-to-end tests read (`window.__tabletop`): the connection
// publishes it on every message, the Playwright tests (web/e2e) wait on it.
import type { Status } from '../generated/server/Status'

export interface TabletopDebug {
  seq: number
  status: Status | null
  seat: number | null
  toMove: number | null
  legalCount: number
  /** An action is on its way to the server. */
  busy: boolean
}

declare global {
  interface Window {
    readonly __tabletop?: Readonly<TabletopDebug>
  }
}
