# expect: LimitError
# "".join of a generator: no string pre-check saw its items, C ran out of memory, and the
# program caught the MemoryError and went on
s = "x" * 100000
for attempt in range(3):
    try:
        t = "".join(s for _ in range(100000))
    except Exception as e:
        print("caught", type(e).__name__)
print("went on")
