# expect: LimitError
# an object of the program that iterates (its __iter__ a generator of its own): read capped
class Keys:
    def __iter__(self):
        i = 0
        while True:
            yield i
            i += 1
print(len(dict.fromkeys(Keys())))
