import json
import sys
import time

sys.path.insert(0, '.')
import gadgets

t = time.perf_counter()
table = gadgets.gadget_closure()
json.dump(table, open('gadgets.json', 'w'))
print(len(table), sum(len(v) for v in table.values()), time.perf_counter() - t)
