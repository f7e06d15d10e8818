import { describe, expect, it } from 'vitest'
import { cut, lineText } from './short'

const F = '\u{E000}'

describe('a short line with pictures', () => {
  it('cuts a translation into its text and its pictures, in the language’s order', () => {
    const pictures = { gem: 'ruby', item: 'pick' }
    expect(cut(`loads ${F}gem${F} onto ${F}item${F}`, pictures)).toEqual([
      { text: 'loads ' },
      { picture: 'ruby' },
      { text: ' onto ' },
      { picture: 'pick' },
    ])
    // Japanese puts the verb last.
    expect(cut(`${F}gem${F}を${F}item${F}に積む`, pictures)).toEqual([
      { picture: 'ruby' },
      { text: 'を' },
      { picture: 'pick' },
      { text: 'に積む' },
    ])
  })

  it('reads as text with the pictures named', () => {
    const parts = cut(`pays ${F}coin${F}`, { coin: 'coin' })
    expect(lineText(parts, (p) => `[${p}]`)).toBe('pays [coin]')
  })
})
