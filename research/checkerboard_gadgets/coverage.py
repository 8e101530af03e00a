import sys
import time

sys.path.insert(0, '.')
from construction import _plan

from clobbermania.stones import BLACK, WHITE

t = time.perf_counter()
ok = {}
for n in range(2, 41):
    for m in range(2, 41):
        for f in (BLACK, WHITE):
            ok[(n, m, f)] = _plan(n, m, f) is not None
missing = [(n, m, f) for n in range(2, 41) for m in range(2, 41) for f in (1, 2)
           if not ok[(n, m, f)] and not ok[(m, n, f)]]
print(len(missing), missing[:80])
print(time.perf_counter() - t)
