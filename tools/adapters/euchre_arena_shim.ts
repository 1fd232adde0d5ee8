// Entry point bundled with euchre-reasoning-arena's game logic (estern1011/euchre-reasoning-arena,
// lib/game) for tools/adapters/euchre_arena_engine.py. Its game is a set of pure functions on
// a plain GameState (createNewGame, makeTrumpBid, dealerDiscard, playCard, startNewHand,
// getValidCardsForPlay, getNextPlayer); this keeps the one state between calls and answers it
// as plain data. It adds no rule. The one thing it does of its own is feed the engine's
// shuffle (Math.random) the numbers that lay the pack out as the runner's deal, and ask
// makeTrumpBid, without keeping the result, which bids it takes (the engine has no list of them).
import {
  createNewGame, dealerDiscard, getNextPlayer, getValidCardsForPlay, makeTrumpBid, playCard, startNewHand,
} from '~/lib/game/game';
import { withNumbers } from './scripted_random';

const POSITIONS = ['north', 'east', 'south', 'west'];
const SUITS = ['spades', 'hearts', 'diamonds', 'clubs'];
const MODELS: [string, string, string, string] = ['p0', 'p1', 'p2', 'p3'];

let game: any = null;

// The first hand of a game (createNewGame: dealer, target and scores given), or the next one
// (startNewHand: the deal passes clockwise), its shuffle fed ``numbers``.
export function deal(numbers: number[], dealer: number, target: number, scores: number[]) {
  game = withNumbers(numbers, () => game === null
    ? createNewGame(MODELS, POSITIONS[dealer] as any, target, [scores[0], scores[1]], 1)
    : startNewHand(game));
  return view();
}

export function reset() {
  game = null;
  return null;
}

// makeTrumpBid, kept: ``action`` order_up, call_trump or pass.
export function bid(seat: number, action: string, suit: string | null, alone: boolean) {
  game = makeTrumpBid(game, POSITIONS[seat] as any, action as any, (suit || undefined) as any, alone);
  return view();
}

// The bids makeTrumpBid takes from ``seat`` now (tried, not kept).
export function bidsTaken(seat: number): string[] {
  const tries: [string, string, string | null][] = [['pass', 'pass', null], ['order', 'order_up', null]];
  for (const suit of SUITS) tries.push([`call:${suit}`, 'call_trump', suit]);
  const taken: string[] = [];
  for (const [name, action, suit] of tries) {
    try {
      makeTrumpBid(game, POSITIONS[seat] as any, action as any, (suit || undefined) as any, false);
      taken.push(name);
    } catch (e) { /* refused */ }
  }
  return taken;
}

export function discard(card: any) {
  game = dealerDiscard(game, card);
  return view();
}

export function play(seat: number, card: any) {
  game = playCard(game, POSITIONS[seat] as any, card);
  return view();
}

// getValidCardsForPlay for the player getNextPlayer names.
export function validCards(seat: number) {
  return getValidCardsForPlay(game, POSITIONS[seat] as any);
}

export function view() {
  const g = game;
  let next: number | null = null;
  if (g.phase === 'playing') {
    try { next = POSITIONS.indexOf(getNextPlayer(g)); } catch (e) { next = null; }
  }
  return {
    phase: g.phase, dealer: POSITIONS.indexOf(g.dealer), trump: g.trump,
    hands: POSITIONS.map(p => g.players.find((x: any) => x.position === p).hand),
    selection: g.trumpSelection ? {
      upcard: g.trumpSelection.turnedUpCard, bidder: POSITIONS.indexOf(g.trumpSelection.currentBidder),
      round: g.trumpSelection.round,
    } : null,
    caller: g.trumpCaller ? POSITIONS.indexOf(g.trumpCaller) : null,
    alone: g.goingAlone ? POSITIONS.indexOf(g.goingAlone) : null,
    nextPlayer: next,
    tricks: g.completedTricks.map(trick),
    current: trick(g.currentTrick),
    handScores: g.scores, gameScores: g.gameScores, handNumber: g.handNumber,
  };
}

function trick(t: any) {
  return {
    leader: POSITIONS.indexOf(t.leadPlayer), winner: t.winner ? POSITIONS.indexOf(t.winner) : null,
    cards: t.plays.map((p: any) => [POSITIONS.indexOf(p.player), p.card]),
  };
}
