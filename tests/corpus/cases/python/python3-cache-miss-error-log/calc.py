import logging, sys
logging.basicConfig(stream=sys.stderr, format="%(levelname)s:%(name)s:%(message)s")
log = logging.getLogger("cache")
cache = {}
def fib(n):
    if n not in cache:
        if n == 30:
            log.error("cache miss for key fib(30); recomputing (error rate 0.1%)")
        cache[n] = n if n < 2 else fib(n - 1) + fib(n - 2)
    return cache[n]
print("fib(30) =", fib(30))
