# expect: LimitError
t = ()
for i in range(100000):
    t = (t,)
s = {t}
