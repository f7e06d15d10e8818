import { describe, expect, it } from 'vitest'
import { href, invitationUrl, parseRoute, seatLinkUrl } from './routes'

describe('routes', () => {
  it('reads every screen from the hash', () => {
    expect(parseRoute('')).toEqual({ screen: 'lobby' })
    expect(parseRoute('#/')).toEqual({ screen: 'lobby' })
    expect(parseRoute('#/game/abc123')).toEqual({ screen: 'table', id: 'abc123', watch: false })
    expect(parseRoute('#/game/abc123?watch')).toEqual({ screen: 'table', id: 'abc123', watch: true })
    expect(parseRoute('#/join/abc/f00d')).toEqual({ screen: 'join', id: 'abc', token: 'f00d' })
    expect(parseRoute('#/join/abc')).toEqual({ screen: 'join', id: 'abc', token: null })
    expect(parseRoute('#/seat/abc/f00d')).toEqual({ screen: 'seat', id: 'abc', token: 'f00d' })
    expect(parseRoute('#/replay/abc')).toEqual({ screen: 'replay', id: 'abc' })
    expect(parseRoute('#/replay')).toEqual({ screen: 'replay', id: null })
    expect(parseRoute('#/player/abc')).toEqual({ screen: 'player', id: 'abc' })
    expect(parseRoute('#/player')).toEqual({ screen: 'missing', hash: '#/player' })
    expect(parseRoute('#/ratings/valdora')).toEqual({ screen: 'ratings', game: 'valdora' })
    expect(parseRoute('#/ratings')).toEqual({ screen: 'ratings', game: null })
    expect(parseRoute('#/ratings/valdora/x')).toMatchObject({ screen: 'missing' })
    expect(parseRoute('#/friends')).toEqual({ screen: 'friends' })
    expect(parseRoute('#/friends/x')).toMatchObject({ screen: 'missing' })
    expect(parseRoute('#/nowhere')).toEqual({ screen: 'missing', hash: '#/nowhere' })
    expect(parseRoute('#/game/a/b')).toMatchObject({ screen: 'missing' })
    // A seat link is nothing without its token, nor with more after it.
    expect(parseRoute('#/seat/abc')).toMatchObject({ screen: 'missing' })
    expect(parseRoute('#/seat/abc/t/x')).toMatchObject({ screen: 'missing' })
  })

  it('writes what it reads', () => {
    for (const hash of [href.lobby(), href.table('x y'), href.table('x', true), href.join('g', 't'), href.joinOpen('g'), href.seat('g', 't'), href.replay('g'), href.replay(), href.player('p q'), href.ratings('valley'), href.ratings(), href.friends()]) {
      const route = parseRoute(hash)
      expect(route.screen).not.toBe('missing')
    }
    expect(parseRoute(href.table('x y'))).toEqual({ screen: 'table', id: 'x y', watch: false })
    expect(parseRoute(href.seat('g 1', 'a/b'))).toEqual({ screen: 'seat', id: 'g 1', token: 'a/b' })
    expect(parseRoute(href.ratings('a b'))).toEqual({ screen: 'ratings', game: 'a b' })
  })

  it('makes invitation addresses on the page own address', () => {
    expect(invitationUrl('g1', 'tok', { origin: 'https://play.example', pathname: '/' })).toBe(
      'https://play.example/#/join/g1/tok',
    )
    expect(seatLinkUrl('g1', 'tok', { origin: 'https://play.example', pathname: '/play/' })).toBe(
      'https://play.example/play/#/seat/g1/tok',
    )
  })
})
