# expect: LimitError
# str.format of 30,000 fields, each a 100,000-character string: joined (3 GB) before
# the result's length was checked
s = "x" * 100000
print(len(("{0}" * 30000).format(s)))
