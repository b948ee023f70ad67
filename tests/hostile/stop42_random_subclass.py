# expect: ForbiddenError
# A program class built on random.Random would reach its private helpers as its own.
import random
class Mine(random.Random):
    def go(self):
        return self._drawing("random", (), {})
print(Mine(1).go())
