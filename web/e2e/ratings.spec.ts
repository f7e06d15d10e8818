// Ratings (docs/server.md, "Ratings"; docs/web.md, "Ratings and the leaderboard"): two
// people sign up in two browsers and play a rated table to its end by clicking (Pandoria,
// two seats: the shortest game; no hints, no clock). Each person's page then shows a rating
// that moved, the winner's above a newcomer's 1,000 and the loser's below, and the game's
// leaderboard lists both, the winner first, with the bot levels beside them, at a phone's,
// a laptop's and a desktop's width. Then the loser deletes their account (a wrong password
// first, which deletes nothing): signed out, back in the lobby, and the finished game's seat
// shows "Former player" in the reader's language, at the table, in the replay and on the
// winner's page.
import { expect, test, type Page } from '@playwright/test'
import type { Account } from '../src/generated/server/Account'
import type { AccountSeat } from '../src/generated/server/AccountSeat'
import type { CreateGame } from '../src/generated/server/CreateGame'
import type { Created } from '../src/generated/server/Created'
import type { Leaderboard } from '../src/generated/server/Leaderboard'
import type { Profile } from '../src/generated/server/Profile'
import { clickOneMove, holdSeat, probe, SCREENS, seatRow, seeded, signUp, summary, WIDTHS } from './table'

const [PHONE, LAPTOP] = WIDTHS
const GAME = 'pandoria'
const PASSWORD = 'a long passphrase'
/** A newcomer's shown rating (crates/server: accounts/ratings.rs `NEWCOMER`). */
const NEWCOMER = 1000

/** The number of a rating as the English page writes it ("1,131"). */
const readNumber = (text: string | null) => Number(/([\d,]+)\s*±/.exec(text ?? '')?.[1]?.replace(/,/g, '') ?? NaN)

async function profileOf(page: Page, id: string): Promise<Profile> {
  const response = await page.request.get(`/api/accounts/${id}`)
  expect(response.ok(), await response.text()).toBeTruthy()
  return (await response.json()) as Profile
}

/** The page's document is no wider than its window. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }))
  expect(scroll, `${what}: page width ${scroll} within the window's ${inner}`).toBeLessThanOrEqual(inner)
}

test('two people play a rated game: their ratings move, the leaderboard lists them, and a deleted account becomes a former player', async ({
  browser,
}) => {
  const contexts = await Promise.all([browser.newContext({ viewport: LAPTOP }), browser.newContext({ viewport: LAPTOP })])
  const pages = await Promise.all(contexts.map((context) => context.newPage()))
  // One pair of names a run: the server outlives a test.
  const stamp = Date.now() % 100_000
  const names = [`Ada ${stamp}`, `Ben ${stamp}`]
  const ids: string[] = []
  for (const [seat, page] of pages.entries()) {
    await page.goto('/')
    await signUp(page, names[seat], PASSWORD)
    ids.push(((await (await page.request.get('/api/account')).json()) as Account).id)
  }

  // A rated table: two seats of two signed-in people, no hints, no clock.
  const request: CreateGame = {
    game: GAME,
    config: { players: 2 },
    seed: 11,
    seats: names.map((name) => ({ kind: 'human', name })),
    stand_in: null,
    clock: null,
    hints: false,
  }
  const response = await pages[0].request.post('/api/games', { data: request })
  expect(response.ok(), await response.text()).toBeTruthy()
  const created = (await response.json()) as Created
  for (const [seat, page] of pages.entries()) {
    await holdSeat(page, created, seat, GAME)
    await page.goto(`/#/game/${created.id}`)
    await expect.poll(async () => (await probe(page))?.seat).toBe(seat)
    // Opened while signed in, the table hands the seat to the account.
    await expect
      .poll(async () => ((await (await page.request.get('/api/account/seats')).json()) as AccountSeat[]).map((s) => s.game.id))
      .toContain(created.id)
  }

  // Whoever is to move clicks a move; the other waits.
  const random = seeded(29)
  for (;;) {
    const both = await Promise.all(pages.map((page) => probe(page)))
    if (both.some((p) => p?.status === 'over')) break
    const mover = both.findIndex((p) => p && p.status === 'running' && p.toMove === p.seat && p.legalCount > 0 && !p.busy)
    if (mover < 0) {
      await pages[0].waitForTimeout(30)
      continue
    }
    await clickOneMove(pages[mover], random)
  }
  const over = await summary(pages[0].request, created.id)
  expect(over.status).toBe('over')
  const ranked = [...(over.outcome?.seats ?? [])].sort((a, b) => a.rank - b.rank)
  expect(ranked.map((s) => s.rank), 'a winner and a loser, no tie').toEqual([1, 2])
  const [winner, loser] = ranked.map((s) => s.seat)
  const [winnerPage, loserPage] = [pages[winner], pages[loser]]

  // The game is rated by the server once stored: both ratings move, apart.
  await expect
    .poll(async () => (await Promise.all(ids.map((id) => profileOf(pages[0], id)))).every((p) => p.ratings.some((r) => r.game === GAME)))
    .toBe(true)
  const ratingOf = async (seat: number) => (await profileOf(pages[0], ids[seat])).ratings.find((r) => r.game === GAME)
  const won = await ratingOf(winner)
  const lost = await ratingOf(loser)
  expect(won?.rating ?? 0).toBeGreaterThan(NEWCOMER)
  expect(lost?.rating ?? Infinity).toBeLessThan(NEWCOMER)
  expect(won?.games).toBe(1)

  // Each person's page shows it: the winner's from the account menu.
  await winnerPage.getByTestId('account-name').click()
  await winnerPage.getByTestId('my-profile').click()
  await expect(winnerPage.getByTestId('profile-name')).toHaveText(names[winner])
  const shownWon = winnerPage.locator(`[data-testid="profile-rating"][data-game="${GAME}"]`)
  await expect(shownWon).toContainText('1 rated game')
  expect(readNumber(await shownWon.textContent())).toBeGreaterThan(NEWCOMER)
  await loserPage.goto(`/#/player/${ids[loser]}`)
  const shownLost = loserPage.locator(`[data-testid="profile-rating"][data-game="${GAME}"]`)
  await expect(shownLost).toContainText('±')
  expect(readNumber(await shownLost.textContent())).toBeLessThan(NEWCOMER)
  await winnerPage.evaluate(() => window.scrollTo(0, 0))
  await winnerPage.screenshot({ path: `${SCREENS}/profile.png` })

  // The rating line leads to the game's leaderboard: both, the winner first, and the bots.
  await shownWon.click()
  await expect(winnerPage).toHaveURL(new RegExp(`#/ratings/${GAME}$`))
  const board = winnerPage.getByTestId('leaderboard')
  await expect(board).toHaveAttribute('data-game', GAME)
  const rows = board.getByTestId('leaderboard-row')
  await expect(rows.filter({ hasText: names[loser] })).toHaveCount(1)
  const order = await rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-account')))
  expect(order.indexOf(ids[winner]), 'the winner ranks above the loser').toBeLessThan(order.indexOf(ids[loser]))
  expect(order.indexOf(ids[winner])).toBeGreaterThanOrEqual(0)
  const mine = board.locator(`[data-testid="leaderboard-row"][data-account="${ids[winner]}"]`)
  await expect(mine.locator('.tag.you')).toBeVisible()
  await expect(mine.getByRole('link', { name: names[winner] })).toHaveAttribute('href', `#/player/${ids[winner]}`)
  const levels = ((await (await winnerPage.request.get(`/api/ratings/${GAME}`)).json()) as Leaderboard).levels
  await expect(winnerPage.getByTestId('leaderboard-bot')).toHaveCount(levels.length)
  await expect(winnerPage.getByTestId('leaderboard-bots')).toContainText('fixed')
  for (const size of WIDTHS) {
    await winnerPage.setViewportSize(size)
    await expectNoSidewaysScroll(winnerPage, `the leaderboard at ${size.width} px`)
    const table = await board.boundingBox()
    expect(table && table.x + table.width <= size.width + 0.5, `the leaderboard inside the window at ${size.width} px`).toBe(true)
  }
  await winnerPage.setViewportSize(LAPTOP)
  await winnerPage.evaluate(() => window.scrollTo(0, 0))
  await winnerPage.screenshot({ path: `${SCREENS}/leaderboard.png` })
  await winnerPage.setViewportSize(PHONE)
  await winnerPage.evaluate(() => window.scrollTo(0, 0))
  await winnerPage.screenshot({ path: `${SCREENS}/leaderboard-phone.png`, fullPage: true })
  await winnerPage.setViewportSize(LAPTOP)

  // The header leads there too, a tab per game; a game nobody is rated in says so, and a
  // game the server does not know is an error.
  await loserPage.getByTestId('nav-ratings').click()
  await expect(loserPage).toHaveURL(/#\/ratings$/)
  const tabs = loserPage.getByTestId('ratings-game')
  await expect(tabs).toHaveCount(3)
  await expect(tabs.first()).toHaveAttribute('aria-current', 'page')
  await loserPage.locator(`[data-testid="ratings-game"][data-game="${GAME}"]`).click()
  await expect(loserPage.locator(`[data-testid="ratings-game"][data-game="${GAME}"]`)).toHaveAttribute('aria-current', 'page')
  await expect(loserPage.getByTestId('leaderboard-row').filter({ hasText: names[loser] })).toHaveCount(1)
  for (const game of ['valdora', 'valley']) {
    const people = ((await (await loserPage.request.get(`/api/ratings/${game}`)).json()) as Leaderboard).people
    await loserPage.goto(`/#/ratings/${game}`)
    if (people.length === 0) await expect(loserPage.getByTestId('leaderboard-empty')).toBeVisible()
    else await expect(loserPage.getByTestId('leaderboard-row')).toHaveCount(people.length)
  }
  await loserPage.goto('/#/ratings/nosuchgame')
  await expect(loserPage.getByTestId('banner-error')).toHaveAttribute('data-kind', 'not_found')

  // The loser deletes their account from their page: a wrong password deletes nothing.
  await loserPage.goto(`/#/player/${ids[loser]}`)
  await expect(loserPage.getByTestId('profile-name')).toHaveText(names[loser])
  const deletion = loserPage.getByTestId('delete-account')
  await deletion.getByTestId('delete-account-open').click()
  const password = deletion.getByTestId('delete-account-password')
  await expect(password).toBeFocused()
  await password.fill('not my password')
  await deletion.getByTestId('delete-account-confirm').click()
  const problem = deletion.getByTestId('delete-account-problem')
  await expect(problem).toHaveText('Wrong password: nothing was deleted.')
  await expect(problem).toHaveAttribute('data-kind', 'bad_credentials')
  await expect(password).toHaveAttribute('aria-invalid', 'true')
  await expect(loserPage.getByTestId('account-name')).toHaveText(names[loser])
  await deletion.screenshot({ path: `${SCREENS}/delete-account.png` })
  expect((await loserPage.request.get('/api/account')).ok(), 'still signed in').toBe(true)
  await password.fill(PASSWORD)
  await deletion.getByTestId('delete-account-confirm').click()
  // Signed out, in the lobby, told so once.
  await expect(loserPage.getByTestId('account-deleted')).toContainText(`The account ${names[loser]} is deleted`)
  await expect(loserPage).toHaveURL(/#\/$/)
  await expect(loserPage.getByTestId('sign-in')).toBeVisible()
  expect((await loserPage.request.get('/api/account')).status()).toBe(401)
  expect((await loserPage.request.get(`/api/accounts/${ids[loser]}`)).status()).toBe(404)

  // The finished game's seat is a former player's, in the reader's language.
  const after = await summary(winnerPage.request, created.id)
  expect(after.seats[loser]).toMatchObject({ former: true, name: 'former player' })
  await winnerPage.goto(`/#/game/${created.id}`)
  await expect(seatRow(winnerPage, loser)).toContainText('Former player')
  await expect(seatRow(winnerPage, winner)).toContainText(names[winner])
  await expect(winnerPage.getByTestId('end-screen')).toContainText('Former player')
  await expect(winnerPage.getByText('former player', { exact: true })).toHaveCount(0)
  await winnerPage.screenshot({ path: `${SCREENS}/former-player.png` })
  await winnerPage.getByTestId('language').selectOption('es')
  await expect(seatRow(winnerPage, loser)).toContainText('Exjugador')
  await winnerPage.goto(`/#/replay/${created.id}`)
  await expect(winnerPage.getByTestId('replay')).toContainText('Exjugador')
  await winnerPage.getByTestId('language').selectOption('ja')
  await expect(winnerPage.getByTestId('replay')).toContainText('退会したプレイヤー')
  await winnerPage.getByTestId('language').selectOption('en')
  // The winner's page lists the game with the former player; the leaderboard no longer lists them.
  await winnerPage.goto(`/#/player/${ids[winner]}`)
  await expect(winnerPage.getByTestId('profile-recent').locator(`[data-game-id="${created.id}"]`)).toContainText('Former player')
  await winnerPage.goto(`/#/ratings/${GAME}`)
  await expect(winnerPage.locator(`[data-testid="leaderboard-row"][data-account="${ids[winner]}"]`)).toBeVisible()
  await expect(winnerPage.locator(`[data-testid="leaderboard-row"][data-account="${ids[loser]}"]`)).toHaveCount(0)

  await Promise.all(contexts.map((context) => context.close()))
})
