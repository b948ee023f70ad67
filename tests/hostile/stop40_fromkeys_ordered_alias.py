# expect: LimitError
# OrderedDict.fromkeys read off the class and kept under another name: checked as the direct call
import collections
make = collections.OrderedDict.fromkeys
print(len(make(range(5 * 10**6), 0)))
