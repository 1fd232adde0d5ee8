#!/usr/bin/env node
// A small, from-scratch engine for standard four-handed Euchre (variant `euchre`) that speaks
// the Euchre Spec engine protocol, version 1 (docs/protocol.md): one JSON object per line on
// standard input, one reply per line on standard output, logs on standard error.
//
// The engine implements the variant natively: it reads `variant` and `options` from the
// `rules` message (and the game target from the table when present), not the table as a
// general interpreter.
'use strict';

const readline = require('readline');

const ENGINE = { name: 'euchre-js', version: '0.1.0', language: 'JavaScript' };

// The options this engine implements, with every value it supports.
const SUPPORTED_OPTIONS = {
  'game-target': [5, 7, 10],
  'first-dealer': ['first-black-jack', 'random'],
  'stick-the-dealer': [false, true],
  'going-alone': [true, false],
  'alone-declared': ['before-exchange', 'after-exchange'],
  'defending-alone': [true, false],
  'lone-defender-scoring': ['one-or-four', 'four-for-euchre'],
  'super-euchre': [false, true],
  'railroading': [false, true],
  'dealer-discard': ['any', 'not-upcard'],
  'lone-lead': ['maker-left', 'eldest'],
  'benny': ['none', 'joker', 'two-of-spades'],
};
const DEFAULT_OPTIONS = {
  'game-target': 10,
  'first-dealer': 'first-black-jack',
  'stick-the-dealer': false,
  'going-alone': true,
  'alone-declared': 'before-exchange',
  'defending-alone': true,
  'lone-defender-scoring': 'one-or-four',
  'super-euchre': false,
  'railroading': false,
  'dealer-discard': 'any',
  'lone-lead': 'maker-left',
  'benny': 'none',
};
const COMMANDS = ['perft', 'deal-deck'];

const SUITS = ['C', 'D', 'H', 'S'];
const RANKS = ['9', 'T', 'J', 'Q', 'K', 'A'];
const SAME_COLOUR = { C: 'S', S: 'C', D: 'H', H: 'D' };
const PLAIN_RANK = { '9': 0, T: 1, J: 2, Q: 3, K: 4, A: 5 };
// Trump order below the bowers: A K Q T 9.
const TRUMP_RANK = { '9': 0, T: 1, Q: 2, K: 3, A: 4 };
const CARD_RE = /^([2-9TJQKA][CDHS]|JK)$/;
const NPLAYERS = 4;
const HAND_SIZE = 5;

// Card and play rules of tables this engine does not implement: it plays a single pack whose
// ranks run in the usual order, and follow suit as the only rule of play. A table sent with
// more (a pack with copies, cards left out, ranks in another order, must head / trump /
// overtrump) is refused rather than played by the wrong rules.
// Whether a key appears anywhere under a node (a condition atom inside any, all or not too).
function mentions(node, key) {
  if (Array.isArray(node)) return node.some((item) => mentions(item, key));
  if (node === null || typeof node !== 'object') return false;
  return Object.keys(node).some((k) => k === key || mentions(node[k], key));
}

const USUAL_RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
function cardRulesBeyond(table) {
  const deck = table.deck || {};
  if ((deck.copies || 1) > 1) return 'a pack with copies (deck.copies)';
  if ((deck.without || []).length) return 'cards left out of the pack (deck.without)';
  const ranks = deck.ranks || [];
  const start = USUAL_RANKS.indexOf(ranks[0]);
  if (start < 0 || ranks.some((r, i) => USUAL_RANKS[start + i] !== r)) return `the rank order ${ranks.join(' ')}`;
  const ranking = table.ranking || {};
  for (const key of Object.keys(ranking)) {
    if (!KNOWN_RANKING.includes(key)) return `the ranking rule ${key}`;
  }
  if ((table.scoring || {}).unit === 'half') return 'scores counted in half points (scoring.unit: half)';
  if (mentions(table.scoring, 'forced-contract') || mentions(table.game, 'forced-contract')) {
    return 'a rule for a forced contract (the condition forced-contract)';
  }
  for (const step of table.hand || []) {
    if (!KNOWN_STEP_KINDS.includes(step.kind)) return `a hand step of kind ${step.kind} (${step.id})`;
    if (step.kind === 'give' && ((step['give-count'] || 1) > 1 || step['give-order'] === 'discard-first')) {
      return `a give of ${step['give-count'] || 1} card(s), ${step['give-order'] || 'receive-first'} (${step.id})`;
    }
    if (step.kind === 'offer') {
      if (!KNOWN_OFFER_EFFECTS.includes(step.effect)) return `an offer with effect ${step.effect} (${step.id})`;
      if ((step.decision || 'each-seat') !== 'each-seat') return `one decision for a side (${step.id}: decision ${step.decision})`;
    }
    if (step.kind !== 'play') continue;
    if ((step.must || []).length) return `the play rules must: ${step.must.join(', ')}`;
    for (const key of Object.keys(step)) {
      if (!KNOWN_PLAY_KEYS.includes(key)) return `the play rule ${key}: ${JSON.stringify(step[key])}`;
    }
  }
  return null;
}

// What this engine plays natively, beyond which a table is answered `unsupported` (rather
// than played by other rules than it says): Euchre's ranking keys, the kinds of step its
// options use, and the play step's keys that say no more than "follow suit" and who leads.
const KNOWN_RANKING = ['bowers', 'benny'];
const KNOWN_STEP_KINDS = ['name', 'make-trumps', 'throw-in', 'offer', 'exchange', 'give', 'play'];
const KNOWN_PLAY_KEYS = ['id', 'kind', 'phase', 'clause', 'when', 'lead', 'must'];
// The offers it plays: going alone and defending alone, each seat answering for itself.
const KNOWN_OFFER_EFFECTS = ['alone', 'defend-alone'];

class ProtocolError extends Error {
  constructor(category, message) {
    super(message);
    this.category = category;
  }
}
const fail = (category, message) => { throw new ProtocolError(category, message); };

// ---------------------------------------------------------------- rules

function makeRules(options, table) {
  const o = Object.assign({}, DEFAULT_OPTIONS, options || {});
  const bennyCard = o.benny === 'joker' ? 'JK' : o.benny === 'two-of-spades' ? '2S' : null;
  const pack = [];
  for (const s of SUITS) for (const r of RANKS) pack.push(r + s);
  if (bennyCard) pack.push(bennyCard);
  let target = o['game-target'];
  if (table && table.game && Number.isInteger(table.game.target)) target = table.game.target;
  return {
    options: o,
    benny: bennyCard,
    pack,
    packSet: new Set(pack),
    target,
    stick: o['stick-the-dealer'] === true,
    aloneAllowed: o['going-alone'] === true,
    aloneBefore: o['alone-declared'] === 'before-exchange',
    defendAllowed: o['going-alone'] === true && o['defending-alone'] === true,
    railroading: o['going-alone'] === true && o.railroading === true,
    mayDiscardUpcard: o['dealer-discard'] === 'any',
    loneLeadEldest: o['lone-lead'] === 'eldest',
    superEuchre: o['super-euchre'] === true,
    loneDefenderFour: o['lone-defender-scoring'] === 'four-for-euchre',
  };
}

// ---------------------------------------------------------------- cards

const suitOf = (c) => (c === 'JK' ? null : c[1]);
const rankOf = (c) => (c === 'JK' ? 'JK' : c[0]);

function isTrump(R, c, trump) {
  if (!trump) return false;
  if (R.benny && c === R.benny) return true;
  if (rankOf(c) === 'J' && (suitOf(c) === trump || suitOf(c) === SAME_COLOUR[trump])) return true;
  return suitOf(c) === trump;
}

// The suit a card belongs to for following suit and winning tricks.
function effSuit(R, c, trump) {
  return isTrump(R, c, trump) ? trump : suitOf(c);
}

function trumpPower(R, c, trump) {
  if (R.benny && c === R.benny) return 100;
  if (rankOf(c) === 'J') return suitOf(c) === trump ? 90 : 80;
  return TRUMP_RANK[rankOf(c)];
}

function trickWinner(R, trick, trump) {
  const led = effSuit(R, trick.cards[0][1], trump);
  let best = null;
  let bestKey = -1;
  for (const [seat, card] of trick.cards) {
    let key;
    if (isTrump(R, card, trump)) key = 1000 + trumpPower(R, card, trump);
    else if (suitOf(card) === led) key = PLAIN_RANK[rankOf(card)];
    else key = -1;
    if (key > bestKey) { bestKey = key; best = seat; }
  }
  return best;
}

// ---------------------------------------------------------------- game state

const left = (s) => (s + 1) % NPLAYERS;
const partner = (s) => (s + 2) % NPLAYERS;
const side = (s) => s % 2;

function newGame(dealer, scores) {
  return {
    phase: 'deal',
    handNumber: 0,
    dealer,
    toAct: null,
    scores: scores.slice(),
    gameOver: false,
    winner: null,
    nextDealer: null,
    handPoints: null,
    scoringRow: null,
    // hand fields
    hands: [[], [], [], []],
    upcard: null,
    upcardSuit: null,
    turnedDown: null,
    trump: null,
    maker: null,
    alone: false,
    defenderAlone: null,
    sittingOut: [],
    tricks: [],
    tricksWon: [0, 0, 0, 0],
    kitty: [],
    // internal bookkeeping
    passes: 0,
    exchangePending: false,
    aloneDone: false,
    defendDone: false,
    defendQueue: [],
    railroadDone: false,
    offered: null,
    discardKind: null,
    taken: null,
    nextLeader: null,
  };
}

function cloneGame(g) {
  const c = Object.assign({}, g);
  c.scores = g.scores.slice();
  c.handPoints = g.handPoints ? g.handPoints.slice() : null;
  c.hands = g.hands.map((h) => h.slice());
  c.sittingOut = g.sittingOut.slice();
  c.tricks = g.tricks.map((t) => ({ leader: t.leader, cards: t.cards.map((p) => [p[0], p[1]]), winner: t.winner }));
  c.tricksWon = g.tricksWon.slice();
  c.kitty = g.kitty.slice();
  c.defendQueue = g.defendQueue.slice();
  return c;
}

function startHand(R, g, hands, upcard, kitty) {
  g.handNumber += 1;
  g.hands = hands.map((h) => h.slice());
  g.upcard = upcard;
  g.kitty = kitty ? kitty.slice() : [];
  g.upcardSuit = null;
  g.turnedDown = null;
  g.trump = null;
  g.maker = null;
  g.alone = false;
  g.defenderAlone = null;
  g.sittingOut = [];
  g.tricks = [];
  g.tricksWon = [0, 0, 0, 0];
  g.handPoints = null;
  g.scoringRow = null;
  g.nextDealer = null;
  g.passes = 0;
  g.exchangePending = false;
  g.aloneDone = false;
  g.defendDone = false;
  g.defendQueue = [];
  g.railroadDone = false;
  g.offered = null;
  g.discardKind = null;
  g.taken = null;
  g.nextLeader = null;
  if (R.benny && upcard === R.benny) {
    g.phase = 'benny-suit';
    g.toAct = g.dealer;
  } else {
    g.upcardSuit = suitOf(upcard);
    g.phase = 'bid-round-1';
    g.toAct = left(g.dealer);
  }
}

function nextActive(g, s) {
  let t = s;
  for (let i = 0; i < NPLAYERS; i++) {
    t = left(t);
    if (!g.sittingOut.includes(t)) return t;
  }
  return null;
}

function firstActiveFrom(g, s) {
  return g.sittingOut.includes(s) ? nextActive(g, s) : s;
}

function legalActions(R, g) {
  if (g.toAct === null) return [];
  const seat = g.toAct;
  const hand = g.hands[seat];
  switch (g.phase) {
    case 'benny-suit':
      return SUITS.map((s) => 'name:' + s);
    case 'bid-round-1':
      return ['pass', 'order'];
    case 'bid-round-2': {
      const out = [];
      if (!(R.stick && seat === g.dealer)) out.push('pass');
      for (const s of SUITS) if (s !== g.turnedDown) out.push('call:' + s);
      return out;
    }
    case 'alone':
      return ['pass', 'alone'];
    case 'defend-alone':
      return ['pass', 'defend-alone'];
    case 'partners-best':
      return ['pass'].concat(hand.map((c) => 'give:' + c));
    case 'take-best':
      return ['pass', 'take'];
    case 'discard': {
      let cards = hand;
      if (g.discardKind === 'exchange' && !R.mayDiscardUpcard) cards = hand.filter((c) => c !== g.taken);
      return cards.map((c) => 'discard:' + c);
    }
    case 'play':
      return playableCards(R, g, seat).map((c) => 'play:' + c);
    default:
      return [];
  }
}

function playableCards(R, g, seat) {
  const hand = g.hands[seat];
  const cur = g.tricks.length ? g.tricks[g.tricks.length - 1] : null;
  if (!cur || cur.winner !== null) return hand.slice();
  const led = effSuit(R, cur.cards[0][1], g.trump);
  const follow = hand.filter((c) => effSuit(R, c, g.trump) === led);
  return follow.length ? follow : hand.slice();
}

// Moves the hand on to its next stage once trumps are made (or a stage ends).
function advance(R, g) {
  const stages = R.aloneBefore
    ? ['alone', 'defend', 'exchange', 'railroad', 'play']
    : ['exchange', 'alone', 'defend', 'railroad', 'play'];
  for (const st of stages) {
    if (st === 'exchange') {
      if (!g.exchangePending) continue;
      g.exchangePending = false;
      if (g.sittingOut.includes(g.dealer)) continue; // a dealer who sits out takes nothing
      g.hands[g.dealer].push(g.upcard);
      g.taken = g.upcard;
      g.discardKind = 'exchange';
      g.phase = 'discard';
      g.toAct = g.dealer;
      return;
    }
    if (st === 'alone') {
      if (g.aloneDone) continue;
      if (!R.aloneAllowed) { g.aloneDone = true; continue; }
      g.phase = 'alone';
      g.toAct = g.maker;
      return;
    }
    if (st === 'defend') {
      if (g.defendDone) continue;
      if (!(g.alone && R.defendAllowed)) { g.defendDone = true; continue; }
      if (!g.defendQueue.length) g.defendQueue = [left(g.maker), (g.maker + 3) % NPLAYERS];
      g.phase = 'defend-alone';
      g.toAct = g.defendQueue[0];
      return;
    }
    if (st === 'railroad') {
      if (g.railroadDone) continue;
      if (!(g.alone && R.railroading)) { g.railroadDone = true; continue; }
      g.phase = 'partners-best';
      g.toAct = partner(g.maker);
      return;
    }
    if (st === 'play') {
      let start;
      if (g.alone && !R.loneLeadEldest) start = left(g.maker);
      else start = left(g.dealer);
      g.phase = 'play';
      g.nextLeader = firstActiveFrom(g, start);
      g.toAct = g.nextLeader;
      return;
    }
  }
}

function makeTrumps(R, g, seat, suit, round1) {
  g.trump = suit;
  g.maker = seat;
  g.exchangePending = round1;
  advance(R, g);
}

function removeCard(hand, card) {
  const i = hand.indexOf(card);
  if (i >= 0) hand.splice(i, 1);
}

function applyAction(R, g, seat, action) {
  const legal = legalActions(R, g);
  if (!legal.includes(action)) fail('illegal_action', `seat ${seat} may not take ${JSON.stringify(action)} in phase ${g.phase}`);
  const [verb, arg] = action.split(':');
  switch (g.phase) {
    case 'benny-suit':
      g.upcardSuit = arg;
      g.phase = 'bid-round-1';
      g.toAct = left(g.dealer);
      return;
    case 'bid-round-1':
      if (verb === 'order') return makeTrumps(R, g, seat, g.upcardSuit, true);
      g.passes += 1;
      if (g.passes >= NPLAYERS) {
        g.passes = 0;
        g.turnedDown = g.upcardSuit;
        g.phase = 'bid-round-2';
        g.toAct = left(g.dealer);
      } else g.toAct = left(seat);
      return;
    case 'bid-round-2':
      if (verb === 'call') return makeTrumps(R, g, seat, arg, false);
      g.passes += 1;
      if (g.passes >= NPLAYERS) return throwIn(g);
      g.toAct = left(seat);
      return;
    case 'alone':
      g.aloneDone = true;
      if (verb === 'alone') {
        g.alone = true;
        g.sittingOut.push(partner(g.maker));
      }
      return advance(R, g);
    case 'defend-alone':
      if (verb === 'defend-alone') {
        g.defenderAlone = seat;
        g.sittingOut.push(partner(seat));
        g.defendQueue = [];
        g.defendDone = true;
      } else {
        g.defendQueue.shift();
        if (!g.defendQueue.length) g.defendDone = true;
      }
      return advance(R, g);
    case 'partners-best':
      if (verb === 'give') {
        g.offered = arg;
        g.phase = 'take-best';
        g.toAct = g.maker;
        return;
      }
      g.railroadDone = true;
      return advance(R, g);
    case 'take-best':
      g.railroadDone = true;
      if (verb === 'take') {
        removeCard(g.hands[partner(g.maker)], g.offered);
        g.hands[g.maker].push(g.offered);
        g.taken = g.offered;
        g.offered = null;
        g.discardKind = 'railroad';
        g.phase = 'discard';
        g.toAct = g.maker;
        return;
      }
      g.offered = null;
      return advance(R, g);
    case 'discard':
      removeCard(g.hands[seat], arg);
      g.discardKind = null;
      g.taken = null;
      return advance(R, g);
    case 'play':
      return playCard(R, g, seat, arg);
    default:
      fail('internal', 'no action in phase ' + g.phase);
  }
}

function playCard(R, g, seat, card) {
  removeCard(g.hands[seat], card);
  let cur = g.tricks.length ? g.tricks[g.tricks.length - 1] : null;
  if (!cur || cur.winner !== null) {
    cur = { leader: seat, cards: [], winner: null };
    g.tricks.push(cur);
  }
  cur.cards.push([seat, card]);
  const active = NPLAYERS - g.sittingOut.length;
  if (cur.cards.length < active) {
    g.toAct = nextActive(g, seat);
    return;
  }
  const w = trickWinner(R, cur, g.trump);
  cur.winner = w;
  g.tricksWon[w] += 1;
  if (g.tricks.length < HAND_SIZE) {
    g.nextLeader = w;
    g.toAct = w;
    return;
  }
  scoreHand(R, g);
}

function scoreHand(R, g) {
  const ms = side(g.maker);
  const makerTricks = g.tricksWon[ms] + g.tricksWon[ms + 2];
  const defAlone = g.defenderAlone !== null;
  let row;
  let makers = 0;
  let defenders = 0;
  if (defAlone && makerTricks === 0) { row = 'lone-defender-march'; defenders = 4; }
  else if (defAlone && makerTricks <= 2) {
    if (R.loneDefenderFour) { row = 'lone-defender-euchre-four'; defenders = 4; }
    else { row = 'lone-defender-euchre'; defenders = 1; }
  } else if (R.superEuchre && makerTricks === 0) { row = 'super-euchre'; defenders = 4; }
  else if (g.alone && makerTricks === 5) { row = 'lone-march'; makers = 4; }
  else if (makerTricks === 5) { row = 'march'; makers = 2; }
  else if (g.alone && makerTricks >= 3) { row = 'lone-made'; makers = 1; }
  else if (makerTricks >= 3) { row = 'made'; makers = 1; }
  else if (g.alone) { row = 'lone-euchre'; defenders = 2; }
  else { row = 'euchre'; defenders = 2; }
  const pts = [0, 0];
  pts[ms] = makers;
  pts[1 - ms] = defenders;
  g.handPoints = pts;
  g.scoringRow = row;
  g.scores[0] += pts[0];
  g.scores[1] += pts[1];
  endHand(R, g);
}

function throwIn(g) {
  g.handPoints = [0, 0];
  g.scoringRow = null;
  g.passes = 0;
  // A thrown-in hand cannot end the game.
  g.nextDealer = left(g.dealer);
  g.dealer = g.nextDealer;
  g.phase = 'deal';
  g.toAct = null;
}

function endHand(R, g) {
  g.toAct = null;
  const reached = [0, 1].filter((i) => g.scores[i] >= R.target);
  if (reached.length) {
    g.gameOver = true;
    g.phase = 'game-over';
    g.nextDealer = null;
    if (g.scores[0] > g.scores[1]) g.winner = 0;
    else if (g.scores[1] > g.scores[0]) g.winner = 1;
    else g.winner = null;
    return;
  }
  g.nextDealer = left(g.dealer);
  g.dealer = g.nextDealer;
  g.phase = 'deal';
}

function observe(R, g) {
  return {
    phase: g.phase,
    hand_number: g.handNumber,
    dealer: g.dealer,
    to_act: g.toAct,
    legal: legalActions(R, g),
    upcard: g.upcard,
    upcard_suit: g.upcardSuit,
    turned_down: g.turnedDown,
    trump: g.trump,
    maker: g.maker,
    contract: null,
    alone: g.alone,
    defender_alone: g.defenderAlone,
    sitting_out: g.sittingOut.slice().sort((a, b) => a - b),
    hands: g.hands.map((h) => h.slice()),
    tricks: g.tricks.map((t) => ({ leader: t.leader, cards: t.cards.map((p) => [p[0], p[1]]), winner: t.winner })),
    tricks_won: g.tricksWon.slice(),
    hand_points: g.handPoints ? g.handPoints.slice() : null,
    scoring_row: g.scoringRow,
    scores: g.scores.slice(),
    next_dealer: g.nextDealer,
    game_over: g.gameOver,
    winner: g.winner,
  };
}

function perft(R, g, depth) {
  if (depth === 0 || g.toAct === null) return 1;
  const legal = legalActions(R, g);
  if (depth === 1) return legal.length;
  let n = 0;
  for (const a of legal) {
    const c = cloneGame(g);
    applyAction(R, c, c.toAct, a);
    n += perft(R, c, depth - 1);
  }
  return n;
}

// ---------------------------------------------------------------- validation helpers

function checkCardList(R, list, what, seen) {
  if (!Array.isArray(list)) fail('bad_message', `${what} must be a list of cards`);
  for (const c of list) {
    if (typeof c !== 'string') fail('bad_message', `${what} holds a non-string card`);
    if (!CARD_RE.test(c) || !R.packSet.has(c)) fail('bad_deal', `${what}: ${c} is not a card of the pack`);
    if (seen.has(c)) fail('bad_deal', `${c} is named twice`);
    seen.add(c);
  }
}

function isSeat(x) {
  return Number.isInteger(x) && x >= 0 && x < NPLAYERS;
}

// ---------------------------------------------------------------- the session

class Session {
  constructor() {
    this.R = null; // rules
    this.variant = null;
    this.g = null; // game
  }

  handle(msg) {
    switch (msg.type) {
      case 'hello': return this.hello(msg);
      case 'rules': return this.rules(msg);
      case 'new_game': return this.newGame(msg);
      case 'deal': return this.deal(msg);
      case 'act': return this.act(msg);
      case 'state': return { state: observe(this.R, this.needGame()) };
      case 'legal': {
        const g = this.needGame();
        return { to_act: g.toAct, legal: legalActions(this.R, g) };
      }
      case 'perft': return this.perft(msg);
      case 'bye': return {};
      default: fail('bad_message', `unknown request type ${JSON.stringify(msg.type)}`);
    }
    return undefined;
  }

  hello() {
    return {
      protocol: 1,
      engine: ENGINE,
      variants: { euchre: { options: SUPPORTED_OPTIONS } },
      commands: COMMANDS,
    };
  }

  rules(msg) {
    if (typeof msg.variant !== 'string') fail('bad_message', 'rules needs a variant');
    if (msg.options !== undefined && (typeof msg.options !== 'object' || msg.options === null || Array.isArray(msg.options))) {
      fail('bad_message', 'options must be an object');
    }
    if (msg.variant !== 'euchre') fail('unsupported', `variant ${msg.variant} is not implemented`);
    const options = msg.options || {};
    const table = msg.table && typeof msg.table === 'object' ? msg.table : null;
    const declared = (table && table.options) || {};
    for (const [k, v] of Object.entries(options)) {
      if (!(k in SUPPORTED_OPTIONS)) {
        // An option this engine does not know is played at its default only (the protocol's
        // hello: "an option not listed is supported with its default value only").
        if (declared[k] && declared[k].default === v) continue;
        fail('unsupported', `option ${k} is not implemented`);
      }
      if (!SUPPORTED_OPTIONS[k].includes(v)) fail('unsupported', `option ${k}=${JSON.stringify(v)} is not implemented`);
    }
    if (table && table.game && table.game['first-dealer'] === 'cut') fail('unsupported', 'first dealer by cut is not implemented');
    const beyond = table && cardRulesBeyond(table);
    if (beyond) fail('unsupported', `${beyond} is not implemented`);
    this.R = makeRules(options, table);
    this.variant = msg.variant;
    this.g = null;
    return {};
  }

  newGame(msg) {
    if (!this.R) fail('wrong_phase', 'new_game before rules');
    const R = this.R;
    const hasDealer = msg.dealer !== undefined;
    const hasFirst = msg.first_dealer !== undefined;
    if (hasDealer === hasFirst) fail('bad_message', 'new_game needs exactly one of dealer and first_dealer');
    let scores = [0, 0];
    if (msg.scores !== undefined) {
      if (!Array.isArray(msg.scores) || msg.scores.length !== 2 || !msg.scores.every(Number.isInteger)) {
        fail('bad_message', 'scores must be two integers, one per partnership');
      }
      scores = msg.scores.slice();
    }
    let dealer;
    if (hasDealer) {
      if (!isSeat(msg.dealer)) fail('bad_message', 'dealer must be a seat 0-3');
      dealer = msg.dealer;
    } else {
      const fd = msg.first_dealer;
      if (typeof fd !== 'object' || fd === null || Array.isArray(fd)) fail('bad_message', 'first_dealer must be an object');
      const start = fd.start === undefined ? 0 : fd.start;
      if (!isSeat(start)) fail('bad_message', 'first_dealer.start must be a seat 0-3');
      checkCardList(R, fd.cards, 'first_dealer.cards', new Set());
      const idx = fd.cards.findIndex((c) => c === 'JC' || c === 'JS');
      if (idx < 0) fail('bad_deal', 'no black jack among the first_dealer cards');
      dealer = (start + idx) % NPLAYERS;
    }
    this.g = newGame(dealer, scores);
    return { state: observe(R, this.g) };
  }

  needGame() {
    if (!this.R || !this.g) fail('wrong_phase', 'no game: send rules and new_game first');
    return this.g;
  }

  deal(msg) {
    const g = this.needGame();
    const R = this.R;
    if (g.phase !== 'deal') fail('wrong_phase', `a deal is not expected in phase ${g.phase}`);
    const hasHands = msg.hands !== undefined;
    const hasDeck = msg.deck !== undefined;
    if (hasHands === hasDeck) fail('bad_message', 'deal needs exactly one of hands and deck');
    let hands;
    let upcard;
    let kitty;
    if (hasDeck) {
      const seen = new Set();
      checkCardList(R, msg.deck, 'deck', seen);
      if (msg.deck.length !== R.pack.length) fail('bad_deal', `the deck must hold the ${R.pack.length} cards of the pack`);
      hands = [[], [], [], []];
      let k = 0;
      for (const count of [3, 2]) {
        for (let i = 1; i <= NPLAYERS; i++) {
          const seat = (g.dealer + i) % NPLAYERS;
          for (let j = 0; j < count; j++) hands[seat].push(msg.deck[k++]);
        }
      }
      upcard = msg.deck[k++];
      kitty = msg.deck.slice(k);
    } else {
      if (!Array.isArray(msg.hands)) fail('bad_message', 'hands must be a list');
      if (msg.hands.length !== NPLAYERS) fail('bad_deal', `hands must hold ${NPLAYERS} hands`);
      const seen = new Set();
      msg.hands.forEach((h, i) => {
        checkCardList(R, h, `hands[${i}]`, seen);
        if (h.length !== HAND_SIZE) fail('bad_deal', `hands[${i}] holds ${h.length} cards, not ${HAND_SIZE}`);
      });
      if (msg.upcard === null || msg.upcard === undefined) fail('bad_deal', 'this variant turns up an upcard');
      if (typeof msg.upcard !== 'string') fail('bad_message', 'upcard must be a card');
      checkCardList(R, [msg.upcard], 'upcard', seen);
      if (msg.widow !== undefined) {
        if (!Array.isArray(msg.widow)) fail('bad_message', 'widow must be a list');
        if (msg.widow.length) fail('bad_deal', 'this variant deals no widow');
      }
      kitty = [];
      if (msg.kitty !== undefined) {
        checkCardList(R, msg.kitty, 'kitty', seen);
        if (seen.size > R.pack.length) fail('bad_deal', 'too many cards');
        kitty = msg.kitty;
      }
      hands = msg.hands;
      upcard = msg.upcard;
    }
    startHand(R, g, hands, upcard, kitty);
    return { state: observe(R, g) };
  }

  act(msg) {
    if (!isSeat(msg.seat)) {
      if (!Number.isInteger(msg.seat)) fail('bad_message', 'act needs an integer seat');
    }
    if (typeof msg.action !== 'string') fail('bad_message', 'act needs a string action');
    const g = this.needGame();
    if (g.toAct === null) fail('wrong_phase', `no one is to act in phase ${g.phase}`);
    if (msg.seat !== g.toAct) fail('out_of_turn', `seat ${msg.seat} acted but seat ${g.toAct} is to act`);
    const c = cloneGame(g);
    applyAction(this.R, c, msg.seat, msg.action);
    this.g = c;
    return { state: observe(this.R, c) };
  }

  perft(msg) {
    const g = this.needGame();
    if (!Number.isInteger(msg.depth) || msg.depth < 0) fail('bad_message', 'perft needs a non-negative integer depth');
    const depth = msg.depth;
    const out = {};
    if (msg.divide) {
      const divide = {};
      let total = 0;
      if (depth === 0 || g.toAct === null) total = 1;
      else {
        for (const a of legalActions(this.R, g)) {
          const c = cloneGame(g);
          applyAction(this.R, c, c.toAct, a);
          const n = perft(this.R, c, depth - 1);
          divide[a] = n;
          total += n;
        }
      }
      out.nodes = total;
      out.divide = divide;
    } else {
      out.nodes = perft(this.R, g, depth);
    }
    return out;
  }
}

// ---------------------------------------------------------------- main loop

function main() {
  const session = new Session();
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  const write = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
  let done = false;
  rl.on('line', (line) => {
    if (done) return;
    if (line.trim() === '') return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      write({ id: null, ok: false, error: { category: 'bad_message', message: 'not JSON: ' + e.message } });
      return;
    }
    const id = msg && typeof msg === 'object' && !Array.isArray(msg) && Number.isInteger(msg.id) ? msg.id : null;
    if (id === null) {
      write({ id: null, ok: false, error: { category: 'bad_message', message: 'not an object with an integer id' } });
      return;
    }
    let reply;
    try {
      if (typeof msg.type !== 'string') fail('bad_message', 'missing type');
      reply = Object.assign({ id, ok: true }, session.handle(msg));
    } catch (e) {
      if (e instanceof ProtocolError) {
        reply = { id, ok: false, error: { category: e.category, message: e.message } };
      } else {
        process.stderr.write(`internal error: ${e && e.stack}\n`);
        reply = { id, ok: false, error: { category: 'internal', message: String(e && e.message) } };
      }
    }
    if (msg.type === 'bye' && reply.ok) {
      done = true;
      process.stdout.write(JSON.stringify(reply) + '\n', () => process.exit(0));
      rl.close();
      return;
    }
    write(reply);
  });
  rl.on('close', () => {
    if (!done) process.exitCode = 0;
  });
}

if (require.main === module) main();

module.exports = { Session, makeRules };
