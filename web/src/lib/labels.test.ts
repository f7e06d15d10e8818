import { describe, expect, it } from 'vitest'
import type { OptionInfo } from '../generated/server/OptionInfo'
import { i18n } from './i18n.svelte'
import { categoryLabel, choiceLabel, gameName, humanize, isProvisional, optionLabel, personName, ratingNumber, seatName, sinceText } from './labels'

const option = (key: string, description = 'server text'): OptionInfo => ({
  key,
  description,
  choices: [],
  default: null,
  players: [],
})

describe('labels', () => {
  it('names options and choices from the catalogue, else from the server', () => {
    i18n.lang = 'en'
    expect(optionLabel(option('mode'))).toBe('Mode')
    expect(optionLabel(option('brand_new', 'a new option'))).toBe('a new option')
    expect(choiceLabel(option('mode'), 'beginner')).toBe('Beginner game (start buildings)')
    expect(choiceLabel(option('brand_new'), true)).toBe('Yes')
    expect(choiceLabel(option('brand_new'), null)).toBe("The game's default")
    expect(choiceLabel(option('brand_new'), 'some_value')).toBe('Some value')
    expect(choiceLabel(option('brand_new'), 4)).toBe('4')
    i18n.lang = 'it'
    expect(optionLabel(option('mode'))).toBe('Modalità')
    i18n.lang = 'en'
  })

  it('names seats: people by name, bots by number and strength, free seats as free', () => {
    expect(seatName({ seat: 0, kind: 'human', name: 'Ana', bot: null, open: false, presence: null, stand_in: null, left: false, former: false })).toBe('Ana')
    expect(seatName({ seat: 1, kind: 'bot', name: 'Bot (hard)', bot: 'hard', open: false, presence: null, stand_in: null, left: false, former: false })).toBe('Bot 2 (hard)')
    expect(seatName({ seat: 2, kind: 'human', name: null, bot: null, open: true, presence: null, stand_in: null, left: false, former: false })).toBe('Seat 3 (free)')
  })

  it("names a deleted account's seat a former player in the reader's language, never by the server's placeholder", () => {
    const former = { seat: 1, kind: 'human', name: 'former player', bot: null, open: false, presence: null, stand_in: null, left: false, former: true } as const
    const expected = { en: 'Former player', es: 'Exjugador', it: 'Ex giocatore', ja: '退会したプレイヤー' } as const
    for (const [lang, text] of Object.entries(expected)) {
      i18n.lang = lang as keyof typeof expected
      expect(seatName(former)).toBe(text)
      expect(personName(former)).toBe(text)
    }
    i18n.lang = 'en'
    // A person whose name happens to be the placeholder keeps it: only `former` counts.
    expect(seatName({ ...former, former: false })).toBe('former player')
    expect(personName({ ...former, former: false, name: 'Ana' })).toBe('Ana')
    expect(personName({ ...former, former: false, name: null })).toBe('')
  })

  it('shows ratings as whole numbers grouped as the language groups digits', () => {
    i18n.lang = 'en'
    expect(ratingNumber(1130.6)).toBe('1,131')
    expect(ratingNumber(245.9)).toBe('246')
    i18n.lang = 'it'
    expect(ratingNumber(1130.6)).toBe('1131')
    i18n.lang = 'en'
  })

  it('falls back to the raw word', () => {
    expect(gameName('valley')).toBe('Valley of the Kings')
    expect(gameName('new_game')).toBe('New game')
    expect(humanize('city regions')).toBe('City regions')
    expect(categoryLabel('nogame', 'end-game cards')).toBe('End-game cards')
  })

  it('says how long ago', () => {
    expect(sinceText(1_000_000 - 5 * 60_000, 1_000_000)).toBe('5 minutes ago')
    expect(sinceText(1_000_000, 1_000_000)).toBe('this minute')
  })

  it('reads the provisional flag of a view', () => {
    expect(isProvisional({ provisional_data: true })).toBe(true)
    expect(isProvisional({ provisional_data: false })).toBe(false)
    expect(isProvisional(null)).toBe(false)
  })
})
