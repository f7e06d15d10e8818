import { describe, expect, it } from 'vitest'
import type { GameSummary } from '../generated/server/GameSummary'
import {
  canCancel,
  forgetGame,
  fromSeatLink,
  holdsSeatOf,
  myGame,
  myGames,
  rememberGame,
  rememberedName,
  rememberName,
  replacesOtherSeat,
  turnClock,
  updateGame,
  withNewToken,
  type MyGame,
} from './myGames'

function memory(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial))
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  }
}

const game = (id: string, extra: Partial<MyGame> = {}): MyGame => ({
  id,
  game: 'valdora',
  seat: 0,
  token: `token-${id}`,
  invites: [],
  added: 1,
  ...extra,
})

describe('my games', () => {
  it("keeps the seat's new token once an invitation is spent, and knows the spent link", () => {
    const store = memory()
    const followed = game('a', { seat: null, token: 'invitation', joinName: 'Ana' })
    rememberGame(followed, store)
    rememberGame(withNewToken(followed, 'seat-token'), store)
    const kept = myGame('a', store)
    expect(kept).toMatchObject({ token: 'seat-token', invitation: 'invitation' })
    expect(kept?.joinName).toBeUndefined()
    expect(holdsSeatOf(kept, 'invitation')).toBe(true)
    expect(holdsSeatOf(kept, 'seat-token')).toBe(true)
    expect(holdsSeatOf(kept, 'another')).toBe(false)
    expect(holdsSeatOf(undefined, 'invitation')).toBe(false)
    // A second claim (never sent by the server, but harmless) keeps the first invitation.
    expect(withNewToken(kept as MyGame, 'later').invitation).toBe('invitation')
  })

  it('holds a seat from a seat link, its number unknown until the table says it', () => {
    const store = memory()
    const link = { id: 'a', game: 'valley', token: 'seat-token' }
    expect(replacesOtherSeat(undefined, 'seat-token')).toBe(false)
    rememberGame(fromSeatLink(undefined, link, 5), store)
    expect(myGame('a', store)).toEqual({ id: 'a', game: 'valley', seat: null, token: 'seat-token', invites: [], added: 5 })
    expect(holdsSeatOf(myGame('a', store), 'seat-token')).toBe(true)
    // The same link opened again changes nothing.
    const held = myGame('a', store) as MyGame
    updateGame('a', { seat: 1 }, store)
    expect(fromSeatLink(myGame('a', store), link, 9)).toEqual({ ...held, seat: 1 })
  })

  it("replaces another seat held at the table with a seat link's, keeping the creator's invitations", () => {
    const creator = game('a', {
      seat: 0,
      token: 'mine',
      invitation: 'spent',
      joinName: 'Ana',
      invites: [{ seat: 1, token: 'inv' }],
      creatorToken: 'secret',
    })
    expect(replacesOtherSeat(creator, 'other')).toBe(true)
    expect(replacesOtherSeat(creator, 'mine')).toBe(false)
    expect(replacesOtherSeat(creator, 'spent')).toBe(false)
    // Invitations kept for friends are no seat of this browser's.
    expect(replacesOtherSeat(game('b', { seat: null, token: null, invites: [{ seat: 1, token: 'inv' }] }), 'x')).toBe(false)
    expect(fromSeatLink(creator, { id: 'a', game: 'valdora', token: 'other' }, 7)).toEqual({
      id: 'a',
      game: 'valdora',
      seat: null,
      token: 'other',
      invites: [{ seat: 1, token: 'inv' }],
      added: 7,
      creatorToken: 'secret',
    })
  })

  it('keeps games newest first, replacing one remembered again', () => {
    const store = memory()
    rememberGame(game('a'), store)
    rememberGame(game('b'), store)
    rememberGame(game('a', { seat: 2 }), store)
    expect(myGames(store).map((g) => [g.id, g.seat])).toEqual([
      ['a', 2],
      ['b', 0],
    ])
    expect(myGame('b', store)?.token).toBe('token-b')
  })

  it('updates and forgets', () => {
    const store = memory()
    rememberGame(game('a', { seat: null, joinName: 'Ana' }), store)
    updateGame('a', { seat: 1, joinName: undefined }, store)
    expect(myGame('a', store)).toMatchObject({ seat: 1 })
    expect(myGame('a', store)?.joinName).toBeUndefined()
    forgetGame('a', store)
    expect(myGames(store)).toEqual([])
  })

  it('ignores what is not a game (old versions, hand edits)', () => {
    const store = memory({ 'tabletop.games': JSON.stringify([{ id: 1 }, game('ok'), 'x']) })
    expect(myGames(store).map((g) => g.id)).toEqual(['ok'])
    expect(myGames(memory({ 'tabletop.games': '{not json' }))).toEqual([])
  })

  it('remembers the display name', () => {
    const store = memory()
    expect(rememberedName(store)).toBe('')
    rememberName('  Ana ', store)
    expect(rememberedName(store)).toBe('Ana')
  })
})

describe("the creator's token", () => {
  it('is kept with the game and lets this browser cancel it', () => {
    const store = memory()
    rememberGame(game('c', { creatorToken: 'secret' }), store)
    const kept = myGame('c', store)
    expect(kept?.creatorToken).toBe('secret')
    expect(canCancel(kept)).toBe(true)
    expect(canCancel(myGame('missing', store))).toBe(false)
    rememberGame(game('d'), store)
    expect(canCancel(myGame('d', store))).toBe(false)
  })

  it('makes a stored entry invalid when it is not a non-empty string', () => {
    const entries = [
      game('good', { creatorToken: 'secret' }),
      { ...game('number'), creatorToken: 42 },
      { ...game('empty'), creatorToken: '' },
      { ...game('null'), creatorToken: null },
      game('none'),
    ]
    const store = memory({ 'tabletop.games': JSON.stringify(entries) })
    expect(myGames(store).map((g) => g.id)).toEqual(['good', 'none'])
  })
})

describe('the clock of a running game of mine', () => {
  const AT = 5_000_000
  const person = (seat: number, name: string) => ({
    seat,
    kind: 'human' as const,
    name,
    bot: null,
    open: false,
    presence: null,
    stand_in: null,
    left: false,
    former: false,
  })
  const bot = { ...person(2, 'Bot'), kind: 'bot' as const, bot: 'easy' }
  const summary = (extra: Partial<GameSummary> = {}): GameSummary => ({
    id: 'g',
    game: 'valdora',
    config: {},
    status: 'running',
    seats: [person(0, 'Ana'), person(1, 'Ben'), bot],
    seats_free: 0,
    created: 1,
    seed_chosen: false,
    seq: 3,
    to_move: 1,
    outcome: null,
    data_digest: null,
    clock: { kind: 'realtime', initial_secs: 300, increment_secs: 5 },
    times: { left_ms: [200_000, 40_000, 300_000], running: 1, deadline: AT + 40_000 },
    hints: false,
    casual: false,
    ...extra,
  })

  it('is the seat to move and its time left, counting down from when the summary came', () => {
    expect(turnClock(summary(), AT, AT + 15_000)).toEqual({ seat: 1, ms: 25_000, running: true, low: true })
    expect(turnClock(summary(), AT, AT + 99_000)?.ms).toBe(0)
    // A bot plays the seat for its person: its clock waits.
    const waiting = summary({ times: { left_ms: [200_000, 0, 300_000], running: null, deadline: null } })
    expect(turnClock(waiting, AT, AT + 15_000)).toEqual({ seat: 1, ms: 0, running: false, low: true })
  })

  it('is none without a clock, times, a running game or a person to move', () => {
    expect(turnClock(undefined, AT)).toBeNull()
    expect(turnClock(null, AT)).toBeNull()
    expect(turnClock(summary({ clock: { kind: 'none' }, times: null }), AT)).toBeNull()
    expect(turnClock(summary({ times: null }), AT)).toBeNull()
    expect(turnClock(summary({ status: 'over', to_move: null }), AT)).toBeNull()
    expect(turnClock(summary({ to_move: 2 }), AT)).toBeNull()
  })
})
