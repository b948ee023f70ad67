# expect: OverflowError|LimitError
class Huge:
    def __len__(self):
        return 10 ** 30


print(len(Huge()))
