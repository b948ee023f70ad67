# expect: LimitError
# np.where / concatenate / full with a short string and numbers: text widths numpy picks from the numbers (U32) not counted
import numpy as np
a = np.zeros(3900000)
for f in [lambda: np.where(a > 1, a, "x"), lambda: np.concatenate([a, np.array(["x"])]), lambda: np.full(3900000, 1.5, dtype="U"), lambda: np.array(a, dtype=str)]:
    try:
        print(f().dtype)
    except Exception as e:
        print(type(e).__name__, str(e)[:100])
