// Our code, bundled by esbuild together with johnameyer/cards-ts (libs/euchre, libs/core,
// libs/state-machine) into one CommonJS file that node_bridge.cjs loads; cards_ts_engine.py
// drives it. It adds no rule: it builds cards-ts's own game driver (gameFactory.getGameDriver)
// with four handlers that only note what they are asked (orderUp, nameTrump, dealerDiscard,
// turn) and never answer, runs the driver until it waits (GameDriver.resume), and answers for a
// seat through the driver's own handleEvent, which validates and merges as in any game.
//
// Deals: DeckController.resetDeck (called by the euchre state machine's dealOut) is wrapped so
// the new deck's cards are laid out as the next deal given here (dealOut deals one card at a
// time from the dealer round the table, then the euchre controller flips the next card).
import { gameFactory } from 'cards-ts-euchre/index.js';
import { DealerDiscardResponseMessage, GoingAloneResponseMessage, NameTrumpResponseMessage, OrderUpResponseMessage } from 'cards-ts-euchre/messages/response/index.js';
import { Card, DeckController, PlayCardResponseMessage, Suit } from '@cards-ts/core';

let nextDeck: string[] | null = null;

/** A card as Card.fromString reads it: rank then suit letter (10H, JS). */
function cardName(card: Card): string {
    return card.rank.toString() + card.suit.letter;
}

/** Thrown by the wrapped resetDeck when no deal is laid out: the transition that deals (its
 * first statement) has done nothing yet and the driver's state is not advanced, so the next
 * resume runs it again, once the deal is given. */
class NeedDeal extends Error {}

const realReset = DeckController.prototype.resetDeck;
DeckController.prototype.resetDeck = function (this: any) {
    if (nextDeck === null) {
        throw new NeedDeal('the next deal is awaited');
    }
    realReset.call(this);
    const cards = this.state.deck.cards as Card[];
    const byName = new Map(cards.map(card => [ cardName(card), card ]));
    this.state.deck.cards = nextDeck.map(name => {
        const card = byName.get(name);
        if (!card) throw new Error(`cards-ts's deck has no ${name}`);
        return card;
    });
    nextDeck = null;
    session?.dealt();
};

type Ask = { position: number, kind: string };
let session: Session | null = null;

function asking(kind: string) {
    return function (this: { position: number, session: Session }) {
        this.session.asks.push({ position: this.position, kind });
    };
}

class AskingHandler {
    constructor(public position: number, public session: Session) {}
    handleOrderUp = asking('orderUp');
    handleNameTrump = asking('nameTrump');
    handleDealerDiscard = asking('dealerDiscard');
    handleTurn = asking('turn');
    handleMessage(_data: unknown, _queue: unknown, message: any) {
        if (this.position === 0 && message && message.type === 'won-trick-message') {
            this.session.trickWinners.push(Number(String(message.player).replace('seat', '')));
        }
    }
    handleWaitingFor() {}
}

const SUITS: Record<string, Suit> = { C: Suit.CLUBS, D: Suit.DIAMONDS, H: Suit.HEARTS, S: Suit.SPADES };

export class Session {
    asks: Ask[] = [];
    driver: any;
    plays: { seat: number, card: string }[][] = [];
    trickWinners: number[] = [];
    deals = 0;
    awaitingDeal = false;

    constructor(maxScore: number, dealer: number, scores: number[]) {
        session = this;
        const players = [ 0, 1, 2, 3 ].map(position => ({
            call: (method: string, _data: unknown, _queue: unknown, ..._args: unknown[]) => {
                const handler: any = new AskingHandler(position, this);
                const name = 'handle' + method[0].toUpperCase() + method.slice(1);
                if (handler[name]) handler[name](_data, _queue, ..._args);
            },
        }));
        this.driver = gameFactory.getGameDriver(players as any, { maxScore }, [ 'seat0', 'seat1', 'seat2', 'seat3' ]);
        const controllers = this.controllers;
        controllers.deck.state.dealer = dealer;
        scores.forEach((score, team) => {
            for (const seat of [ team, team + 2 ]) controllers.score.state[seat] = score;
        });
        this.awaitingDeal = true;
    }

    get controllers(): any {
        return this.driver.gameState.controllers;
    }

    dealt() {
        this.deals += 1;
        this.awaitingDeal = false;
        this.plays = [];
        this.trickWinners = [];
    }

    /** Lay out the next deal (card names as cards-ts writes them) and run until someone is asked. */
    deal(deck: string[]) {
        nextDeck = deck;
        session = this;
        this.run();
    }

    run() {
        session = this;
        try {
            this.driver.resume();
        } catch (error) {
            if (!(error instanceof NeedDeal)) throw error;
            this.awaitingDeal = true;
        }
    }

    /** cards-ts reached its deal with no deal laid out: the runner's next deal is awaited. */
    dealPending() {
        return this.awaitingDeal;
    }

    current(): Ask | null {
        const waiting = this.controllers.waiting.get().waiting;
        if (!Array.isArray(waiting) || waiting.length === 0) return null;
        for (let i = this.asks.length - 1; i >= 0; i--) {
            if (waiting.includes(this.asks[i].position)) return this.asks[i];
        }
        return null;
    }

    message(kind: string, arg: string | boolean | null): any {
        if (kind === 'order') return new OrderUpResponseMessage(arg as boolean);
        if (kind === 'name') return new NameTrumpResponseMessage(arg === null ? undefined : SUITS[arg as string]);
        if (kind === 'discard') return new DealerDiscardResponseMessage(Card.fromString(arg as string));
        if (kind === 'play') return new PlayCardResponseMessage(Card.fromString(arg as string));
        if (kind === 'alone') return new GoingAloneResponseMessage();
        throw new Error(`no message ${kind}`);
    }

    /** Whether cards-ts's event handler takes the message as it is: not refused (canRespond) and not
     * replaced by its fallback (a named trump it does not allow becomes a pass, a card it does not
     * allow becomes another card). */
    accepts(position: number, kind: string, arg: string | boolean | null): boolean {
        const message = this.message(kind, arg);
        const validated = this.driver.eventHandler.validateEvent(this.controllers, position, message);
        return validated !== undefined && validated.constructor === message.constructor
            && JSON.stringify(validated) === JSON.stringify(message);
    }

    /** Answer for a seat: the messages go through the driver's handleEvent, then the game runs on. */
    respond(position: number, messages: [string, string | boolean | null][]) {
        for (const [ kind, arg ] of messages) {
            if (kind === 'play') {
                if (this.trickWinners.length >= this.plays.length) this.plays.push([]);   // every trick so far is won
                this.plays[this.plays.length - 1].push({ seat: position, card: arg as string });
            }
            this.driver.handleEvent(position, this.message(kind, arg), undefined);
        }
        this.run();
    }

    view() {
        const c = this.controllers;
        const euchre = c.euchre.state;
        return {
            dealer: c.deck.state.dealer,
            hands: [ 0, 1, 2, 3 ].map(p => c.hand.get(p).map((card: Card) => cardName(card))),
            bidder: euchre.bidder ?? null,
            goingAlone: euchre.goingAlone ?? null,
            trump: euchre.currentTrump ? euchre.currentTrump.letter : null,
            flipped: euchre.flippedCard ? cardName(euchre.flippedCard) : null,
            scores: [ 0, 1, 2, 3 ].map(p => c.score.get(p)),
            tricksTaken: [ 0, 1, 2, 3 ].map(p => c.tricksTaken.get(p)),
            completed: c.completed.get(),
            ask: this.current(),
            dealPending: this.dealPending(),
            deals: this.deals,
            plays: this.plays,
            trickWinners: this.trickWinners,
        };
    }
}

export function newSession(maxScore: number, dealer: number, scores: number[]) {
    return new Session(maxScore, dealer, scores);
}
