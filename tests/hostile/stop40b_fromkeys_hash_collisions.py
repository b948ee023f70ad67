# expect: LimitError
# keys that all hash alike and never compare equal: C calls the program's __eq__ quadratically
class K:
    def __hash__(self):
        return 1
    def __eq__(self, o):
        return False
d = dict.fromkeys([K() for _ in range(20000)])
print(len(d))
