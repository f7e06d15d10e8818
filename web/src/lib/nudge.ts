// Turn nudges: when it becomes your turn while the tab is hidden, the tab's title gets a
// badge, a short sound plays (if switched on) and the browser shows a notification (if the
// person allowed them). The choices are remembered in local storage.

const SOUND_KEY = 'tabletop.turnSound'
const NOTIFY_KEY = 'tabletop.turnNotify'

export type Store = Pick<Storage, 'getItem' | 'setItem'>

export function storage(): Store | undefined {
  return globalThis.localStorage
}

/** The tab's title: `(●) Your turn — Game — tabletop` while a hidden tab's turn waits. */
export function documentTitle(title: string, options: { myTurn: boolean; nudged: boolean; yourTurn: string }): string {
  if (options.nudged) return `(●) ${options.yourTurn} — ${title} — tabletop`
  return `${options.myTurn ? '● ' : ''}${title} — tabletop`
}

/**
 * Whether to nudge now: the turn has just become this seat's (it was not before) while the
 * tab is hidden.
 */
export function shouldNudge(wasMyTurn: boolean, isMyTurn: boolean, hidden: boolean): boolean {
  return !wasMyTurn && isMyTurn && hidden
}

export function soundOn(store: Store | undefined = storage()): boolean {
  return store?.getItem(SOUND_KEY) === 'on'
}

export function setSound(on: boolean, store: Store | undefined = storage()): void {
  store?.setItem(SOUND_KEY, on ? 'on' : 'off')
}

/** The person asked for notifications here (the browser's permission is asked separately). */
export function notifyOn(store: Store | undefined = storage()): boolean {
  return store?.getItem(NOTIFY_KEY) === 'on'
}

export function setNotify(on: boolean, store: Store | undefined = storage()): void {
  store?.setItem(NOTIFY_KEY, on ? 'on' : 'off')
}

/** Whether this browser can show notifications at all. */
export function notificationsSupported(): boolean {
  return typeof globalThis.Notification === 'function'
}

/** Asks the browser's permission (call only from a click); true when granted. */
export async function askNotificationPermission(): Promise<boolean> {
  if (!notificationsSupported()) return false
  if (Notification.permission === 'granted') return true
  if (Notification.permission === 'denied') return false
  return (await Notification.requestPermission()) === 'granted'
}

/** Shows "Your turn" as a browser notification, when allowed; clicking it shows the tab. */
export function notifyTurn(title: string, body: string): void {
  if (!notificationsSupported() || Notification.permission !== 'granted') return
  try {
    const note = new Notification(title, { body, tag: 'tabletop-turn' })
    note.onclick = () => {
      globalThis.focus()
      note.close()
    }
  } catch {
    // Some browsers allow notifications only from a service worker: the title badge remains.
  }
}

let audio: AudioContext | undefined

/** Two short soft notes, made with the Web Audio API (no sound file). */
export function playTurnSound(): void {
  const Context = globalThis.AudioContext as typeof AudioContext | undefined
  if (!Context) return
  try {
    audio ??= new Context()
    void audio.resume()
    const start = audio.currentTime + 0.02
    for (const [offset, frequency] of [
      [0, 660],
      [0.16, 880],
    ] as const) {
      const osc = audio.createOscillator()
      const gain = audio.createGain()
      osc.type = 'sine'
      osc.frequency.value = frequency
      gain.gain.setValueAtTime(0.0001, start + offset)
      gain.gain.exponentialRampToValueAtTime(0.18, start + offset + 0.02)
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.28)
      osc.connect(gain).connect(audio.destination)
      osc.start(start + offset)
      osc.stop(start + offset + 0.3)
    }
  } catch {
    // No audio device, or the browser refuses: the title badge remains.
  }
}

/**
 * Switching the sound on is a click: a browser lets a page start audio only after one, so
 * the context is made (and a sample played) then.
 */
export function primeSound(): void {
  playTurnSound()
}
