# expect: LimitError
class Forever:
    def __iter__(self):
        return self

    def __next__(self):
        return 1


for x in Forever():
    pass
