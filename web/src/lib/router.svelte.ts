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

/** Opens `hash` (one of routes.ts's `href`s). */
export function navigate(hash: string): void {
  if (location.hash === hash) current = parseRoute(hash)
  else location.hash = hash
}
