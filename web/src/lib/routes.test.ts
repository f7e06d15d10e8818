import { describe, expect, it } from 'vitest'
import { href, invitationUrl, parseRoute } from './routes'

describe('routes', () => {
  it('reads every screen from the hash', () => {
    expect(parseRoute('')).toEqual({ screen: 'lobby' })
    expect(parseRoute('#/')).toEqual({ screen: 'lobby' })
    expect(parseRoute('#/game/abc123')).toEqual({ screen: 'table', id: 'abc123', watch: false })
    expect(parseRoute('#/game/abc123?watch')).toEqual({ screen: 'table', id: 'abc123', watch: true })
    expect(parseRoute('#/join/abc/f00d')).toEqual({ screen: 'join', id: 'abc', token: 'f00d' })
    expect(parseRoute('#/join/abc')).toEqual({ screen: 'join', id: 'abc', token: null })
    expect(parseRoute('#/replay/abc')).toEqual({ screen: 'replay', id: 'abc' })
    expect(parseRoute('#/replay')).toEqual({ screen: 'replay', id: null })
    expect(parseRoute('#/nowhere')).toEqual({ screen: 'missing', hash: '#/nowhere' })
    expect(parseRoute('#/game/a/b')).toMatchObject({ screen: 'missing' })
  })

  it('writes what it reads', () => {
    for (const hash of [href.lobby(), href.table('x y'), href.table('x', true), href.join('g', 't'), href.joinOpen('g'), href.replay('g'), href.replay()]) {
      const route = parseRoute(hash)
      expect(route.screen).not.toBe('missing')
    }
    expect(parseRoute(href.table('x y'))).toEqual({ screen: 'table', id: 'x y', watch: false })
  })

  it('makes invitation addresses on the page own address', () => {
    expect(invitationUrl('g1', 'tok', { origin: 'https://play.example', pathname: '/' })).toBe(
      'https://play.example/#/join/g1/tok',
    )
  })
})
