// Entry point bundled with euchre-webrtc's sources (JeremyGuinn/euchre-webrtc) for
// tools/adapters/euchre_webrtc_engine.py. It calls the engine's game store (the host's
// zustand store: placeBid, dealerDiscard, playCard, completeTrick, completeHand, dealCards)
// and its host-side validators, and reads the store's state as plain data: it adds no rule.
// The one thing it does of its own is feed dealCards' shuffle (Math.random) the numbers that
// lay the pack out as the runner's deal.
import { validateCardCanBePlayed, validatePlayerHasCard, validatePlayerTurn } from '~/network/handlers/validators';
import { gameStore } from '~/store/gameStore';
import { withNumbers } from './scripted_random';

const SEATS = [0, 1, 2, 3] as const;

type Options = { screwTheDealer: boolean; farmersHand: boolean; allowReneging: boolean };

function store(): any {
  return gameStore.getState();
}

// A game of four players at positions 0-3 (partners 0 and 2), the dealer and scores given,
// about to deal.
export function newGame(dealer: number, scores: number[], options: Options) {
  gameStore.setState({
    players: SEATS.map(p => ({ id: `p${p}`, name: `p${p}`, isHost: p === 0, isConnected: true, position: p, teamId: p % 2 })),
    options: { teamSelection: 'predetermined', dealerSelection: 'predetermined_first_dealer', ...options },
    currentDealerPosition: dealer,
    scores: { team0: scores[0], team1: scores[1] },
    handScores: { team0: 0, team1: 0 },
    phase: 'dealing_animation',
    bids: [], completedTricks: [], currentTrick: undefined, trump: undefined, maker: undefined,
    turnedDownSuit: undefined, hands: { 0: [], 1: [], 2: [], 3: [] }, deck: [],
  } as any);
  return view();
}

// The engine's own dealCards, its shuffle fed ``numbers`` (Math.random's values in turn).
export function deal(numbers: number[]) {
  withNumbers(numbers, () => store().dealCards());
  return view();
}

// The host's checks of a message from seat ``seat`` (its validators), as the network handler runs them.
function valid(validators: any[], message: any, seat: number): string | null {
  const context = { gameStore: store() };
  for (const check of validators) {
    const result = check(message, `p${seat}`, context);
    if (!result.isValid) return result.reason || 'invalid';
  }
  return null;
}

function cardOf(seat: number, id: string) {
  return (store().hands[seat] || []).find((c: any) => c.id === id) || { id, suit: id.split('-')[0], value: id.split('-')[1] };
}

export function bid(seat: number, suit: string, alone: boolean) {
  const refused = valid([validatePlayerTurn], { payload: { bid: { suit, alone } } }, seat);
  if (refused) throw new Error(refused);
  store().placeBid({ playerPosition: seat, suit, alone });
  return view();
}

export function discard(seat: number, id: string) {
  if (store().currentDealerPosition !== seat) throw new Error('only the dealer discards');
  store().dealerDiscard(cardOf(seat, id));
  return view();
}

// Whether the host accepts seat ``seat`` playing card ``id`` now.
export function canPlay(seat: number, id: string): boolean {
  const message = { payload: { card: cardOf(seat, id) } };
  return valid([validatePlayerTurn, validatePlayerHasCard, validateCardCanBePlayed], message, seat) === null;
}

// A play, then the step past a completed trick its hosts take (completeTrick).
export function play(seat: number, id: string) {
  const message = { payload: { card: cardOf(seat, id) } };
  const refused = valid([validatePlayerTurn, validatePlayerHasCard, validateCardCanBePlayed], message, seat);
  if (refused) throw new Error(refused);
  store().playCard(cardOf(seat, id), seat);
  if (store().phase === 'trick_complete') store().completeTrick();
  return view();
}

// After a hand: the engine's completeHand (the deal passes left).
export function nextHand() {
  store().completeHand();
  return view();
}

export function view() {
  const s = store();
  return {
    phase: s.phase, hands: s.hands, kitty: s.kitty || null, trump: s.trump || null, maker: s.maker || null,
    turnedDownSuit: s.turnedDownSuit || null, dealer: s.currentDealerPosition,
    toAct: s.currentPlayerPosition === undefined ? null : s.currentPlayerPosition,
    currentTrick: s.currentTrick || null, completedTricks: s.completedTricks || [], scores: s.scores,
    handScores: s.handScores, bids: s.bids, dealerScrewed: s.isDealerScrewed(), options: s.options,
  };
}
