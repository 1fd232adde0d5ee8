#!/usr/bin/env node
// Calls the exported functions of an engine written in JavaScript or TypeScript (built to one
// CommonJS file) for a Python adapter, over JSON Lines on stdin/stdout. Our code: it knows
// nothing of any game, it only calls what the engine exports and keeps its results.
//
//   node node_bridge.cjs ENGINE.cjs
//   {"id": 1, "call": "applyBid", "args": [{"$ref": 3}, {"playerId": 1, "action": "pass"}]}
//   -> {"id": 1, "ref": 4, "value": {...}, "same": false}
//
// An argument {"$ref": n} is a value kept from an earlier reply (so an engine that returns its
// input unchanged for an illegal action is seen doing so: "same" is true when the result is the
// very object passed first); {"$rng": [x, ...]} is a function returning those numbers in turn
// (for engines that shuffle with an injected random source). A call with "keep": false
// answers its value and keeps nothing. {"probe": fn, "args_list": [...]} calls fn once per
// argument list and answers only which results differ from their first argument, keeping
// nothing. {"method": name, "on": ref, "args": [...]} calls a method of a
// kept object. {"drop": [refs]} forgets values. Errors thrown by the engine come back as
// {"error": message}.
'use strict';
const readline = require('readline');
const path = require('path');

// The engine's own printing goes to stderr: stdout carries the replies only.
const reply = process.stdout.write.bind(process.stdout);
console.log = console.info = console.debug = console.error;
const engine = require(path.resolve(process.argv[2]));
const kept = new Map();
let nextRef = 1;

function decode(value) {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === 'object') {
    if ('$ref' in value) {
      if (!kept.has(value.$ref)) throw new Error(`no kept value ${value.$ref}`);
      return kept.get(value.$ref);
    }
    if ('$rng' in value) {
      const numbers = value.$rng.slice();
      return () => {
        if (!numbers.length) throw new Error('the scripted random numbers ran out');
        return numbers.shift();
      };
    }
    const out = {};
    for (const [key, inner] of Object.entries(value)) out[key] = decode(inner);
    return out;
  }
  return value;
}

function plain(value) {
  return value === undefined ? null : JSON.parse(JSON.stringify(value, (key, inner) =>
    inner instanceof Map ? Object.fromEntries(inner) : inner instanceof Set ? [...inner] : inner));
}

function answer(message) {
  if (message.drop) {
    for (const ref of message.drop) kept.delete(ref);
    return {};
  }
  if (message.probe) {
    const fn = engine[message.probe];
    if (typeof fn !== 'function') throw new Error(`the engine exports no function ${message.probe}`);
    return {changed: message.args_list.map(args => {
      const decoded = decode(args);
      return fn(...decoded) !== decoded[0];
    })};
  }
  let fn, self;
  if (message.method) {
    self = kept.get(message.on);
    fn = self && self[message.method];
  } else {
    fn = engine[message.call];
  }
  if (typeof fn !== 'function') throw new Error(`no function ${message.method || message.call}`);
  const args = decode(message.args || []);
  const result = fn.apply(self, args);
  if (message.keep === false) {
    return {ref: null, value: message.quiet ? null : plain(result), same: args.length > 0 && result === args[0]};
  }
  const ref = nextRef++;
  kept.set(ref, result);
  return {ref, value: message.quiet ? null : plain(result), same: args.length > 0 && result === args[0]};
}

const lines = readline.createInterface({input: process.stdin});
lines.on('line', line => {
  let message = {};
  let answerLine;
  try {
    message = JSON.parse(line);
    answerLine = {id: message.id, ...answer(message)};
  } catch (error) {
    answerLine = {id: message.id, error: String(error && error.stack || error)};
  }
  reply(JSON.stringify(answerLine) + '\n');
});
