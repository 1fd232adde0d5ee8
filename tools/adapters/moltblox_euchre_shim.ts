// Entry point bundled with moltblox's Euchre (Halldon-Inc/moltblox,
// packages/game-builder/src/ports/cardgames/EuchreGame.ts) for
// tools/adapters/moltblox_euchre_engine.py. It keeps one EuchreGame and calls its own entry
// points: handleAction for every move, and its dealNewHand (the function it deals every hand
// with) for each deal, its shuffle (Math.random) fed the numbers that lay out the runner's
// deal. The moves it lists are those handleAction accepts, each tried on a copy of the state
// put back with the engine's restoreState. It adds no rule.
import { EuchreGame } from '~/ports/cardgames/EuchreGame';
import { withNumbers } from './scripted_random';

const PLAYERS = ['p0', 'p1', 'p2', 'p3'];

let game: any = null;

export function newGame(target: number, numbers: number[]) {
  game = new EuchreGame({ targetScore: target });
  withNumbers(numbers, () => game.initialize(PLAYERS));
  return view();
}

// The engine's dealNewHand for this dealer and scores, its shuffle fed ``numbers``.
export function deal(numbers: number[], dealer: number, scores: number[], target: number) {
  const data = withNumbers(numbers, () => game.dealNewHand(PLAYERS, dealer, scores.slice(), target));
  game.restoreState(PLAYERS, { ...game.getState(), data });
  return view();
}

// handleAction: {type, payload}; its refusal thrown.
// The seat the engine's trick_won event names, if the action completed a trick.
export function act(seat: number, type: string, payload: any, numbers: number[]) {
  const result = withNumbers(numbers, () => game.handleAction(PLAYERS[seat], { type, payload: payload || {} }));
  if (!result.success) throw new Error(result.error || 'refused');
  const won = (result.events || []).find((e: any) => e.type === 'trick_won');
  return { ...view(), trickWonBy: won ? PLAYERS.indexOf(won.playerId) : null };
}

// Which of these actions handleAction accepts from ``seat`` now (each tried, then undone).
export function accepted(seat: number, tries: [string, any][], numbers: number[]): boolean[] {
  const saved = JSON.parse(JSON.stringify(game.getState()));
  return tries.map(([type, payload]) => {
    let ok = false;
    try {
      ok = withNumbers(numbers, () => game.handleAction(PLAYERS[seat], { type, payload: payload || {} })).success;
    } catch (e) { ok = false; }
    game.restoreState(PLAYERS, JSON.parse(JSON.stringify(saved)));
    return ok;
  });
}

export function view() {
  const d = game.getState().data;
  return {
    phase: d.phase, dealer: d.dealer, currentPlayer: d.currentPlayer, trump: d.trump, turnedUp: d.turnedUp,
    maker: d.maker === null ? null : PLAYERS.indexOf(d.maker), goingAlone: d.goingAlone,
    loner: d.loner === null ? null : PLAYERS.indexOf(d.loner), hands: PLAYERS.map(p => d.hands[p]),
    trickCards: d.trickCards, trickPlayers: d.trickPlayers.map((p: string) => PLAYERS.indexOf(p)),
    teamTricks: d.teamTricks, teamScores: d.teamScores, winner: d.winner,
  };
}
