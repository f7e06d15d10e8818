// What the shell (lobby, table, end screen, replay viewer) needs from a game: its board and
// its texts. The shell never looks inside a view or an action; a game's module never talks
// to the server.
import type { Component } from 'svelte'
import type { SeatMove } from '../lib/moves'
import type { LinePart } from '../lib/short'

/** A legal action as the server sent it (the client never decides legality itself). */
export interface Legal<Action> {
  action: Action
  /** The server's English description (the list shows the game's own text instead). */
  description: string
}

export interface BoardProps<View, Action, Event = unknown> {
  /** The position as this connection's seat sees it (the server's view). */
  view: View
  /** Null unless this connection's seat is to move. */
  legal: Legal<Action>[] | null
  /** This connection's seat; null for a spectator or the replay viewer. */
  seat: number | null
  /** Display name of each seat. */
  names: string[]
  /** An action is on its way to the server: take no other. */
  busy: boolean
  /** Sends one of `legal`'s actions, exactly as received. */
  act: (action: Action) => void
  /**
   * The table still waits for players (status `open`): nobody is to move yet, so the board
   * says so instead of whose turn it is. False when absent (a running game, a replay).
   */
  waiting?: boolean
  /**
   * The last move of every other seat (every seat, for a spectator), marked on the board
   * until this seat decides again (lib/moves.ts); absent: none (the replay viewer).
   */
  marks?: SeatMove<Event>[]
  /** The move that just arrived, shown happening; null or absent: none. */
  arrived?: SeatMove<Event> | null
}

export interface GameModule<View, Action, Event, Picture = never> {
  /** The name used by the API (`valdora`, `valley`, `pandoria`): also its i18n namespace. */
  name: string
  Board: Component<BoardProps<View, Action, Event>>
  /** One event as a sentence in the current language (the log). */
  eventText(event: Event, names: string[], view: View): string
  /**
   * One event as a short line with the component pictures, without its seat (the log's
   * line, "since your last turn"); null for an event that only keeps the game's books (a
   * turn beginning), which those leave out. Absent: the sentence (`eventText`) stands.
   */
  shortLine?(event: Event, names: string[], view: View): LinePart<Picture>[] | null
  /** Draws one picture of a short line, inline with the text. */
  Picture?: Component<{ picture: Picture }>
  /** One legal action as a label in the current language (the list beside the board). */
  actionText(action: Action, view: View): string
  /**
   * For a game whose board draws cards or a map from its component data rather than from
   * the view: draws from `tables`, the component tables of the corrected data the game plays
   * on as the server sends them (`/api/games/{id}/components` for a game whose summary has a
   * `data_digest`, a replay's `components`), or from the shipped data's (`null`). The shell
   * calls it before the board mounts.
   */
  useData?(tables: unknown): void
  /**
   * When `action` ends the turn (or its play) while `legal` still offers something that
   * costs nothing to keep doing (Valley of the Kings: "End play" with gold in hand for a
   * card), what is left, as a sentence in the current language: the table asks before
   * sending it (a person can turn the question off). Null when nothing is given up.
   */
  endsEarly?(action: Action, legal: Legal<Action>[]): string | null
  /**
   * "Why not?": the action a click on a board object that is not a target now would have
   * meant (`key`: the object's `data-target`), for the server to explain (the WebSocket's
   * `why`): the kind of decision the board asks for now aimed at that object, else the
   * object's usual action. Null for an object no action concerns.
   */
  whyAction?(key: string, legal: Action[], view: View): Action | null
  /**
   * The board object (`data-target` key) one of the seat's legal actions concerns: where a
   * hint marks it with its value. Absent: hints show in the list only.
   */
  targetOf?(action: Action, view: View): string
}
