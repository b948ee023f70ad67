# expect: LimitError
# str was left unchecked when handed to Python's code: map(str, [nested]) wrote a nested
# list's text in C, 3,020,200 characters against the 100,000-character string limit that
# str(c) meets (a list nested once more: 300 MB in 5.8 s)
a = [0] * 100
b = [a] * 100
c = [b] * 100
text = list(map(str, [c]))[0]
print(len(text))
