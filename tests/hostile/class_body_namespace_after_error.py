# expect: NameError
# A class whose body raised while its attributes were evaluated leaves no namespace
# behind: a later class body reads its own names, and the failed class's are gone.
import torch

try:
    class Broken:
        secret = torch.ones(2)
        boom = 1 / 0
except ZeroDivisionError:
    pass


class Later:
    seen = secret
