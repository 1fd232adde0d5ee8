"""Never says hello: reads its input and answers nothing, forever.

Expected outcome: ``timeout`` at the engine's start; after five such cases in a row the
runner gives up (the circuit breaker) instead of spending a timeout on every case."""

import sys
import time

for _line in sys.stdin:
    time.sleep(0)
while True:
    time.sleep(60)
