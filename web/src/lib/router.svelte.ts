// The current route, following the address bar's hash.
import { parseRoute, type Route } from './routes'

let current = $state<Route>(parseRoute(globalThis.location?.hash ?? ''))

globalThis.addEventListener?.('hashchange', () => {
  current = parseRoute(location.hash)
})

export const router = {
  get route(): Route {
    return current
  },
}

/**
 * Opens `hash` (one of routes.ts's `href`s). `replace`: in place of the current address in
 * the history (a spent invitation link is not returned to with the back button).
 */
export function navigate(hash: string, { replace = false } = {}): void {
  if (replace) {
    history.replaceState(history.state, '', hash)
    current = parseRoute(hash)
  } else if (location.hash === hash) current = parseRoute(hash)
  else location.hash = hash
}
