# expect: LimitError
def acc():
    s = "x"
    while True:
        more = yield len(s)
        s = s + s + more


g = acc()
next(g)
for i in range(100):
    g.send("y")
