// Reconnection waits: 0.5 s, doubling up to 8 s, so a restarted server is found quickly
// and a dead one is not hammered.
export const FIRST_RETRY_MS = 500
export const MAX_RETRY_MS = 8000

/** The wait before reconnection attempt `attempt` (0 for the first after a loss). */
export function retryDelay(attempt: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempt))
}
