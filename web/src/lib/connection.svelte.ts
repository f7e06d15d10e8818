// One table's live connection (docs/server.md, "WebSocket"): hello, then the server's
// `state`, `update`, `seats`, `chat` and `error` messages kept as reactive fields for the
// table screen. The view is deep state patched in place with each update's JSON Patch, so
// Svelte redraws only the parts of the board that changed.
import { applyPatch, type Operation } from 'fast-json-patch'
import { tick } from 'svelte'
import type { Outcome } from '../generated/engine/Outcome'
import type { ChatMessage } from '../generated/server/ChatMessage'
import type { ClientMessage } from '../generated/server/ClientMessage'
import type { Clock } from '../generated/server/Clock'
import type { ClockTimes } from '../generated/server/ClockTimes'
import type { ErrorKind } from '../generated/server/ErrorKind'
import type { LegalAction } from '../generated/server/LegalAction'
import type { LogEntry } from '../generated/server/LogEntry'
import type { SeatInfo } from '../generated/server/SeatInfo'
import type { ServerMessage } from '../generated/server/ServerMessage'
import type { Status } from '../generated/server/Status'
import type { JsonValue } from '../generated/serde_json/JsonValue'
import { retryDelay } from './backoff'
import { draftProblem, isChatRefusal, isEcho, mergeChat, type ChatRefusal } from './chat'
import type { ClockReading } from './clock'
import type { TabletopDebug } from './debug'
import { lastMoveSeq, mergeLog, seatEventEntry } from './log'
import type { SeatMove } from './moves'

/** What the connection needs of a WebSocket; tests hand in a fake. */
export interface SocketLike {
  send(data: string): void
  close(): void
}

export interface SocketHandlers {
  open(): void
  message(data: string): void
  close(code: number, reason: string): void
}

export type OpenSocket = (url: string, on: SocketHandlers) => SocketLike

export const openBrowserSocket: OpenSocket = (url, on) => {
  const socket = new WebSocket(url)
  socket.onopen = () => on.open()
  socket.onmessage = (event) => {
    if (typeof event.data === 'string') on.message(event.data)
  }
  socket.onclose = (event) => on.close(event.code, event.reason)
  return { send: (data) => socket.send(data), close: () => socket.close(1000) }
}

/** `ws://HOST/api/games/ID/ws` (wss behind https), for the page's own server. */
export function socketUrl(gameId: string, location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
  return `${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`
}

/**
 * - `connecting`: the socket is opening or waiting for its first state;
 * - `live`: in step with the server;
 * - `lost`: closed, the next attempt is due at `retryAt`;
 * - `gone`: the server refused the table for good (no such game): no more attempts.
 */
/** The server's answer to "why not?" (`ServerMessage` of type `why`). */
export type WhyAnswer = Extract<ServerMessage, { type: 'why' }>

export type LinkState = 'connecting' | 'live' | 'lost' | 'gone'

/** An error the server sent, shown until dismissed. */
export interface ShownError {
  id: number
  kind: ErrorKind
  message: string
}

export interface ConnectionOptions {
  /** The seat's token (an invitation token claims its free seat); null to watch. */
  token: string | null
  /** The display name for claiming a free seat. */
  name?: string | null
  /**
   * Called with the seat's new token when the hello has claimed a free seat with its
   * invitation token: the invitation is spent, and this token is the only way back to the
   * seat (keep it). The connection says hello with it from then on.
   */
  onToken?: (token: string) => void
  url?: string
  openSocket?: OpenSocket
  /** The log as this seat is told it (`token`: the seat's; null for a spectator). */
  fetchLog?: (gameId: string, token: string | null) => Promise<LogEntry[]>
  now?: () => number
}

/** Close code 1008: the server will never take this hello (no such game): stop retrying. */
const POLICY_VIOLATION = 1008

export class Connection {
  /** The seat's view, deep and patched in place. Null until the first state. */
  view = $state<unknown>(null)
  seq = $state(0)
  seat = $state<number | null>(null)
  status = $state<Status | null>(null)
  toMove = $state<number | null>(null)
  legal = $state.raw<LegalAction[] | null>(null)
  seats = $state.raw<SeatInfo[]>([])
  outcome = $state.raw<Outcome | null>(null)
  /** Every move so far with its events, and the seat events between them, oldest first. */
  log = $state.raw<LogEntry[]>([])
  errors = $state<ShownError[]>([])
  /**
   * The move the last update brought, for the board to show happening; null after a state
   * (nothing is seen happening when the table is drawn afresh) or an undo.
   */
  arrived = $state.raw<SeatMove | null>(null)
  /** An action is on its way: the board and the list take no other. */
  busy = $state(false)
  /** The seat may take back its last decision now (the server's `can_undo`). */
  canUndo = $state(false)
  /** The table's clock, fixed at its creation. */
  clock = $state.raw<Clock>({ kind: 'none' })
  /** The table's seats may ask for hints (fixed at its creation). */
  hints = $state(false)
  /** A hint this seat asked for is being computed: the seat event (or an error) ends it. */
  hinting = $state(false)
  /** Where the clocks stood in the last message that told it, and when that arrived; null: no clock. */
  clockReading = $state.raw<ClockReading | null>(null)
  link = $state<LinkState>('connecting')
  /** When the next reconnection attempt starts (ms, the clock of `now`), while `lost`. */
  retryAt = $state<number | null>(null)
  /** Reconnection attempts since the last state: how long the connection has been down. */
  attempt = $state(0)
  /** A state has arrived at least once: there is a table to draw. */
  synced = $state(false)
  /** The seat's token: the one given, until a claimed invitation brings the seat's new one. */
  token = $state<string | null>(null)
  /** This tab is hidden: told to the server as the seat's presence (`away`). */
  away = $state(false)
  /** The server's last answer to "why not?" (`why`), until the next question. */
  why = $state.raw<WhyAnswer | null>(null)
  /** What was said at the table that this connection may read, each once, by id. */
  chat = $state.raw<ChatMessage[]>([])
  /**
   * Who this connection writes as (`ChatMessage.author`): a seat's from its state; an
   * anonymous spectator's from the echo of their first message (the server draws it).
   */
  chatAuthor = $state<string | null>(null)

  /** A bot plays this connection's seat (handed over, or left): its own moves are refused. */
  get standIn(): boolean {
    const mine = this.seats.find((s) => s.seat === this.seat)
    return mine !== undefined && mine.stand_in !== null
  }

  readonly gameId: string
  private readonly name: string | null
  private readonly onToken: ((token: string) => void) | undefined
  private readonly url: string
  private readonly openSocket: OpenSocket
  private readonly fetchLog: ((gameId: string, token: string | null) => Promise<LogEntry[]>) | undefined
  private readonly now: () => number
  private socket: SocketLike | null = null
  /** Bumped on every new socket: events of a replaced socket are ignored. */
  private generation = 0
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private disposed = false
  private nextErrorId = 1
  /** An act was sent and its result has not been drawn yet (the latency measure). */
  private measuring = false
  /** The presence of this socket's seat has been told since the socket opened. */
  private presenceTold = false
  /**
   * The messages said on this socket whose echo (or refusal) has not come yet, oldest first.
   * The server answers a connection's messages in order, and a refused `say` is answered by
   * an error alone, so the first one waiting is the one an echo or a refusal answers.
   */
  private saying: { text: string; done: (refusal: ChatRefusal | null) => void }[] = []

  constructor(gameId: string, options: ConnectionOptions) {
    this.gameId = gameId
    this.token = options.token
    this.name = options.name ?? null
    this.onToken = options.onToken
    this.url = options.url ?? socketUrl(gameId, globalThis.location)
    this.openSocket = options.openSocket ?? openBrowserSocket
    this.fetchLog = options.fetchLog
    this.now = options.now ?? Date.now
  }

  start(): void {
    this.open()
  }

  /** Closes the socket for good (the table screen is left). */
  dispose(): void {
    this.disposed = true
    this.generation++
    clearTimeout(this.retryTimer)
    this.socket?.close()
    this.socket = null
  }

  /** Sends one of `legal`'s actions, exactly as received. */
  act(action: JsonValue): void {
    if (this.busy || this.link !== 'live' || !this.socket || this.standIn) return
    this.busy = true
    this.measuring = true
    performance.mark('tabletop:act')
    this.send({ type: 'act', seq: this.seq, action })
    this.publishDebug()
  }

  /** Takes back the seat's last decision, offered exactly while the server says it may. */
  undo(): void {
    if (this.busy || !this.canUndo || this.link !== 'live' || !this.socket) return
    this.busy = true
    this.send({ type: 'undo', seq: this.seq })
    this.publishDebug()
  }

  /**
   * This tab was hidden (`away`) or shown: the seat's presence. Told at once when connected,
   * and after every hello.
   */
  setAway(away: boolean): void {
    this.away = away
    if (this.link === 'live' && this.seat !== null) this.send({ type: 'presence', away })
  }

  /** Hands seat `seat`, whose person has been offline long enough, to a bot. */
  handOver(seat: number): void {
    if (this.link === 'live') this.send({ type: 'hand_over', seat })
  }

  /**
   * Asks the server whether this seat may take `action` now, and by which rule (a click on
   * a board object that is not a target). The answer comes as `why`; nothing is played.
   */
  askWhy(action: JsonValue): void {
    if (this.link !== 'live' || this.seat === null) return
    this.why = null
    this.send({ type: 'why', action })
  }

  /**
   * Asks what the hard bot would do for this seat (its turn, at a table with hints); the
   * answer comes to everyone as a `hinted` seat event, which the log keeps.
   */
  askHint(): void {
    if (this.link !== 'live' || this.seat === null || this.hinting) return
    this.hinting = true
    this.send({ type: 'hint' })
  }

  /**
   * Says `text` at the table (the seat's channel, or the spectators'). Resolves with null once
   * its echo is back (it is then in `chat`: nothing is added before), or with the refusal:
   * the server's (too long, too fast, the table's chat closed) or the browser's own for a
   * text the server would refuse or a connection that is down.
   */
  say(text: string): Promise<ChatRefusal | null> {
    const problem = draftProblem(text)
    if (problem !== null) return Promise.resolve({ kind: problem === 'empty' ? 'malformed' : 'too_large', message: '' })
    if (this.link !== 'live' || !this.socket) return Promise.resolve({ kind: 'network', message: '' })
    return new Promise((done) => {
      this.saying.push({ text, done })
      this.send({ type: 'say', text })
    })
  }

  /** Takes this seat back from the bot that played it. */
  takeBack(): void {
    if (this.link === 'live') this.send({ type: 'take_back' })
  }

  /** Leaves the game for good: a bot finishes the seat. */
  leave(): void {
    if (this.link === 'live') this.send({ type: 'leave' })
  }

  /** Skips the rest of the wait of a lost connection. */
  retryNow(): void {
    if (this.link === 'lost') this.open()
  }

  dismissError(id: number): void {
    this.errors = this.errors.filter((error) => error.id !== id)
  }

  /** Handles one text frame from the server. */
  receive(data: string): void {
    let message: ServerMessage
    try {
      message = JSON.parse(data) as ServerMessage
    } catch {
      return
    }
    switch (message.type) {
      case 'state':
        this.takeState(message)
        break
      case 'update':
        this.takeUpdate(message)
        break
      case 'seats':
        // A seat change is followed by a fresh state (the game may have started), a presence
        // change is not; the seats show at once either way.
        this.seats = message.seats
        this.status = message.status
        this.readClock(message.times)
        if (message.event) this.log = mergeLog(this.log, [seatEventEntry(message.event)])
        if (message.event?.what === 'hinted' && message.event.seat === this.seat) this.hinting = false
        break
      case 'why':
        this.why = message
        break
      case 'chat':
        this.takeChat(message.messages)
        break
      case 'error':
        this.takeError(message)
        break
    }
    this.publishDebug()
  }

  private open(): void {
    clearTimeout(this.retryTimer)
    this.retryAt = null
    // A new generation first, so that the old socket's close is not taken for a loss.
    const generation = ++this.generation
    this.socket?.close()
    const current = () => generation === this.generation && !this.disposed
    this.link = 'connecting'
    this.presenceTold = false
    this.unsaid()
    // An anonymous spectator's key is drawn anew for each connection (a seat's comes back
    // with its state).
    this.chatAuthor = null
    this.hinting = false
    this.socket = this.openSocket(this.url, {
      open: () => {
        if (current()) this.send({ type: 'hello', token: this.token, name: this.name })
      },
      message: (data) => {
        if (current()) this.receive(data)
      },
      close: (code) => {
        if (current()) this.lost(code)
      },
    })
  }

  private lost(code: number): void {
    this.socket = null
    this.busy = false
    this.measuring = false
    this.unsaid()
    if (code === POLICY_VIOLATION) {
      this.link = 'gone'
      return
    }
    const delay = retryDelay(this.attempt)
    this.attempt++
    this.link = 'lost'
    this.retryAt = this.now() + delay
    this.retryTimer = setTimeout(() => this.open(), delay)
  }

  /** Out of step with the server (a patch that does not apply, a skipped seq): start afresh. */
  private resync(): void {
    this.open()
  }

  private send(message: ClientMessage): void {
    this.socket?.send(JSON.stringify(message))
  }

  private takeState(message: Extract<ServerMessage, { type: 'state' }>): void {
    if (message.token !== undefined) {
      this.token = message.token
      this.onToken?.(message.token)
    }
    this.view = message.view
    this.arrived = null
    this.seq = message.seq
    this.seat = message.seat
    if (message.seat !== null) this.chatAuthor = `seat-${message.seat}`
    this.status = message.status
    this.toMove = message.to_move
    this.legal = message.legal
    this.seats = message.seats
    this.outcome = message.outcome
    this.canUndo = message.can_undo
    this.clock = message.clock
    this.hints = message.hints
    this.readClock(message.times)
    this.busy = false
    this.link = 'live'
    this.attempt = 0
    this.synced = true
    this.shown()
    // Tell the seat's presence once per socket: a hidden tab that reconnects is away.
    if (!this.presenceTold && message.seat !== null) {
      this.presenceTold = true
      this.send({ type: 'presence', away: this.away })
    }
    if (lastMoveSeq(this.log) < message.seq) void this.loadLog()
  }

  private takeUpdate(message: Extract<ServerMessage, { type: 'update' }>): void {
    if (message.seq <= this.seq) return // already in a state that overtook it
    if (message.seq !== this.seq + 1 || this.view === null) {
      this.resync()
      return
    }
    try {
      // The server computes each patch from exactly the view this connection holds, as RFC
      // 6902 operations: the generated type only knows them as JSON.
      const operations = message.view_patch as unknown as Operation[]
      const result = applyPatch(this.view, operations, true)
      // Only a patch of the root ("" path) makes a new document.
      if (result.newDocument !== this.view) this.view = result.newDocument
    } catch {
      this.resync()
      return
    }
    this.seq = message.seq
    this.toMove = message.to_move
    this.legal = message.legal
    this.status = message.status
    this.outcome = message.outcome
    this.readClock(message.times)
    // The stored log may already hold this move (fetched after the state, while the game
    // went on): one entry per move, or the log's keyed list breaks the page.
    const entry: LogEntry = { seq: message.seq, seat: message.seat, events: message.events }
    if (message.undid !== undefined) entry.undid = message.undid
    this.canUndo = message.can_undo
    this.arrived =
      message.undid === undefined
        ? { seat: message.seat, seq: message.seq, events: message.events.map((e) => e.event) }
        : null
    this.log =
      (this.log.at(-1)?.seq ?? 0) < entry.seq && entry.undid === undefined
        ? [...this.log, entry]
        : mergeLog(this.log, [entry])
    this.busy = false
    this.shown()
  }

  /** The clock times of a message just arrived: the running one counts down from now. */
  private readClock(times: ClockTimes | null): void {
    this.clockReading = times === null ? null : { times, receivedAt: this.now() }
  }

  private takeChat(messages: ChatMessage[]): void {
    for (const message of messages) {
      const waiting = this.saying[0]
      if (!waiting || !isEcho(message, waiting.text, this.seat, this.chatAuthor)) continue
      this.saying.shift()
      this.chatAuthor = message.author
      waiting.done(null)
    }
    this.chat = mergeChat(this.chat, messages)
  }

  /** The messages waiting for their echo will not get it on this socket: a new one starts. */
  private unsaid(): void {
    const waiting = this.saying
    this.saying = []
    for (const { done } of waiting) done({ kind: 'network', message: '' })
  }

  private takeError(message: Extract<ServerMessage, { type: 'error' }>): void {
    // A refusal of a message said here is the chat's to show, at its input: it changes
    // nothing of the game (an action on its way stays on its way).
    const waiting = this.saying[0]
    if (waiting && isChatRefusal(message.kind)) {
      this.saying.shift()
      waiting.done({ kind: message.kind, message: message.message })
      return
    }
    // Every error is shown, stale included (its fresh state follows): none is swallowed.
    this.errors = [...this.errors, { id: this.nextErrorId++, kind: message.kind, message: message.message }]
    this.busy = false
    this.measuring = false
    this.hinting = false
  }

  /** The latency the end-to-end tests read: from sending an act to its result on screen. */
  private shown(): void {
    if (!this.measuring) return
    this.measuring = false
    void tick().then(() => {
      try {
        performance.mark('tabletop:shown')
        performance.measure('tabletop:act-to-board', 'tabletop:act', 'tabletop:shown')
      } catch {
        // The act mark was cleared by someone else: nothing to measure.
      }
    })
  }

  private async loadLog(): Promise<void> {
    if (!this.fetchLog) return
    let fetched: LogEntry[]
    try {
      fetched = await this.fetchLog(this.gameId, this.token)
    } catch {
      return // the log is a convenience; the next state asks again
    }
    this.log = mergeLog(fetched, this.log)
  }

  private publishDebug(): void {
    const hook: TabletopDebug = Object.freeze({
      seq: this.seq,
      status: this.status,
      seat: this.seat,
      toMove: this.toMove,
      legalCount: this.legal?.length ?? 0,
      busy: this.busy,
    })
    Object.defineProperty(globalThis, '__tabletop', { value: hook, configurable: true, writable: false })
  }
}
