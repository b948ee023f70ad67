# expect: ForbiddenError|AttributeError
# reaches for the real time module through the stand-in's function (its __module__, __globals__)
import time

print(time.sleep.__globals__)
