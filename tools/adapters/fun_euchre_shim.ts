// Entry point bundled with funEuchre's rules package (seanwolter/funEuchre,
// packages/game-rules) for tools/adapters/fun_euchre_engine.py. The package is a pure reducer,
// applyGameAction(state, action) returning the next state or a reject; this keeps the one
// state between calls and answers it as plain data. It adds no rule: the moves it lists are
// those applyGameAction accepts (tried on the state, the result dropped).
import { applyGameAction, createInitialGameState } from '~/src/index';

const SEATS = ['north', 'east', 'south', 'west'];
const SUITS = ['clubs', 'diamonds', 'hearts', 'spades'];

let game: any = null;

export function newGame(dealer: number, target: number, scores: number[]) {
  game = createInitialGameState({ dealer: SEATS[dealer] as any, targetScore: target,
    scores: { teamA: scores[0], teamB: scores[1] } });
  return view();
}

function apply(action: any) {
  const result: any = applyGameAction(game, action);
  if (!result.ok) throw new Error(`${result.reject.code}: ${result.reject.message}`);
  game = result.state;
  return view();
}

// deal_hand with the pack in the order the engine deals it (three, then two, to each seat
// from the dealer's left, then the upcard, then the rest).
export function deal(deck: any[]) {
  return apply({ type: 'deal_hand', deck });
}

export function bid(seat: number, type: string, trump: string | null, alone: boolean) {
  const action: any = { type, actor: SEATS[seat] };
  if (type !== 'pass') action.alone = alone;
  if (trump) action.trump = trump;
  return apply({ type: 'bidding', action });
}

export function play(seat: number, card: any) {
  return apply({ type: 'play_card', actor: SEATS[seat], card });
}

// score_hand: the hand's points added, then the next deal awaited or the game over.
export function score() {
  return apply({ type: 'score_hand' });
}

// The bids applyGameAction accepts from ``seat`` now.
export function bidsTaken(seat: number): string[] {
  const tries: [string, any][] = [['pass', { type: 'pass' }], ['order', { type: 'order_up' }]];
  for (const suit of SUITS) tries.push([`call:${suit}`, { type: 'call_trump', trump: suit }]);
  return tries.filter(([, a]) => applyGameAction(game, { type: 'bidding', action: { ...a, actor: SEATS[seat] } }).ok)
    .map(([name]) => name);
}

// The cards of ``seat``'s hand applyGameAction accepts him playing now.
export function playsTaken(seat: number): any[] {
  const hand = (game.hands && game.hands[SEATS[seat]]) || [];
  return hand.filter((card: any) => applyGameAction(game, { type: 'play_card', actor: SEATS[seat], card }).ok);
}

export function view() {
  const g = game;
  const seat = (s: any) => (s ? SEATS.indexOf(s) : null);
  return {
    phase: g.phase, handNumber: g.handNumber, dealer: seat(g.dealer), target: g.targetScore,
    scores: [g.scores.teamA, g.scores.teamB], winner: g.winner ? (g.winner === 'teamA' ? 0 : 1) : null,
    hands: g.hands ? SEATS.map(s => g.hands[s]) : null, upcard: g.upcard, kitty: g.kitty,
    bidding: g.bidding ? { turn: seat(g.bidding.turn), round: g.bidding.round, status: g.bidding.status,
      turnedDownSuit: g.bidding.turnedDownSuit } : null,
    trump: g.trump, maker: seat(g.maker), alone: g.alone, sittingOut: seat(g.partnerSitsOut),
    trick: g.trick ? { leader: seat(g.trick.leader), turn: seat(g.trick.turn), complete: g.trick.complete,
      winner: seat(g.trick.winner), plays: g.trick.plays.map((p: any) => [seat(p.seat), p.card]) } : null,
    lastHand: g.lastHand ? [g.lastHand.points.teamA, g.lastHand.points.teamB] : null,
  };
}
