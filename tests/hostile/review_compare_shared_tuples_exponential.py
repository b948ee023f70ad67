# expect: LimitError
t = ()
u = ()
for i in range(200):
    t = (t, t)
    u = (u, u)
print(t == u)
