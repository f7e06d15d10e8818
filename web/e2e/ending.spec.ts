// How a game ended (issue 55 item 5; docs/web.md, "How a game ended"): Ada plays one move
// against an easy bot and leaves; the bots finish the game. The end screen says she left,
// for how many of her decisions a bot played, and why the game is not rated, in English
// and in Spanish; the game's page (the replay of the stored game) says the same.
import { expect, test } from '@playwright/test'
import { awaitTurn, clickOneMove, createAdaAgainstEasyBot, holdSeat, SCREENS, seeded, WIDTHS } from './table'

const [PHONE, LAPTOP] = WIDTHS

for (const [label, viewport] of [
  ['a phone', PHONE],
  ['a laptop', LAPTOP],
] as const) {
  test(`the end screen of a game a bot finished says so, in English and Spanish (${label})`, async ({ browser }) => {
    const context = await browser.newContext({ viewport })
    const ada = await context.newPage()
    const created = await createAdaAgainstEasyBot(ada)
    await holdSeat(ada, created, 0, 'pandoria')
    await ada.goto(`/#/game/${created.id}`)
    expect(await awaitTurn(ada), 'Ada gets a turn').toBe(true)
    await clickOneMove(ada, seeded(3))
    await ada.getByTestId('leave').click()
    await ada.getByTestId('confirm-leave').getByTestId('confirm-leave-confirm').click()
    await expect(ada.getByTestId('end-screen')).toBeVisible({ timeout: 60_000 })

    const how = ada.getByTestId('how-it-went')
    await expect(how).toContainText('Ada left the game')
    await expect(how.getByTestId('ending-note').filter({ hasText: /A bot played \d+ of Ada's \d+ decisions$/ })).toHaveCount(1)
    await expect(how.getByTestId('ending-rated')).toHaveAttribute('data-rated', 'false')
    await expect(how.getByTestId('ending-rated')).toContainText('Not rated: a rated game needs two signed-in people')
    await how.scrollIntoViewIfNeeded()
    await ada.getByTestId('end-screen').screenshot({ path: `${SCREENS}/ending-${viewport.width}.png` })

    await ada.evaluate(() => window.scrollTo(0, 0))
    await ada.getByTestId('language').selectOption('es')
    await expect(how).toContainText('Ada abandonó la partida')
    await expect(how.getByTestId('ending-note').filter({ hasText: /Un bot jugó \d+ de las \d+ decisiones de Ada$/ })).toHaveCount(1)
    await expect(how.getByTestId('ending-rated')).toContainText('Sin puntuar: una partida puntuada necesita dos personas')

    // The game's page says it too.
    await ada.goto(`/#/replay/${created.id}`)
    await expect(ada.getByTestId('how-it-went')).toContainText('Ada abandonó la partida')
    await context.close()
  })
}
