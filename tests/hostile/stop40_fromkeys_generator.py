# expect: LimitError
# fromkeys over a generator: C would read it to its end, past every loop check
print(len({}.fromkeys(i for i in range(10**8))))
