# expect: LimitError
# each key's __hash__ appends another key to the very list dict.fromkeys is iterating in C
keys = []
class K:
    def __hash__(self):
        keys.append(K())
        return id(self)
keys.append(K())
d = dict.fromkeys(keys)
print(len(d))
