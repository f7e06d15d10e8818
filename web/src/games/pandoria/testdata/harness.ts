// Test page (dev server only): draws the Board for one position of positions.ts and records
// what it sends in `window.sent`, so that board.browser.test.ts can click through it in a real
// browser. `window.show(name, lang)` switches position without reloading the page.
import { mount, unmount } from 'svelte'
import type { Action } from '../../../generated/pandoria/Action'
import { i18n, isLanguage } from '../../../lib/i18n.svelte'
import Board from '../Board.svelte'
import { POSITIONS } from './positions'

declare global {
  interface Window {
    sent: Action[]
    show: (name: string, lang: string, teams?: boolean) => void
  }
}

const target = document.getElementById('app')
if (!target) throw new Error('the page has no #app element')
let board: ReturnType<typeof mount> | undefined

window.show = (name, lang, teams = false) => {
  if (board) void unmount(board)
  if (isLanguage(lang)) i18n.lang = lang
  const position = POSITIONS.find((p) => p.name === name) ?? POSITIONS[0]
  window.sent = []
  board = mount(Board, {
    target,
    props: {
      // `teams` previews the teams variant: the view does not say it yet (see teams.ts).
      view: teams ? { ...position.view, teams: true } : position.view,
      legal: position.view.to_move === null ? null : position.legal.map((action) => ({ action, description: '' })),
      seat: position.seat,
      names: ['Ana', 'Bruno', 'Chiara', 'Daiki'],
      busy: false,
      act: (action: Action) => window.sent.push(action),
    },
  })
}

const params = new URLSearchParams(location.search)
window.show(params.get('position') ?? POSITIONS[0].name, params.get('lang') ?? 'en', params.get('teams') === '1')
