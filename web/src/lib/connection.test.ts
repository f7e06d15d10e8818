import { compare } from 'fast-json-patch'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import valdoraStart from '../../fixtures/valdora-0.json'
import valdoraAfterOne from '../../fixtures/valdora-1.json'
import type { ClientMessage } from '../generated/server/ClientMessage'
import type { LogEntry } from '../generated/server/LogEntry'
import type { ServerMessage } from '../generated/server/ServerMessage'
import type { JsonValue } from '../generated/serde_json/JsonValue'
import { FIRST_RETRY_MS, MAX_RETRY_MS, retryDelay } from './backoff'
import { Connection, socketUrl, type OpenSocket, type SocketHandlers } from './connection.svelte'
import type { TabletopDebug } from './debug'
import recorded from './testdata/valdora-session.json'

class FakeSocket {
  sent: ClientMessage[] = []
  closed = false
  readonly url: string
  private readonly on: SocketHandlers

  constructor(url: string, on: SocketHandlers) {
    this.url = url
    this.on = on
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientMessage)
  }
  close() {
    this.closed = true
  }
  /** The server side. */
  opens() {
    this.on.open()
  }
  says(message: ServerMessage | Record<string, unknown>) {
    this.on.message(JSON.stringify(message))
  }
  drops(code = 1006) {
    this.on.close(code, '')
  }
}

class FakeNetwork {
  sockets: FakeSocket[] = []
  open: OpenSocket = (url, on) => {
    const socket = new FakeSocket(url, on)
    this.sockets.push(socket)
    return socket
  }
  get last(): FakeSocket {
    const socket = this.sockets.at(-1)
    if (!socket) throw new Error('no socket was opened')
    return socket
  }
}

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value))

function stateMessage(view: JsonValue, seq = 0, extra: Partial<Extract<ServerMessage, { type: 'state' }>> = {}): ServerMessage {
  return {
    type: 'state',
    seq,
    seat: 0,
    status: 'running',
    view,
    to_move: 0,
    legal: [{ action: { type: 'pass' }, description: 'pass', rule: 'V-T1' }],
    seats: [
      { seat: 0, kind: 'human', name: 'Ana', bot: null, open: false, presence: null, stand_in: null, left: false, former: false },
      { seat: 1, kind: 'bot', name: 'Bot (easy)', bot: 'easy', open: false, presence: null, stand_in: null, left: false, former: false },
    ],
    outcome: null,
    can_undo: false,
    clock: { kind: 'none' },
    times: null,
    hints: false,
    ...extra,
  }
}

function updateMessage(seq: number, patch: unknown[], extra: Partial<Extract<ServerMessage, { type: 'update' }>> = {}): ServerMessage {
  return {
    type: 'update',
    seq,
    seat: 0,
    events: [{ event: { type: 'passed', seat: 0 }, text: 'Seat 0 passes' }],
    view_patch: patch as JsonValue[],
    to_move: 1,
    legal: null,
    status: 'running',
    outcome: null,
    can_undo: false,
    times: null,
    ...extra,
  }
}

let network: FakeNetwork

function connect(
  options: {
    token?: string | null
    name?: string
    fetchLog?: (id: string, token: string | null) => Promise<LogEntry[]>
    onToken?: (token: string) => void
  } = {},
) {
  const connection = new Connection('g1', {
    token: options.token === undefined ? 'seat-0-token' : options.token,
    name: options.name,
    url: 'ws://test/api/games/g1/ws',
    openSocket: network.open,
    fetchLog: options.fetchLog,
    onToken: options.onToken,
  })
  connection.start()
  network.last.opens()
  return connection
}

beforeEach(() => {
  network = new FakeNetwork()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('hello', () => {
  it('says hello with the seat token, or without one to watch', () => {
    connect()
    expect(network.last.sent).toEqual([{ type: 'hello', token: 'seat-0-token', name: null }])
    connect({ token: null })
    expect(network.last.sent).toEqual([{ type: 'hello', token: null, name: null }])
  })

  it('keeps the new token of a claimed invitation and says hello with it from then on', () => {
    vi.useFakeTimers()
    const kept: string[] = []
    const connection = connect({ token: 'invitation', name: 'Ana', onToken: (token) => kept.push(token) })
    expect(network.last.sent).toEqual([{ type: 'hello', token: 'invitation', name: 'Ana' }])
    network.last.says(stateMessage({}, 0, { token: 'new-seat-token' }))
    expect(kept).toEqual(['new-seat-token'])
    expect(connection.token).toBe('new-seat-token')
    // A state without a token (a resync, a reconnection) keeps the token as it is.
    network.last.says(stateMessage({}, 0))
    expect(kept).toEqual(['new-seat-token'])
    network.last.drops()
    connection.retryNow()
    network.last.opens()
    expect(network.last.sent).toEqual([{ type: 'hello', token: 'new-seat-token', name: 'Ana' }])
    connection.dispose()
  })

  it('builds the socket address from the page address', () => {
    expect(socketUrl('ab c', { protocol: 'http:', host: 'localhost:5181' })).toBe('ws://localhost:5181/api/games/ab%20c/ws')
    expect(socketUrl('x', { protocol: 'https:', host: 'games.example' })).toBe('wss://games.example/api/games/x/ws')
  })
})

describe('a recorded session', () => {
  const inbound = recorded.messages.filter((m) => m.dir === 'in').map((m) => m.msg as unknown as ServerMessage)

  it('patches the view in place to exactly the states the server sends', () => {
    const connection = connect()
    let states = 0
    for (const message of inbound) {
      if (message.type === 'state' && connection.synced) {
        // A later full state (after the stale act) must equal the view built from patches.
        expect(plain(connection.view)).toEqual(message.view)
        expect(connection.seq).toBe(message.seq)
      }
      if (message.type === 'state') states++
      network.last.says(message)
      if (message.type === 'update') expect(connection.seq).toBe(message.seq)
    }
    expect(states).toBe(2)
    const last = inbound.filter((m) => m.type === 'update').at(-1)
    expect(connection.seq).toBe(last?.seq)
    expect(connection.link).toBe('live')
    // One socket all along: no patch failed, no seq was skipped.
    expect(network.sockets).toHaveLength(1)
  })

  it('logs every move and shows every error, stale included', () => {
    const connection = connect()
    for (const message of inbound) network.last.says(message)
    expect(connection.log.map((entry) => entry.seq)).toEqual(
      inbound.flatMap((m) => (m.type === 'update' ? [m.seq] : [])),
    )
    expect(connection.errors.map((error) => error.kind)).toEqual(['stale', 'malformed'])
    expect(connection.errors.every((error) => error.message.length > 0)).toBe(true)
  })
})

describe('state and updates', () => {
  const start = valdoraStart.spectator_view as unknown as JsonValue
  const next = valdoraAfterOne.spectator_view as unknown as JsonValue

  it('applies an update patch in place, keeping the untouched parts', () => {
    const connection = connect()
    network.last.says(stateMessage(start))
    const view = connection.view as Record<string, unknown>
    const untouched = Object.keys(start as object).find(
      (key) =>
        typeof view[key] === 'object' &&
        JSON.stringify((start as Record<string, unknown>)[key]) === JSON.stringify((next as Record<string, unknown>)[key]),
    )
    expect(untouched).toBeDefined()
    const before = view[untouched as string]
    network.last.says(updateMessage(1, compare(start as object, next as object)))
    expect(plain(connection.view)).toEqual(next)
    expect(connection.view).toBe(view)
    expect(view[untouched as string]).toBe(before)
    expect(connection.seq).toBe(1)
    expect(connection.toMove).toBe(1)
    expect(connection.legal).toBeNull()
  })

  it('reconnects for a fresh state when a patch does not apply', () => {
    const connection = connect()
    network.last.says(stateMessage({ a: 1 }))
    network.last.says(updateMessage(1, [{ op: 'remove', path: '/missing' }]))
    expect(network.sockets).toHaveLength(2)
    expect(network.sockets[0].closed).toBe(true)
    expect(connection.link).toBe('connecting')
    network.last.opens()
    expect(network.last.sent[0]).toMatchObject({ type: 'hello', token: 'seat-0-token' })
    network.last.says(stateMessage({ a: 2 }, 1))
    expect(plain(connection.view)).toEqual({ a: 2 })
    expect(connection.seq).toBe(1)
  })

  it('reconnects when a seq is skipped, and ignores an update it already has', () => {
    const connection = connect()
    network.last.says(stateMessage({ a: 1 }, 5))
    network.last.says(updateMessage(5, [{ op: 'replace', path: '/a', value: 9 }]))
    expect(plain(connection.view)).toEqual({ a: 1 })
    expect(network.sockets).toHaveLength(1)
    network.last.says(updateMessage(7, [{ op: 'replace', path: '/a', value: 9 }]))
    expect(network.sockets).toHaveLength(2)
  })

  it('replaces the whole view on a root patch', () => {
    const connection = connect()
    network.last.says(stateMessage({ a: 1 }))
    network.last.says(updateMessage(1, [{ op: 'replace', path: '', value: { b: 2 } }]))
    expect(plain(connection.view)).toEqual({ b: 2 })
  })

  it('takes seat changes and a game that starts', () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0, { status: 'open', legal: null }))
    const seats = [
      { seat: 0, kind: 'human' as const, name: 'Ana', bot: null },
      { seat: 1, kind: 'human' as const, name: 'Bruno', bot: null },
    ]
    network.last.says({ type: 'seats', seats, status: 'running' })
    expect(connection.seats).toEqual(seats)
    expect(connection.status).toBe('running')
  })

  it('merges the stored log with the updates that overtake it', async () => {
    let release: (entries: LogEntry[]) => void = () => {}
    const fetched = new Promise<LogEntry[]>((resolve) => (release = resolve))
    const connection = connect({ fetchLog: () => fetched })
    network.last.says(stateMessage({}, 2))
    network.last.says(updateMessage(3, []))
    release([1, 2, 3].map((seq) => ({ seq, seat: 0, events: [{ event: null, text: `move ${seq}` }] })))
    await fetched
    await Promise.resolve()
    expect(connection.log.map((entry) => entry.seq)).toEqual([1, 2, 3])
    // The live update's entry wins over the fetched copy of the same move.
    expect(connection.log[2].events[0].text).toBe('Seat 0 passes')
  })

  it('asks for the log as its seat is told it', async () => {
    const asked: (string | null)[] = []
    const fetchLog = (_id: string, token: string | null) => {
      asked.push(token)
      return Promise.resolve([])
    }
    connect({ token: 'seat-token', fetchLog })
    network.last.says(stateMessage({}, 1))
    connect({ token: null, fetchLog })
    network.last.says(stateMessage({}, 1))
    await Promise.resolve()
    // A seat's log leaves out only what another seat keeps hidden; a spectator's, every seat's.
    expect(asked).toEqual(['seat-token', null])
  })

  it('keeps one entry per move when the stored log is ahead of the updates', async () => {
    const fetched = Promise.resolve([1, 2, 3, 4].map((seq) => ({ seq, seat: 0, events: [{ event: null, text: `move ${seq}` }] })))
    const connection = connect({ fetchLog: () => fetched })
    network.last.says(stateMessage({}, 2))
    await fetched
    await Promise.resolve()
    // The game went on while the log was fetched: its moves 3 and 4 arrive after it.
    network.last.says(updateMessage(3, []))
    network.last.says(updateMessage(4, []))
    expect(connection.log.map((entry) => entry.seq)).toEqual([1, 2, 3, 4])
  })
})

describe('acting', () => {
  it('sends the action at the current seq and is busy until the update', async () => {
    const connection = connect()
    network.last.says(stateMessage({ a: 1 }, 4))
    performance.clearMeasures()
    connection.act({ type: 'pass' })
    expect(network.last.sent.at(-1)).toEqual({ type: 'act', seq: 4, action: { type: 'pass' } })
    expect(connection.busy).toBe(true)
    connection.act({ type: 'other' })
    // hello, the seat's presence, the one act
    expect(network.last.sent).toHaveLength(3)
    network.last.says(updateMessage(5, [{ op: 'replace', path: '/a', value: 2 }]))
    expect(connection.busy).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(performance.getEntriesByName('tabletop:act-to-board')).toHaveLength(1)
  })

  it('shows a stale error, then takes the state that follows it', () => {
    const connection = connect()
    network.last.says(stateMessage({ a: 1 }, 4))
    connection.act({ type: 'pass' })
    network.last.says({ type: 'error', kind: 'stale', message: 'the game is at seq 5, not 4', seq: 5 })
    expect(connection.busy).toBe(false)
    expect(connection.errors).toMatchObject([{ kind: 'stale', message: 'the game is at seq 5, not 4' }])
    network.last.says(stateMessage({ a: 3 }, 5))
    expect(connection.seq).toBe(5)
    expect(plain(connection.view)).toEqual({ a: 3 })
    // Still shown until dismissed.
    expect(connection.errors).toHaveLength(1)
    connection.dismissError(connection.errors[0].id)
    expect(connection.errors).toHaveLength(0)
  })

  it('sends nothing while the connection is down', () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0))
    vi.useFakeTimers()
    network.last.drops()
    connection.act({ type: 'pass' })
    expect(network.sockets[0].sent.map((m) => m.type)).toEqual(['hello', 'presence'])
    connection.dispose()
  })

  it('publishes the debug hook on every message', () => {
    connect()
    network.last.says(stateMessage({}, 3))
    const hook = (globalThis as { __tabletop?: TabletopDebug }).__tabletop
    expect(hook).toEqual({ seq: 3, status: 'running', seat: 0, toMove: 0, legalCount: 1, busy: false })
    expect(Object.isFrozen(hook)).toBe(true)
  })
})

describe('reconnecting', () => {
  it('waits 0.5 s, doubling to 8 s, and starts again after a state', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(retryDelay)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000])
    expect(retryDelay(0)).toBe(FIRST_RETRY_MS)
    expect(retryDelay(20)).toBe(MAX_RETRY_MS)

    vi.useFakeTimers()
    const connection = connect()
    network.last.says(stateMessage({}, 0))
    const waits: number[] = []
    for (let i = 0; i < 6; i++) {
      const before = network.sockets.length
      network.last.drops()
      expect(connection.link).toBe('lost')
      const wait = (connection.retryAt ?? 0) - Date.now()
      vi.advanceTimersByTime(wait - 1)
      expect(network.sockets).toHaveLength(before)
      vi.advanceTimersByTime(1)
      expect(network.sockets).toHaveLength(before + 1)
      waits.push(wait)
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 8000])
    // Back in step: the next loss waits 0.5 s again, and hello is said again.
    network.last.opens()
    expect(network.last.sent).toEqual([{ type: 'hello', token: 'seat-0-token', name: null }])
    network.last.says(stateMessage({}, 0))
    expect(connection.attempt).toBe(0)
    network.last.drops()
    expect((connection.retryAt ?? 0) - Date.now()).toBe(500)
    connection.dispose()
  })

  it('retries at once on request', () => {
    vi.useFakeTimers()
    const connection = connect()
    network.last.drops()
    connection.retryNow()
    expect(network.sockets).toHaveLength(2)
    expect(connection.link).toBe('connecting')
    connection.dispose()
  })

  it('gives up when the server refuses the table (close 1008)', () => {
    vi.useFakeTimers()
    const connection = connect()
    network.last.says({ type: 'error', kind: 'not_found', message: 'no game x', seq: null })
    network.last.drops(1008)
    expect(connection.link).toBe('gone')
    vi.advanceTimersByTime(60_000)
    expect(network.sockets).toHaveLength(1)
    expect(connection.errors).toMatchObject([{ kind: 'not_found' }])
  })

  it('stops for good when disposed', () => {
    vi.useFakeTimers()
    const connection = connect()
    network.last.drops()
    connection.dispose()
    vi.advanceTimersByTime(60_000)
    expect(network.sockets).toHaveLength(1)
  })
})

describe('presence and seats', () => {
  const person = (seat: number, extra: Record<string, unknown> = {}) => ({
    seat,
    kind: 'human',
    name: seat === 0 ? 'Ana' : 'Ben',
    bot: null,
    open: false,
    presence: { state: 'online', since: 1 },
    stand_in: null,
    left: false,
    former: false,
    ...extra,
  })

  it("tells the seat's presence after every hello, and when the tab is hidden or shown", () => {
    const connection = connect()
    connection.away = true
    network.last.says(stateMessage({}, 0))
    expect(network.last.sent.at(-1)).toEqual({ type: 'presence', away: true })
    connection.setAway(false)
    expect(network.last.sent.at(-1)).toEqual({ type: 'presence', away: false })
    // A second state on the same socket tells nothing new.
    network.last.says(stateMessage({}, 0))
    expect(network.last.sent.filter((m) => m.type === 'presence')).toHaveLength(2)
    connection.dispose()
  })

  it('a spectator tells no presence', () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0, { seat: null, legal: null }))
    connection.setAway(true)
    expect(network.last.sent.map((m) => m.type)).toEqual(['hello'])
    connection.dispose()
  })

  it('sends hand_over, take_back and leave', () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0))
    connection.handOver(1)
    connection.takeBack()
    connection.leave()
    expect(network.last.sent.slice(-3)).toEqual([{ type: 'hand_over', seat: 1 }, { type: 'take_back' }, { type: 'leave' }])
    connection.dispose()
  })

  it("adds a seats message's seat event to the log once, and a presence-only one changes only the seats", () => {
    const connection = connect()
    network.last.says(stateMessage({ a: 1 }, 0, { seats: [person(0), person(1)] as never }))
    network.last.says(updateMessage(1, [{ op: 'replace', path: '/a', value: 2 }]))
    const offline = person(1, { presence: { state: 'offline', since: 5 } })
    network.last.says({ type: 'seats', seats: [person(0), offline], status: 'running' })
    expect(connection.seats[1].presence).toEqual({ state: 'offline', since: 5 })
    expect(connection.log).toHaveLength(1)
    const event = { what: 'handed_over', seat: 1, by: 0, seq: 1, at: 9 }
    const handed = person(1, { presence: { state: 'offline', since: 5 }, stand_in: 'medium' })
    network.last.says({ type: 'seats', seats: [person(0), handed], status: 'running', event })
    network.last.says({ type: 'seats', seats: [person(0), handed], status: 'running', event })
    expect(connection.log.map((e) => (e.seat_event ? `s${e.seq}` : `m${e.seq}`))).toEqual(['m1', 's1'])
    // The next move comes after the seat event.
    network.last.says(updateMessage(2, [{ op: 'replace', path: '/a', value: 3 }]))
    expect(connection.log.map((e) => (e.seat_event ? `s${e.seq}` : `m${e.seq}`))).toEqual(['m1', 's1', 'm2'])
    connection.dispose()
  })

  it('sends no act while a bot plays the seat', () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0, { seats: [person(0, { stand_in: 'easy' }), person(1)] as never }))
    expect(connection.standIn).toBe(true)
    connection.act({ type: 'pass' })
    expect(network.last.sent.some((m) => m.type === 'act')).toBe(false)
    connection.dispose()
  })
})

describe('clocks', () => {
  it("keeps the table's clock and each message's times with when they arrived", () => {
    const connection = connect()
    const clock = { kind: 'realtime', initial_secs: 60, increment_secs: 0 } as const
    const times = (left: number, running: number | null) => ({ left_ms: [left, 60_000], running, deadline: null })
    const started = Date.now()
    network.last.says(stateMessage({ a: 1 }, 0, { clock, times: times(60_000, 0) }))
    expect(connection.clock).toEqual(clock)
    expect(connection.clockReading?.times.left_ms).toEqual([60_000, 60_000])
    expect(connection.clockReading?.receivedAt).toBeGreaterThanOrEqual(started)
    network.last.says(updateMessage(1, [{ op: 'replace', path: '/a', value: 2 }], { times: times(55_000, 1) }))
    expect(connection.clockReading?.times).toEqual(times(55_000, 1))
    // A time run out comes as a seat change: the bot now plays, no clock runs.
    const event = { what: 'timed_out', seat: 1, by: null, seq: 1, at: 9 }
    network.last.says({ type: 'seats', seats: [], status: 'running', event, times: times(55_000, null) })
    expect(connection.clockReading?.times.running).toBeNull()
    expect(connection.log.at(-1)?.seat_event?.what).toBe('timed_out')
    connection.dispose()
  })

  it('has no clock reading on a table without a clock', () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0))
    expect(connection.clock).toEqual({ kind: 'none' })
    expect(connection.clockReading).toBeNull()
    connection.dispose()
  })
})

describe('undo', () => {
  it('offers undo exactly while the server says so, sends it with the seq, and drops the move from the log', () => {
    const connection = connect()
    network.last.says(stateMessage({ a: 1 }, 0))
    expect(connection.canUndo).toBe(false)
    connection.undo()
    expect(network.last.sent.some((m) => m.type === 'undo')).toBe(false)
    network.last.says(updateMessage(1, [{ op: 'replace', path: '/a', value: 2 }], { can_undo: true, to_move: 0 }))
    expect(connection.canUndo).toBe(true)
    connection.undo()
    expect(network.last.sent.at(-1)).toEqual({ type: 'undo', seq: 1 })
    // Busy until the answer: a second click sends nothing.
    connection.undo()
    expect(network.last.sent.filter((m) => m.type === 'undo')).toHaveLength(1)
    network.last.says(updateMessage(2, [{ op: 'replace', path: '/a', value: 1 }], { events: [], undid: 1, can_undo: false }))
    expect(connection.view).toEqual({ a: 1 })
    expect(connection.canUndo).toBe(false)
    expect(connection.busy).toBe(false)
    expect(connection.log.map((e) => [e.seq, e.undid])).toEqual([[2, 1]])
    connection.dispose()
  })
})

describe('chat', () => {
  const message = (id: number, seat: number | null, text: string, author = seat === null ? 'guest-1234abcd' : `seat-${seat}`) => ({
    id,
    channel: seat === null ? ('spectators' as const) : ('players' as const),
    seat,
    author,
    name: seat === null ? null : 'Ana',
    text,
    seq: 0,
    at: 1_700_000_000_000 + id,
  })

  it('keeps what was said once each, by id, however often it comes', () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0))
    network.last.says({ type: 'chat', messages: [message(2, 1, 'hi'), message(5, 0, 'hello')] })
    network.last.says({ type: 'chat', messages: [message(3, 1, 'gl')] })
    network.last.says({ type: 'chat', messages: [message(2, 1, 'hi'), message(3, 1, 'gl'), message(5, 0, 'hello')] })
    expect(connection.chat.map((m) => m.id)).toEqual([2, 3, 5])
    connection.dispose()
  })

  it('sends a message and resolves once its echo is back, adding nothing before', async () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0))
    expect(connection.chatAuthor).toBe('seat-0')
    const sent = connection.say('  good luck  ')
    expect(network.last.sent.at(-1)).toEqual({ type: 'say', text: '  good luck  ' })
    expect(connection.chat).toEqual([])
    // Another seat's message first: not the echo.
    network.last.says({ type: 'chat', messages: [message(1, 1, 'good luck')] })
    network.last.says({ type: 'chat', messages: [message(2, 0, 'good luck')] })
    await expect(sent).resolves.toBeNull()
    expect(connection.chat.map((m) => m.id)).toEqual([1, 2])
    connection.dispose()
  })

  it("learns an anonymous spectator's key from the echo of their first message", async () => {
    const connection = connect({ token: null })
    network.last.says(stateMessage({}, 0, { seat: null, legal: null }))
    expect(connection.chatAuthor).toBeNull()
    const sent = connection.say('go Ana')
    network.last.says({ type: 'chat', messages: [message(4, null, 'go Ana')] })
    await expect(sent).resolves.toBeNull()
    expect(connection.chatAuthor).toBe('guest-1234abcd')
    connection.dispose()
  })

  it("shows a refusal of a message at the chat, not as the table's error, and leaves an action on its way", async () => {
    const connection = connect()
    network.last.says(stateMessage({}, 0))
    connection.act({ type: 'pass' })
    expect(connection.busy).toBe(true)
    const sent = connection.say('hi')
    network.last.says({ type: 'error', kind: 'rate_limited', message: 'slow down', seq: null })
    await expect(sent).resolves.toEqual({ kind: 'rate_limited', message: 'slow down' })
    expect(connection.errors).toEqual([])
    expect(connection.busy).toBe(true)
    // With no message waiting, an error is the table's as ever.
    network.last.says({ type: 'error', kind: 'forbidden', message: 'no', seq: null })
    expect(connection.errors.map((e) => e.kind)).toEqual(['forbidden'])
    connection.dispose()
  })

  it('refuses itself what the server would refuse, and anything while the connection is down', async () => {
    const connection = connect()
    await expect(connection.say('hi')).resolves.toEqual({ kind: 'network', message: '' })
    network.last.says(stateMessage({}, 0))
    await expect(connection.say('   ')).resolves.toEqual({ kind: 'malformed', message: '' })
    await expect(connection.say('x'.repeat(501))).resolves.toEqual({ kind: 'too_large', message: '' })
    expect(network.last.sent.some((m) => m.type === 'say')).toBe(false)
    // A message waiting when the connection drops is not lost silently: it is refused.
    const sent = connection.say('are you there?')
    network.last.drops()
    await expect(sent).resolves.toEqual({ kind: 'network', message: '' })
    connection.dispose()
  })
})
