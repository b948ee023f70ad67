# expect: ForbiddenError|ValueError|LimitError
# a lone surrogate in a printed "label: number" line lands in the series names
import torch
for i in range(3):
    print(chr(55297) + "loss: " + str(i * 1.5))
