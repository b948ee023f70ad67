# expect: LimitError
# a LimitError (loop iterations, tensor size) is swallowed by `return` in finally; the program carries on
import torch
def huge():
    try:
        x = torch.zeros(100000, 100000)
    finally:
        return "swallowed"
def endless():
    try:
        while True:
            pass
    finally:
        return "swallowed too"
print(huge(), endless())
