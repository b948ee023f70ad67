# expect: LimitError
t = ()
for i in range(200):
    t = (t, t)
d = {t: 1}
