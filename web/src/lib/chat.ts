// Chat at the table (docs/server.md, "Chat"), without pixels: the messages kept once each
// by id, who wrote what and whether this reader hid them (muting is the reader's own,
// remembered in local storage per table), what is unread, what a replay step shows, and the
// draft's checks, which mirror the server's so that a message it would refuse is not sent.
import type { ChatChannel } from '../generated/server/ChatChannel'
import type { ChatMessage } from '../generated/server/ChatMessage'
import type { ErrorKind } from '../generated/server/ErrorKind'
import { MAX_CHAT_CHARS } from '../generated/constants'
import type { ProblemKind } from './api'

/** The longest message, in characters (Unicode code points): the server's, generated. */
export { MAX_CHAT_CHARS }

/** From this length on the draft shows how many characters it has of the 500. */
export const COUNT_FROM = 400

/** Messages of one writer closer than this in time read as one run under one name. */
export const RUN_GAP_MS = 5 * 60_000

/** Messages each once, in the order of their ids; of two copies the later list's wins. */
export function mergeChat(known: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<number, ChatMessage>()
  for (const message of [...known, ...incoming]) byId.set(message.id, message)
  return [...byId.values()].sort((a, b) => a.id - b.id)
}

/**
 * The text as the server stores it: trimmed, control characters other than line breaks and
 * tabs removed. What the echo of a message carries, and what the length limit counts.
 */
export function cleanChatText(text: string): string {
  // Rust's char::is_control: the C0 and C1 controls; tab (09) and line feed (0A) stay.
  return text.trim().replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
}

/** Characters as the server counts them: code points, so an emoji is one (not two UTF-16 units). */
export function chatLength(text: string): number {
  return Array.from(text).length
}

/** Why a draft cannot be sent as it stands (null: it can). */
export function draftProblem(draft: string): 'empty' | 'too_long' | null {
  const cleaned = cleanChatText(draft)
  if (cleaned === '') return 'empty'
  return chatLength(cleaned) > MAX_CHAT_CHARS ? 'too_long' : null
}

/** The channel a connection writes to: the role decides (a seat, or a spectator). */
export function channelOf(seat: number | null): ChatChannel {
  return seat === null ? 'spectators' : 'players'
}

/**
 * Who this reader writes as (`ChatMessage.author`), when it can be known: a seat is
 * `seat-N`; a signed-in spectator `account-ID`; an anonymous spectator's key is drawn by the
 * server per connection and learned from the echo of their first message (`learned`).
 */
export function ownAuthor(seat: number | null, accountId: string | null, learned: string | null): string | null {
  if (seat !== null) return `seat-${seat}`
  return learned ?? (accountId === null ? null : `account-${accountId}`)
}

/**
 * Whether `message` is the echo of the message this connection sent as `text`: the same text
 * as the server keeps it, in this connection's channel, by this writer (by its seat while an
 * anonymous spectator's key is still unknown).
 */
export function isEcho(message: ChatMessage, text: string, seat: number | null, author: string | null): boolean {
  if (message.channel !== channelOf(seat) || message.text !== cleanChatText(text)) return false
  if (author !== null) return message.author === author
  return message.seat === seat
}

/** The refusals the server answers a `say` with (docs/server.md, "Chat", "Limits"). */
const REFUSALS: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['malformed', 'too_large', 'rate_limited', 'forbidden'])

/** Whether an error may be the answer to a `say` (while one waits for its echo). */
export function isChatRefusal(kind: ErrorKind): boolean {
  return REFUSALS.has(kind)
}

/** Why a message was not sent or not kept; shown at the input, whose text stays. */
export interface ChatRefusal {
  kind: ProblemKind
  /** The server's own words (English), empty when the browser refused it itself. */
  message: string
}

/** The messages said up to step `step` of a replay: each follows the move it was said after. */
export function chatUpTo(messages: readonly ChatMessage[], step: number): ChatMessage[] {
  return messages.filter((message) => message.seq <= step)
}

/** A muted writer who has messages here: how many are hidden, and a message to name them by. */
export interface HiddenWriter {
  author: string
  count: number
  /** Their latest hidden message (its seat and name say who they are). */
  last: ChatMessage
}

/** What a reader sees: the messages of writers they did not mute, and who is hidden. */
export function shownChat(
  messages: readonly ChatMessage[],
  muted: ReadonlySet<string>,
): { shown: ChatMessage[]; hidden: HiddenWriter[] } {
  const shown: ChatMessage[] = []
  const hidden = new Map<string, HiddenWriter>()
  for (const message of messages) {
    if (!muted.has(message.author)) {
      shown.push(message)
      continue
    }
    const writer = hidden.get(message.author)
    hidden.set(message.author, { author: message.author, count: (writer?.count ?? 0) + 1, last: message })
  }
  return { shown, hidden: [...hidden.values()] }
}

/** Whether the reader may mute the writer of `message`: anyone but themselves. */
export function canMute(message: ChatMessage, me: string | null): boolean {
  return message.author !== me
}

/** Consecutive messages of one writer in one channel, drawn under one name. */
export interface ChatRun {
  /** The first message's id: stable while the run grows. */
  key: number
  author: string
  channel: ChatChannel
  messages: ChatMessage[]
}

/** The messages as runs: a new run at another writer, another channel or a pause of `gap` ms. */
export function chatRuns(messages: readonly ChatMessage[], gap = RUN_GAP_MS): ChatRun[] {
  const runs: ChatRun[] = []
  for (const message of messages) {
    const run = runs.at(-1)
    const previous = run?.messages.at(-1)
    if (run && previous && run.author === message.author && run.channel === message.channel && message.at - previous.at < gap) {
      run.messages.push(message)
    } else {
      runs.push({ key: message.id, author: message.author, channel: message.channel, messages: [message] })
    }
  }
  return runs
}

/**
 * The name a message is shown under: a seat by the seats list (the name it has now), else
 * the name the message carries; an anonymous spectator as `spectator` with a short tag of
 * their key, so that two of them can be told apart (and muted apart).
 */
export function writerName(message: ChatMessage, seatNames: readonly (string | undefined)[], spectator: string): string {
  if (message.seat !== null) return seatNames[message.seat] ?? message.name ?? spectator
  if (message.name !== null) return message.name
  const tag = /^guest-(.{1,4})/.exec(message.author)?.[1]
  return tag ? `${spectator} #${tag}` : spectator
}

/** The newest id read in each channel (ids grow within a channel). */
export type ReadMarks = Record<ChatChannel, number>

export const NOTHING_READ: ReadMarks = { players: 0, spectators: 0 }

/**
 * The messages this reader has not seen: newer than what was read in their channel, neither
 * their own nor of a muted writer. By channel, so that the spectators' messages a seat gets
 * at the end of the game count as new though the players' newer ones were read.
 */
export function unreadCount(
  messages: readonly ChatMessage[],
  read: ReadMarks,
  muted: ReadonlySet<string>,
  me: string | null,
): number {
  return messages.filter((m) => m.id > read[m.channel] && m.author !== me && !muted.has(m.author)).length
}

/** The marks once every message here has been seen. */
export function markRead(read: ReadMarks, messages: readonly ChatMessage[]): ReadMarks {
  const next = { ...read }
  for (const message of messages) next[message.channel] = Math.max(next[message.channel], message.id)
  return next
}

/** What this browser remembers of one table's chat. */
export interface ChatPrefs {
  /** The writers (`author`) this reader muted. */
  muted: string[]
  read: ReadMarks
  /** Last changed (ms): the oldest tables are forgotten first. */
  at: number
}

export type Store = Pick<Storage, 'getItem' | 'setItem'>

const PREFS_KEY = 'tabletop.chat'
/** Tables remembered: beyond them the oldest are forgotten (their mutes with them). */
export const KEEP_TABLES = 60

function storage(): Store | undefined {
  return globalThis.localStorage
}

function isReadMarks(value: unknown): value is ReadMarks {
  const v = value as ReadMarks
  return typeof v === 'object' && v !== null && Number.isFinite(v.players) && Number.isFinite(v.spectators)
}

// Local storage is outside the program's control (old versions, hand edits): check each entry.
function isPrefs(value: unknown): value is ChatPrefs {
  const v = value as ChatPrefs
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.muted) &&
    v.muted.every((a) => typeof a === 'string') &&
    isReadMarks(v.read) &&
    Number.isFinite(v.at)
  )
}

function readAll(store: Store | undefined): Record<string, ChatPrefs> {
  let parsed: unknown
  try {
    parsed = JSON.parse(store?.getItem(PREFS_KEY) ?? '{}')
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
  const all: Record<string, ChatPrefs> = {}
  for (const [game, prefs] of Object.entries(parsed)) if (isPrefs(prefs)) all[game] = prefs
  return all
}

/** What this browser remembers of table `game`'s chat (nothing muted or read at first). */
export function loadChatPrefs(game: string, store: Store | undefined = storage()): ChatPrefs {
  return readAll(store)[game] ?? { muted: [], read: { ...NOTHING_READ }, at: 0 }
}

/** Remembers `prefs` for table `game`, forgetting the tables least recently changed beyond KEEP_TABLES. */
export function saveChatPrefs(game: string, prefs: ChatPrefs, store: Store | undefined = storage()): void {
  const all = readAll(store)
  all[game] = prefs
  const kept = Object.entries(all)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, KEEP_TABLES)
  try {
    store?.setItem(PREFS_KEY, JSON.stringify(Object.fromEntries(kept)))
  } catch {
    // Storage full or forbidden (private mode): the mute holds for this page only.
  }
}

/** `prefs` with `author` muted or not. */
export function withMuted(prefs: ChatPrefs, author: string, mute: boolean, now: number): ChatPrefs {
  const others = prefs.muted.filter((a) => a !== author)
  return { ...prefs, muted: mute ? [...others, author] : others, at: now }
}
