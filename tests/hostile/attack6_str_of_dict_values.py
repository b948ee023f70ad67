# expect: LimitError
# the same through a container str() walks that was not checked at all (dict views,
# deques, OrderedDict, namedtuples)
s = "x" * 100000
print(len(str({i: s for i in range(20000)}.values())))
