# numpy's arrays of numbers, booleans and text, with their dtypes given as names, strings
# and positional arguments: what gradtrace allows of numpy's dtypes (objects, raw bytes,
# void, dates and records are refused).
import numpy as np

a = np.zeros(3, dtype="f4")
b = np.ones(2, np.int64).astype(np.float32)
c = np.array(["cat", "dog"]) + "s"
d = np.full(2, 1 + 2j, dtype="c16")
e = np.arange(4, dtype="i2").sum(dtype="i8")
f = np.array([True, False]).astype("U5")
g = np.array([c[0], "x" * 40])
print(a.dtype, b.dtype, c, c.dtype, d.dtype, d, e, f, g.dtype)
print(type(a[0]) is np.float32, type(e).__name__, a.tolist(), c.tolist())
