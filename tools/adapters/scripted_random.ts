// Math.random made to return given numbers for the length of one call: how the shims make an
// engine that shuffles for itself deal the runner's cards (the adapters work the numbers out
// with adapter_support.fisher_yates_numbers). Running out of numbers is an error, never a
// silent fall back to real randomness.
export function withNumbers<T>(numbers: number[], run: () => T): T {
  const queue = numbers.slice();
  const saved = Math.random;
  Math.random = () => {
    if (!queue.length) throw new Error('the scripted random numbers ran out');
    return queue.shift() as number;
  };
  try {
    return run();
  } finally {
    Math.random = saved;
  }
}
