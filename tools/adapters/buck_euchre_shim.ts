// Our code: the entry point esbuild bundles with doenjon/buckEuchre's pure game modules
// (backend/src/game and the shared package they import) into one CommonJS file that
// node_bridge.cjs loads for buck_euchre_engine.py. It only re-exports their functions.
export { initializeGame, dealNewRound, applyBid, applyTrumpDeclaration, applyFoldDecision, applyCardPlay, finishRound, startNextRound } from 'buck-euchre-game/state';
export { canPlaceBid, canFold, canPlayCard } from 'buck-euchre-game/validation';
export { setCustomDeck, setDealerOverride } from 'buck-euchre-game/random';
