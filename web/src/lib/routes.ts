// The client's addresses, all in the hash so the server serves one page for every one:
//   #/                 lobby
//   #/game/ID          the table (as the seat this browser holds a token of, else watching)
//   #/game/ID?watch    the table, watching even with a token
//   #/join/ID/TOKEN    an invitation link
//   #/join/ID          a free seat of an open game, from the lobby's list
//   #/seat/ID/TOKEN    a seat link: one's own seat taken to another browser (the token
//                      is stored and leaves the address bar at once)
//   #/replay/ID        a finished game step by step; #/replay alone uploads a record file
//   #/player/ID        a person's profile (an account id)
//   #/ratings/GAME     a game's leaderboard; #/ratings alone, the first game's
//   #/friends          one's friends and friend requests
//   #/moderation       the moderators' queue of reports and audit log
export type Route =
  | { screen: 'lobby' }
  | { screen: 'table'; id: string; watch: boolean }
  | { screen: 'join'; id: string; token: string | null }
  | { screen: 'seat'; id: string; token: string }
  | { screen: 'replay'; id: string | null }
  | { screen: 'player'; id: string }
  | { screen: 'ratings'; game: string | null }
  | { screen: 'friends' }
  | { screen: 'moderation' }
  | { screen: 'missing'; hash: string }

export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#/, '').split('?', 2)
  const parts = path
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent)
  const flags = new URLSearchParams(query)
  const [head, id, token] = parts
  if (parts.length === 0) return { screen: 'lobby' }
  if (head === 'game' && id && parts.length === 2) return { screen: 'table', id, watch: flags.has('watch') }
  if (head === 'join' && id && parts.length <= 3) return { screen: 'join', id, token: token ?? null }
  if (head === 'seat' && id && token && parts.length === 3) return { screen: 'seat', id, token }
  if (head === 'replay' && parts.length <= 2) return { screen: 'replay', id: id ?? null }
  if (head === 'player' && id && parts.length === 2) return { screen: 'player', id }
  if (head === 'ratings' && parts.length <= 2) return { screen: 'ratings', game: id ?? null }
  if (head === 'friends' && parts.length === 1) return { screen: 'friends' }
  if (head === 'moderation' && parts.length === 1) return { screen: 'moderation' }
  return { screen: 'missing', hash }
}

const part = encodeURIComponent

export const href = {
  lobby: () => '#/',
  table: (id: string, watch = false) => `#/game/${part(id)}${watch ? '?watch' : ''}`,
  join: (id: string, token: string) => `#/join/${part(id)}/${part(token)}`,
  joinOpen: (id: string) => `#/join/${part(id)}`,
  seat: (id: string, token: string) => `#/seat/${part(id)}/${part(token)}`,
  replay: (id?: string) => (id ? `#/replay/${part(id)}` : '#/replay'),
  player: (id: string) => `#/player/${part(id)}`,
  ratings: (game?: string) => (game ? `#/ratings/${part(game)}` : '#/ratings'),
  friends: () => '#/friends',
  moderation: () => '#/moderation',
}

/** The full invitation address to send a friend. */
export function invitationUrl(id: string, token: string, location: Pick<Location, 'origin' | 'pathname'>): string {
  return `${location.origin}${location.pathname}${href.join(id, token)}`
}

/** The full address of one's own seat, to open on another device of one's own. */
export function seatLinkUrl(id: string, token: string, location: Pick<Location, 'origin' | 'pathname'>): string {
  return `${location.origin}${location.pathname}${href.seat(id, token)}`
}
