# expect: LimitError
# a dict key whose __hash__ (run as the copy rebuilds the dict) deep-copies the whole 99-deep structure again: copies nested inside copies, each its own budget and nesting count
import copy
state = {"on": False}
class K:
    def __hash__(self):
        if state["on"]:
            copy.deepcopy(root)
        return 1
def build():
    x = {K(): 1}
    for i in range(98):
        x = [x]
    return x
root = build()
state["on"] = True
copy.deepcopy(root)
