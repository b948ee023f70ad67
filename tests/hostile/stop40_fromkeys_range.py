# expect: LimitError
# dict.fromkeys of ten million keys: one C call, a dict past the item limit
print(len(dict.fromkeys(range(10**7))))
